package emu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// TestSOP2OpsMatchGeneral: every per-operation SOP2 form leaves the SGPRs,
// SCC and the rest of the slots exactly as execSOP2 does, on random and
// edge operands (SGPRs, inline constants and literals, a destination that
// is also a source, both SCC values), and only the forms sop2Fn chooses
// are used.
func TestSOP2OpsMatchGeneral(t *testing.T) {
	r := rand.New(rand.NewPCG(81, 82))
	edges := []uint32{0, 1, 31, 32, 33, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe}
	val := func() uint32 {
		if r.IntN(3) == 0 {
			return edges[r.IntN(len(edges))]
		}
		return r.Uint32()
	}
	for name := range fast.Sop2Fns {
		for _, ops := range [][3]isa.Operand{
			{sreg(3), sreg(4), sreg(5)},
			{sreg(4), sreg(4), sreg(5)},
			{sreg(5), sreg(4), sreg(5)},
			{sreg(6), ic(-1), sreg(4)},
			{sreg(6), sreg(4), ic(24)},
			{sreg(7), lit(0xffff), sreg(4)},
			{sreg(7), sreg(4), lit(0x80000001)},
		} {
			p := prog(isa.GFX9, I(name, ops[0], ops[1], ops[2]))
			in := &p.Code[0]
			desc := fmt.Sprintf("%s %v", name, ops)
			if fnPtr(in.Fn) != fnPtr(fast.Sop2Fns[name]) {
				t.Fatalf("%s: not on its per-operation form", desc)
			}
			for range 200 {
				w0 := &Wave{Target: isa.GFX9}
				for i := range 102 {
					w0.S[i] = val()
				}
				w0.S[core.SlotSCC] = uint32(r.IntN(2))
				w1, w2 := *w0, *w0
				e1, e2 := in.Fn(&w1, in), ref.ExecSOP2(&w2, in)
				if e1 != nil || e2 != nil || w1.S != w2.S {
					t.Fatalf("%s (s4 %#x s5 %#x SCC %d): fast s3..s7 %#x SCC %d, general %#x SCC %d (errors %v, %v)",
						desc, w0.S[4], w0.S[5], w0.S[core.SlotSCC], w1.S[3:8], w1.S[core.SlotSCC], w2.S[3:8], w2.S[core.SlotSCC], e1, e2)
				}
			}
		}
	}
}

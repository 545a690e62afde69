package emu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/isa"
)

// TestMovFastMatchesGeneric runs v_mov_b32 from every kind of source
// (SGPR, inline constant, literal, VGPR, VCC, M0, EXEC, SCC) through its
// compiled fast path and the generic one over random states and EXEC
// masks (full, empty, prefixes, a 16-lane wave's branch masks, sparse),
// journaled or not, with GPR indexing on or off.
func TestMovFastMatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	masks := []uint64{0, ^uint64(0), 0xFFFF, 0xFFF, 0x7, 0xEEEE, 0x7777, 0xF0F0, 0x0F0F, 1 << 40, 0xFF00FF}
	srcs := []isa.Operand{sreg(5), sreg(101), ic(7), ic(-3), lit(0xdeadbeef), vreg(3), vcc(), m0(), execOp(), spec(isa.SCC)}
	for _, target := range []isa.Target{isa.GFX9, isa.GFX8} {
		for _, src := range srcs {
			p := prog(target, I("v_mov_b32", vreg(r.IntN(16)), src))
			in := &p.Code[0]
			desc := fmt.Sprintf("%v v_mov_b32 %v", target, src)
			if fnPtr(in.Fn) != fnPtr(fast.ExecMovFast) {
				t.Fatalf("%s: not compiled to execMovFast", desc)
			}
			for it := range 200 {
				w0 := fastWave(r)
				w0.Target = target
				ex := fastMask(r)
				if it < len(masks) {
					ex = masks[it]
				}
				withExec(w0, ex)
				w0.S[core.SlotSCC] = uint32(r.IntN(2))
				if it%7 == 3 { // GPR indexing on (with M0 as the index)
					w0.S[core.SlotMode] |= 1 << 27
				}
				fastCheck(t, desc, w0, in, in.Def.Fn, it%3 == 0)
			}
		}
	}
}

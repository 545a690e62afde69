package emu

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/wavedbg/wavedbg/isa"
)

// shapeCases are the integer two-source kernels (uniform-amount shifts
// included) with a VGPR, an SGPR, an inline constant and a literal first
// source, the destination apart from and equal to each source.
func shapeCases() []ti {
	var names []string
	for n := range kernels {
		if v := opTable[n].v; v.nsrc == 2 && !v.mac && max(v.ft, v.oft) == 0 {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var cs []ti
	for _, n := range names {
		for _, a := range []isa.Operand{vreg(2), vreg(3), sreg(5), ic(3), ic(-7), lit(0x80000021)} {
			for _, d := range []int{1, 2, 3} {
				cs = append(cs, I(n, vreg(d), a, vreg(3)).enc(isa.EncVOP3))
			}
		}
	}
	return cs
}

// TestIntShapeMatchesGeneric holds execIntV to execVOP's state and journal
// under random registers and the edge EXEC masks, and checks that every
// case compiles to it.
func TestIntShapeMatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	iters := 12
	if testing.Short() {
		iters = 4
	}
	cases := shapeCases()
	if len(cases) < 100 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		p := prog(isa.GFX9, c)
		in := &p.code[0]
		desc := fmt.Sprintf("%s %v", c.name, c.in.Args)
		if fnPtr(in.fn) != fnPtr(execIntV) {
			t.Fatalf("%s: not compiled to execIntV", desc)
		}
		for it := 0; it < iters+len(edgeMasks); it++ {
			w0 := fastWave(r)
			if it >= iters {
				withExec(w0, edgeMasks[it-iters])
			}
			fastCheck(t, desc, w0, in, in.def.fn, it%3 == 0)
		}
	}
}

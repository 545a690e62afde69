package emu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// carryShapeCases are the carry operations of every carry shape, with
// VCC and SGPR pairs as carries in and out and the destination apart from
// and equal to each source.
func carryShapeCases() []ti {
	var cs []ti
	for _, name := range []string{"v_add_co_u32", "v_addc_co_u32", "v_sub_co_u32", "v_subb_co_u32"} {
		cin := ref.OpTable[name].V.Cin
		firsts := []isa.Operand{vreg(2), vreg(3)}
		switch {
		case name == "v_add_co_u32":
			firsts = append(firsts, sreg(5), ic(7), lit(0xfffffff0))
		case name == "v_addc_co_u32":
			firsts = append(firsts, ic(0))
		}
		for _, a := range firsts {
			for _, d := range []int{1, 2, 3} {
				for _, pair := range []isa.Operand{vcc(), sreg2(10), sreg2(12)} {
					args := []isa.Operand{vreg(d), pair, a, vreg(3)}
					if cin {
						args = append(args, pair, sreg2(12))
						cs = append(cs, I(name, args[:5]...).enc(isa.EncVOP3), I(name, args[0], args[1], a, vreg(3), args[5]).enc(isa.EncVOP3))
						continue
					}
					cs = append(cs, I(name, args...).enc(isa.EncVOP3))
				}
			}
		}
	}
	return cs
}

// TestCarryShapesMatchGeneric holds execCarry to execVOP's state and
// journal under random registers (carry masks included) and the edge EXEC
// masks, and checks that every case compiles to it.
func TestCarryShapesMatchGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	iters := 30
	if testing.Short() {
		iters = 8
	}
	cases := carryShapeCases()
	for _, c := range cases {
		p := prog(isa.GFX9, c)
		in := &p.Code[0]
		desc := fmt.Sprintf("%s %v", c.name, c.in.Args)
		if fnPtr(in.Fn) != fnPtr(fast.ExecCarry) {
			t.Fatalf("%s: not compiled to execCarry", desc)
		}
		for it := 0; it < iters+len(edgeMasks); it++ {
			w0 := fastWave(r)
			if it >= iters {
				withExec(w0, edgeMasks[it-iters])
			}
			fastCheck(t, desc, w0, in, in.Def.Fn, it%3 == 0)
		}
	}
	if len(cases) < 60 {
		t.Fatalf("only %d cases", len(cases))
	}
}

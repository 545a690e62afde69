package emu

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// shapeCases are the forms of every shape handler: the integer
// two-source kernels (uniform-amount shifts included; SGPR and constant
// second sources too), the 32-bit integer
// compares (v_cmpx too) to VCC and SGPR pairs, and v_cndmask_b32 by VCC
// and SGPR pairs, the 64-bit shifts and v_mad_u64_u32's plain product, with VGPR, SGPR, inline constant
// and literal sources and the destination apart from, equal to and
// overlapping each source.
func shapeCases() []ti {
	var names []string
	for n := range fast.Kernels {
		if v := ref.OpTable[n].V; v.Nsrc == 2 && !v.Mac && max(v.Ft, v.Oft) == 0 {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	firsts := []isa.Operand{vreg(2), vreg(3), sreg(5), ic(3), ic(-7), lit(0x80000021)}
	var cs []ti
	for _, n := range names {
		for _, a := range firsts {
			for _, d := range []int{1, 2, 3} {
				cs = append(cs, I(n, vreg(d), a, vreg(3)).enc(isa.EncVOP3))
			}
		}
		for _, ab := range [][2]isa.Operand{{vreg(2), sreg(6)}, {vreg(2), ic(-7)}, {vreg(3), lit(0x80000021)}, {sreg(5), ic(3)}, {sreg(5), sreg(6)}} {
			cs = append(cs, I(n, vreg(2), ab[0], ab[1]).enc(isa.EncVOP3))
		}
	}
	for _, ty := range []string{"i32", "u32"} {
		for _, c := range ref.Iconds {
			for _, x := range []string{"v_cmp_", "v_cmpx_"} {
				for _, a := range firsts {
					cs = append(cs, I(x+c+"_"+ty, vcc(), a, vreg(3)), I(x+c+"_"+ty, sreg2(10), a, vreg(3)).enc(isa.EncVOP3))
				}
			}
		}
	}
	for _, a := range []isa.Operand{vreg(2), ic(0), ic(-1), lit(0x7fc00000)} {
		for _, b := range []isa.Operand{vreg(3), ic(1), ic(-1)} {
			for _, d := range []int{1, 2, 3} {
				cs = append(cs, I("v_cndmask_b32", vreg(d), a, b, vcc()), I("v_cndmask_b32", vreg(d), a, b, sreg2(12)).enc(isa.EncVOP3))
			}
		}
	}
	for _, n := range []string{"v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64"} {
		for _, a := range []isa.Operand{vreg(1), vreg(3), ic(3), ic(-5), lit(33)} {
			for _, d := range []int{1, 2, 3, 4} {
				cs = append(cs, I(n, vreg2(d), a, vreg2(2)).enc(isa.EncVOP3))
			}
		}
	}
	for _, a := range []int{1, 2, 3} {
		for _, d := range []int{1, 2, 4} {
			for _, pair := range []isa.Operand{vcc(), sreg2(10)} {
				cs = append(cs, I("v_mad_u64_u32", vreg2(d), pair, vreg(a), vreg(2), ic(0)).enc(isa.EncVOP3))
			}
		}
	}
	return cs
}

// shapeFns are the shape handlers' functions.
var shapeFns = map[uintptr]bool{
	fnPtr(fast.ExecIntV): true, fnPtr(fast.ExecIntS): true, fnPtr(fast.ExecIntS0): true, fnPtr(fast.ExecIntS1): true, fnPtr(fast.ExecCmpV): true, fnPtr(fast.ExecCmpS): true, fnPtr(fast.ExecCndV): true, fnPtr(fast.ExecShift64V): true, fnPtr(fast.ExecMulWideV): true,
}

// TestShapesMatchGeneric holds the shape handlers to execVOP's and
// execVOPC's state and journal under random registers and the edge EXEC
// masks, and checks that every case compiles to one.
func TestShapesMatchGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	iters := 4
	if testing.Short() {
		iters = 2
	}
	cases := shapeCases()
	if len(cases) < 300 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		p := prog(isa.GFX9, c)
		in := &p.Code[0]
		desc := fmt.Sprintf("%s %v", c.name, c.in.Args)
		if !shapeFns[fnPtr(in.Fn)] || shapeFns[fnPtr(in.Def.Fn)] {
			t.Fatalf("%s: not compiled to a shape handler", desc)
		}
		for it := 0; it < iters+len(edgeMasks); it++ {
			w0 := fastWave(r)
			if it >= iters {
				withExec(w0, edgeMasks[it-iters])
			}
			fastCheck(t, desc, w0, in, in.Def.Fn, it%3 == 0)
		}
	}
}

package emu

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// sdwaCases builds, for every operation the SDWA path takes, SDWA
// instructions with drawn selectors: src0_sel and src1_sel of every byte,
// word and the dword, with and without sext, dst_sel of every field with
// each dst_unused, abs and neg on float sources, clamp and omod, and
// VGPR, SGPR, inline and literal sources.
func sdwaCases(r *rand.Rand) []ti {
	names := make([]string, 0, len(ref.OpTable))
	for n, d := range ref.OpTable {
		if v := d.V; v != nil && !v.Mac && v.DstW == 1 && v.Ft != 64 && v.Nsrc <= 2 && v.SrcW[0] == 1 && v.SrcW[1] == 1 {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var cs []ti
	for _, n := range names {
		v := ref.OpTable[n].V
		for i := 0; i < 6; i++ {
			args := []isa.Operand{vreg(8)}
			if v.Cout {
				args = append(args, vcc())
			}
			if i == 1 {
				args[0] = vreg(0) // aliases S0
			}
			for k := 0; k < int(v.Nsrc); k++ {
				o := vreg(2 * k)
				switch {
				case i == 2 && k == 0:
					o = sreg(5)
				case i == 3 && k == 0:
					o = ic(-3)
				case i == 4 && k == 1:
					o = sreg(7)
				}
				if r.IntN(3) == 0 {
					o.Sext = true
				}
				if fast.LaneFloat(v, k) {
					o.Neg, o.Abs = r.IntN(3) == 0, r.IntN(3) == 0
				}
				args = append(args, o)
			}
			if v.Cin {
				args = append(args, vcc())
			}
			c := I(n, args...)
			c.in.Variant = isa.VariantSDWA
			c = c.with(func(m *isa.Modifiers) {
				m.Src0Sel, m.Src1Sel = uint8(r.IntN(7)), uint8(r.IntN(7))
				m.DstSel, m.DstUnused = uint8(r.IntN(7)), uint8(r.IntN(3))
				if i == 5 {
					m.Clamp, m.Omod = r.IntN(2) == 0, uint8(r.IntN(4))
				}
			})
			cs = append(cs, c)
		}
	}
	// compares: every condition of each type the path takes, to VCC and
	// to an SGPR pair, v_cmp and v_cmpx
	for _, ty := range []string{"i32", "u32", "f32", "i16", "u16"} {
		conds := ref.Iconds
		if ty == "f32" {
			conds = ref.Fconds
		}
		for ci, cond := range conds {
			for _, x := range []string{"v_cmp_", "v_cmpx_"} {
				dst := vcc()
				if ci%2 == 1 {
					dst = sreg2(10)
				}
				s0, s1 := vreg(2), vreg(3)
				switch ci % 4 {
				case 1:
					s0 = sreg(5)
				case 2:
					s1 = ic(-7)
				}
				s0.Sext, s1.Sext = r.IntN(3) == 0, r.IntN(3) == 0
				if ty == "f32" {
					s0.Neg, s1.Abs = r.IntN(2) == 0, r.IntN(2) == 0
				}
				c := I(x+cond+"_"+ty, dst, s0, s1)
				c.in.Variant = isa.VariantSDWA
				cs = append(cs, c.with(func(m *isa.Modifiers) {
					m.Src0Sel, m.Src1Sel, m.DstSel = uint8(r.IntN(7)), uint8(r.IntN(7)), 6
				}))
			}
		}
	}
	return cs
}

// TestSDWAMatchesGeneric: the SDWA paths leave exactly the state execVOP
// and execVOPC leave, under full, prefix, sparse and single-lane EXEC masks.
func TestSDWAMatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	iters := 8
	if testing.Short() {
		iters = 3
	}
	taken, cmps := 0, 0
	for ci, c := range sdwaCases(r) {
		p := prog(isa.GFX9, c)
		in := &p.Code[0]
		if in.Def == nil {
			continue
		}
		desc := fmt.Sprintf("#%d %s %v %+v", ci, c.name, c.in.Args, c.in.Mods)
		switch fnPtr(in.Fn) {
		case fnPtr(fast.ExecSDWA):
			taken++
		case fnPtr(fast.ExecCmpSDWA):
			cmps++
		default:
			continue
		}
		for it := 0; it < iters; it++ {
			fastCheck(t, desc, sdwaWave(r), in, in.Def.Fn, it%3 == 0)
		}
		for i, ex := range edgeMasks {
			fastCheck(t, desc, withExec(sdwaWave(r), ex), in, in.Def.Fn, i%3 == 0)
		}
	}
	if taken < 300 || cmps < 96 {
		t.Errorf("only %d instructions took the SDWA path and %d compares", taken, cmps)
	}
}

// sdwaWave is fastWave with a GPR index (M0[7:0]) that keeps indexed
// destinations within v255: execVOP's dst_sel merge reads the destination.
func sdwaWave(r *rand.Rand) *Wave {
	w := fastWave(r)
	w.S[core.CodeM0] &^= 0xf0
	return w
}

// The SDWA forms the oracle kernels use compile to the SDWA path.
func TestSDWAForms(t *testing.T) {
	sd := func(c ti, s0, s1, d, u uint8) ti {
		c.in.Variant = isa.VariantSDWA
		return c.with(func(m *isa.Modifiers) { m.Src0Sel, m.Src1Sel, m.DstSel, m.DstUnused = s0, s1, d, u })
	}
	sx := vreg(3)
	sx.Sext = true
	for _, c := range []ti{
		sd(I("v_or_b32", vreg(1), vreg(2), vreg(3)), 6, 0, 6, 0),
		sd(I("v_add_u16", vreg(1), vreg(2), vreg(3)), 5, 4, 5, 2),
		sd(I("v_mul_u32_u24", vreg(1), vreg(2), sx), 4, 1, 6, 1),
		sd(I("v_add_co_u32", vreg(1), vcc(), vreg(2), vreg(3)), 0, 6, 4, 0),
		sd(I("v_mov_b32", vreg(1), vreg(2)), 2, 6, 1, 2),
		sd(I("v_cmp_lt_u16", vcc(), vreg(2), vreg(3)), 1, 0, 6, 0),
		sd(I("v_cmpx_eq_i32", sreg2(10), vreg(2), sx), 4, 5, 6, 0),
	} {
		p := prog(isa.GFX9, c)
		if in := &p.Code[0]; fnPtr(in.Fn) != fnPtr(fast.ExecSDWA) && fnPtr(in.Fn) != fnPtr(fast.ExecCmpSDWA) {
			t.Errorf("%s %+v: not the SDWA path", c.name, c.in.Mods)
		}
	}
}

// TestSDWASelectMatchesShifts: sdwaSelect and sdwaPlace, which move lanes
// two to a 64-bit word when the rows are 8-byte aligned, give the shift
// pairs' fields for every byte and word selection, aligned rows or not,
// whole waves or not.
func TestSDWASelectMatchesShifts(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	var src, dst [65]uint32
	for i := 0; i < 200; i++ {
		for l := range src {
			src[l] = r.Uint32()
		}
		for sel := uint8(0); sel < 6; sel++ {
			f := fast.SdwaFieldOf(sel)
			for _, at := range [][2]int{{0, 0}, {1, 1}, {0, 1}, {1, 0}} {
				s, d := (*[64]uint32)(src[at[0]:]), (*[64]uint32)(dst[at[1]:])
				fast.SdwaSelect(d, s, f.Down-f.Up, 32-f.Down)
				for l := range d {
					if want := s[l] << f.Up >> f.Down; d[l] != want {
						t.Fatalf("sel %d, rows from %v: lane %d = %#x, want %#x", sel, at, l, d[l], want)
					}
				}
				n := []int{64, 64, r.IntN(65)}[r.IntN(3)]
				*d = *s
				fast.SdwaPlace(d, n, f.Down-f.Up, 32-f.Down)
				for l := range d {
					want := s[l]
					if l < n {
						want = s[l] << f.Down >> f.Up
					}
					if d[l] != want {
						t.Fatalf("place sel %d, %d lanes, row from %d: lane %d = %#x, want %#x", sel, n, at[1], l, d[l], want)
					}
				}
			}
		}
	}
}

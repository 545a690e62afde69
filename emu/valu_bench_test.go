package emu

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// Per-operation cost of one wave instruction (all 64 lanes in EXEC), the
// fast form against the generic path, and the fast form with the 16 lanes
// of a small work-group (x16):
//
//	go test ./emu -run '^$' -bench VALUOp
func BenchmarkVALUOp(b *testing.B) {
	e3 := func(t ti) ti { return t.enc(isa.EncVOP3) }
	sdwa := func(t ti, s0, s1, d, u uint8) ti {
		t.in.Variant = isa.VariantSDWA
		return t.with(func(m *isa.Modifiers) { m.Src0Sel, m.Src1Sel, m.DstSel, m.DstUnused = s0, s1, d, u })
	}
	for _, c := range []struct {
		name string
		t    ti
	}{
		{"add_co", I("v_add_co_u32", vreg(1), vcc(), vreg(2), vreg(3))},
		{"addc_co", I("v_addc_co_u32", vreg(1), vcc(), vreg(2), vreg(3), vcc())},
		{"add_co_e64_s", e3(I("v_add_co_u32", vreg(1), sreg2(10), sreg(2), vreg(3)))},
		{"lshlrev_b64", I("v_lshlrev_b64", vreg2(4), ic(3), vreg2(2))},
		{"mad_u64_u32", e3(I("v_mad_u64_u32", vreg2(4), sreg2(10), vreg(1), vreg(2), vreg2(6)))},
		{"cmp_eq_u32", I("v_cmp_eq_u32", vcc(), vreg(2), vreg(3))},
		{"cmp_lt_i32_e64", e3(I("v_cmp_lt_i32", sreg2(10), sreg(2), vreg(3)))},
		{"cmp_gt_f32", I("v_cmp_gt_f32", vcc(), vreg(2), vreg(3))},
		{"cmp_lt_u64", I("v_cmp_lt_u64", vcc(), vreg2(2), vreg2(4))},
		{"cndmask_e64", e3(I("v_cndmask_b32", vreg(1), ic(0), vreg(3), sreg2(10)))},
		{"mul_lo_u32", e3(I("v_mul_lo_u32", vreg(1), vreg(2), vreg(3)))},
		{"add_f64", I("v_add_f64", vreg2(4), vreg2(0), vreg2(2))},
		{"fma_f64", I("v_fma_f64", vreg2(4), vreg2(0), vreg2(2), vreg2(6))},
		{"cvt_f16_f32", I("v_cvt_f16_f32", vreg(1), vreg(2))},
		{"cvt_f32_f16", I("v_cvt_f32_f16", vreg(1), vreg(2))},
		{"readlane", I("v_readlane_b32", sreg(3), vreg(2), sreg(4))},
		{"writelane", I("v_writelane_b32", vreg(1), sreg(3), sreg(4))},
		{"bfe_u32_generic", e3(I("v_bfe_u32", vreg(1), vreg(2), ic(3), ic(5)))},
		{"min_f32", I("v_min_f32", vreg(1), vreg(2), vreg(3))},
		{"cvt_f64_i32", I("v_cvt_f64_i32", vreg2(4), vreg(2))},
		{"mov_v", I("v_mov_b32", vreg(1), vreg(2))},
		{"mov_s", I("v_mov_b32", vreg(1), sreg(2))},
		{"cvt_i32_f64", I("v_cvt_i32_f64", vreg(4), vreg2(2))},
		{"ldexp_f64", e3(I("v_ldexp_f64", vreg2(4), vreg2(0), vreg(2)))},
		{"div_scale_f64", e3(I("v_div_scale_f64", vreg2(4), vcc(), vreg2(0), vreg2(2), vreg2(0)))},
		{"div_fmas_f64", e3(I("v_div_fmas_f64", vreg2(4), vreg2(0), vreg2(2), vreg2(6)))},
		{"add_u16_clamp", e3(I("v_add_u16", vreg(1), vreg(2), vreg(3))).with(func(m *isa.Modifiers) { m.Clamp = true })},
		{"ldexp_f32", e3(I("v_ldexp_f32", vreg(1), vreg(2), ic(3)))},
		{"floor_f32", I("v_floor_f32", vreg(1), vreg(2))},
		{"med3_f32", e3(I("v_med3_f32", vreg(1), vreg(2), vreg(3), vreg(4)))},
		{"max_f32_self", I("v_max_f32", vreg(1), vreg(2), vreg(2))},
		{"floor_f64", I("v_floor_f64", vreg2(4), vreg2(2))},
		{"or_sdwa", sdwa(I("v_or_b32", vreg(1), vreg(2), vreg(3)), 6, 0, 6, 0)},
		{"add_u16_sdwa", sdwa(I("v_add_u16", vreg(1), vreg(2), vreg(3)), 5, 5, 5, 2)},
		{"mul_u24_sdwa", sdwa(I("v_mul_u32_u24", vreg(1), vreg(2), vreg(3)), 4, 1, 6, 0)},
		{"div_fixup_f64", e3(I("v_div_fixup_f64", vreg2(4), vreg2(0), vreg2(2), vreg2(6)))},
	} {
		p := prog(isa.GFX9, c.t)
		in := &p.Code[0]
		r := rand.New(rand.NewPCG(1, 2))
		w := &Wave{Target: isa.GFX9}
		for i := 0; i < 16; i++ {
			for l := range w.V[i] {
				w.V[i][l] = r.Uint32() >> 2
			}
		}
		w.S[core.SlotMode] = 0xf0
		for _, path := range []struct {
			name string
			fn   core.ExecFn
			exec uint64
		}{{"fast", in.Fn, ^uint64(0)}, {"generic", in.Def.Fn, ^uint64(0)}, {"fast_x16", in.Fn, 0xffff}} {
			b.Run(c.name+"/"+path.name, func(b *testing.B) {
				withExec(w, path.exec)
				for b.Loop() {
					if err := path.fn(w, in); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// wv with EXEC masks of various densities (the partial-mask write of every
// kernel).
func BenchmarkWriteLanes(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	w := &Wave{}
	var vals [64]uint32
	for _, density := range []int{4, 32, 60} {
		masks := make([]uint64, 64)
		for i := range masks {
			for _, l := range r.Perm(64)[:density] {
				masks[i] |= 1 << l
			}
		}
		b.Run(fmt.Sprint(density), func(b *testing.B) {
			i := 0
			for b.Loop() {
				w.Wv(5, masks[i&63], &vals)
				i++
			}
		})
	}
}

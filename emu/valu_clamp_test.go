package emu

import (
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// TestIntegerClamp: VOP3 clamp on integer operations saturates to the
// destination type's range (Vega ISA manual, VOP3 CLAMP: "integer ops
// saturate"; LLVM selects these forms for uaddsat/usubsat/saddsat/ssubsat).
// Each case is worked by hand: the exact result, then pinned to the range.
// s[2:3] holds the carry-in mask 1 for the carry-reading forms.
func TestIntegerClamp(t *testing.T) {
	const g8, g9 = isa.GFX8, isa.GFX9
	for _, tc := range []struct {
		target     isa.Target
		asm        string
		v1, v2, v3 uint32
		want       uint32
	}{
		// 16-bit unsigned: 0xfff0 + 0x20 = 0x10010 → 0xffff; 5 − 7 < 0 → 0
		{g9, "v_add_u16_e64 v0, v1, v2 clamp", 0xfff0, 0x20, 0, 0xffff},
		{g9, "v_add_u16_e64 v0, v1, v2", 0xfff0, 0x20, 0, 0x10},
		{g9, "v_sub_u16_e64 v0, v1, v2 clamp", 5, 7, 0, 0},
		{g9, "v_sub_u16_e64 v0, v1, v2", 5, 7, 0, 0xfffe},
		{g9, "v_subrev_u16_e64 v0, v1, v2 clamp", 7, 5, 0, 0},
		{g9, "v_subrev_u16_e64 v0, v1, v2 clamp", 5, 7, 0, 2},
		{g8, "v_add_u16_e64 v0, v1, v2 clamp", 0xfff0, 0x20, 0, 0xffff},
		{g8, "v_sub_u16_e64 v0, v1, v2 clamp", 5, 7, 0, 0},
		{g8, "v_subrev_u16_e64 v0, v1, v2 clamp", 7, 5, 0, 0},
		// 16-bit signed (GFX9): 0x7fff + 1 → 0x7fff; −32768 − 1 → −32768
		{g9, "v_add_i16 v0, v1, v2 clamp", 0x7fff, 1, 0, 0x7fff},
		{g9, "v_add_i16 v0, v1, v2", 0x7fff, 1, 0, 0x8000},
		{g9, "v_sub_i16 v0, v1, v2 clamp", 0x8000, 1, 0, 0x8000},
		// GFX9 carry-less 32-bit
		{g9, "v_add_u32_e64 v0, v1, v2 clamp", 0xffffffff, 2, 0, 0xffffffff},
		{g9, "v_add_u32_e64 v0, v1, v2", 0xffffffff, 2, 0, 1},
		{g9, "v_sub_u32_e64 v0, v1, v2 clamp", 1, 2, 0, 0},
		{g9, "v_subrev_u32_e64 v0, v1, v2 clamp", 2, 1, 0, 0},
		{g9, "v_add_i32 v0, v1, v2 clamp", 0x7fffffff, 1, 0, 0x7fffffff},
		{g9, "v_sub_i32 v0, v1, v2 clamp", 0x80000000, 1, 0, 0x80000000},
		// carry-writing 32-bit (GFX9 *_co_*, GFX8 v_add_u32 …)
		{g9, "v_add_co_u32_e64 v0, s[0:1], v1, v2 clamp", 0xffffffff, 2, 0, 0xffffffff},
		{g9, "v_sub_co_u32_e64 v0, s[0:1], v1, v2 clamp", 1, 2, 0, 0},
		{g9, "v_subrev_co_u32_e64 v0, s[0:1], v1, v2 clamp", 2, 1, 0, 0},
		{g9, "v_addc_co_u32_e64 v0, s[0:1], v1, v2, s[2:3] clamp", 0xfffffffe, 1, 0, 0xffffffff},
		{g9, "v_addc_co_u32_e64 v0, s[0:1], v1, v2, s[2:3]", 0xfffffffe, 1, 0, 0},
		{g9, "v_subb_co_u32_e64 v0, s[0:1], v1, v2, s[2:3] clamp", 0, 0, 0, 0},
		{g9, "v_subbrev_co_u32_e64 v0, s[0:1], v1, v2, s[2:3] clamp", 1, 1, 0, 0},
		{g8, "v_add_u32_e64 v0, s[0:1], v1, v2 clamp", 0xffffffff, 2, 0, 0xffffffff},
		{g8, "v_sub_u32_e64 v0, s[0:1], v1, v2 clamp", 1, 2, 0, 0},
		{g8, "v_addc_u32_e64 v0, s[0:1], v1, v2, s[2:3] clamp", 0xfffffffe, 1, 0, 0xffffffff},
		{g8, "v_subb_u32_e64 v0, s[0:1], v1, v2, s[2:3] clamp", 0, 0, 0, 0},
		// multiply-add: 0x100 × 0x100 = 0x10000 does not fit 16 bits
		{g9, "v_mad_u16 v0, v1, v2, v3 clamp", 0x100, 0x100, 0, 0xffff},
		{g9, "v_mad_u16 v0, v1, v2, v3", 0x100, 0x100, 1, 1},
		{g9, "v_mad_i16 v0, v1, v2, v3 clamp", 0x100, 0x100, 0, 0x7fff},
		{g9, "v_mad_i16 v0, v1, v2, v3 clamp", 0x100, 0xff00, 0, 0x8000}, // 256 × −256
		{g9, "v_mad_legacy_u16 v0, v1, v2, v3 clamp", 0x100, 0x100, 0, 0xffff},
		{g9, "v_mad_legacy_i16 v0, v1, v2, v3 clamp", 0x100, 0xff00, 0, 0x8000},
		{g8, "v_mad_u16 v0, v1, v2, v3 clamp", 0x100, 0x100, 0, 0xffff},
		{g8, "v_mad_i16 v0, v1, v2, v3 clamp", 0x100, 0x100, 0, 0x7fff},
		{g9, "v_mad_u32_u16 v0, v1, v2, v3 clamp", 0xffff, 0xffff, 0xffffffff, 0xffffffff},
		{g9, "v_mad_u32_u16 v0, v1, v2, v3", 0xffff, 0xffff, 0, 0xfffe0001},
		{g9, "v_mad_i32_i16 v0, v1, v2, v3 clamp", 0x7fff, 0x7fff, 0x7fffffff, 0x7fffffff},
		{g9, "v_mad_i32_i16 v0, v1, v2, v3 clamp", 0x7fff, 0x8000, 0x80000000, 0x80000000},
		{g9, "v_mad_u32_u24 v0, v1, v2, v3 clamp", 0xffffff, 0xffffff, 0, 0xffffffff},
		{g8, "v_mad_u32_u24 v0, v1, v2, v3 clamp", 0xffffff, 0xffffff, 0, 0xffffffff},
		{g9, "v_mad_i32_i24 v0, v1, v2, v3 clamp", 0x7fffff, 0x800000, 0, 0x80000000},
		{g9, "v_mul_u32_u24_e64 v0, v1, v2 clamp", 0x10000, 0x10000, 0, 0xffffffff},
		{g9, "v_mul_u32_u24_e64 v0, v1, v2", 0x10000, 0x10000, 0, 0},
		{g8, "v_mul_i32_i24_e64 v0, v1, v2 clamp", 0x7fffff, 0x7fffff, 0, 0x7fffffff},
		// sums of absolute differences accumulate into a u32
		{g9, "v_sad_u32 v0, v1, v2, v3 clamp", 0, 0xffffffff, 1, 0xffffffff},
		{g9, "v_sad_u8 v0, v1, v2, v3 clamp", 0xff, 0, 0xffffffff, 0xffffffff},
		{g9, "v_sad_u8 v0, v1, v2, v3", 0xff, 0, 0xffffffff, 0xfe},
		{g9, "v_sad_hi_u8 v0, v1, v2, v3 clamp", 0xff, 0, 0xffff0000, 0xffffffff},
		{g9, "v_sad_u16 v0, v1, v2, v3 clamp", 0xffff, 0, 0xffffffff, 0xffffffff},
		{g9, "v_msad_u8 v0, v1, v2, v3 clamp", 0xff, 0x1, 0xffffffff, 0xffffffff},
		// packed (VOP3P): each half saturates on its own
		{g9, "v_pk_add_u16 v0, v1, v2 clamp", 0xfff00001, 0x00200002, 0, 0xffff0003},
		{g9, "v_pk_add_i16 v0, v1, v2 clamp", 0x7fff8000, 0x0001ffff, 0, 0x7fff8000},
		{g9, "v_pk_sub_u16 v0, v1, v2 clamp", 0x00010005, 0x00020003, 0, 0x00000002},
		{g9, "v_pk_sub_i16 v0, v1, v2 clamp", 0x7fff8000, 0xffff0001, 0, 0x7fff8000},
		{g9, "v_pk_mad_u16 v0, v1, v2, v3 clamp", 0x01000002, 0x01000003, 0x00000004, 0xffff000a},
		{g9, "v_pk_mad_i16 v0, v1, v2, v3 clamp", 0x01000100, 0xff000100, 0, 0x80007fff},
		{g9, "v_pk_mad_u16 v0, v1, v2, v3", 0x01000002, 0x01000003, 0x00010004, 0x0001000a},
	} {
		name := tc.target.String() + " " + tc.asm
		p := asmProgram(t, tc.target, tc.asm, "s_endpgm")
		m := NewMachine(p, nil, core.DefaultConfig(tc.target))
		m.SetExec(1)
		m.SetVGPR(1, 0, tc.v1)
		m.SetVGPR(2, 0, tc.v2)
		m.SetVGPR(3, 0, tc.v3)
		m.SetSGPR(2, 1)
		m.SetSGPR(3, 0)
		run(t, m)
		if got := m.w.V[0][0]; got != tc.want {
			t.Errorf("%s (%#x, %#x, %#x) = %#x, want %#x", name, tc.v1, tc.v2, tc.v3, got, tc.want)
		}
	}
}

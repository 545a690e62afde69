package emu

import (
	"math"
	"testing"

	"github.com/wavedbg/wavedbg/isa"
)

func fb(f float32) uint32 { return math.Float32bits(f) }

// vcase runs one VOP over lane 0 and 5 with v1=a, v2=b, v3=c and checks v0.
type vcase struct {
	name    string
	a, b, c uint32
	want    uint32
	mode    uint32 // MODE (0 means the default 0x3c0)
}

// Expected values worked from the Vega ISA manual's VOP2/VOP3 descriptions.
func TestVALU32(t *testing.T) {
	tests := []vcase{
		{name: "v_add_f32", a: fb(1.5), b: fb(2.25), want: fb(3.75)},
		{name: "v_sub_f32", a: fb(1.5), b: fb(2.25), want: fb(-0.75)},
		{name: "v_subrev_f32", a: fb(1.5), b: fb(2.25), want: fb(0.75)},
		{name: "v_mul_f32", a: fb(3), b: fb(-0.5), want: fb(-1.5)},
		{name: "v_fma_f32", a: fb(2), b: fb(3), c: fb(1), want: fb(7)},
		{name: "v_min_f32", a: fb(2), b: 0x7fc00000, want: fb(2)},
		{name: "v_max_f32", a: fb(-0.0), b: fb(0), want: fb(0)},
		{name: "v_add_u32", a: 0xffffffff, b: 2, want: 1},
		{name: "v_sub_u32", a: 1, b: 2, want: 0xffffffff},
		{name: "v_mul_lo_u32", a: 0x10001, b: 0x10001, want: 0x20001},
		{name: "v_mul_hi_u32", a: 0x80000000, b: 6, want: 3},
		{name: "v_mul_u32_u24", a: 0x01000003, b: 5, want: 15},
		{name: "v_mul_i32_i24", a: 0x00ffffff, b: 5, want: 0xfffffffb},
		{name: "v_lshlrev_b32", a: 4, b: 1, want: 16},
		{name: "v_lshrrev_b32", a: 4, b: 0x100, want: 0x10},
		{name: "v_ashrrev_i32", a: 4, b: 0x80000000, want: 0xf8000000},
		{name: "v_and_b32", a: 0xf0f0, b: 0xff00, want: 0xf000},
		{name: "v_bfe_u32", a: 0xabcd1234, b: 8, c: 8, want: 0x12},
		{name: "v_bfe_i32", a: 0x00008000, b: 12, c: 4, want: 0xfffffff8},
		{name: "v_bfi_b32", a: 0xff00ff00, b: 0x12345678, c: 0xabcdef01, want: 0x12cd5601},
		{name: "v_alignbit_b32", a: 0x12345678, b: 0x9abcdef0, c: 8, want: 0x789abcde},
		{name: "v_perm_b32", a: 0x03020100, b: 0x07060504, c: 0x0c0d0004, want: 0x00ff0400},
		{name: "v_med3_i32", a: 5, b: 0xffffffff, c: 3, want: 3},
		{name: "v_min3_u32", a: 5, b: 0xffffffff, c: 3, want: 3},
		{name: "v_cvt_f32_i32", a: 0xfffffffe, want: fb(-2)},
		{name: "v_cvt_i32_f32", a: fb(-2.75), want: 0xfffffffe},
		{name: "v_cvt_u32_f32", a: fb(-2.75), want: 0},
		{name: "v_cvt_rpi_i32_f32", a: fb(2.5), want: 3},
		{name: "v_cvt_flr_i32_f32", a: fb(-2.5), want: 0xfffffffd},
		{name: "v_cvt_f16_f32", a: fb(1.0), want: 0x3c00},
		{name: "v_cvt_f32_f16", a: 0xc000, want: fb(-2)},
		{name: "v_cvt_f32_ubyte2", a: 0x00ab0000, want: fb(171)},
		{name: "v_rcp_f32", a: fb(4), want: fb(0.25)},
		{name: "v_sqrt_f32", a: fb(16), want: fb(4)},
		{name: "v_rsq_f32", a: fb(16), want: fb(0.25)},
		{name: "v_exp_f32", a: fb(3), want: fb(8)},
		{name: "v_log_f32", a: fb(8), want: fb(3)},
		{name: "v_sin_f32", a: fb(0.25), want: fb(1)},
		{name: "v_floor_f32", a: fb(-1.5), want: fb(-2)},
		{name: "v_fract_f32", a: fb(-1.25), want: fb(0.75)},
		{name: "v_rndne_f32", a: fb(2.5), want: fb(2)},
		{name: "v_frexp_mant_f32", a: fb(12), want: fb(0.75)},
		{name: "v_frexp_exp_i32_f32", a: fb(12), want: 4},
		{name: "v_ldexp_f32", a: fb(3), b: 4, want: fb(48)},
		{name: "v_add_f16", a: 0x3c00, b: 0x4000, want: 0x4200},
		{name: "v_mul_f16", a: 0x4000, b: 0xc000, want: 0xc400},
		{name: "v_fma_f16", a: 0x4000, b: 0x4000, c: 0x3c00, want: 0x4500},
		{name: "v_add_u16", a: 0xffff, b: 2, want: 1},
		{name: "v_ashrrev_i16", a: 1, b: 0x8000, want: 0xc000},
		{name: "v_not_b32", a: 0, want: 0xffffffff},
		{name: "v_bfrev_b32", a: 1, want: 0x80000000},
		{name: "v_ffbh_u32", a: 0x00010000, want: 15},
		{name: "v_ffbl_b32", a: 0, want: 0xffffffff},
		{name: "v_ffbh_i32", a: 0xffff0000, want: 16},
		{name: "v_bcnt_u32_b32", a: 0xff, b: 1, want: 9},
		{name: "v_cvt_pkrtz_f16_f32", a: fb(1), b: fb(2), want: 0x40003c00},
		{name: "v_sat_pk_u8_i16", a: 0x0100fffe, want: 0xff00},
		// f32 denormals flush by default (MODE 0x3c0: FP_DENORM f32 = 0)
		{name: "v_add_f32", a: 1, b: 0, want: 0},
		{name: "v_add_f32", a: 1, b: 0, want: 1, mode: 0x3f0},
		// round toward zero and +inf
		{name: "v_add_f32", a: fb(1), b: fb(1e-9), want: fb(1), mode: 0x3c3},
		{name: "v_add_f32", a: fb(1), b: fb(1e-9), want: fb(1) + 1, mode: 0x3c1},
		{name: "v_add_f32", a: fb(-1), b: fb(-1e-9), want: fb(-1) + 1, mode: 0x3c2},
		{name: "v_mul_f32", a: fb(3), b: fb(1.0 / 3), want: fb(1), mode: 0x3c0},
	}
	for _, tc := range tests {
		m := machine(t, I(tc.name, vreg(0), vreg(1), vreg(2), vreg(3)).enc(isa.EncVOP3), I("s_endpgm"))
		if tc.mode != 0 {
			m.SetMode(tc.mode)
		}
		m.SetExec(1 | 1<<5)
		for _, l := range []int{0, 5} {
			m.w.V[1][l], m.w.V[2][l], m.w.V[3][l] = tc.a, tc.b, tc.c
		}
		m.w.V[0][1] = 0x5a5a
		run(t, m)
		if got := m.w.V[0][5]; got != tc.want || m.w.V[0][0] != tc.want {
			t.Errorf("%s(0x%x, 0x%x, 0x%x) mode 0x%x = 0x%x, want 0x%x", tc.name, tc.a, tc.b, tc.c, tc.mode, got, tc.want)
		}
		if m.w.V[0][1] != 0x5a5a {
			t.Errorf("%s wrote lane 1 outside EXEC", tc.name)
		}
	}
}

func TestCarryAndCompare(t *testing.T) {
	m := machine(t,
		I("v_add_co_u32", vreg(0), vcc(), vreg(1), vreg(2)),
		I("v_addc_co_u32", vreg(3), sreg2(10), vreg(1), vreg(2), vcc()).enc(isa.EncVOP3),
		I("v_cmp_lt_u32", vcc(), vreg(1), vreg(2)),
		I("v_cmpx_gt_i32", sreg2(12), vreg(1), vreg(2)).enc(isa.EncVOP3),
		I("v_cndmask_b32", vreg(4), vreg(1), vreg(2), vcc()),
		I("s_endpgm"))
	m.SetExec(0xf)
	for l := 0; l < 4; l++ {
		m.w.V[1][l] = uint32(0xfffffffe + l) // -2, -1, 0, 1
		m.w.V[2][l] = 1
	}
	run(t, m)
	if m.w.V[0][0] != 0xffffffff || m.w.V[0][1] != 0 || m.w.V[0][3] != 2 {
		t.Errorf("v_add_co_u32 = %x", m.w.V[0][:4])
	}
	// only lane 1 (0xffffffff + 1) carries out of v_add_co, and again of v_addc
	if got := m.w.Get64(10); got != 0b0010 {
		t.Errorf("v_addc carry = %b, want 0010", got)
	}
	if m.w.V[3][1] != 1 { // 0xffffffff + 1 + carry 1
		t.Errorf("v_addc lane 1 = %x", m.w.V[3][1])
	}
	if got := m.w.Vcc(); got != 0b0100 {
		t.Errorf("v_cmp_lt_u32 vcc = %b, want 0100", got)
	}
	// v_cmpx_gt_i32: v1 > 1 signed: none → EXEC = 0
	if m.w.Exec() != 0 || m.w.Get64(12) != 0 {
		t.Errorf("v_cmpx exec = %b s[12:13] = %b", m.w.Exec(), m.w.Get64(12))
	}
}

func TestReadWriteLane(t *testing.T) {
	m := machine(t,
		I("v_readlane_b32", sreg(0), vreg(1), ic(7)),
		I("v_readfirstlane_b32", sreg(1), vreg(1)),
		I("v_writelane_b32", vreg(2), sreg(0), ic(63)),
		I("v_mbcnt_lo_u32_b32", vreg(3), ic(-1), ic(0)).enc(isa.EncVOP3),
		I("s_endpgm"))
	for l := 0; l < 64; l++ {
		m.w.V[1][l] = uint32(100 + l)
	}
	m.SetExec(0xff00)
	run(t, m)
	if m.w.S[0] != 107 || m.w.S[1] != 108 {
		t.Errorf("readlane = %d, readfirstlane = %d", m.w.S[0], m.w.S[1])
	}
	if m.w.V[2][63] != 107 {
		t.Errorf("writelane ignores EXEC: lane 63 = %d", m.w.V[2][63])
	}
	if m.w.V[3][8] != 8 || m.w.V[3][15] != 15 {
		t.Errorf("mbcnt = %v", m.w.V[3][8:16])
	}
}

// Conversions take input denormals from the source type's MODE field and
// output denormals from the result type's: by default f16 keeps them and
// f32 flushes them.
func TestConversionDenormals(t *testing.T) {
	for _, tc := range []vcase{
		{name: "v_cvt_f32_f16", a: 0x0001, want: 0x33800000},          // f16 denormal 2^-24 kept: a normal f32
		{name: "v_cvt_f32_f16", a: 0x0200, want: fb(1.0 / 32768)},     // f16 denormal 2^-15: a normal f32
		{name: "v_cvt_f16_f32", a: fb(1.0 / (1 << 24)), want: 0x0001}, // f32 normal in, f16 denormal kept
		{name: "v_cvt_f16_f32", a: 1, want: 0},                        // f32 denormal input flushed
	} {
		m := machine(t, I(tc.name, vreg(0), vreg(1)).enc(isa.EncVOP3), I("s_endpgm"))
		m.SetExec(1)
		m.w.V[1][0] = tc.a
		run(t, m)
		if got := m.w.V[0][0]; got != tc.want {
			t.Errorf("%s(%#x) = %#x, want %#x", tc.name, tc.a, got, tc.want)
		}
	}
}

package emu

import (
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// VALU through real encodings (golden llvm-mc words): modifiers, DPP, SDWA,
// VOP3P op_sel, VOP3b carries. Expected values worked from the Vega ISA
// manual's descriptions of each field.

// laneMachine sets v1 = lane, v2 = 100+lane, v3 = 2.0 in every lane.
func laneMachine(t *testing.T, lines ...string) *Machine {
	t.Helper()
	m := asmMachine(t, append(lines, "s_endpgm")...)
	for l := 0; l < 64; l++ {
		m.w.V[1][l] = uint32(l)
		m.w.V[2][l] = uint32(100 + l)
		m.w.V[3][l] = fb(2)
	}
	return m
}

func TestDPP(t *testing.T) {
	for _, tc := range []struct {
		asm  string
		lane int
		want uint32
	}{
		{"v_mov_b32_dpp v0, v1 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf", 4, 5},
		{"v_mov_b32_dpp v0, v1 quad_perm:[3,3,3,3] row_mask:0xf bank_mask:0xf", 1, 3},
		{"v_mov_b32_dpp v0, v1 row_shr:1 row_mask:0xf bank_mask:0xf", 17, 16},
		{"v_mov_b32_dpp v0, v1 row_shr:1 row_mask:0xf bank_mask:0xf", 16, 0x5a},           // invalid source: not written
		{"v_mov_b32_dpp v0, v1 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:0", 16, 0}, // LLVM's bound_ctrl:0 sets the bit: reads 0
		{"v_mov_b32_dpp v0, v1 row_ror:4 row_mask:0xf bank_mask:0xf", 13, 1},
		{"v_mov_b32_dpp v0, v1 row_mirror row_mask:0xf bank_mask:0xf", 2, 13},
		{"v_mov_b32_dpp v0, v1 wave_shr:1 row_mask:0xf bank_mask:0xf", 40, 39},
		{"v_mov_b32_dpp v0, v1 row_bcast:15 row_mask:0xa bank_mask:0xf", 20, 15},
		{"v_mov_b32_dpp v0, v1 row_bcast:15 row_mask:0xa bank_mask:0xf", 33, 0x5a}, // row 2 masked off
		{"v_add_u32_dpp v0, v1, v2 quad_perm:[0,0,0,0] row_mask:0xf bank_mask:0xf", 3, 0 + 103},
	} {
		m := laneMachine(t, tc.asm)
		for l := 0; l < 64; l++ {
			m.w.V[0][l] = 0x5a
		}
		run(t, m)
		if got := m.w.V[0][tc.lane]; got != tc.want {
			t.Errorf("%s: lane %d = %#x, want %#x", tc.asm, tc.lane, got, tc.want)
		}
	}
}

func TestSDWA(t *testing.T) {
	for _, tc := range []struct {
		asm       string
		v1, v2, d uint32
		want      uint32
	}{
		{"v_add_u32_sdwa v0, v1, v2 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_1 src1_sel:WORD_1", 0x1234, 0x50000, 0xffffffff, 0x12 + 5},
		{"v_mov_b32_sdwa v0, v1 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0", 0xabcd1234, 0, 0x11112222, 0x12342222},
		{"v_mov_b32_sdwa v0, v1 dst_sel:BYTE_0 dst_unused:UNUSED_SEXT src0_sel:BYTE_3", 0x80000000, 0, 0, 0xffffff80},
		{"v_mov_b32_sdwa v0, sext(v1) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_0", 0x8001, 0, 0, 0xffff8001},
	} {
		m := laneMachine(t, tc.asm)
		m.w.V[1][0], m.w.V[2][0], m.w.V[0][0] = tc.v1, tc.v2, tc.d
		m.SetExec(1)
		run(t, m)
		if got := m.w.V[0][0]; got != tc.want {
			t.Errorf("%s = %#x, want %#x", tc.asm, got, tc.want)
		}
	}
}

func TestVOP3Modifiers(t *testing.T) {
	for _, tc := range []struct {
		asm    string
		v1, v2 uint32
		want   uint32
	}{
		{"v_add_f32_e64 v0, -v1, |v2|", fb(1), fb(-4), fb(3)},
		{"v_add_f32_e64 v0, v1, v2 mul:2", fb(1), fb(2), fb(6)},
		{"v_add_f32_e64 v0, v1, v2 div:2", fb(1), fb(2), fb(1.5)},
		{"v_add_f32_e64 v0, v1, v2 clamp", fb(1), fb(2), fb(1)},
		{"v_add_f32_e64 v0, v1, v2 clamp", fb(-1), fb(-2), 0},
		{"v_add_u32_e64 v0, v1, v2 clamp", 0xffffffff, 2, 0xffffffff},
		{"v_sub_u32_e64 v0, v1, v2 clamp", 1, 2, 0},
		{"v_mul_f32_e64 v0, v1, 0.5", fb(3), 0, fb(1.5)},
		{"v_fma_f32 v0, v1, v2, 1.0", fb(3), fb(2), fb(7)},
		{"v_mac_f32_e32 v0, v1, v2", fb(3), fb(2), fb(6 + 10)},
		{"v_madak_f32 v0, v1, v2, 0x41200000", fb(3), fb(2), fb(16)},
		{"v_cvt_f16_f32_e64 v0, v1 clamp", fb(3), 0, 0x3c00},
	} {
		m := laneMachine(t, tc.asm)
		m.w.V[1][0], m.w.V[2][0], m.w.V[0][0] = tc.v1, tc.v2, fb(10)
		m.SetExec(1)
		run(t, m)
		if got := m.w.V[0][0]; got != tc.want {
			t.Errorf("%s = %#x, want %#x", tc.asm, got, tc.want)
		}
	}
}

func TestVOP3P(t *testing.T) {
	for _, tc := range []struct {
		asm    string
		v1, v2 uint32
		want   uint32
	}{
		{"v_pk_add_f16 v0, v1, v2", 0x40003c00, 0x3c003c00, 0x42004000},                              // (1+1, 2+1)
		{"v_pk_add_f16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]", 0x40003c00, 0x3c003c00, 0x40004200}, // lo: 2+1, hi: 1+1
		{"v_pk_mul_f16 v0, v1, v2 neg_lo:[1,0]", 0x40003c00, 0x40004000, 0x4400c000},
		{"v_pk_add_u16 v0, v1, v2", 0xffff0001, 0x00020002, 0x00010003},
		{"v_pk_add_u16 v0, v1, v2 clamp", 0xffff0001, 0x00020002, 0xffff0003},
		{"v_pk_lshlrev_b16 v0, v1, v2", 0x00020001, 0x00010001, 0x00040002},
		{"v_pk_max_i16 v0, v1, v2", 0xffff0005, 0x00010003, 0x00010005},
		{"v_mad_mix_f32 v0, v1, v2, v2 op_sel_hi:[1,1,0]", 0x4000, 0x3c00, 0},
	} {
		m := laneMachine(t, tc.asm)
		m.w.V[1][0], m.w.V[2][0] = tc.v1, tc.v2
		m.SetExec(1)
		run(t, m)
		want := tc.want
		if tc.asm[:9] == "v_mad_mix" {
			// 2.0 × 1.0 + f32 bits 0x3c00 (a denormal, flushed) = 2.0
			want = fb(2)
		}
		if got := m.w.V[0][0]; got != want {
			t.Errorf("%s = %#x, want %#x", tc.asm, got, want)
		}
	}
}

func TestVOP3bAndCompare(t *testing.T) {
	m := laneMachine(t,
		"v_add_co_u32_e64 v0, s[0:1], v1, -1",
		"v_mad_u64_u32 v[4:5], s[2:3], v2, v2, v[6:7]",
		"s_movk_i32 s10, 0x100",
		"v_cmp_class_f32_e64 s[4:5], v3, s10",
		"v_cmp_gt_u32_e32 vcc, 2, v1",
		"v_cndmask_b32_e64 v8, 0, 1, s[0:1]",
		"v_readfirstlane_b32 s6, v2",
		"v_cmpx_eq_u32_e64 s[8:9], v1, 5")
	m.SetExec(0xff)
	run(t, m)
	if got := m.w.Get64(0); got != 0xfe {
		t.Errorf("carry s[0:1] = %#x, want 0xfe (lane 0: 0 + -1 does not carry)", got)
	}
	if m.w.V[4][3] != 103*103 || m.w.V[5][3] != 0 {
		t.Errorf("v_mad_u64_u32 lane 3 = %#x:%#x", m.w.V[5][3], m.w.V[4][3])
	}
	if got := m.w.Get64(4); got != 0xff { // 2.0 is a positive normal: class bit 8
		t.Errorf("v_cmp_class = %#x", got)
	}
	if m.w.Vcc() != 0b11 {
		t.Errorf("vcc = %b", m.w.Vcc())
	}
	if m.w.V[8][0] != 0 || m.w.V[8][1] != 1 {
		t.Errorf("cndmask = %v", m.w.V[8][:2])
	}
	if m.w.S[6] != 100 || m.w.Exec() != 1<<5 {
		t.Errorf("readfirstlane %d exec %#x", m.w.S[6], m.w.Exec())
	}
}

// GFX8: v_add_u32 writes a carry; s_waitcnt has no vmcnt high bits.
func TestGFX8(t *testing.T) {
	p := asmProgram(t, isa.GFX8, "v_add_u32_e32 v0, vcc, v1, v2", "s_endpgm")
	m := NewMachine(p, nil, core.DefaultConfig(isa.GFX8))
	m.SetExec(3)
	m.SetVGPR(1, 1, 0xffffffff)
	m.SetVGPR(2, 1, 1)
	run(t, m)
	if m.w.Vcc() != 0b10 || m.w.V[0][1] != 0 {
		t.Errorf("gfx8 v_add_u32: vcc %b v0 %#x", m.w.Vcc(), m.w.V[0][1])
	}
	if s := m.Snapshot(); len(s.TTMP) != 12 {
		t.Errorf("gfx8 has %d ttmps", len(s.TTMP))
	}
}

// gfx906 dot products (decoded with its features).
func TestDot(t *testing.T) {
	text := asmBytes(t, "gfx906", "v_dot4_i32_i8 v0, v1, v2, v3", "v_dot2_f32_f16 v4, v1, v2, v5", "s_endpgm")
	p := DecodeProgramWith(isa.GFX9, isa.FeaturesOf("gfx906"), 0, text)
	m := NewMachine(p, nil, core.DefaultConfig(isa.GFX9))
	m.SetExec(1)
	m.SetVGPR(1, 0, 0x3c00ff02) // i8 bytes: 2, -1, 0, 60
	m.SetVGPR(2, 0, 0x01000303) // i8 bytes: 3, 3, 0, 1
	m.SetVGPR(3, 0, 10)
	run(t, m)
	if got := m.w.V[0][0]; got != uint32(10+2*3-1*3+0+0x3c*1) {
		t.Errorf("v_dot4_i32_i8 = %d", int32(got))
	}
}

// An SDWA destination that GPR indexing pushes past v255 is dropped, not a
// panic (its dst_unused:PRESERVE merge read the old register).
func TestGPRIndexPastV255SDWA(t *testing.T) {
	m := laneMachine(t, "s_set_gpr_idx_on s0, gpr_idx(DST)",
		"v_or_b32_sdwa v250, v1, v2 dst_sel:BYTE_0 dst_unused:UNUSED_PRESERVE src0_sel:DWORD src1_sel:DWORD",
		"s_set_gpr_idx_off")
	m.SetSGPR(0, 10)
	before := m.w.V
	run(t, m)
	if m.w.V != before {
		t.Error("a VGPR changed: the write to v260 should be dropped")
	}
}

// GPR indexing: s_set_gpr_idx_on offsets the enabled VGPR operands by M0[7:0].
func TestGPRIndexing(t *testing.T) {
	m := laneMachine(t, "s_set_gpr_idx_on s0, gpr_idx(SRC0,DST)", "v_mov_b32_e32 v0, v1", "s_set_gpr_idx_off",
		"v_mov_b32_e32 v10, v1")
	m.SetSGPR(0, 2)
	m.SetExec(1)
	m.SetVGPR(3, 0, 33)
	m.SetVGPR(1, 0, 7)
	run(t, m)
	if m.w.V[2][0] != 33 { // v[0+2] = v[1+2]
		t.Errorf("indexed move: v2 = %d", m.w.V[2][0])
	}
	if m.w.V[10][0] != 7 || m.w.S[core.SlotMode]>>27&1 != 0 {
		t.Errorf("after s_set_gpr_idx_off: v10 = %d mode %#x", m.w.V[10][0], m.w.S[core.SlotMode])
	}
}

package emu

import (
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// SOP1, SOPK, SOPC and program control through golden encodings; expected
// values worked from the Vega ISA manual's descriptions.

type sCase struct {
	asm  string
	init map[int]uint32 // SGPRs before (s20 = SCC when set through sccIn)
	scc  uint32
	want map[int]uint32 // SGPRs after
	sccW int            // expected SCC, -1: unchanged/not checked
}

func runSCases(t *testing.T, cases []sCase) {
	t.Helper()
	for _, tc := range cases {
		m := asmMachine(t, tc.asm, "s_endpgm")
		for r, v := range tc.init {
			m.SetScalar(r, v)
		}
		m.w.S[core.SlotSCC] = tc.scc
		run(t, m)
		for r, v := range tc.want {
			if m.w.S[r] != v {
				t.Errorf("%s: %s = %#x, want %#x", tc.asm, core.ScalarName(m.w.Target, r), m.w.S[r], v)
			}
		}
		if tc.sccW >= 0 && m.w.S[core.SlotSCC] != uint32(tc.sccW) {
			t.Errorf("%s: scc = %d, want %d", tc.asm, m.w.S[core.SlotSCC], tc.sccW)
		}
	}
}

func TestSOP1(t *testing.T) {
	runSCases(t, []sCase{
		{"s_mov_b64 s[0:1], 1.0", nil, 0, map[int]uint32{0: 0, 1: 0x3ff00000}, 0},
		{"s_mov_b32 s0, -1", nil, 1, map[int]uint32{0: 0xffffffff}, 1},
		{"s_cmov_b32 s0, s1", map[int]uint32{1: 7}, 0, map[int]uint32{0: 0}, 0},
		{"s_cmov_b32 s0, s1", map[int]uint32{1: 7}, 1, map[int]uint32{0: 7}, 1},
		{"s_not_b32 s0, s1", map[int]uint32{1: 0xffffffff}, 1, map[int]uint32{0: 0}, 0},
		{"s_wqm_b64 s[0:1], s[2:3]", map[int]uint32{2: 0x00000120}, 0, map[int]uint32{0: 0xff0}, 1},
		{"s_brev_b32 s0, s1", map[int]uint32{1: 1}, 0, map[int]uint32{0: 0x80000000}, 0},
		{"s_bcnt1_i32_b64 s0, s[2:3]", map[int]uint32{2: 0xff, 3: 1}, 0, map[int]uint32{0: 9}, 1},
		{"s_bcnt0_i32_b32 s0, -1", nil, 1, map[int]uint32{0: 0}, 0},
		{"s_ff1_i32_b32 s0, s1", map[int]uint32{1: 0x100}, 0, map[int]uint32{0: 8}, 0},
		{"s_ff0_i32_b32 s0, -1", nil, 0, map[int]uint32{0: 0xffffffff}, 0},
		{"s_flbit_i32_b32 s0, s1", map[int]uint32{1: 0x00010000}, 0, map[int]uint32{0: 15}, 0},
		{"s_flbit_i32 s0, s1", map[int]uint32{1: 0xfffe0000}, 0, map[int]uint32{0: 15}, 0},
		{"s_sext_i32_i8 s0, s1", map[int]uint32{1: 0x80}, 0, map[int]uint32{0: 0xffffff80}, 0},
		{"s_sext_i32_i16 s0, s1", map[int]uint32{1: 0x8000}, 0, map[int]uint32{0: 0xffff8000}, 0},
		{"s_bitset1_b32 s0, 4", map[int]uint32{0: 1}, 0, map[int]uint32{0: 0x11}, 0},
		{"s_bitset0_b64 s[0:1], 32", map[int]uint32{0: 1, 1: 1}, 0, map[int]uint32{0: 1, 1: 0}, 0},
		{"s_quadmask_b32 s0, s1", map[int]uint32{1: 0x0f00f010}, 0, map[int]uint32{0: 0b01001010}, 1},
		{"s_abs_i32 s0, s1", map[int]uint32{1: 0xfffffffb}, 0, map[int]uint32{0: 5}, 1},
		{"s_movrels_b32 s0, s10", map[int]uint32{12: 77, core.CodeM0: 2}, 0, map[int]uint32{0: 77}, 0},
		{"s_movreld_b32 s10, s1", map[int]uint32{1: 55, core.CodeM0: 3}, 0, map[int]uint32{13: 55}, 0},
		{"s_and_saveexec_b64 s[0:1], s[2:3]", map[int]uint32{2: 0xf0, 3: 0, core.CodeExec: 0x3c, core.CodeExec + 1: 0}, 0,
			map[int]uint32{0: 0x3c, core.CodeExec: 0x30, core.CodeExec + 1: 0}, 1},
		{"s_andn2_saveexec_b64 s[0:1], s[2:3]", map[int]uint32{2: 0xf0, 3: 0, core.CodeExec: 0xf0, core.CodeExec + 1: 0}, 1,
			map[int]uint32{0: 0xf0, core.CodeExec: 0}, 0},
		{"s_getpc_b64 s[0:1]", nil, 0, map[int]uint32{0: 4, 1: 0}, 0},
	})
}

func TestSOPKAndSOPC(t *testing.T) {
	runSCases(t, []sCase{
		{"s_movk_i32 s0, 0x8000", nil, 0, map[int]uint32{0: 0xffff8000}, 0},
		{"s_cmovk_i32 s0, 0x10", nil, 1, map[int]uint32{0: 0x10}, 1},
		{"s_addk_i32 s0, 0x7fff", map[int]uint32{0: 0x7fffffff}, 0, map[int]uint32{0: 0x80007ffe}, 1},
		{"s_mulk_i32 s0, 0xfffe", map[int]uint32{0: 3}, 0, map[int]uint32{0: 0xfffffffa}, 0},
		{"s_cmpk_lt_i32 s0, 0xfff0", map[int]uint32{0: 0xffffffe0}, 0, nil, 1},
		{"s_cmpk_lt_u32 s0, 0xfff0", map[int]uint32{0: 0x10000}, 1, nil, 0},
		{"s_cmp_eq_u32 s0, s1", map[int]uint32{0: 3, 1: 3}, 0, nil, 1},
		{"s_cmp_lt_i32 s0, s1", map[int]uint32{0: 0xffffffff, 1: 0}, 0, nil, 1},
		{"s_cmp_lt_u32 s0, s1", map[int]uint32{0: 0xffffffff, 1: 0}, 1, nil, 0},
		{"s_cmp_ge_i32 s0, 5", map[int]uint32{0: 5}, 0, nil, 1},
		{"s_bitcmp1_b32 s0, 3", map[int]uint32{0: 8}, 0, nil, 1},
		{"s_bitcmp0_b64 s[0:1], 33", map[int]uint32{1: 2}, 1, nil, 0},
		{"s_cmp_lg_u64 s[0:1], s[2:3]", map[int]uint32{1: 1}, 0, nil, 1},
		{"s_setreg_b32 hwreg(HW_REG_MODE, 0, 4), s0", map[int]uint32{0: 0xf3}, 0, nil, 0},
	})
	// s_setreg/s_getreg reach MODE; MODE's rounding applies to the next VALU op
	m := asmMachine(t, "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 2), 3", "s_getreg_b32 s1, hwreg(HW_REG_MODE, 0, 10)",
		"s_getreg_b32 s2, hwreg(HW_REG_STATUS)", "v_add_f32_e32 v0, v1, v2", "s_endpgm")
	m.SetExec(1)
	m.SetVGPR(1, 0, fb(1))
	m.SetVGPR(2, 0, fb(1e-9))
	run(t, m)
	if m.w.S[1] != 0x3c3 {
		t.Errorf("MODE = %#x, want 0x3c3", m.w.S[1])
	}
	if m.w.S[2]&(1<<16) == 0 {
		t.Errorf("STATUS = %#x, VALID bit clear", m.w.S[2])
	}
	if m.w.V[0][0] != fb(1) { // round toward zero drops the 1e-9
		t.Errorf("v0 = %#x", m.w.V[0][0])
	}
}

func TestControlFlow(t *testing.T) {
	// a loop: s0 counts down from 3, s1 counts iterations
	m := asmMachine(t, "s_mov_b32 s0, 3", "s_add_u32 s1, s1, 1", "s_sub_u32 s0, s0, 1",
		"s_cmp_eq_u32 s0, 0", "s_cbranch_scc0 -4", "s_endpgm")
	run(t, m)
	if m.w.S[1] != 3 || m.PC() != 20 {
		t.Errorf("loop: s1 = %d, pc %#x", m.w.S[1], m.PC())
	}
	for _, tc := range []struct {
		asm   string
		setup func(m *Machine)
		taken bool
	}{
		{"s_cbranch_vccz 1", func(m *Machine) {}, true},
		{"s_cbranch_vccnz 1", func(m *Machine) {}, false},
		{"s_cbranch_execz 1", func(m *Machine) { m.SetExec(0) }, true},
		{"s_cbranch_execnz 1", func(m *Machine) {}, true},
		{"s_cbranch_scc1 1", func(m *Machine) {}, false},
		{"s_branch 1", func(m *Machine) {}, true},
	} {
		m := asmMachine(t, tc.asm, "s_mov_b32 s0, 1", "s_endpgm")
		tc.setup(m)
		run(t, m)
		if (m.w.S[0] == 0) != tc.taken {
			t.Errorf("%s: taken = %v", tc.asm, m.w.S[0] == 0)
		}
	}
	// s_setpc / s_swappc / s_getpc: call and return
	m = asmMachine(t, "s_getpc_b64 s[0:1]", "s_add_u32 s0, s0, 12", "s_swappc_b64 s[2:3], s[0:1]",
		"s_endpgm", "s_mov_b32 s5, 9", "s_setpc_b64 s[2:3]")
	run(t, m)
	if m.w.S[5] != 9 || m.PC() != 12 {
		t.Errorf("call/return: s5 = %d, pc %#x", m.w.S[5], m.PC())
	}
	// a jump outside the program is an error naming the PC
	m = asmMachine(t, "s_setpc_b64 s[0:1]", "s_endpgm")
	m.SetSGPR(0, 0x1234)
	if _, err := m.Step(); err == nil {
		t.Error("jump to 0x1234 succeeded")
	} else if e, ok := err.(*ExecError); !ok || e.PC != 0 {
		t.Errorf("err = %v", err)
	}
}

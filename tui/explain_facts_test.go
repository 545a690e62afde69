package tui

import (
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// TestExplainBranchConds checks the explain line of every SOPP branch
// condition, which comes from isa's tables through emu's preview.
func TestExplainBranchConds(t *testing.T) {
	d := &EmuDebuggee{lines: []DisasmLine{{Addr: 0x40, Label: "loop"}}}
	for _, tc := range []struct {
		cond  isa.BranchCond
		taken bool
		want  string
	}{
		{isa.BranchAlways, true, "jumps to loop"},
		{isa.BranchSCC0, true, "branches to loop if SCC = 0 — now it jumps"},
		{isa.BranchSCC1, false, "branches to loop if SCC = 1 — now it falls through"},
		{isa.BranchVCCZ, false, "branches to loop if VCC = 0 — now it falls through"},
		{isa.BranchVCCNZ, true, "branches to loop if VCC ≠ 0 — now it jumps"},
		{isa.BranchEXECZ, false, "branches to loop if no lane is active (EXEC = 0) — now it falls through"},
		{isa.BranchEXECNZ, true, "branches to loop if any lane is active — now it jumps"},
		{isa.BranchCDbgSysOrUser, false, "branches to loop if a debugger sets its condition bit — now it falls through"},
	} {
		if got := d.explainBranch(&emu.BranchPreview{Target: 0x40, Taken: tc.taken, Cond: tc.cond}); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.cond, got, tc.want)
		}
	}
}

// TestExplainWaitcntLayout checks the s_waitcnt explain line on both
// generations: the fields and their maxima come from isa's per-target
// layout (GFX9's vmcnt reaches 63, GFX8's stops at 15).
func TestExplainWaitcntLayout(t *testing.T) {
	for _, tc := range []struct {
		t    isa.Target
		imm  uint16
		want string
	}{
		{isa.GFX9, 0xc07f, "waits until lgkm_cnt ≤ 0 (now 2)"},
		{isa.GFX8, 0xc07f, "waits until lgkm_cnt ≤ 0 (now 2)"},
		{isa.GFX9, 0x0f7e, "waits until vm_cnt ≤ 14 (now 1)"},
		{isa.GFX8, 0x0f7f, "waits for nothing (every count at its maximum)"},
		{isa.GFX9, 0x0f7f, "waits until vm_cnt ≤ 15 (now 1)"},
		{isa.GFX9, 0xcf7f, "waits for nothing (every count at its maximum)"},
	} {
		c, m := isa.WaitcntFields(tc.t, tc.imm), isa.WaitcntMax(tc.t)
		w := &emu.WaitPreview{VM: c.VM, EXP: c.EXP, LGKM: c.LGKM, VMMax: m.VM, EXPMax: m.EXP, LGKMMax: m.LGKM}
		if got := explainWait(w, emu.Counters{VM: 1, LGKM: 2}); got != tc.want {
			t.Errorf("%s %#x: %q, want %q", tc.t, tc.imm, got, tc.want)
		}
	}
}

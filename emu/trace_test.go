package emu

import (
	"testing"
)

func TestTraceLine(t *testing.T) {
	m := smemMachine(t, "s_load_dword s0, s[4:5], 0x0", "s_add_u32 s1, s0, 1", "s_waitcnt lgkmcnt(0)", "s_endpgm")
	want := []string{
		"#1 0x0000 s_load_dword s0, s[4:5], 0x0 cnt(vm,lgkm,exp):0,0,0->0,1,0 miss@0x1000 cyc:0->1",
		"#2 0x0008 s_add_u32 s1, s0, 1 s1:0x0->0x1 HAZARD:s0 cyc:1->2",
		"#3 0x000c s_waitcnt lgkmcnt(0) s0:0x0->0x100 cnt(vm,lgkm,exp):0,1,0->0,0,0 cyc:2->201 stall:198",
	}
	for i, w := range want {
		if got := mustStep(t, m).String(); got != w {
			t.Errorf("step %d:\n got %s\nwant %s", i+1, got, w)
		}
	}
}

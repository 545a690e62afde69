package tui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// addrOf returns the address of the n-th (from 1) instruction of d whose
// text starts with prefix.
func addrOf(t *testing.T, d *EmuDebuggee, prefix string, n int) uint64 {
	t.Helper()
	for _, l := range d.Program() {
		if strings.HasPrefix(l.Text, prefix) {
			if n--; n == 0 {
				return l.Addr
			}
		}
	}
	t.Fatalf("no instruction %q", prefix)
	return 0
}

// TestContinueMultiWaveOnSession: in a work-group of four waves with a
// barrier every round (reduction), continue runs on the session (the
// fast engine, barriers enforced by emu) with a watchpoint set too; the
// sum the waves exchanged through LDS is right; reverse-continue takes
// every wave back to the start.
func TestContinueMultiWaveOnSession(t *testing.T) {
	d := openBundled(t, "reduction")
	m := New(d, Options{Color: ColorPlain})
	m.Update(winSize(160, 40))
	end := addrOf(t, d, "s_endpgm", 1)
	runScript(t, m, []gdbStep{{"watch s2", "watchpoint 1: s2"}, {fmt.Sprintf("b 0x%x", end), "breakpoint"}})
	if _, ok := m.fast(); !ok {
		t.Fatal("a wave of four with a register watchpoint does not run on the engine")
	}
	runScript(t, m, []gdbStep{{"c", "breakpoint at"}})
	if v, _ := d.Reg(RegRef{File: 'v', Num: 3, Lane: 0}); v != 32896 {
		t.Fatalf("v3[0] = %d at s_endpgm, want the group's sum 32896", v)
	}
	for i := 1; i < 4; i++ {
		if d.sess.Barriers(i) != 7 || !d.sess.AtBarrier(i) {
			t.Errorf("wave %d passed %d barriers (at one: %v), want waiting at the eighth", i, d.sess.Barriers(i), d.sess.AtBarrier(i))
		}
	}
	runScript(t, m, []gdbStep{{"rc", "at the start of history"}})
	for _, w := range d.waves {
		if w.m.Steps() != 0 {
			t.Errorf("wave %d at step %d after reverse-continue, want 0", w.index, w.m.Steps())
		}
	}
}

// TestConditionEvaluatedByEmu: a breakpoint's condition goes to emu as a
// Cond, evaluated at every hit inside the session's run; continue stops
// only where it holds, and reverse-continue finds the earlier hit where
// it held.
func TestConditionEvaluatedByEmu(t *testing.T) {
	d := openBundled(t, "reduction")
	m := New(d, Options{Color: ColorPlain})
	m.Update(winSize(160, 40))
	at := addrOf(t, d, "s_and_saveexec_b64", 1)
	runScript(t, m, []gdbStep{
		{fmt.Sprintf("b 0x%x if s10 == 32", at), "breakpoint"},
		{"c", "breakpoint at"},
	})
	if v, _ := d.Reg(RegRef{File: 's', Num: 10, Lane: -1}); v != 32 {
		t.Fatalf("stopped with s10 = %d, want 32", v)
	}
	bs := d.sess.Breakpoints()
	if len(bs) != 1 || bs[0].Cond == nil || bs[0].Hits != 1 {
		t.Fatalf("emu holds %d breakpoints (condition handed over: %v)", len(bs), len(bs) == 1 && bs[0].Cond != nil)
	}
	runScript(t, m, []gdbStep{{"delete", ""}, {fmt.Sprintf("b 0x%x if s10 == 64", at), "breakpoint"}, {"rc", "breakpoint at"}})
	if v, _ := d.Reg(RegRef{File: 's', Num: 10, Lane: -1}); v != 64 {
		t.Fatalf("reverse-continue stopped with s10 = %d, want 64", v)
	}
}

// TestWatchMemoryMultiWave: a memory watchpoint in a work-group of four
// stops continue right after the store (on the engine), and
// reverse-continue right before it.
func TestWatchMemoryMultiWave(t *testing.T) {
	d := openBundled(t, "reduction")
	m := New(d, Options{Color: ColorPlain})
	m.Update(winSize(160, 40))
	var out uint64
	for _, b := range d.Buffers() {
		if b.Name == "out" {
			out = b.Addr
		}
	}
	store := addrOf(t, d, "global_store_dword", 1)
	initial, _ := d.ReadMem(out, 4, false)
	w := fmt.Sprintf("mem[0x%x,+4]", out)
	runScript(t, m, []gdbStep{{fmt.Sprintf("watch *(uint*)0x%x", out), "watchpoint 1: " + w}, {"c", "watchpoint " + w + " changed"}})
	if b, _ := d.ReadMem(out, 4, false); bytes.Equal(b, initial) {
		t.Fatalf("out[0] is still %x at the watch stop", b)
	}
	runScript(t, m, []gdbStep{{"rc", "watchpoint " + w + " changed"}})
	if pc, _ := d.PC(); pc > store {
		t.Errorf("reverse-continue stopped at %#x, want at or before the store at %#x", pc, store)
	}
	if b, _ := d.ReadMem(out, 4, false); !bytes.Equal(b, initial) {
		t.Errorf("out[0] = %x before the change, want %x", b, initial)
	}
}

// TestKeysRunOnSession: the continue key and until LOC run on the
// session's engine like :c (one record kept, not one per step) and count
// the selected wave's steps; the reverse-continue key goes back on it too.
func TestKeysRunOnSession(t *testing.T) {
	d := openBundled(t, "reduction")
	m := New(d, Options{Color: ColorPlain})
	m.Update(winSize(160, 40))
	end := addrOf(t, d, "s_endpgm", 1)
	runScript(t, m, []gdbStep{{fmt.Sprintf("until 0x%x", addrOf(t, d, "s_barrier", 1)), "reached"}})
	if n := len(d.w().recs); n != 1 {
		t.Fatalf("until kept %d records, want 1 (a run on the engine)", n)
	}
	s0 := d.StepCount()
	runScript(t, m, []gdbStep{{fmt.Sprintf("b 0x%x", end), "breakpoint"}})
	drive(m, keyMsg("c"), 10000)
	if pc, _ := d.PC(); pc != end || len(d.w().recs) != 1 {
		t.Fatalf("c stopped at %#x with %d records: %s", pc, len(d.w().recs), m.msg)
	}
	if want := fmt.Sprintf("breakpoint at 0x%x after %d steps", end, d.StepCount()-s0); !strings.Contains(m.msg, want) {
		t.Fatalf("c says %q, want %q", m.msg, want)
	}
	drive(m, keyMsg("C"), 10000)
	if d.StepCount() != 0 || !strings.Contains(m.msg, "at the start of history") {
		t.Fatalf("C: at step %d: %q", d.StepCount(), m.msg)
	}
}

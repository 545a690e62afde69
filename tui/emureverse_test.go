package tui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/wavedbg/wavedbg/loader"
	"github.com/wavedbg/wavedbg/samples"
)

// openCounted opens vector_add (one wave) with a counted loop of three
// instructions written over its entry:
//
//	s_add_u32 s100, s100, 1; s_cmp_lg_u32 s100, N; s_cbranch_scc1 -4
//
// so that the instruction after it, at the returned address, comes 3N
// instructions after the start.
func openCounted(t testing.TB, n uint32) (*EmuDebuggee, uint64) {
	t.Helper()
	s, ok := samples.Lookup("vector_add")
	if !ok {
		t.Fatal("no sample vector_add")
	}
	mf, err := s.RunManifest()
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Clone(s.CodeObject)
	co, err := loader.NewCodeObject(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	entry := co.Kernels[0].Entry
	off := co.Text.Offset + entry - co.Text.Addr
	co.Close()
	loop := []byte{0x64, 0x81, 0x64, 0x80, 0x64, 0xff, 0x07, 0xbf, byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24), 0xfc, 0xff, 0x85, 0xbf}
	copy(data[off:], loop)
	d, err := Open(data, Launch{Manifest: mf})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return d, entry + uint64(len(loop))
}

// TestContinueRunsOnEngine: continue to a breakpoint 30,000 instructions
// away runs on emu's engine (the wave records: checkpoints, no journal of
// the run) and keeps the last instruction's record; reverse-stepi,
// the step-back key and reverse-continue go back by replay, to the exact
// step.
func TestContinueRunsOnEngine(t *testing.T) {
	d, after := openCounted(t, 10000)
	m := New(d, Options{Color: ColorPlain})
	m.Update(winSize(120, 40))
	runScript(t, m, []gdbStep{
		{"b " + hex(after), "breakpoint 1 at " + hex(after)},
		{"c", "breakpoint at " + hex(after) + " after 30000 steps"},
	})
	w := d.w()
	if w.m.HistoryLen() > 1 || w.m.Checkpoints() < 1 || len(w.recs) != 1 || w.recs[0].PC != after-4 {
		t.Fatalf("after continue: journal %d, checkpoints %d, records %d", w.m.HistoryLen(), w.m.Checkpoints(), len(w.recs))
	}
	runScript(t, m, []gdbStep{{"rsi 2", ""}})
	if d.StepCount() != 29998 || w.recs[0].PC != after-16 {
		t.Fatalf("rsi 2: at step %d, last record at %#x", d.StepCount(), w.recs[0].PC)
	}
	drive(m, keyMsg("b"), 0) // the step-back key
	if pc, _ := d.PC(); d.StepCount() != 29997 || pc != after-16 {
		t.Fatalf("step back: at step %d, pc %#x", d.StepCount(), pc)
	}
	s100, _ := d.Reg(RegRef{File: 's', Num: 100, Lane: -1})
	if s100 != 9999 {
		t.Fatalf("s100 = %d at step 29997, want 9999", s100)
	}
	runScript(t, m, []gdbStep{{"rc", "at the start of history after 29997 steps"}})
	if d.StepCount() != 0 {
		t.Fatalf("reverse-continue: at step %d, want 0", d.StepCount())
	}
}

// TestSetIsUndoneByStepBack: setting a register keeps the history (it
// used to drop it) and stepping back undoes the edit, then the step
// before it.
func TestSetIsUndoneByStepBack(t *testing.T) {
	d, _ := openCounted(t, 10)
	m := New(d, Options{Color: ColorPlain})
	m.Update(winSize(120, 40))
	runScript(t, m, []gdbStep{{"si 4", ""}, {"set s100 = 7", ""}, {"si", ""}})
	reg := func() uint32 { v, _ := d.Reg(RegRef{File: 's', Num: 100, Lane: -1}); return v }
	if reg() != 7 || d.StepCount() != 5 {
		t.Fatalf("after set and step: s100 = %d at step %d", reg(), d.StepCount())
	}
	runScript(t, m, []gdbStep{{"rsi", ""}})
	if reg() != 7 || d.StepCount() != 4 {
		t.Fatalf("back over the step: s100 = %d at step %d, want 7 at 4", reg(), d.StepCount())
	}
	runScript(t, m, []gdbStep{{"rsi", ""}})
	if reg() != 2 || d.StepCount() != 4 {
		t.Fatalf("back over the edit: s100 = %d at step %d, want 2 at 4", reg(), d.StepCount())
	}
	runScript(t, m, []gdbStep{{"rsi 10", "at the start of history"}})
	if d.StepCount() != 0 {
		t.Fatalf("at step %d, want 0", d.StepCount())
	}
}

// TestReverseFinish: from inside a callee, reverse-finish goes back to
// the s_swappc_b64 that called it.
func TestReverseFinish(t *testing.T) {
	d := openCalls(t)
	m := New(d, Options{Color: ColorPlain})
	runScript(t, m, []gdbStep{
		{"b 0x2164", "breakpoint 1 at 0x2164"},
		{"c", "breakpoint at 0x2164"},
		{"si 3", ""},
		{"reverse-finish", "back 3 steps to the call at 0x2164"},
	})
	if pc, _ := d.PC(); pc != 0x2164 {
		t.Errorf("pc %#x after reverse-finish, want 0x2164", pc)
	}
}

func hex(a uint64) string { return fmt.Sprintf("0x%x", a) }

// TestInterruptedContinueKeepsRecord: Ctrl-C stops a continue on the
// engine between chunks, and the panes' record is of the last instruction
// run (not of the last single step before the continue).
func TestInterruptedContinueKeepsRecord(t *testing.T) {
	d, _ := openCounted(t, 1<<30)
	m := New(d, Options{Color: ColorPlain})
	m.Update(winSize(120, 40))
	runScript(t, m, []gdbStep{{"si", ""}})
	drive(m, keyMsg(":"), 0)
	drive(m, keyMsg("c"), 0)
	_, cmd := m.Update(keyMsg("enter")) // the first chunk
	if cmd == nil {
		t.Fatalf("continue ended at once: %s", m.msg)
	}
	m.Update(keyMsg("ctrl+c"))
	drive(m, cmd(), 10)
	w := d.w()
	if !strings.Contains(m.msg, "stopped after") || len(w.recs) != 1 || w.recs[0].Seq != w.m.Steps() {
		t.Fatalf("msg %q, %d records, last seq %d at step %d", m.msg, len(w.recs), w.recs[len(w.recs)-1].Seq, w.m.Steps())
	}
}

// TestFlowReverseAfterContinue: the frame after continue to a breakpoint
// 30,000 instructions away (on emu's engine) and reverse-stepi 2 (by
// replay): step 29998, and the last-step pane shows the s_add_u32 that
// led there.
func TestFlowReverseAfterContinue(t *testing.T) {
	d, after := openCounted(t, 10000)
	tm := teatest.NewTestModel(t, New(d, Options{Color: ColorPlain}), teatest.WithInitialTermSize(120, 36))
	typeGDBLine(tm, "b "+hex(after))
	typeGDBLine(tm, "c")
	waitFor(t, tm, "after 30000 steps")
	typeGDBLine(tm, "rsi 2")
	waitFor(t, tm, "step 29998")
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	golden.RequireEqual(t, fm.Render())
}

// TestPreviewFollowsReverseStep: after going back, the address decoder
// and explain line render emu's preview of the instruction now at the PC,
// not the one cached before the reverse step.
func TestPreviewFollowsReverseStep(t *testing.T) {
	d, _ := openCounted(t, 10)
	m := New(d, Options{Color: ColorPlain})
	m.Update(winSize(120, 40))
	for _, cmd := range []string{"rsi", "reverse-continue"} {
		runScript(t, m, []gdbStep{{"si 4", ""}})
		before := d.preview().Index
		runScript(t, m, []gdbStep{{cmd, ""}})
		fresh, _ := d.w().m.Preview()
		if got := d.preview().Index; got != fresh.Index || got == before {
			t.Errorf("%s: preview of instruction %d, emu previews %d (before: %d)", cmd, got, fresh.Index, before)
		}
	}
}

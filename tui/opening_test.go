package tui

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/loader"
	"github.com/wavedbg/wavedbg/samples"
)

// bigGroups is how many work-groups wideOpen's grid has.
const bigGroups = 4096

// wideOpen returns what opens wave n of vector_add over a grid of
// bigGroups one-wave work-groups (the sample's launch, widened).
func wideOpen(t *testing.T, n uint64) openFunc {
	t.Helper()
	s, _ := samples.Lookup("vector_add")
	mf, err := s.RunManifest()
	if err != nil {
		t.Fatal(err)
	}
	mf.Grid.V[0] = 64 * bigGroups
	return func(ctx context.Context, progress func(emu.GridProgress)) (Debuggee, error) {
		return OpenCodeObjectContext(ctx, mustCodeObject(t, s.CodeObject), Launch{Manifest: mf, Wave: n, Progress: progress})
	}
}

// gated returns a progress callback that forwards each report to f, then
// (the first time) waits until gate is closed or ctx is done: the run
// cannot end before the test has seen a report.
func gated(ctx context.Context, gate <-chan struct{}, f func(emu.GridProgress)) func(emu.GridProgress) {
	return func(p emu.GridProgress) {
		if f != nil {
			f(p)
		}
		select {
		case <-gate:
		case <-ctx.Done():
		}
	}
}

// TestOpeningProgressLine: the screen while a wave opens is its progress
// line, with the work-groups run of those before it.
func TestOpeningProgressLine(t *testing.T) {
	s := NewStarting(NewApp([]PickerItem{}, nil, Options{Color: ColorPlain}), 16383, nil, nil)
	s.Update(winSize(100, 6))
	s.Update(openProgressMsg{o: s.o, p: emu.GridProgress{WorkGroups: 1234, Total: 16383, Instructions: 5e6}})
	if want := "opening wave 16383: running work-groups before it, 1,234 / 16,383 (7%) — Ctrl-C stops"; !strings.Contains(s.Render(), want) {
		t.Errorf("screen\n%s\nlacks %q", s.Render(), want)
	}
	golden.RequireEqual(t, s.Render())
}

// TestOpeningStartShowsProgressThenFrame: wavedbg --wave N on a grid of
// many work-groups starts with the progress line (keys other than Ctrl-C
// and q ignored), then shows the wave's first frame.
func TestOpeningStartShowsProgressThenFrame(t *testing.T) {
	const wave = bigGroups - 1
	gate := make(chan struct{})
	open := wideOpen(t, wave)
	start := NewStarting(NewApp([]PickerItem{}, nil, Options{Color: ColorPlain}), wave,
		func(ctx context.Context, progress func(emu.GridProgress)) (Debuggee, error) {
			return open(ctx, gated(ctx, gate, progress))
		}, nil)
	tm := teatest.NewTestModel(t, start, teatest.WithInitialTermSize(120, 36))
	waitFor(t, tm, "opening wave 4095: ")
	send(tm, "s", "c") // ignored while the wave opens
	close(gate)
	waitFor(t, tm, "wave 4095/4096")
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Starting)
	if fm.Err() != nil || fm.app.Debugger() == nil {
		t.Fatalf("no debugger: %v", fm.Err())
	}
	if d := fm.app.Debugger().dbg; d.Selected() != wave || d.StepCount() != 0 {
		t.Errorf("wave %d at step %d, want wave %d at step 0", d.Selected(), d.StepCount(), wave)
	}
	golden.RequireEqual(t, fm.Render())
}

// TestOpeningStartCtrlCQuits: Ctrl-C while the starting wave opens ends
// the program with an error that says how far the opening got.
func TestOpeningStartCtrlCQuits(t *testing.T) {
	open := wideOpen(t, bigGroups-1)
	start := NewStarting(NewApp([]PickerItem{}, nil, Options{Color: ColorPlain}), bigGroups-1,
		func(ctx context.Context, progress func(emu.GridProgress)) (Debuggee, error) {
			return open(ctx, gated(ctx, nil, progress)) // waits for the cancellation
		}, nil)
	tm := teatest.NewTestModel(t, start, teatest.WithInitialTermSize(120, 36))
	waitFor(t, tm, "opening wave 4095: ")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Starting)
	err := fm.Err()
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "opening wave 4095 interrupted") {
		t.Errorf("error %v, want opening wave 4095 interrupted, wrapping context.Canceled", err)
	}
	if fm.app.Debugger() != nil {
		t.Error("the debugger opened after Ctrl-C")
	}
}

// gateRelaunch makes d's waves of other work-groups open only once gate
// is closed (or the opening is stopped), after a first progress report.
func gateRelaunch(d *EmuDebuggee, gate <-chan struct{}) {
	orig := d.relaunch
	d.relaunch = func(ctx context.Context, n uint64, progress func(emu.GridProgress)) (*EmuDebuggee, error) {
		nd, err := orig(ctx, n, gated(ctx, gate, progress))
		if nd != nil {
			gateRelaunch(nd, gate)
		}
		return nd, err
	}
}

// TestOpeningWaveCtrlCKeepsWave: `wave N` of another work-group opens in
// the background under the progress line; Ctrl-C stops it, and the
// debugger stays on the wave it was on and says so. Opening it again with
// the gate open shows it.
func TestOpeningWaveCtrlCKeepsWave(t *testing.T) {
	d := openBundled(t, "reduction")
	if err := d.Step(); err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	gateRelaunch(d, gate)
	m := New(d, Options{Color: ColorPlain})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36))
	send(tm, ":")
	for _, r := range "wave 5" {
		send(tm, string(r))
	}
	send(tm, "enter")
	waitFor(t, tm, "opening wave 5: ")
	send(tm, "s") // ignored
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	waitFor(t, tm, "opening wave 5 stopped; still on wave 0")
	send(tm, "s") // steps wave 0 again
	waitFor(t, tm, "step 2")
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	if fm.dbg.Selected() != 0 || fm.dbg.StepCount() != 2 || fm.opening != nil {
		t.Errorf("wave %d at step %d (opening %v), want wave 0 at step 2", fm.dbg.Selected(), fm.dbg.StepCount(), fm.opening)
	}
	golden.RequireEqual(t, fm.Render())

	// The waves pane's ] to the next work-group, the gate open.
	close(gate)
	m = fm
	m.selectWave(3)
	cmd := m.selectWave(4)
	if cmd == nil || m.opening == nil {
		t.Fatal("wave 4 (the second work-group) did not open in the background")
	}
	for cmd != nil {
		_, cmd = m.Update(cmd())
	}
	if m.dbg.Selected() != 4 || m.dbg.StepCount() != 0 || !strings.Contains(m.msg, "wave 4: group 1,0,0") {
		t.Errorf("wave %d at step %d, %q; want wave 4 of group 1 at step 0", m.dbg.Selected(), m.dbg.StepCount(), m.msg)
	}
}

// TestOpeningBatchInterrupted: without a screen (Batch), a cancelled
// Options.Context stops `wave N` of another work-group with an error, and
// the wave stays.
func TestOpeningBatchInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var lines []string
	d := openBundled(t, "reduction")
	m := New(d, Options{Color: ColorPlain, Context: ctx, Progress: func(l string) { lines = append(lines, l) }})
	if out, _, err := m.Batch("wave 5"); err != nil || !strings.Contains(out, "wave 5: group 1,0,0") {
		t.Fatalf("wave 5: %q, %v", out, err)
	}
	cancel()
	_, _, err := m.Batch("wave 1")
	if err == nil || !strings.HasPrefix(err.Error(), "opening wave 1 interrupted") {
		t.Errorf("wave 1 after the interrupt: %v, want opening wave 1 interrupted", err)
	}
	if m.dbg.Selected() != 5 {
		t.Errorf("on wave %d, want 5", m.dbg.Selected())
	}
}

// mustCodeObject reads a code object.
func mustCodeObject(t *testing.T, data []byte) *loader.CodeObject {
	t.Helper()
	co, err := loader.NewCodeObject(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return co
}

// TestOpeningStoppedAsItEndsKeepsWave: Ctrl-C while the opening is ending
// (it succeeds all the same) still keeps the wave the debugger was on.
func TestOpeningStoppedAsItEndsKeepsWave(t *testing.T) {
	d := openBundled(t, "reduction")
	orig := d.relaunch
	d.relaunch = func(ctx context.Context, n uint64, progress func(emu.GridProgress)) (*EmuDebuggee, error) {
		progress(emu.GridProgress{WorkGroups: 1, Total: 1})
		<-ctx.Done()
		return orig(context.Background(), n, nil) // ends regardless
	}
	m := New(d, Options{Color: ColorPlain})
	cmd := m.selectWave(5)
	_, cmd = m.Update(cmd()) // the progress report
	m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	msg := cmd()
	if o, ok := msg.(openedMsg); !ok || o.err != nil {
		t.Fatalf("%#v, want the opening's success", msg)
	}
	m.Update(msg)
	if m.dbg.Selected() != 0 || m.opening != nil || m.msg != "opening wave 5 stopped; still on wave 0" {
		t.Errorf("on wave %d, %q; want wave 0, opening wave 5 stopped", m.dbg.Selected(), m.msg)
	}
}

// TestOpeningProgressText: the progress line through an opening — before
// the first report, while the work-groups before the wave run, while its
// work-group is set up, and once Ctrl-C was pressed.
func TestOpeningProgressText(t *testing.T) {
	o := newOpening(nil, 9, nil)
	steps := []struct {
		p    *emu.GridProgress
		stop bool
		want string
	}{
		{nil, false, "opening wave 9: running work-groups before it… — Ctrl-C stops"},
		{&emu.GridProgress{WorkGroups: 1500, Total: 2000}, false, "opening wave 9: running work-groups before it, 1,500 / 2,000 (75%) — Ctrl-C stops"},
		{&emu.GridProgress{WorkGroups: 2000, Total: 2000}, false, "opening wave 9: setting up its work-group… — Ctrl-C stops"},
		{nil, true, "opening wave 9: stopping…"},
	}
	for i, s := range steps {
		if s.p != nil {
			o.update(*s.p)
		}
		o.stopped = s.stop
		if got := o.text(); got != s.want {
			t.Errorf("step %d: %q, want %q", i, got, s.want)
		}
	}
}

package tui

import (
	"context"
	"errors"

	"github.com/wavedbg/wavedbg/emu"
)

// This file is EmuDebuggee's engine-speed moves (fastRunner): continue on
// emu's fast engine and reverse execution by emu's checkpoints and replay,
// for a wave that records (the only wave of its work-group: it alone
// writes its memory).

// Fast reports whether the selected wave records, so that continue and
// the reverse moves run on emu's engine.
func (d *EmuDebuggee) Fast() bool { return d.w().m.Recording() }

// RunFast runs the selected wave on emu's fast engine until the next
// instruction has one of the breakpoints (not the one it starts on), it
// ends, traps, faults or budget instructions have run. The last
// instruction's record is kept, as a step's would be.
func (d *EmuDebuggee) RunFast(ctx context.Context, breaks []uint64, budget int64) (int64, emu.StopReason, error) {
	w := d.w()
	m := w.m
	syncBreaks(m, breaks)
	res, err := m.Run(ctx, budget)
	w.stale()
	if err != nil && !errors.Is(err, emu.ErrEnded) && res.Reason != emu.StopCanceled {
		w.err = err
	}
	if res.Steps > 0 && res.Reason != emu.StopBudget && res.Reason != emu.StopCanceled {
		d.rerecord(w)
	}
	if res.Reason == emu.StopCanceled {
		err = nil
	}
	return res.Steps, res.Reason, err
}

// Settle keeps the record of the last instruction after a run stopped
// between chunks (Ctrl-C).
func (d *EmuDebuggee) Settle() { d.rerecord(d.w()) }

// rerecord replaces the records with the one of the instruction that led
// to where the wave is.
func (d *EmuDebuggee) rerecord(w *waveRun) {
	w.forget()
	if rec, err := w.m.LastRecord(context.Background()); err == nil && rec != nil {
		w.push(rec)
	}
	w.stale()
}

// ReverseStepN goes back n units (instructions, or edits made since the
// last one); moved is false when it was at the start of the recording,
// atStart reports whether it is there now.
func (d *EmuDebuggee) ReverseStepN(n int) (moved, atStart bool, err error) {
	w := d.w()
	rec, err := w.m.ReverseStep(context.Background(), uint64(n))
	if errors.Is(err, emu.ErrNoHistory) {
		return false, true, nil
	}
	w.forget()
	w.stale()
	w.err = nil
	if rec != nil {
		w.push(rec)
	}
	return true, w.m.AtStart(), err
}

// ReverseContinue goes back to the last earlier position where the next
// instruction has one of the breakpoints, else to the start (atStart).
func (d *EmuDebuggee) ReverseContinue(ctx context.Context, breaks []uint64) (steps int64, atStart bool, err error) {
	w := d.w()
	m := w.m
	syncBreaks(m, breaks)
	res, err := m.ReverseContinue(ctx)
	if errors.Is(err, emu.ErrNoHistory) {
		return 0, true, nil
	}
	w.stale()
	w.err = nil
	d.rerecord(w)
	return res.Steps, res.Reason == emu.StopStart, err
}

// ReverseFinish goes back to the call that entered the current frame.
func (d *EmuDebuggee) ReverseFinish(ctx context.Context) (int64, error) {
	w := d.w()
	res, err := w.m.ReverseFinish(ctx)
	w.stale()
	w.err = nil
	d.rerecord(w)
	if errors.Is(err, emu.ErrOutermost) {
		return 0, errors.New("reverse-finish: no call of this frame was recorded (outermost frame)")
	}
	return res.Steps, err
}

// syncBreaks makes breaks emu's breakpoints, leaving those already set
// (emu remembers where runs found none of them).
func syncBreaks(m *emu.Machine, breaks []uint64) {
	want := make(map[uint64]bool, len(breaks))
	for _, a := range breaks {
		want[a] = true
	}
	for _, a := range m.Breakpoints() {
		if !want[a] {
			m.ClearBreakpoint(a)
		}
	}
	for _, a := range breaks {
		m.SetBreakpoint(a) // an address with no instruction cannot be reached
	}
}

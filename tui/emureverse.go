package tui

import (
	"context"
	"errors"
	"slices"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// This file is EmuDebuggee's engine-speed moves (fastRunner): continue on
// emu's fast engine and reverse execution by emu's checkpoints and replay,
// both on the session, for every wave of the work-group; and the stops
// handed to emu, which evaluates them inside its run loop.

// Fast reports that continue and the reverse moves run on the session.
func (d *EmuDebuggee) Fast() bool { return true }

// Watchable reports whether emu can watch w: memory, or a register of the
// selected wave that has a state slot (SGPRs, TTMPs, VCC, EXEC, M0, SCC
// and VGPR lanes).
func (d *EmuDebuggee) Watchable(w *watchpoint) bool {
	_, ok := d.emuWatches(w)
	return ok
}

// emuWatches is the emu watchpoints that watch what w does (a VGPR
// without a lane is one per lane).
func (d *EmuDebuggee) emuWatches(w *watchpoint) ([]emu.Watchpoint, bool) {
	if w.ref == nil {
		return []emu.Watchpoint{{Kind: emu.WatchMemory, Addr: w.addr, Size: w.size}}, true
	}
	r, wave := *w.ref, d.sel
	scalar := func(code int) ([]emu.Watchpoint, bool) {
		return []emu.Watchpoint{{Kind: emu.WatchScalar, Wave: wave, Reg: code}}, true
	}
	switch r.File {
	case 's':
		if r.Num >= 0 && r.Num < 128 {
			return scalar(r.Num)
		}
	case 't':
		if code, err := d.w().m.TTMPCode(r.Num); err == nil {
			return scalar(code)
		}
	case 'x':
		if isa.Special(r.Num) == isa.SCC {
			return scalar(emu.WatchSCC)
		}
		if r.Num >= 0 && r.Num < 128 {
			return scalar(r.Num)
		}
	case 'v':
		if r.Lane >= 0 {
			return []emu.Watchpoint{{Kind: emu.WatchVGPR, Wave: wave, Reg: r.Num, Lane: r.Lane}}, true
		}
		out := make([]emu.Watchpoint, 64)
		for l := range out {
			out[l] = emu.Watchpoint{Kind: emu.WatchVGPR, Wave: wave, Reg: r.Num, Lane: l}
		}
		return out, true
	}
	return nil, false
}

// emuCond hands a breakpoint's condition to emu, which evaluates it at
// every hit inside its run loop: it is tui's own evaluator (a register
// comparison or an expression, read through the Debuggee), so that a
// condition means the same on the engine as after a step. It reads the
// wave that reached the breakpoint (an any-wave one's may not be the
// selected wave), its cached snapshot dropped first: the wave moved since.
type emuCond struct {
	d *EmuDebuggee
	c *condition
}

func (c emuCond) Holds(m *emu.Machine) (bool, error) {
	d, sel := c.d, c.d.sel
	for i, w := range d.waves {
		if w.m == m {
			d.sel = i
		}
	}
	defer func() { d.sel = sel }()
	d.w().stale()
	return c.c.holds(d), nil
}

func (c emuCond) String() string { return c.c.String() }

// SetStops hands the enabled breakpoints (with their conditions) and
// watchpoints to the session, unless they are the ones it holds.
func (d *EmuDebuggee) SetStops(breaks []*breakpoint, watches []*watchpoint) {
	st := &d.stops
	if slices.Equal(st.breaks, breaks) && slices.Equal(st.watches, watches) && st.ids != nil && st.sel == d.sel {
		return
	}
	for _, b := range d.sess.Breakpoints() {
		d.sess.Delete(b.ID)
	}
	for _, w := range d.sess.Watchpoints() {
		d.sess.Delete(w.ID)
	}
	st.breaks, st.watches, st.sel = slices.Clone(breaks), slices.Clone(watches), d.sel
	st.ids, st.bids = map[int]*watchpoint{}, map[int]*breakpoint{}
	for _, b := range breaks {
		eb := emu.Breakpoint{PC: b.addr, AnyWave: b.anyWave}
		if b.cond != nil {
			eb.Cond = emuCond{d, b.cond}
		}
		if p, err := d.sess.Break(eb); err == nil { // an address with no instruction cannot be reached
			st.bids[p.ID] = b
		}
	}
	for _, w := range watches {
		ews, _ := d.emuWatches(w)
		for _, ew := range ews {
			if p, err := d.sess.Watch(ew); err == nil {
				st.ids[p.ID] = w
			}
		}
	}
}

// fastStop is how a move on the session stopped.
type fastStop struct {
	steps   int64 // the selected wave's instructions run (or gone back)
	reason  emu.StopReason
	watch   *watchpoint // the watchpoint that changed (StopWatchpoint)
	atStart bool
	// hit is the any-wave breakpoint that stopped wave, another wave than
	// the one selected when the run started, and now selected.
	hit  *breakpoint
	wave int
}

// RunFast continues the selected wave on the session (the others as
// barriers need) until a stop SetStops gave it, target (noAddr: none),
// the end, a trap or fault, or budget group instructions. The last
// instruction's record is kept, as a step's would be.
func (d *EmuDebuggee) RunFast(ctx context.Context, budget int64, target uint64) (fastStop, error) {
	before := d.positions()
	var st emu.Stop
	if target != noAddr {
		st = d.sess.RunTo(ctx, target, budget)
	} else {
		st = d.sess.Continue(ctx, budget)
	}
	d.movedOthers(before)
	w := d.w()
	w.stale()
	err := st.Err
	if errors.Is(err, emu.ErrEnded) {
		err = nil
	}
	if err != nil && st.Reason != emu.StopBreakpoint {
		w.err = err
	}
	if st.Steps > 0 && st.Reason != emu.StopBudget && st.Reason != emu.StopCanceled {
		d.rerecord(w)
	}
	var switched bool
	if st.Reason == emu.StopBreakpoint && st.Err == nil && st.Wave != d.sel && st.Wave >= 0 && st.Wave < len(d.waves) {
		// an any-wave breakpoint stopped another wave: it is selected
		d.sel, switched = st.Wave, true
		d.sess.Select(d.sel) // a wave of the group: cannot fail
		d.rerecord(d.w())
	}
	fs := d.fastStop(st, before)
	if switched {
		fs.hit, fs.wave = d.stops.bids[st.Breakpoint], d.Selected()
	}
	return fs, err
}

// fastStop converts a session stop; before are the waves' positions
// before the move.
func (d *EmuDebuggee) fastStop(st emu.Stop, before []uint64) fastStop {
	now := d.w().m.Steps()
	steps := int64(now - before[d.sel])
	if now < before[d.sel] {
		steps = int64(before[d.sel] - now)
	}
	fs := fastStop{steps: steps, reason: st.Reason, atStart: st.Reason == emu.StopStart}
	if st.Reason == emu.StopWatchpoint {
		fs.watch = d.stops.ids[st.Watchpoint]
	}
	return fs
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

// reversed updates the views after a reverse move: every wave may have
// moved; the selected one keeps the record of its last instruction.
func (d *EmuDebuggee) reversed(before []uint64, rec *emu.StepRecord) {
	d.movedOthers(before)
	w := d.w()
	w.forget()
	w.stale()
	w.err = nil
	if rec != nil {
		w.push(rec)
	}
}

// ReverseStepN goes back n units (instructions of the selected wave, or
// edits made since its last one); moved is false when it was at the start
// of the recording, atStart reports whether it is there now.
func (d *EmuDebuggee) ReverseStepN(n int) (moved, atStart bool, err error) {
	before := d.positions()
	rec, st := d.sess.ReverseStep(context.Background(), uint64(n))
	if st.Reason == emu.StopStart {
		return false, true, nil
	}
	d.reversed(before, rec)
	return true, d.sess.AtStart(), st.Err
}

// ReverseContinue goes back to the last earlier position where the
// selected wave was about to execute a breakpoint whose condition held, or
// right after a watched value changed, else to the start (atStart).
func (d *EmuDebuggee) ReverseContinue(ctx context.Context) (fastStop, error) {
	before := d.positions()
	st := d.sess.ReverseContinue(ctx)
	if st.Reason == emu.StopStart && st.Steps == 0 {
		return d.fastStop(st, before), nil
	}
	d.reversed(before, nil)
	d.rerecord(d.w())
	return d.fastStop(st, before), st.Err
}

// ReverseFinish goes back to the call that entered the current frame.
func (d *EmuDebuggee) ReverseFinish(ctx context.Context) (int64, error) {
	before := d.positions()
	st := d.sess.ReverseFinish(ctx)
	d.reversed(before, nil)
	d.rerecord(d.w())
	if errors.Is(st.Err, emu.ErrOutermost) {
		return 0, errors.New("reverse-finish: no call of this frame was recorded (outermost frame)")
	}
	return st.Steps, st.Err
}

// HistoryRestarts says how often the recording restarted to stay within
// its budget (the work-group wrote more memory than it could keep the
// originals of).
func (d *EmuDebuggee) HistoryRestarts() int { return d.w().m.Rebases() }

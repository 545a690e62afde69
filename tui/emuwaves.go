package tui

import (
	"context"
	"fmt"

	"github.com/wavedbg/wavedbg/emu"
)

// WaveCount is the number of waves in the dispatch.
func (d *EmuDebuggee) WaveCount() int { return int(d.sess.Dispatch.WaveCount()) }

// Waves lists the waves around the selected one (at most waveWindow). The
// loaded work-group's waves are live; the ones before it have run to
// completion (memory holds their results) and the ones after it have not
// started.
func (d *EmuDebuggee) Waves() []WaveRow {
	lo, hi := window(d.Selected(), d.WaveCount(), waveWindow)
	out := gridWaves(d.sess.Dispatch, lo, hi)
	for i := range out {
		switch id := out[i].ID; {
		case id < d.first:
			out[i].State, out[i].Idle = "done", true
		case id >= d.first+len(d.waves):
			out[i].State, out[i].Idle = "not run", true
		}
	}
	for i, w := range d.waves {
		k := d.first + i - lo
		if k < 0 || k >= len(out) {
			continue
		}
		st := w.m.State().String()
		if w.err != nil && w.m.State() == emu.Faulted {
			st = "faulted"
		} else if d.sess.AtBarrier(i) && w.m.Steps() > 0 {
			st = "barrier"
		}
		out[k] = WaveRow{ID: d.first + i, Group: w.group, Wave: w.index, PC: w.m.PC(), State: st}
	}
	return out
}

// window returns the range [lo, hi) of at most size of total items that
// centres on sel (clamped to the ends).
func window(sel, total, size int) (lo, hi int) {
	lo = max(min(sel-size/2, total-size), 0)
	return lo, min(lo+size, total)
}

// gridWaves lists the dispatch's waves [lo, hi) in dispatch order: each
// work-group's work-items split into 64-lane waves.
func gridWaves(ds *emu.Dispatch, lo, hi int) []WaveRow {
	out := make([]WaveRow, 0, max(hi-lo, 0))
	for n := lo; n < hi; n++ {
		gi, w, ok := ds.WaveAt(uint64(n))
		if !ok {
			break
		}
		id := ds.GroupID(gi)
		out = append(out, WaveRow{ID: n, Group: [3]int{int(id[0]), int(id[1]), int(id[2])}, Wave: w})
	}
	return out
}

// groupStop is how thread apply all stepi stopped.
type groupStop struct {
	reason   emu.StopReason // StopBudget: every round ran
	wave     int            // the wave it concerns (dispatch order)
	brk      *breakpoint    // the breakpoint reached (StopBreakpoint)
	watch    *watchpoint    // the watchpoint that changed (StopWatchpoint)
	switched bool           // brk stopped a wave other than the selected one, now selected
	err      error          // a fault or execution error
}

// StepGroup runs n rounds of Session.StepAll: one instruction of every
// live wave, in wave order. It stops early at a watched change, a fault,
// a trap, the end of every wave, or (before the last round) a wave about
// to execute a breakpoint that applies to it; a breakpoint of another wave
// selects that wave. The selected wave keeps the record of its last
// instruction.
func (d *EmuDebuggee) StepGroup(ctx context.Context, n int) groupStop {
	before := d.positions()
	gs := d.stepRounds(ctx, n)
	d.movedOthers(before)
	if w := d.w(); w.m.Steps() != before[d.sel] {
		d.rerecord(w)
	}
	if gs.brk != nil && gs.wave != d.Selected() {
		d.sel = gs.wave - d.first
		d.sess.Select(d.sel) // a wave of the group: cannot fail
		d.rerecord(d.w())
		gs.switched = true
	}
	return gs
}

// stepRounds is StepGroup's loop.
func (d *EmuDebuggee) stepRounds(ctx context.Context, n int) groupStop {
	stop := func(r emu.StopReason, wave int, err error) groupStop {
		return groupStop{reason: r, wave: d.first + wave, err: err}
	}
	for k := 0; k < n; k++ {
		if ctx.Err() != nil {
			return stop(emu.StopCanceled, d.sel, nil)
		}
		if !d.anyLive() {
			return stop(emu.StopEnded, d.sel, nil)
		}
		t0, pos := d.sess.Position(), d.positions()
		st := d.sess.StepAll(ctx)
		if st.Reason != emu.StopBudget {
			gs := stop(st.Reason, st.Wave, st.Err)
			if st.Reason == emu.StopWatchpoint {
				gs.watch = d.stops.ids[st.Watchpoint]
			}
			if st.Err != nil && st.Wave >= 0 && st.Wave < len(d.waves) {
				d.waves[st.Wave].err = st.Err
			}
			return gs
		}
		if d.sess.Position() == t0 {
			return stop(emu.StopError, d.sel, fmt.Errorf("no wave of the work-group can move (each waits at an s_barrier)"))
		}
		for i, w := range d.waves {
			if w.m.Steps() == pos[i] {
				continue // a trap it stopped at before
			}
			switch w.m.State() {
			case emu.Trapped:
				return stop(emu.StopTrap, i, nil)
			case emu.Halted:
				return stop(emu.StopHalt, i, nil)
			}
		}
		if k < n-1 {
			if i, b, ok := d.breakReached(); ok {
				gs := stop(emu.StopBreakpoint, i, nil)
				gs.brk = b
				return gs
			}
		}
	}
	return stop(emu.StopBudget, d.sel, nil)
}

// anyLive reports whether some wave of the group can still run.
func (d *EmuDebuggee) anyLive() bool {
	for _, w := range d.waves {
		if st := w.m.State(); st != emu.Ended && st != emu.Faulted {
			return true
		}
	}
	return false
}

// breakReached returns the first wave, in wave order, about to execute an
// enabled breakpoint of the session (SetStops) that applies to it (the
// selected wave's, or an any-wave one) and whose condition holds there.
func (d *EmuDebuggee) breakReached() (int, *breakpoint, bool) {
	bps := d.sess.Breakpoints()
	for i, w := range d.waves {
		if st := w.m.State(); st == emu.Ended || st == emu.Faulted {
			continue
		}
		pc := w.m.PC()
		for _, b := range bps {
			if b.Disabled || b.PC != pc || !b.AnyWave && i != d.sel {
				continue
			}
			if b.Cond != nil {
				if ok, err := b.Cond.Holds(w.m); err != nil || !ok {
					continue
				}
			}
			if tb := d.stops.bids[b.ID]; tb != nil {
				return i, tb, true
			}
		}
	}
	return 0, nil, false
}

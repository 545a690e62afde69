package emu

import (
	"context"
	"errors"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// This file is the session's reverse moves over the group's recording:
// each goes back to an earlier position of the whole work-group, the
// exact state a forward run of the same schedule reaches there.

// ReverseStep goes back n units of the selected wave: an edit made at the
// current position, else the wave's last instruction — the group goes
// back to just before it. It returns the record of the wave's instruction
// that led there (its last before the new position), when there is one.
// Reason is StopStart when it was already at the start of the recording.
func (s *Session) ReverseStep(ctx context.Context, n uint64) (*StepRecord, Stop) {
	m := s.waves[s.sel]
	t0 := s.rp.now()
	rec, err := m.ReverseStep(ctx, n)
	st := s.stopOf(s.sel, StopBudget, int64(t0-s.rp.now()), err)
	if errors.Is(err, core.ErrNoHistory) {
		st.Reason, st.Err = StopStart, nil
	}
	return rec, st
}

// ReverseFinish goes back to the call that entered the selected wave's
// current frame (StopCall), or reports ErrOutermost.
func (s *Session) ReverseFinish(ctx context.Context) Stop {
	m := s.waves[s.sel]
	res, err := m.ReverseFinish(ctx)
	return s.stopOf(s.sel, res.Reason, res.Steps, err)
}

// LastRecord returns the record of the selected wave's instruction that
// led to the current position (nil at the start or right after an edit).
func (s *Session) LastRecord(ctx context.Context) (*StepRecord, error) {
	return s.waves[s.sel].LastRecord(ctx)
}

// ReverseContinue goes back to the last earlier position where the
// selected wave was about to execute one of its breakpoints whose
// condition held there (StopBreakpoint), or where an instruction was
// about to change a watched value (StopWatchpoint, gdb's reverse watch:
// before the instruction, with the values before and after it), else to
// the start of the recording (StopStart).
func (s *Session) ReverseContinue(ctx context.Context) Stop {
	i, m := s.sel, s.waves[s.sel]
	s.syncUserBreaks()
	s.rp.gver = uint64(s.gen)
	keep := func() bool {
		b, err := s.holding(i)
		return b != nil && err == nil
	}
	if s.watching() {
		return s.reverseWatch(ctx)
	}
	res, err := m.reverseSearch(ctx, m.bp, m.nbp > 0, true, keep, func(hits []hitPos) (hitPos, bool) {
		return hits[len(hits)-1], true
	}, StopBreakpoint)
	st := s.stopOf(i, res.Reason, res.Steps, err)
	if errors.Is(err, core.ErrNoHistory) {
		st.Reason, st.Err = StopStart, nil
	}
	if st.Reason == StopBreakpoint {
		if b, _ := s.holding(i); b != nil {
			st.Breakpoint = b.ID
		}
	}
	return st
}

// syncUserBreaks gives the selected wave's machine exactly the session's
// enabled breakpoints that apply to it (no barriers: reverse moves look
// for the user's stops only).
func (s *Session) syncUserBreaks() {
	want := map[uint64]bool{}
	for _, b := range s.bps {
		if !b.Disabled {
			want[b.PC] = true
		}
	}
	syncBreaks(s.waves[s.sel], want)
	s.applied[s.sel] = breakKey{}
}

// pos is a position of the recording.
type pos struct {
	steps uint64
	ev    int
}

// reverseWatch is ReverseContinue with watchpoints: it replays the
// recording a checkpoint's stretch at a time from the newest, noting the
// breakpoint hits and, in chunks, where a watched value changed; in the
// stretch with the last of either it finds the exact instruction and goes
// to the later stop (a breakpoint at the same position wins).
func (s *Session) reverseWatch(ctx context.Context) Stop {
	r, i, m := s.rp, s.sel, s.waves[s.sel]
	s0, e0 := r.now(), r.ev
	moveTo := func(p pos, st Stop) Stop {
		_, err := m.goTo(ctx, p.steps, p.ev)
		st.Wave, st.PC, st.Steps = i, m.PC(), int64(s0-r.now())
		if err != nil && st.Err == nil {
			st.Err = err
		}
		return st
	}
	start := r.cks[0]
	if s0 == start.steps && e0 == start.ev {
		return s.stopOf(i, StopStart, 0, nil)
	}
	stops := m.bp
	if m.nbp == 0 {
		stops = nil
	}
	keep := func() bool {
		b, err := s.holding(i)
		return b != nil && err == nil
	}
	canceled := func(err error) Stop {
		_, _ = m.goTo(ctx, s0, e0)
		return Stop{Reason: StopCanceled, Wave: i, PC: m.PC(), Err: err}
	}
	es, ee := s0, e0
	for {
		k := len(r.cks) - 1
		for k >= 0 && !r.cks[k].before(es, ee) {
			k--
		}
		if k < 0 {
			break
		}
		c := r.cks[k]
		var bp, lo, hi pos
		found, changed := false, false
		r.replaying = true
		r.restore(c)
		prev := s.watchValues()
		for cur := c.steps; cur < es; {
			t := min(cur+watchChunk, es)
			tev := r.eventsUpTo(t, ee)
			if t == es {
				tev = ee
			}
			err := r.advance(ctx, t, tev, m, stops, func(p uint64, ev int) {
				if keep() {
					bp, found = pos{p, ev}, true
				}
			})
			if err != nil {
				r.replaying = false
				return canceled(err)
			}
			if s.differs(prev) {
				lo, hi, changed = pos{cur, r.eventsUpTo(cur, ee)}, pos{t, tev}, true
			}
			prev = s.watchValues()
			cur = t
		}
		var w pos
		var wst Stop
		if changed {
			r.restore(c)
			if err := r.advance(ctx, lo.steps, lo.ev, nil, nil, nil); err != nil {
				r.replaying = false
				return canceled(err)
			}
			prev := s.watchValues()
			for p := lo.steps; p < hi.steps; p++ {
				wv, _, _ := r.at(p)
				at := pos{p, r.ev}
				if err := r.advance(ctx, p+1, r.eventsUpTo(p+1, hi.ev), nil, nil, nil); err != nil {
					r.replaying = false
					return canceled(err)
				}
				if st, ok := s.watchChanged(wv, prev, false); ok {
					w, wst = at, st
				}
				prev = s.watchValues()
			}
		}
		r.replaying = false
		switch {
		case changed && (!found || w.steps > bp.steps || w.steps == bp.steps && w.ev > bp.ev):
			return moveTo(w, wst)
		case found:
			st := moveTo(bp, Stop{Reason: StopBreakpoint})
			if b, _ := s.holding(i); b != nil {
				st.Breakpoint = b.ID
			}
			return st
		}
		es, ee = c.steps, c.ev
	}
	return moveTo(pos{start.steps, start.ev}, Stop{Reason: StopStart})
}

package emu

import (
	"context"
	"fmt"
	"slices"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// This file is the session's runs on the fast engine: continue, run to an
// address, and bringing the other waves to a barrier. The schedule is
// fixed, so that replay reproduces it: the selected wave runs until it
// blocks at a barrier or stops; then the others, in wave order, each
// until it blocks at that barrier; then the selected wave again.

// watchChunk is the most instructions a run goes between comparisons of
// the watched values (a value changed and changed back within one chunk
// is not seen).
const watchChunk = 1 << 12

// DefaultGatherSteps bounds the instructions the other waves run to reach
// a barrier the selected wave waits at (about a second).
const DefaultGatherSteps = 1 << 26

// Continue runs the selected wave on the fast engine, with the rest of
// the work-group as barriers need, until it reaches one of its
// breakpoints whose condition holds, a watched value changes, it ends,
// traps or faults, budget group instructions have run (0: no limit) or
// ctx is canceled (StopCanceled).
func (s *Session) Continue(ctx context.Context, budget int64) Stop {
	return s.cont(ctx, budget, nil)
}

// RunTo is Continue with a stop where the selected wave is about to
// execute the instruction at pc (StopBreakpoint, Breakpoint 0).
func (s *Session) RunTo(ctx context.Context, pc uint64, budget int64) Stop {
	if _, ok := s.Prog.IndexOf(pc); !ok {
		return Stop{Reason: StopError, Wave: s.sel, PC: s.waves[s.sel].PC(), Err: fmt.Errorf("emu: run to 0x%x: no instruction there", pc)}
	}
	return s.cont(ctx, budget, []uint64{pc})
}

// cont is Continue with extra stops (RunTo's address).
func (s *Session) cont(ctx context.Context, budget int64, extra []uint64) Stop {
	i, m := s.sel, s.waves[s.sel]
	t0 := s.rp.now()
	steps := func() int64 { return int64(s.rp.now() - t0) }
	done := func(st Stop) Stop {
		st.Steps = steps()
		return st
	}
	for {
		used := steps()
		if budget > 0 && used >= budget {
			return done(s.stopOf(i, StopBudget, 0, nil))
		}
		if !s.live(i) {
			if m.State() == core.Faulted {
				return done(s.stopOf(i, StopFault, 0, core.ErrFaulted))
			}
			return done(s.stopOf(i, StopEnded, 0, nil))
		}
		left := int64(0)
		if budget > 0 {
			left = budget - used
		}
		if st, ok := s.ready(ctx, i, left); !ok {
			return done(st)
		}
		if budget > 0 {
			if left = budget - steps(); left <= 0 {
				continue // the budget went on the others
			}
		}
		s.breaks(i, extra)
		lo, ev := s.rp.now(), s.rp.ev
		if s.breakAt(i) {
			lo++ // a breakpoint the run passes
		}
		res, err, wst := s.runWave(ctx, i, left)
		if wst != nil {
			return done(*wst)
		}
		s.clean(lo, ev)
		switch res.Reason {
		case StopBreakpoint:
			if slices.Contains(extra, m.PC()) {
				return done(s.stopOf(i, StopBreakpoint, 0, nil))
			}
			if st, hit := s.hitAt(i); hit {
				return done(st)
			}
			// a barrier, or a condition that does not hold: go on
		case StopBudget:
			if budget > 0 {
				return done(s.stopOf(i, StopBudget, 0, nil))
			}
		default:
			return done(s.stopOf(i, res.Reason, 0, err))
		}
	}
}

// bring runs the waves other than i, in wave order, each until it waits
// at the barrier wave i waits at (or has passed it), ends or stops; a wave
// behind passes the earlier barriers on its way as they release. Rounds
// repeat while some wave moves. ok is false, with the stop, when a wave
// stops otherwise (a fault, a trap, an any-wave breakpoint, a watchpoint,
// cancellation), or budget instructions ran (StopBudget; 0: fail after
// DefaultGatherSteps). A later call goes on from where it stopped.
func (s *Session) bring(ctx context.Context, i int, budget int64) (Stop, bool) {
	k := s.Barriers(i)
	limit := budget
	if limit <= 0 {
		limit = DefaultGatherSteps
	}
	var ran int64
	for moved := true; moved; {
		moved = false
		for o := range s.waves {
			if o == i {
				continue
			}
			for s.live(o) {
				p, at := s.Barriers(o), s.bar[s.waves[o].w.Pc()]
				if p > k || p == k && at || at && !s.MayPass(o) {
					break
				}
				if ran >= limit {
					st := Stop{Reason: StopBudget, Wave: o, PC: s.waves[o].PC()}
					if budget <= 0 {
						st.Err = fmt.Errorf("emu: wave %d did not reach the s_barrier wave %d waits at within %d instructions (at pc 0x%x)", o, i, DefaultGatherSteps, s.waves[o].PC())
					}
					return st, false
				}
				s.breaks(o, nil)
				lo, ev := s.rp.now(), s.rp.ev
				res, err, wst := s.runWave(ctx, o, limit-ran)
				if wst == nil && i == s.sel {
					s.clean(lo, ev) // the selected wave did not run there
				}
				ran += res.Steps
				moved = moved || res.Steps > 0
				if wst != nil {
					return *wst, false
				}
				switch res.Reason {
				case StopBreakpoint:
					if st, hit := s.hitAt(o); hit {
						return st, false
					}
				case StopEnded, StopBudget:
				default:
					return s.stopOf(o, res.Reason, 0, err), false
				}
			}
		}
	}
	return Stop{}, true
}

// breaks gives wave i the machine breakpoints its run needs: the barriers
// (in a group of several waves), the session's enabled breakpoints that
// apply to it (the selected wave's and the any-wave ones) and extra.
func (s *Session) breaks(i int, extra []uint64) {
	key := breakKey{gen: s.gen, sel: i == s.sel, extra: len(extra) > 0}
	if len(extra) > 0 {
		key.first = extra[0]
	}
	if s.applied[i] == key && !key.extra {
		return // unchanged since the last run of this wave
	}
	s.applied[i] = key
	m := s.waves[i]
	want := make(map[uint64]bool, len(s.bps)+len(extra))
	if len(s.waves) > 1 {
		for k, b := range s.bar {
			if b {
				want[s.Prog.Addrs[k]] = true
			}
		}
	}
	for _, b := range s.bps {
		if !b.Disabled && (b.AnyWave || i == s.sel) {
			want[b.PC] = true
		}
	}
	for _, pc := range extra {
		want[pc] = true
	}
	syncBreaks(m, want)
}

// clean notes that the positions from lo to now (with ev edits applied)
// had none of the selected wave's breakpoints before it, so that
// reverse-continue need not replay them.
func (s *Session) clean(lo uint64, ev int) {
	if r := s.rp; r.ev == ev {
		r.addClean(lo, r.now(), ev, uint64(s.gen))
	}
}

// breakKey says which breakpoints a wave was given last (breaks).
type breakKey struct {
	gen   int // Session.gen
	sel   bool
	extra bool
	first uint64
}

// syncBreaks makes want m's breakpoints, leaving those already set (a
// wave recording alone remembers where runs found none of them).
func syncBreaks(m *Machine, want map[uint64]bool) {
	for _, pc := range m.Breakpoints() {
		if !want[pc] {
			m.ClearBreakpoint(pc)
		} else {
			delete(want, pc)
		}
	}
	for pc := range want {
		_ = m.SetBreakpoint(pc) // every address came from the program
	}
}

// runWave runs wave i on the fast engine, recorded, up to budget
// instructions (0: no limit), until it reaches one of its breakpoints or
// stops. With watchpoints it runs in chunks and compares the watched
// values after each; when one changed, it goes back to the chunk's start
// and finds the exact instruction (the stop).
func (s *Session) runWave(ctx context.Context, i int, budget int64) (RunResult, error, *Stop) {
	m := s.waves[i]
	if !s.watching() {
		res, err := m.Run(ctx, budget)
		return res, err, nil
	}
	var total int64
	for {
		n := int64(watchChunk)
		if budget > 0 {
			n = min(n, budget-total)
		}
		t0, e0 := s.rp.now(), s.rp.ev
		old := s.watchValues()
		res, err := m.Run(ctx, n)
		total += res.Steps
		if res.Steps > 0 && s.differs(old) {
			st := s.findChange(ctx, t0, e0, s.rp.now(), old)
			res.Steps = total
			return res, nil, &st
		}
		if res.Reason != StopBudget || budget > 0 && total >= budget {
			res.Steps = total
			return res, err, nil
		}
	}
}

// findChange goes back to position (t0, ev) and replays the group one
// instruction at a time up to end until a watched value differs from
// old: the stop is right after the instruction that changed it.
func (s *Session) findChange(ctx context.Context, t0 uint64, ev int, end uint64, old [][]byte) Stop {
	r := s.rp
	r.replaying = true
	defer func() { r.replaying = false }()
	r.restore(r.cks[r.find(t0, ev)])
	fail := func(err error) Stop {
		return Stop{Reason: StopError, Wave: s.sel, PC: s.waves[s.sel].PC(), Err: err}
	}
	if err := r.advance(ctx, t0, ev, nil, nil, nil); err != nil {
		return fail(err)
	}
	for p := t0; p < end; p++ {
		w, _, _ := r.at(p)
		if err := r.advance(ctx, p+1, ev, nil, nil, nil); err != nil {
			return fail(err)
		}
		if st, ok := s.watchChanged(w, old, true); ok {
			return st
		}
	}
	return fail(fmt.Errorf("emu: a watched value changed between positions %d and %d, but not on replay", t0, end))
}

package emu

import (
	"context"
	"errors"
	"fmt"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// A Session debugs one work-group of a dispatch, Delve's split: Machine
// and replay hold the mechanics (execution, checkpoints, replay), the
// session the policy — which wave runs when, barriers, breakpoints,
// watchpoints — and a front end only renders it.
//
// The session owns every wave of the work-group and records them as one
// group (one page log over the shared memory, group checkpoints and a
// schedule log), so that every move forward is reproduced exactly by the
// reverse moves. A wave at an s_barrier passes it only once every other
// live wave of the group has reached it; the session runs the others on
// the fast engine to bring them there.
type Session struct {
	Dispatch *Dispatch
	Memory   *Memory
	Prog     *Program
	Group    [3]uint32
	First    uint64 // the dispatch number of the work-group's first wave

	waves []*Machine
	sel   int
	bar   []bool // instruction index → s_barrier (isa.FlagBarrier)
	rp    *replay

	bps []*Breakpoint
	wps []*Watchpoint
	ids int // the last breakpoint or watchpoint id handed out

	gen     int        // counts changes of the breakpoints and selection
	applied []breakKey // the breakpoints each wave's machine holds (breaks)
}

// DefaultSessionHistory is a session's history budget when the
// configuration gives none.
const DefaultSessionHistory = 256 << 20

// Stop says why and where a session's move stopped.
type Stop struct {
	Reason StopReason
	Wave   int    // the wave it concerns (index in the work-group)
	PC     uint64 // that wave's next instruction
	// Breakpoint or Watchpoint is the id of the one hit (0: none).
	Breakpoint int
	Watchpoint int
	Old, New   []byte // the watched value before and after (little-endian)
	Steps      int64  // the group's instructions run (gone back, in reverse)
	Err        error  // the fault, execution error or failure, if any
}

// OpenSession prepares wave n of launch l for debugging (as PrepareWave:
// the earlier work-groups run to completion on the fast engine) and
// returns a session over its work-group, with wave n selected and every
// wave at the kernel's entry. cfg.Config.HistoryBytes is the recording's
// budget (0: DefaultSessionHistory).
func OpenSession(ctx context.Context, l *Launch, cfg GridConfig, n uint64) (*Session, error) {
	budget := cfg.Config.HistoryBytes
	if budget <= 0 {
		budget = DefaultSessionHistory
	}
	cfg.Config.HistoryBytes = 0
	cfg.SiblingsAtEntry = true
	ws, err := PrepareWave(ctx, l, cfg, n)
	if err != nil {
		return nil, err
	}
	waves := make([]*Machine, 0, len(ws.Others)+1)
	waves = append(waves, ws.Others[:ws.Index]...)
	waves = append(waves, ws.Machine)
	waves = append(waves, ws.Others[ws.Index:]...)
	s := NewSession(waves, budget)
	s.Dispatch, s.Group, s.First, s.sel = ws.Dispatch, ws.Group, ws.Wave-uint64(ws.Index), ws.Index
	return s, nil
}

// NewSession makes a session over waves, the machines of one work-group
// sharing one memory and program, from their current state, recording
// within budget bytes. Wave 0 is selected.
func NewSession(waves []*Machine, budget int64) *Session {
	m0 := waves[0]
	s := &Session{Memory: m0.Mem, Prog: m0.Prog, waves: waves, bar: make([]bool, len(m0.Prog.Insts)),
		applied: make([]breakKey, len(waves)), gen: 1} // no wave holds generation 1 yet
	for i := range m0.Prog.Insts {
		s.bar[i] = m0.Prog.Insts[i].Op.Info().Flags.Has(isa.FlagBarrier)
	}
	for _, m := range waves {
		m.StopRecording()
		for _, pc := range m.Breakpoints() {
			m.ClearBreakpoint(pc)
		}
	}
	if len(waves) == 1 {
		// One wave keeps a journal for instant single-step undo.
		m0.SetHistoryLimit(budget / 8)
		budget -= budget / 8
	} else {
		for _, m := range waves {
			m.SetHistoryLimit(0) // a wave's steps cannot be undone alone
		}
	}
	s.rp = newReplay(waves, s.bar, budget)
	return s
}

// Waves returns the number of waves of the work-group.
func (s *Session) Waves() int { return len(s.waves) }

// Wave returns wave i's machine. Its setters are the session's edits
// (undone by stepping back); it must not be run directly.
func (s *Session) Wave(i int) *Machine { return s.waves[i] }

// Selected returns the selected wave's index.
func (s *Session) Selected() int { return s.sel }

// Select makes wave i the one that steps and continues.
func (s *Session) Select(i int) error {
	if i < 0 || i >= len(s.waves) {
		return fmt.Errorf("emu: the work-group has %d waves; there is no wave %d", len(s.waves), i)
	}
	if i != s.sel {
		s.sel = i
		s.gen++
	}
	return nil
}

// Position returns the group's instructions retired since the kernel's
// entry.
func (s *Session) Position() uint64 { return s.rp.now() }

// AtStart reports whether the group is at the start of its recording.
func (s *Session) AtStart() bool { return s.waves[s.sel].AtStart() }

// RecordingBytes returns the memory the recording holds.
func (s *Session) RecordingBytes() int64 { return s.rp.bytes() }

// Checkpoints returns how many group checkpoints the recording holds.
func (s *Session) Checkpoints() int { return len(s.rp.cks) }

// SetCheckpointInterval sets the group instructions between checkpoints.
func (s *Session) SetCheckpointInterval(n uint64) { s.waves[0].SetCheckpointInterval(n) }

// Barriers returns how many s_barrier instructions wave i has passed.
func (s *Session) Barriers(i int) int {
	if len(s.waves) == 1 {
		return 0
	}
	if s.rp.atEnd {
		return s.rp.before(i) + len(s.rp.bars[i])
	}
	return s.rp.passed(i, s.rp.now())
}

// live reports whether wave i can still run.
func (s *Session) live(i int) bool {
	st := s.waves[i].State()
	return st != core.Ended && st != core.Faulted
}

// AtBarrier reports whether wave i is live and about to execute s_barrier.
func (s *Session) AtBarrier(i int) bool {
	return s.live(i) && s.bar[s.waves[i].w.Pc()]
}

// MayPass reports whether wave i, at an s_barrier, may execute it: every
// other live wave has reached that barrier (or passed it). A wave that
// ended counts as arrived.
func (s *Session) MayPass(i int) bool {
	k := s.Barriers(i)
	for o := range s.waves {
		if o == i || !s.live(o) {
			continue
		}
		if p := s.Barriers(o); p < k || p == k && !s.bar[s.waves[o].w.Pc()] {
			return false
		}
	}
	return true
}

// stopOf is the Stop of wave i after a run or step ended with reason r.
func (s *Session) stopOf(i int, r StopReason, steps int64, err error) Stop {
	if errors.Is(err, core.ErrEnded) {
		r, err = StopEnded, nil
	}
	if r == StopCanceled {
		err = nil
	}
	return Stop{Reason: r, Wave: i, PC: s.waves[i].PC(), Steps: steps, Err: err}
}

// Step executes n instructions of the selected wave through Machine.Step
// (the journaled reference path), returning their records. A barrier the
// wave is about to pass first brings the other waves to it. It stops
// early when the wave ends, traps or faults, a watched value changes or
// ctx is canceled (Reason StopBudget: all n ran).
func (s *Session) Step(ctx context.Context, n int64) ([]*StepRecord, Stop) {
	var recs []*StepRecord
	i, m := s.sel, s.waves[s.sel]
	t0 := s.rp.now()
	steps := func() int64 { return int64(s.rp.now() - t0) }
	for k := int64(0); k < n; k++ {
		if canceled(ctx) {
			return recs, s.stopOf(i, StopCanceled, steps(), nil)
		}
		if !s.live(i) {
			if m.State() == core.Faulted {
				return recs, s.stopOf(i, StopFault, steps(), core.ErrFaulted)
			}
			return recs, s.stopOf(i, StopEnded, steps(), nil)
		}
		if st, ok := s.ready(ctx, i, 0); !ok {
			st.Steps = steps()
			return recs, st
		}
		old := s.watchValues()
		rec, err := m.Step()
		if rec != nil {
			recs = append(recs, rec)
		}
		if st, ok := s.watchChanged(i, old, true); ok {
			st.Steps = steps()
			return recs, st
		}
		if err != nil {
			r := errReason(err)
			return recs, s.stopOf(i, r, steps(), err)
		}
		if r, ok := stopReason(m.State()); ok {
			return recs, s.stopOf(i, r, steps(), nil)
		}
	}
	return recs, s.stopOf(i, StopBudget, steps(), nil)
}

// StepAll executes one instruction of every live wave, in wave order; a
// wave waiting at a barrier others have not reached does not move.
func (s *Session) StepAll(ctx context.Context) Stop {
	t0 := s.rp.now()
	for i, m := range s.waves {
		if !s.live(i) || s.AtBarrier(i) && !s.MayPass(i) {
			continue
		}
		old := s.watchValues()
		_, err := m.Step()
		if st, ok := s.watchChanged(i, old, true); ok {
			st.Steps = int64(s.rp.now() - t0)
			return st
		}
		if err != nil && !errors.Is(err, core.ErrEnded) {
			return s.stopOf(i, errReason(err), int64(s.rp.now()-t0), err)
		}
	}
	return s.stopOf(s.sel, StopBudget, int64(s.rp.now()-t0), nil)
}

// ready makes wave i free to execute its next instruction: at a barrier
// the others have not all reached, it brings them there, within budget
// instructions (0: DefaultGatherSteps, after which it fails). ok is false,
// with the stop, when they cannot come (one faults, stops at a breakpoint
// or a watchpoint, the budget runs out or the context is canceled).
func (s *Session) ready(ctx context.Context, i int, budget int64) (Stop, bool) {
	if !s.AtBarrier(i) || s.MayPass(i) {
		return Stop{}, true
	}
	if st, ok := s.bring(ctx, i, budget); !ok {
		return st, false
	}
	if s.MayPass(i) {
		return Stop{}, true
	}
	o := (i + 1) % len(s.waves) // the wave that holds i back
	for k := range s.waves {
		if k != i && s.live(k) && s.Barriers(k) <= s.Barriers(i) && !s.AtBarrier(k) {
			o = k
			break
		}
	}
	return Stop{Reason: StopError, Wave: o, PC: s.waves[o].PC(),
		Err: fmt.Errorf("emu: wave %d does not reach the s_barrier wave %d waits at (pc 0x%x); it stopped at pc 0x%x", o, i, s.waves[i].PC(), s.waves[o].PC())}, false
}

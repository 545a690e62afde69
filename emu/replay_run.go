package emu

import (
	"context"
	"errors"
	"fmt"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// ErrOutermost is returned by ReverseFinish when no call of the current
// frame is recorded.
var ErrOutermost = errors.New("emu: reverse-finish: no call of this frame in the recording")

// runRecorded is Run while recording: the fast engine in stretches up to
// the next checkpoint, which it then takes. The journal is cleared (the
// fast engine does not journal).
func (m *Machine) runRecorded(ctx context.Context, budget int64) (RunResult, error) {
	r := m.rp
	now := r.truncate(m, false) // only m moves: now follows its steps
	m.Hist.Clear()
	var res RunResult
	if err := m.stoppedErr(); err != nil {
		res.PC = m.PC()
		res.Reason = StopFault
		if errors.Is(err, core.ErrEnded) {
			res.Reason = StopEnded
		}
		return res, err
	}
	// with history on, the vector memory unit keeps every load's result
	// for a StepBack to complete again; none can cross this run
	defer func(l int64) { m.Hist.Limit = l }(m.Hist.Limit)
	m.Hist.Limit = 0
	if len(r.waves) == 1 {
		start := now
		defer func() {
			// the positions between the run's first and last were looked
			// at (a Session notes its group's)
			r.addClean(start+1, r.now(), r.ev, m.bpVer)
		}()
	}
	for {
		if budget > 0 && res.Steps >= budget {
			res.Reason = StopBudget
			break
		}
		// runFast lets its first instruction pass its breakpoint: only
		// the run's first may
		if res.Steps > 0 && m.nbp > 0 && m.bp[m.w.Pc()] {
			res.Reason = StopBreakpoint
			break
		}
		n := int64(r.every())
		if i := r.find(now, r.ev); i >= 0 {
			n = max(int64(r.cks[i].steps+r.every())-int64(now), 1)
		}
		if budget > 0 {
			n = min(n, budget-res.Steps)
		}
		part, err := m.runFast(ctx, n)
		res.Steps += part.Steps
		now += uint64(part.Steps)
		r.checkpointAt(m, now)
		if err != nil || part.Reason != StopBudget {
			res.Reason = part.Reason
			res.PC = m.PC()
			return res, err
		}
	}
	res.PC = m.PC()
	return res, nil
}

// advance replays the group from the current position to (steps, ev) on
// the fast engine, following the schedule and applying the logged edits
// at their positions. With stops, hit is called at every position before
// the end where wave sw is about to run and its next instruction's index
// is set in stops.
func (r *replay) advance(ctx context.Context, steps uint64, ev int, sw *Machine, stops []bool, hit func(uint64, int)) error {
	type saved struct {
		bp  []bool
		nbp int
		lim int64
	}
	keep := make([]saved, len(r.waves))
	for i, m := range r.waves {
		keep[i] = saved{m.bp, m.nbp, m.Hist.Limit}
		m.Hist.Limit = 0 // as in runRecorded
		m.nbp = 0
	}
	defer func() {
		for i, m := range r.waves {
			m.bp, m.nbp, m.Hist.Limit = keep[i].bp, keep[i].nbp, keep[i].lim
		}
	}()
	if stops != nil {
		sw.bp, sw.nbp = stops, 1
	}
	for {
		cur := r.now()
		for r.ev < ev && r.events[r.ev].steps <= cur {
			e := r.events[r.ev]
			e.apply(r.waves[e.wave])
			r.ev++
		}
		if cur >= steps && r.ev >= ev {
			return nil
		}
		target := steps
		if r.ev < ev {
			target = min(target, r.events[r.ev].steps)
		}
		wi, end, ok := r.at(cur)
		if !ok {
			return fmt.Errorf("emu: replay: position %d is before the schedule", cur)
		}
		m := r.waves[wi]
		if stops != nil && m == sw && stops[m.w.Pc()] {
			hit(cur, r.ev)
		}
		switch m.w.State() {
		case core.Ended, core.Faulted:
			return fmt.Errorf("emu: replay: wave %d stopped at step %d, before step %d (pc 0x%x)", wi, cur, target, m.PC())
		case core.Trapped, core.Halted:
			m.w.S[core.SlotStatus] = uint32(core.Running)
		}
		res, err := m.runFast(ctx, int64(min(target, end)-cur))
		if res.Reason == StopCanceled {
			return err
		}
	}
}

// ReverseStep goes back n units of the recording — an edit made since the
// last step, else an instruction of m (the group goes back to just before
// it) — restoring the exact state the group had there. It returns the
// record of m's instruction that led there, when one did (not at the
// start, nor where an edit was undone).
func (m *Machine) ReverseStep(ctx context.Context, n uint64) (*StepRecord, error) {
	r := m.rp
	if r == nil {
		return nil, ErrNotRecording
	}
	s, ev := m.position()
	ts, tev, ok := r.back(r.index(m), s, ev, n)
	if !ok {
		return nil, core.ErrNoHistory
	}
	return m.goTo(ctx, ts, tev)
}

// ReverseContinue goes back to the last earlier position where the next
// instruction has a breakpoint (Reason StopBreakpoint), else to the start
// of the recording (StopStart). Steps counts the instructions gone back.
func (m *Machine) ReverseContinue(ctx context.Context) (RunResult, error) {
	return m.reverseSearch(ctx, m.bp, m.nbp > 0, true, nil, func(hits []hitPos) (hitPos, bool) {
		return hits[len(hits)-1], true
	}, StopBreakpoint)
}

// ReverseFinish goes back to the call (s_swappc_b64, s_call_b64) that
// entered the current frame, to the state before it executed, counting
// the s_setpc_b64 returns on the way back as deeper frames.
func (m *Machine) ReverseFinish(ctx context.Context) (RunResult, error) {
	stops := make([]bool, len(m.w.Code))
	calls := make([]bool, len(m.w.Code))
	for i := range m.Prog.Insts {
		switch m.Prog.Insts[i].Op {
		case isa.S_SWAPPC_B64, isa.S_CALL_B64:
			stops[i], calls[i] = true, true
		case isa.S_SETPC_B64:
			stops[i] = true
		}
	}
	depth, ev0 := 0, 0
	if m.rp != nil {
		ev0 = m.rp.ev
	}
	res, err := m.reverseSearch(ctx, stops, true, false, nil, func(hits []hitPos) (hitPos, bool) {
		for k := len(hits) - 1; k >= 0; k-- {
			switch {
			case !calls[hits[k].idx]:
				depth++
			case depth == 0:
				return hits[k], true
			default:
				depth--
			}
		}
		return hitPos{}, false
	}, StopCall)
	if err == nil && res.Reason == StopStart {
		// no call: back where it started
		if _, err := m.goTo(ctx, m.rp.cks[0].steps+uint64(res.Steps), ev0); err != nil {
			return RunResult{}, err
		}
		return RunResult{PC: m.PC()}, ErrOutermost
	}
	return res, err
}

// hitPos is a position where a reverse search stopped on the way.
type hitPos struct {
	steps uint64
	ev    int
	idx   int // the next instruction
}

// reverseSearch replays the recording backwards, a checkpoint's stretch
// at a time, and goes to the position pick chooses among a stretch's
// stops (in order), else to the start (StopStart; at once when any is
// false). pick sees the stretches from the newest. With clean, stops are
// the breakpoints, and stretches the clean spans cover are not replayed.
// With keep, a stop counts only where keep, called there, holds.
func (m *Machine) reverseSearch(ctx context.Context, stops []bool, any, clean bool, keep func() bool, pick func([]hitPos) (hitPos, bool), reason StopReason) (RunResult, error) {
	r := m.rp
	if r == nil {
		return RunResult{}, ErrNotRecording
	}
	s0, e0 := m.position()
	moveTo := func(s uint64, ev int, why StopReason) (RunResult, error) {
		_, err := m.goTo(ctx, s, ev)
		return RunResult{Steps: int64(s0 - r.now()), Reason: why, PC: m.PC()}, err
	}
	start := r.cks[0]
	if s0 == start.steps && e0 == start.ev {
		return RunResult{Reason: StopStart, PC: m.PC()}, core.ErrNoHistory
	}
	es, ee := s0, e0
	var hits []hitPos
	for any {
		i := len(r.cks) - 1
		for i >= 0 && !r.cks[i].before(es, ee) {
			i--
		}
		if i < 0 {
			break
		}
		c := r.cks[i]
		if clean && c.ev == ee && r.covered(c.steps, es, ee, r.ver(m)) {
			es = c.steps // no breakpoint there: no need to replay
			continue
		}
		r.replaying = true
		r.restore(c)
		hits = hits[:0]
		err := r.advance(ctx, es, ee, m, stops, func(s uint64, ev int) {
			if keep == nil || keep() {
				hits = append(hits, hitPos{s, ev, m.w.Pc()})
			}
		})
		r.replaying = false
		if err != nil {
			if _, err2 := m.goTo(ctx, s0, e0); err2 != nil {
				return RunResult{}, err2
			}
			return RunResult{Reason: StopCanceled, PC: m.PC()}, err
		}
		if len(hits) > 0 {
			if h, ok := pick(hits); ok {
				return moveTo(h.steps, h.ev, reason)
			}
		}
		es, ee = c.steps, c.ev
	}
	return moveTo(start.steps, start.ev, StopStart)
}

// LastRecord returns the record of the instruction that led to the
// current position, replaying it through Step (nil at the start of the
// recording or right after an edit). The state does not change.
func (m *Machine) LastRecord(ctx context.Context) (*StepRecord, error) {
	if m.rp == nil {
		return nil, ErrNotRecording
	}
	s, ev := m.position()
	return m.goTo(ctx, s, ev)
}

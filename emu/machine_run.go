package emu

import (
	"context"
	"errors"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// StopReason says why Run returned.
type StopReason uint8

const (
	StopBudget     StopReason = iota // the step budget ran out
	StopBreakpoint                   // the next instruction has a breakpoint
	StopEnded                        // s_endpgm
	StopTrap                         // s_trap
	StopHalt                         // s_sethalt
	StopFault                        // a memory fault
	StopError                        // an instruction the emulator cannot execute
	StopCanceled                     // the context was canceled
	StopStart                        // a reverse move reached the start of the recording
	StopCall                         // reverse-finish reached the call of the frame
	StopWatchpoint                   // a watched value changed (Session)
)

func (r StopReason) String() string {
	return [...]string{"budget", "breakpoint", "ended", "trap", "halt", "fault", "error", "canceled", "start of history", "call", "watchpoint"}[r]
}

// RunResult reports a Run.
type RunResult struct {
	Steps  int64
	Reason StopReason
	PC     uint64
}

// Step executes one instruction and returns its record. A wave stopped by
// s_trap or s_sethalt resumes. After s_endpgm it returns ErrEnded; after a
// fault, ErrFaulted (StepBack undoes the fault). The record's Err holds a
// fault or execution error that stopped the wave during this step, which
// Step also returns.
func (m *Machine) Step() (*StepRecord, error) {
	w := m.w
	if m.rp != nil {
		m.rp.truncate(m, false)
		defer m.rp.maybeCheckpoint(m)
	}
	before := w.Counters()
	w.JOn = true
	w.J.Reset()
	if err := m.stoppedErr(); err != nil {
		w.JOn = false
		return nil, err
	}
	idx := w.Pc()
	err := step(w)
	rec := m.record(idx, before, err)
	if m.Hist.Limit > 0 {
		m.Hist.Push(w)
	}
	w.JOn = false
	return rec, err
}

func (m *Machine) stoppedErr() error {
	switch m.w.State() {
	case core.Ended:
		return core.ErrEnded
	case core.Faulted:
		return core.ErrFaulted
	case core.Trapped, core.Halted:
		m.w.Ws(core.SlotStatus, uint32(core.Running)) // resuming: journaled with the step when recording
	}
	return nil
}

// Run executes up to budget instructions (budget ≤ 0: no limit) until the
// wave ends, traps, halts, faults, reaches a breakpoint (other than the one
// it starts on) or ctx is canceled. It records history when HistoryBytes >
// 0; with history off the loop does not allocate. It journals every step,
// so that each instruction takes its reference form, when it records
// history or the machine runs a grid's EngineReference.
func (m *Machine) Run(ctx context.Context, budget int64) (RunResult, error) {
	if m.rp != nil {
		return m.runRecorded(ctx, budget)
	}
	w := m.w
	var res RunResult
	hist := m.Hist.Limit > 0
	journal := hist || m.reference
	if journal {
		w.JOn = true
		w.J.Reset()
	}
	err := m.stoppedErr()
	w.JOn = false
	if err != nil {
		res.PC = m.PC()
		if errors.Is(err, core.ErrEnded) {
			res.Reason = StopEnded
		} else {
			res.Reason = StopFault
		}
		return res, err
	}
	if !journal {
		return m.runFast(ctx, budget)
	}
	resumed := len(w.J.S) > 0 // the resume is journaled with the first step
	for {
		if budget > 0 && res.Steps >= budget {
			res.Reason = StopBudget
			break
		}
		if res.Steps&1023 == 1023 && canceled(ctx) {
			res.Reason = StopCanceled
			res.PC = m.PC()
			return res, ctx.Err()
		}
		idx := w.Pc()
		if res.Steps > 0 && m.bp[idx] {
			res.Reason = StopBreakpoint
			break
		}
		w.JOn = true
		if !resumed {
			w.J.Reset()
		}
		resumed = false
		err := step(w)
		if hist {
			m.Hist.Push(w)
		}
		m.last = append(m.last[:0], w.J.Addrs...)
		w.JOn = false
		res.Steps++
		if err != nil {
			res.Reason = errReason(err)
			res.PC = m.PC()
			return res, err
		}
		if r, ok := stopReason(w.State()); ok {
			res.Reason = r
			break
		}
	}
	res.PC = m.PC()
	return res, nil
}

// runFast is Run with history off: step's work inlined into one loop that
// neither journals nor allocates, with the retired-instruction count kept
// in a local and stored when the loop stops (nothing reads it while an
// instruction executes).
//
// The loop runs in stretches between the points where Run checks the
// context (before every 1024th instruction) or the budget ends, so that
// each instruction pays only for the breakpoint test (when there are
// breakpoints), its function, the clock and the checks of its outcome.
// Operations due by the clock complete after each instruction, as in step;
// step's retire before an instruction finds nothing more then (the clock
// has not moved since), so it is done once, before the first.
func (m *Machine) runFast(ctx context.Context, budget int64) (res RunResult, err error) {
	w := m.w
	m.last = m.last[:0] // unrecorded steps decode no addresses for snapshots
	retired := w.Get64(core.SlotRetired)
	n := int64(0)
	defer func() {
		r := retired + uint64(n)
		w.S[core.SlotRetired], w.S[core.SlotRetired+1] = uint32(r), uint32(r>>32)
		res.Steps = n
		res.PC = m.PC()
	}()
	if len(w.Pend) > 0 && w.Clock() >= m.Due {
		w.Retire()
	}
	for {
		if budget > 0 && n >= budget {
			res.Reason = StopBudget
			return res, nil
		}
		// most waves end before the first check, which alone asks for
		// ctx.Done (it may take a lock)
		if n&1023 == 1023 && canceled(ctx) {
			res.Reason = StopCanceled
			return res, ctx.Err()
		}
		end := (n + 1) | 1023
		if budget > 0 {
			end = min(end, budget)
		}
		var stop bool
		if n, res.Reason, stop, err = m.stretch(n, end); stop {
			return res, err
		}
	}
}

// stretch is runFast's loop: it runs the run's instructions n to end-1
// and returns end, or, when the wave stops before, the number run, why and
// stop set (err: the fault or execution error). The run's first
// instruction does not stop at its own breakpoint. (The breakpoint test
// reads m.nbp rather than keeping a slice live across the call, and tests
// the flag before the exemption: the loop then has fewer values to reload.)
func (m *Machine) stretch(n, end int64) (int64, StopReason, bool, error) {
	w := m.w
	code := w.Code
	for ; n < end; n++ {
		idx := w.S[core.SlotPC]
		if m.nbp > 0 && m.bp[idx] && n > 0 {
			return n, StopBreakpoint, true, nil
		}
		in := &code[idx]
		w.CurIdx = int(idx)
		w.S[core.SlotPC] = uint32(in.Next)
		cost := uint64(m.Costs[in.Cost&7])
		err := in.Fn(w, in)
		c := uint64(w.S[core.SlotClock]) | uint64(w.S[core.SlotClock+1])<<32 + cost
		w.S[core.SlotClock], w.S[core.SlotClock+1] = uint32(c), uint32(c>>32)
		if err != nil {
			r, err := m.stopFault(idx, err)
			return n + 1, r.Reason, true, err
		}
		// operations whose cycle came during this instruction complete
		// now (as in step); m.due is past every cycle while none is in
		// flight, and 0 once an instruction stops the wave (Wave.stop),
		// so the state needs a look only then
		if c >= m.Due {
			w.Retire()
			if st := RunState(w.S[core.SlotStatus]); st != core.Running {
				if r, ok := stopReason(st); ok {
					return n + 1, r, true, nil
				}
			}
		}
	}
	return n, 0, false, nil
}

// canceled reports whether ctx is done, without waiting.
func canceled(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return true
	default:
		return false
	}
}

// stopFault stops the wave on the error of the instruction at idx.
func (m *Machine) stopFault(idx uint32, err error) (RunResult, error) {
	m.w.S[core.SlotPC] = idx
	m.w.S[core.SlotStatus] = uint32(core.Faulted)
	return RunResult{Reason: errReason(err)}, err
}

// errReason is why Run stops on an instruction's error: a memory fault or
// an instruction the emulator cannot execute.
func errReason(err error) StopReason {
	var f *Fault
	if errors.As(err, &f) {
		return StopFault
	}
	return StopError
}

// stopReason is why Run stops after a step leaves the wave in state st,
// if it stops.
func stopReason(st RunState) (StopReason, bool) {
	switch st {
	case core.Ended:
		return StopEnded, true
	case core.Trapped:
		return StopTrap, true
	case core.Halted:
		return StopHalt, true
	}
	return 0, false
}

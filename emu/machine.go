package emu

import (
	"context"
	"errors"
	"fmt"

	"github.com/wavedbg/wavedbg/isa"
)

// VectorMemory executes vector memory instructions (MUBUF, MTBUF, FLAT,
// GLOBAL, SCRATCH, DS, MIMG). Issue 5 provides it; without one those
// instructions stop the wave with an ExecError. Execute issues the
// operation (through Wave.IssueVector so that VM_CNT counts it in order);
// Complete delivers the result of operation id when it completes.
type VectorMemory interface {
	Execute(w *Wave, inst *isa.Inst) error
	Complete(w *Wave, id uint64)
}

// Machine owns a wave, its program, memory, step history and breakpoints.
// It is the emulator's whole public surface for a debugger front end: step
// forwards and backwards, run under a budget, and take snapshots.
type Machine struct {
	Config Config
	Prog   *Program
	Mem    *Memory
	// VectorMemory is the vector memory unit (issue 5); nil rejects vector
	// memory instructions.
	VectorMemory VectorMemory

	w     *Wave
	costs [8]uint32
	hist  history
	bp    []bool
	nbp   int        // breakpoints set in bp
	last  []LaneAddr // the last journaled step's addresses

	// VGPRs from vhigh up are zero (Reset clears only below it); vspan is
	// how many VGPRs vprog's instructions can write (vgprSpan).
	vprog *Program
	vspan int
	vhigh int

	// the allocations the scalar unit last found, most recent first
	// (allocAt)
	allocs [4]allocEnt

	// the scalar-cache lines fill has filled since Reset (Reset clears
	// only these), unless there were more than the cache has lines
	filled   []int32
	manyFill bool

	// due is at most the earliest completion cycle of the wave's in-flight
	// operations (retire keeps it): before it, retiring finds nothing.
	due uint64
}

// allocEnt is an allocation of mem as allocAt remembers it.
type allocEnt struct {
	mem      *Memory
	lo, size uint64
	vol      bool
}

// NewMachine creates a machine with one wave at the start of prog, EXEC all
// ones and every register zero.
func NewMachine(prog *Program, mem *Memory, cfg Config) *Machine {
	if mem == nil {
		mem = NewMemory()
	}
	if prog == nil {
		prog = NewProgram(cfg.Target, 0, nil)
	}
	if cfg.Target == isa.TargetUnknown {
		cfg.Target = prog.Target
	}
	m := &Machine{Config: cfg, Prog: prog, Mem: mem, bp: make([]bool, len(prog.code))}
	l := cfg.Latency
	if l == (Latency{}) {
		l = DefaultLatency()
		m.Config.Latency = l
	}
	m.costs = [8]uint32{cSALU: l.SALU, cVALU: l.VALU, cTrans: l.VALUTrans, cF64: l.VALUF64, cSMEM: l.SMEMIssue}
	w := &Wave{m: m, target: cfg.Target, code: prog.code, cache: newScalarCache(cfg.Cache)}
	w.pend = make([]pendingOp, 0, 64)
	w.s[codeExec], w.s[codeExec+1] = ^uint32(0), ^uint32(0)
	w.s[slotMode] = cfg.Mode
	w.s[slotGPRAlloc] = 0x3f00 // VGPR/SGPR allocation fields: illustrative
	m.w = w
	m.hist.limit = cfg.HistoryBytes
	m.vprog, m.vspan = prog, vgprSpan(prog)
	m.vhigh = m.vspan
	if cfg.Mode&modeGPRIdxEn != 0 {
		m.vhigh = 256
	}
	return m
}

// Wave returns the machine's wave.
func (m *Machine) Wave() *Wave { return m.w }

// State returns the wave's run state.
func (m *Machine) State() RunState { return m.w.state() }

// PC returns the address of the next instruction.
func (m *Machine) PC() uint64 { return m.w.code[m.w.pc()].pc }

// Cycle returns the wave's clock.
func (m *Machine) Cycle() uint64 { return m.w.clock() }

// Steps returns how many instructions the wave has executed.
func (m *Machine) Steps() uint64 { return m.w.get64(slotRetired) }

// HistoryLen returns how many steps StepBack can undo.
func (m *Machine) HistoryLen() int { return m.hist.len() }

// HistoryBytes returns the memory the step history uses.
func (m *Machine) HistoryBytes() int64 { return m.hist.bytes() }

// SetHistoryLimit changes Config.HistoryBytes, the bound on the step
// history (0 turns recording off and frees the history). Like every setter
// it clears the history.
func (m *Machine) SetHistoryLimit(n int64) {
	n = max(n, 0)
	m.Config.HistoryBytes, m.hist.limit = n, n
	m.hist.clear()
	if n == 0 || int64(len(m.hist.ring)) > m.hist.ringMax() {
		m.hist.ring = nil
	}
}

// SetPC moves the wave to the instruction at pc. Like every setter it is not
// recorded: it clears the step history.
func (m *Machine) SetPC(pc uint64) error {
	i, ok := m.Prog.IndexOf(pc)
	if !ok {
		return fmt.Errorf("emu: no instruction at 0x%x", pc)
	}
	m.w.s[slotPC] = uint32(i)
	m.hist.clear()
	return nil
}

// SetSGPR sets SGPR n (0–101). It clears the step history.
func (m *Machine) SetSGPR(n int, v uint32) error {
	if n < 0 || n >= 102 {
		return fmt.Errorf("emu: no SGPR s%d", n)
	}
	m.w.s[n] = v
	m.hist.clear()
	return nil
}

// SetScalar sets a scalar register by operand code (0–127: SGPRs, VCC, M0,
// EXEC, TTMPs by their codes). It clears the step history.
func (m *Machine) SetScalar(code int, v uint32) error {
	if code < 0 || code >= 128 {
		return fmt.Errorf("emu: no scalar code %d", code)
	}
	m.w.s[code] = v
	m.hist.clear()
	return nil
}

// SetVGPR sets one lane of a VGPR. It clears the step history.
func (m *Machine) SetVGPR(reg, lane int, v uint32) error {
	if reg < 0 || reg > 255 || lane < 0 || lane > 63 {
		return fmt.Errorf("emu: no v%d lane %d", reg, lane)
	}
	m.w.v[reg][lane] = v
	m.vhigh = max(m.vhigh, reg+1)
	m.hist.clear()
	return nil
}

// SetExec sets EXEC. It clears the step history.
func (m *Machine) SetExec(v uint64) {
	m.w.s[codeExec], m.w.s[codeExec+1] = uint32(v), uint32(v>>32)
	m.hist.clear()
}

// SetMode sets the MODE hardware register. It clears the step history.
func (m *Machine) SetMode(v uint32) {
	m.w.s[slotMode] = v
	if v&modeGPRIdxEn != 0 {
		m.vhigh = 256 // relative indexing can reach any VGPR
	}
	m.hist.clear()
}

// Breakpoints

// SetBreakpoint stops Run before the instruction at pc executes.
func (m *Machine) SetBreakpoint(pc uint64) error {
	i, ok := m.Prog.IndexOf(pc)
	if !ok {
		return fmt.Errorf("emu: no instruction at 0x%x", pc)
	}
	if !m.bp[i] {
		m.bp[i], m.nbp = true, m.nbp+1
	}
	return nil
}

// ClearBreakpoint removes the breakpoint at pc, if any.
func (m *Machine) ClearBreakpoint(pc uint64) {
	if i, ok := m.Prog.IndexOf(pc); ok && m.bp[i] {
		m.bp[i], m.nbp = false, m.nbp-1
	}
}

// Breakpoints lists the breakpoint addresses in order.
func (m *Machine) Breakpoints() []uint64 {
	var out []uint64
	for i, b := range m.bp {
		if b {
			out = append(out, m.Prog.code[i].pc)
		}
	}
	return out
}

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
)

func (r StopReason) String() string {
	return [...]string{"budget", "breakpoint", "ended", "trap", "halt", "fault", "error", "canceled"}[r]
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
	before := w.counters()
	w.jOn = true
	w.j.reset()
	if err := m.stoppedErr(); err != nil {
		w.jOn = false
		return nil, err
	}
	idx := w.pc()
	err := w.step()
	rec := m.record(idx, before, err)
	if m.hist.limit > 0 {
		m.hist.push(w)
	}
	w.jOn = false
	return rec, err
}

func (m *Machine) stoppedErr() error {
	switch m.w.state() {
	case Ended:
		return ErrEnded
	case Faulted:
		return ErrFaulted
	case Trapped, Halted:
		m.w.ws(slotStatus, uint32(Running)) // resuming: journaled with the step when recording
	}
	return nil
}

// Run executes up to budget instructions (budget ≤ 0: no limit) until the
// wave ends, traps, halts, faults, reaches a breakpoint (other than the one
// it starts on) or ctx is canceled. It records history when HistoryBytes >
// 0; with history off the loop does not allocate.
func (m *Machine) Run(ctx context.Context, budget int64) (RunResult, error) {
	w := m.w
	var res RunResult
	hist := m.hist.limit > 0
	if hist {
		w.jOn = true
		w.j.reset()
	}
	err := m.stoppedErr()
	w.jOn = false
	if err != nil {
		res.PC = m.PC()
		if errors.Is(err, ErrEnded) {
			res.Reason = StopEnded
		} else {
			res.Reason = StopFault
		}
		return res, err
	}
	if !hist {
		return m.runFast(ctx, budget)
	}
	resumed := len(w.j.s) > 0 // the resume is journaled with the first step
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
		idx := w.pc()
		if res.Steps > 0 && m.bp[idx] {
			res.Reason = StopBreakpoint
			break
		}
		w.jOn = true
		if !resumed {
			w.j.reset()
		}
		resumed = false
		err := w.step()
		m.hist.push(w)
		m.last = append(m.last[:0], w.j.addrs...)
		w.jOn = false
		res.Steps++
		if err != nil {
			res.Reason = errReason(err)
			res.PC = m.PC()
			return res, err
		}
		if r, ok := stopReason(w.state()); ok {
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
	retired := w.get64(slotRetired)
	n := int64(0)
	defer func() {
		r := retired + uint64(n)
		w.s[slotRetired], w.s[slotRetired+1] = uint32(r), uint32(r>>32)
		res.Steps = n
		res.PC = m.PC()
	}()
	if len(w.pend) > 0 && w.clock() >= m.due {
		w.retire()
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
	code := w.code
	for ; n < end; n++ {
		idx := w.s[slotPC]
		if m.nbp > 0 && m.bp[idx] && n > 0 {
			return n, StopBreakpoint, true, nil
		}
		in := &code[idx]
		w.curIdx = int(idx)
		w.s[slotPC] = uint32(in.next)
		cost := uint64(m.costs[in.cost&7])
		err := in.fn(w, in)
		c := uint64(w.s[slotClock]) | uint64(w.s[slotClock+1])<<32 + cost
		w.s[slotClock], w.s[slotClock+1] = uint32(c), uint32(c>>32)
		if err != nil {
			r, err := m.stopFault(idx, err)
			return n + 1, r.Reason, true, err
		}
		// operations whose cycle came during this instruction complete
		// now (as in step); m.due is past every cycle while none is in
		// flight, and 0 once an instruction stops the wave (Wave.stop),
		// so the state needs a look only then
		if c >= m.due {
			w.retire()
			if st := RunState(w.s[slotStatus]); st != Running {
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
	m.w.s[slotPC] = idx
	m.w.s[slotStatus] = uint32(Faulted)
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
	case Ended:
		return StopEnded, true
	case Trapped:
		return StopTrap, true
	case Halted:
		return StopHalt, true
	}
	return 0, false
}

// StepBack undoes the last recorded step, restoring the exact state before
// it (registers, memory, cache, in-flight operations, clock, counters).
func (m *Machine) StepBack() error {
	if !m.hist.pop(m.w) {
		return ErrNoHistory
	}
	m.w.rebuildPending()
	return nil
}

// step executes the instruction at PC with the journal on (Step, and Run
// with history; runFast is the unjournaled loop).
func (w *Wave) step() error {
	idx := w.pc()
	in := &w.code[idx]
	w.curIdx = idx
	if len(w.pend) > 0 {
		w.retire()
	}
	w.ws(slotPC, uint32(in.next))
	err := in.fn(w, in)
	w.setClock(w.clock() + uint64(w.m.costs[in.cost&7]))
	w.ws64(slotRetired, w.get64(slotRetired)+1)
	if err != nil {
		w.ws(slotPC, uint32(idx))
		w.ws(slotStatus, uint32(Faulted))
		return err
	}
	// operations whose cycle came during this instruction complete now, so
	// that snapshots between steps never show a finished operation in flight
	if len(w.pend) > 0 {
		w.retire()
	}
	return nil
}

func (m *Machine) record(idx int, before Counters, err error) *StepRecord {
	w := m.w
	in := &w.code[idx]
	r := &StepRecord{Seq: w.get64(slotRetired), PC: in.pc, Index: idx, NextPC: m.PC(), Err: err, State: w.state(),
		CountersBefore: before, CountersAfter: w.counters(), Stall: w.j.stall}
	if idx < len(m.Prog.Insts) {
		r.Inst = &m.Prog.Insts[idx]
	}
	r.CycleAfter = w.clock()
	r.CycleBefore = r.CycleAfter
	seenLo, seenHi := false, false
	for _, e := range w.j.s {
		if e.idx == slotClock || e.idx == slotClock+1 {
			// the first write of each half holds the value before the step
			if e.idx == slotClock && !seenLo {
				r.CycleBefore = r.CycleBefore&^0xffffffff | uint64(e.old)
				seenLo = true
			} else if e.idx == slotClock+1 && !seenHi {
				r.CycleBefore = r.CycleBefore&0xffffffff | uint64(e.old)<<32
				seenHi = true
			}
			continue
		}
		// one change per register: the first old value, the last new one
		merged := false
		for k := range r.SRegs {
			if r.SRegs[k].slot == int(e.idx) {
				r.SRegs[k].New = e.new
				merged = true
			}
		}
		if !merged {
			r.SRegs = append(r.SRegs, SRegChange{Name: slotName(w.target, int(e.idx)), Code: codeOf(int(e.idx)), Old: e.old, New: e.new, slot: int(e.idx)})
		}
	}
	kept := r.SRegs[:0]
	for _, c := range r.SRegs {
		if c.Old != c.New {
			kept = append(kept, c)
		}
	}
	r.SRegs = kept
	for _, e := range w.j.v {
		c := VRegChange{Reg: int(e.reg), Lanes: e.mask, Old: e.old}
		r.VRegs = append(r.VRegs, c)
	}
	// New values: what the next write of the same lanes found, else the
	// register's content after the step.
	for i := range r.VRegs {
		c := &r.VRegs[i]
		c.New = c.Old
		covered := uint64(0)
		for k := i + 1; k < len(r.VRegs); k++ {
			if o := &r.VRegs[k]; o.Reg == c.Reg {
				for m := c.Lanes & o.Lanes &^ covered; m != 0; m &= m - 1 {
					l := tz(m)
					c.New[l] = o.Old[l]
				}
				covered |= c.Lanes & o.Lanes
			}
		}
		for m := c.Lanes &^ covered; m != 0; m &= m - 1 {
			l := tz(m)
			c.New[l] = w.v[c.Reg][l]
		}
	}
	for _, e := range w.j.m {
		r.Mem = append(r.Mem, MemWrite{Addr: e.addr, Old: append([]byte(nil), e.old[:e.n]...), New: append([]byte(nil), e.new[:e.n]...),
			Why: [...]string{"store", "atomic", "write-back"}[e.why]})
	}
	for _, o := range w.j.ops {
		f := w.inflight(&o.op)
		if o.issued {
			r.Issued = append(r.Issued, f)
		} else {
			r.Completed = append(r.Completed, f)
		}
	}
	r.Cache = append(r.Cache, w.j.events...)
	r.Addrs = append(r.Addrs, w.j.addrs...)
	r.Hazards = append(r.Hazards, w.j.hazards...)
	r.Stale = append(r.Stale, w.j.stale...)
	r.Notes = append(r.Notes, w.j.notes...)
	m.last = append(m.last[:0], w.j.addrs...)
	return r
}

func (w *Wave) inflight(p *pendingOp) InFlight {
	f := InFlight{ID: p.id, Index: p.pc, Counter: p.cnt, Inc: int(p.inc), Issue: p.issue, Done: p.done}
	if p.pc < len(w.code) {
		f.PC = w.code[p.pc].pc
		if w.code[p.pc].in != nil {
			f.Op = w.code[p.pc].in.Op
		}
	}
	if !p.vec {
		for k := 0; k < int(p.n); k++ {
			f.Dest = append(f.Dest, scalarName(w.target, int(p.dst)+k))
		}
	}
	return f
}

func codeOf(slot int) int {
	if slot < 128 {
		return slot
	}
	return -1
}

package emu

import (
	"context"
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
	env

	w    *Wave
	bp   []bool
	nbp  int        // breakpoints set in bp
	last []LaneAddr // the last journaled step's addresses
	// reference makes Run journal every step, as Step does, so that every
	// instruction takes its reference form (EngineReference)
	reference bool

	// VGPRs from vhigh up are zero (Reset clears only below it); vspan is
	// how many VGPRs vprog's instructions can write (vgprSpan).
	vprog *Program
	vspan int
	vhigh int

	rp    *replay // the recording for reverse execution, if any (replay.go)
	bpVer uint64  // counts breakpoints added (replay's clean spans hold for one)
}

// env is what a wave's instructions reach beyond the wave: the machine's
// configuration, program, memory and vector memory unit, the latency
// costs, the step history and the scalar unit's bookkeeping. Machine
// embeds it, so its exported fields read as the machine's.
type env struct {
	Config Config
	Prog   *Program
	Mem    *Memory
	// VectorMemory is the vector memory unit (issue 5); nil rejects vector
	// memory instructions.
	VectorMemory VectorMemory

	costs [8]uint32
	hist  history

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
	m := &Machine{env: env{Config: cfg, Prog: prog, Mem: mem}, bp: make([]bool, len(prog.code))}
	l := cfg.Latency
	if l == (Latency{}) {
		l = DefaultLatency()
		m.Config.Latency = l
	}
	m.costs = [8]uint32{cSALU: l.SALU, cVALU: l.VALU, cTrans: l.VALUTrans, cF64: l.VALUF64, cSMEM: l.SMEMIssue}
	w := &Wave{m: &m.env, target: cfg.Target, code: prog.code, cache: newScalarCache(cfg.Cache)}
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

// The setters change the state outside execution. While the machine
// records (StartRecording) each is a logged edit that stepping back undoes;
// otherwise, as it is not recorded, it clears the step history.

// SetPC moves the wave to the instruction at pc.
func (m *Machine) SetPC(pc uint64) error {
	i, ok := m.Prog.IndexOf(pc)
	if !ok {
		return fmt.Errorf("emu: no instruction at 0x%x", pc)
	}
	m.edit(func(m *Machine) { m.w.s[slotPC] = uint32(i) })
	return nil
}

// SetSGPR sets SGPR n (0–101).
func (m *Machine) SetSGPR(n int, v uint32) error {
	if n < 0 || n >= 102 {
		return fmt.Errorf("emu: no SGPR s%d", n)
	}
	m.edit(func(m *Machine) { m.w.s[n] = v })
	return nil
}

// SetScalar sets a scalar register by operand code (0–127: SGPRs, VCC, M0,
// EXEC, TTMPs by their codes).
func (m *Machine) SetScalar(code int, v uint32) error {
	if code < 0 || code >= 128 {
		return fmt.Errorf("emu: no scalar code %d", code)
	}
	m.edit(func(m *Machine) { m.w.s[code] = v })
	return nil
}

// SetTTMP sets trap temporary ttmp n (12 on GFX8, 16 on GFX9; their scalar
// codes differ by generation).
func (m *Machine) SetTTMP(n int, v uint32) error {
	if n < 0 || n >= m.w.ttmpCount() {
		return fmt.Errorf("emu: no ttmp%d on this target (ttmp0-ttmp%d)", n, m.w.ttmpCount()-1)
	}
	code := m.w.ttmpCode(n)
	m.edit(func(m *Machine) { m.w.s[code] = v })
	return nil
}

// SetVGPR sets one lane of a VGPR.
func (m *Machine) SetVGPR(reg, lane int, v uint32) error {
	if reg < 0 || reg > 255 || lane < 0 || lane > 63 {
		return fmt.Errorf("emu: no v%d lane %d", reg, lane)
	}
	m.edit(func(m *Machine) {
		m.w.v[reg][lane] = v
		m.vhigh = max(m.vhigh, reg+1)
	})
	return nil
}

// SetVGPRLanes sets the lanes of mask of a VGPR to v, as one edit.
func (m *Machine) SetVGPRLanes(reg int, mask uint64, v uint32) error {
	if reg < 0 || reg > 255 {
		return fmt.Errorf("emu: no v%d", reg)
	}
	m.edit(func(m *Machine) {
		for l := range 64 {
			if mask>>l&1 != 0 {
				m.w.v[reg][l] = v
			}
		}
		m.vhigh = max(m.vhigh, reg+1)
	})
	return nil
}

// SetLatency sets the latencies read at each use (Latency's Branch,
// ScalarHit, ScalarMiss, ScalarOp, MemTime, VectorMem, Export; the issue
// costs are fixed when the machine is made).
func (m *Machine) SetLatency(l Latency) {
	m.edit(func(m *Machine) { m.Config.Latency = l })
}

// SetExec sets EXEC.
func (m *Machine) SetExec(v uint64) {
	m.edit(func(m *Machine) { m.w.s[codeExec], m.w.s[codeExec+1] = uint32(v), uint32(v>>32) })
}

// SetMode sets the MODE hardware register.
func (m *Machine) SetMode(v uint32) {
	m.edit(func(m *Machine) {
		m.w.s[slotMode] = v
		if v&modeGPRIdxEn != 0 {
			m.vhigh = 256 // relative indexing can reach any VGPR
		}
	})
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
		m.bpVer++
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

// StepBack undoes the last recorded step, restoring the exact state before
// it (registers, memory, cache, in-flight operations, clock, counters).
//
// While recording, a step the journal no longer holds (before the last Run,
// edit or reverse move) is undone by ReverseStep instead.
func (m *Machine) StepBack() error {
	if !m.hist.pop(m.w) {
		if m.rp != nil {
			_, err := m.ReverseStep(context.Background(), 1)
			return err
		}
		return ErrNoHistory
	}
	m.w.rebuildPending()
	return nil
}

// form is the form of in a step runs: the reference form, which records,
// when the step is journaled, else the fast form (runFast's loop, never
// journaled, runs in.fn itself). It is the one place the journal flag
// picks a form.
func (w *Wave) form(in *instr) execFn {
	if w.jOn {
		return in.ref
	}
	return in.fn
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
	err := w.form(in)(w, in)
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

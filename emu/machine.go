package emu

import (
	"context"
	"fmt"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// Machine owns a wave, its program, memory, step history and breakpoints.
// It is the emulator's whole public surface for a debugger front end: step
// forwards and backwards, run under a budget, and take snapshots.
type Machine struct {
	core.Env

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

// NewMachine creates a machine with one wave at the start of prog, EXEC all
// ones and every register zero.
func NewMachine(prog *Program, mem *Memory, cfg Config) *Machine {
	if mem == nil {
		mem = core.NewMemory()
	}
	if prog == nil {
		prog = NewProgram(cfg.Target, 0, nil)
	}
	if cfg.Target == isa.TargetUnknown {
		cfg.Target = prog.Target
	}
	m := &Machine{Env: core.Env{Config: cfg, Prog: prog, Mem: mem}, bp: make([]bool, len(prog.Code))}
	l := cfg.Latency
	if l == (Latency{}) {
		l = core.DefaultLatency()
		m.Config.Latency = l
	}
	m.Costs = [8]uint32{core.CSALU: l.SALU, core.CVALU: l.VALU, core.CTrans: l.VALUTrans, core.CF64: l.VALUF64, core.CSMEM: l.SMEMIssue}
	w := &Wave{M: &m.Env, Target: cfg.Target, Code: prog.Code, Cache: core.NewScalarCache(cfg.Cache)}
	w.Pend = make([]core.PendingOp, 0, 64)
	w.S[core.CodeExec], w.S[core.CodeExec+1] = ^uint32(0), ^uint32(0)
	w.S[core.SlotMode] = cfg.Mode
	w.S[core.SlotGPRAlloc] = 0x3f00 // VGPR/SGPR allocation fields: illustrative
	m.w = w
	m.Hist.Limit = cfg.HistoryBytes
	m.vprog, m.vspan = prog, vgprSpan(prog)
	m.vhigh = m.vspan
	if cfg.Mode&core.ModeGPRIdxEn != 0 {
		m.vhigh = 256
	}
	return m
}

// Wave returns the machine's wave.
func (m *Machine) Wave() *Wave { return m.w }

// State returns the wave's run state.
func (m *Machine) State() RunState { return m.w.State() }

// PC returns the address of the next instruction.
func (m *Machine) PC() uint64 { return m.w.Code[m.w.Pc()].Pc }

// Cycle returns the wave's clock.
func (m *Machine) Cycle() uint64 { return m.w.Clock() }

// Steps returns how many instructions the wave has executed.
func (m *Machine) Steps() uint64 { return m.w.Get64(core.SlotRetired) }

// HistoryLen returns how many steps StepBack can undo.
func (m *Machine) HistoryLen() int { return m.Hist.Len() }

// HistoryBytes returns the memory the step history uses.
func (m *Machine) HistoryBytes() int64 { return m.Hist.Bytes() }

// SetHistoryLimit changes Config.HistoryBytes, the bound on the step
// history (0 turns recording off and frees the history). Like every setter
// it clears the history.
func (m *Machine) SetHistoryLimit(n int64) {
	n = max(n, 0)
	m.Config.HistoryBytes, m.Hist.Limit = n, n
	m.Hist.Clear()
	if n == 0 || int64(len(m.Hist.Ring)) > m.Hist.RingMax() {
		m.Hist.Ring = nil
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
	m.edit(func(m *Machine) { m.w.S[core.SlotPC] = uint32(i) })
	return nil
}

// SetSGPR sets SGPR n (0–101).
func (m *Machine) SetSGPR(n int, v uint32) error {
	if n < 0 || n >= 102 {
		return fmt.Errorf("emu: no SGPR s%d", n)
	}
	m.edit(func(m *Machine) { m.w.S[n] = v })
	return nil
}

// SetScalar sets a scalar register by operand code (0–127: SGPRs, VCC, M0,
// EXEC, TTMPs by their codes).
func (m *Machine) SetScalar(code int, v uint32) error {
	if code < 0 || code >= 128 {
		return fmt.Errorf("emu: no scalar code %d", code)
	}
	m.edit(func(m *Machine) { m.w.S[code] = v })
	return nil
}

// SetTTMP sets trap temporary ttmp n (12 on GFX8, 16 on GFX9; their scalar
// codes differ by generation).
func (m *Machine) SetTTMP(n int, v uint32) error {
	if n < 0 || n >= m.w.TtmpCount() {
		return fmt.Errorf("emu: no ttmp%d on this target (ttmp0-ttmp%d)", n, m.w.TtmpCount()-1)
	}
	code := m.w.TtmpCode(n)
	m.edit(func(m *Machine) { m.w.S[code] = v })
	return nil
}

// SetVGPR sets one lane of a VGPR.
func (m *Machine) SetVGPR(reg, lane int, v uint32) error {
	if reg < 0 || reg > 255 || lane < 0 || lane > 63 {
		return fmt.Errorf("emu: no v%d lane %d", reg, lane)
	}
	m.edit(func(m *Machine) {
		m.w.V[reg][lane] = v
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
				m.w.V[reg][l] = v
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
	m.edit(func(m *Machine) { m.w.S[core.CodeExec], m.w.S[core.CodeExec+1] = uint32(v), uint32(v>>32) })
}

// SetMode sets the MODE hardware register.
func (m *Machine) SetMode(v uint32) {
	m.edit(func(m *Machine) {
		m.w.S[core.SlotMode] = v
		if v&core.ModeGPRIdxEn != 0 {
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
			out = append(out, m.Prog.Code[i].Pc)
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
	if !m.Hist.Pop(m.w) {
		if m.rp != nil {
			_, err := m.ReverseStep(context.Background(), 1)
			return err
		}
		return core.ErrNoHistory
	}
	m.w.RebuildPending()
	return nil
}

// form is the form of in a step runs: the reference form, which records,
// when the step is journaled, else the fast form (runFast's loop, never
// journaled, runs in.fn itself). It is the one place the journal flag
// picks a form.
func form(w *Wave, in *core.Instr) core.ExecFn {
	if w.JOn {
		return in.Ref
	}
	return in.Fn
}

// step executes the instruction at PC with the journal on (Step, and Run
// with history; runFast is the unjournaled loop).
func step(w *Wave) error {
	idx := w.Pc()
	in := &w.Code[idx]
	w.CurIdx = idx
	if len(w.Pend) > 0 {
		w.Retire()
	}
	w.Ws(core.SlotPC, uint32(in.Next))
	err := form(w, in)(w, in)
	w.SetClock(w.Clock() + uint64(w.M.Costs[in.Cost&7]))
	w.Ws64(core.SlotRetired, w.Get64(core.SlotRetired)+1)
	if err != nil {
		w.Ws(core.SlotPC, uint32(idx))
		w.Ws(core.SlotStatus, uint32(core.Faulted))
		return err
	}
	// operations whose cycle came during this instruction complete now, so
	// that snapshots between steps never show a finished operation in flight
	if len(w.Pend) > 0 {
		w.Retire()
	}
	return nil
}

func (m *Machine) record(idx int, before Counters, err error) *StepRecord {
	w := m.w
	in := &w.Code[idx]
	r := &StepRecord{Seq: w.Get64(core.SlotRetired), PC: in.Pc, Index: idx, NextPC: m.PC(), Err: err, State: w.State(),
		CountersBefore: before, CountersAfter: w.Counters(), Stall: w.J.Stall}
	if idx < len(m.Prog.Insts) {
		r.Inst = &m.Prog.Insts[idx]
	}
	r.CycleAfter = w.Clock()
	r.CycleBefore = r.CycleAfter
	seenLo, seenHi := false, false
	for _, e := range w.J.S {
		if e.Idx == core.SlotClock || e.Idx == core.SlotClock+1 {
			// the first write of each half holds the value before the step
			if e.Idx == core.SlotClock && !seenLo {
				r.CycleBefore = r.CycleBefore&^0xffffffff | uint64(e.Old)
				seenLo = true
			} else if e.Idx == core.SlotClock+1 && !seenHi {
				r.CycleBefore = r.CycleBefore&0xffffffff | uint64(e.Old)<<32
				seenHi = true
			}
			continue
		}
		// one change per register: the first old value, the last new one
		merged := false
		for k := range r.SRegs {
			if r.SRegs[k].Slot == int(e.Idx) {
				r.SRegs[k].New = e.New
				merged = true
			}
		}
		if !merged {
			r.SRegs = append(r.SRegs, SRegChange{Name: core.SlotName(w.Target, int(e.Idx)), Code: codeOf(int(e.Idx)), Old: e.Old, New: e.New, Slot: int(e.Idx)})
		}
	}
	kept := r.SRegs[:0]
	for _, c := range r.SRegs {
		if c.Old != c.New {
			kept = append(kept, c)
		}
	}
	r.SRegs = kept
	for _, e := range w.J.V {
		c := VRegChange{Reg: int(e.Reg), Lanes: e.Mask, Old: e.Old}
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
					l := core.Tz(m)
					c.New[l] = o.Old[l]
				}
				covered |= c.Lanes & o.Lanes
			}
		}
		for m := c.Lanes &^ covered; m != 0; m &= m - 1 {
			l := core.Tz(m)
			c.New[l] = w.V[c.Reg][l]
		}
	}
	for _, e := range w.J.M {
		r.Mem = append(r.Mem, MemWrite{Addr: e.Addr, Old: append([]byte(nil), e.Old[:e.N]...), New: append([]byte(nil), e.New[:e.N]...),
			Why: [...]string{"store", "atomic", "write-back"}[e.Why]})
	}
	for _, o := range w.J.Ops {
		f := inflight(w, &o.Op)
		if o.Issued {
			r.Issued = append(r.Issued, f)
		} else {
			r.Completed = append(r.Completed, f)
		}
	}
	r.Cache = append(r.Cache, w.J.Events...)
	r.Addrs = append(r.Addrs, w.J.Addrs...)
	r.Hazards = append(r.Hazards, w.J.Hazards...)
	r.Stale = append(r.Stale, w.J.Stale...)
	r.Notes = append(r.Notes, w.J.Notes...)
	m.last = append(m.last[:0], w.J.Addrs...)
	return r
}

func inflight(w *Wave, p *core.PendingOp) InFlight {
	f := InFlight{ID: p.Id, Index: p.Pc, Counter: p.Cnt, Inc: int(p.Inc), Issue: p.Issue, Done: p.Done}
	if p.Pc < len(w.Code) {
		f.PC = w.Code[p.Pc].Pc
		if w.Code[p.Pc].In != nil {
			f.Op = w.Code[p.Pc].In.Op
		}
	}
	if !p.Vec {
		for k := 0; k < int(p.N); k++ {
			f.Dest = append(f.Dest, core.ScalarName(w.Target, int(p.Dst)+k))
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

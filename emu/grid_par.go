package emu

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// groupWorker runs work-groups one at a time.
type groupWorker struct {
	g    *gridRun
	mem  *Memory
	d    *Dispatch               // the dispatch with this worker's scratch backing
	ops  map[*isa.Inst]*ref.VmOp // compiled vector memory instructions
	pool []*groupWave            // reusable waves, by index in the work-group

	// wave set-up, reused across work-groups
	user   []uint32      // the user SGPRs (the same for every wave)
	sgpr   []uint32      // a wave's initial SGPRs
	idSize [3]uint32     // the work-group size ids holds
	ids    []laneInit    // work-item ids and EXEC per wave of such a group
	lds    *ref.LdsBlock // the LDS of its work-groups (one size for the run)

	faults []WaveError // of the running work-group
}

// laneInit is a wave's initial work-item id VGPRs and EXEC.
type laneInit struct {
	v    [3][64]uint32
	exec uint64
}

// groupWave is one wave of the running work-group.
type groupWave struct {
	m       *Machine
	u       *ref.VMemUnit
	no      uint64
	idx     int
	done    bool
	waiting bool // stopped before an s_barrier
	traced  bool
	bps     bool // breakpoints set at every s_barrier
}

// workers sets up the grid's workers (called at the end of setup, after
// every other allocation): worker k > 0 gets a scratch backing of its own.
func (g *gridRun) workers() error {
	n := g.cfg.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	if g.cfg.Trace != nil {
		n = 1 // trace records in dispatch order
	}
	n = int(min(uint64(n), max(g.d.GroupCount(), 1)))
	g.nworkers = n
	for k := 0; k < n; k++ {
		wk := &groupWorker{g: g, mem: g.mem, d: g.d, ops: map[*isa.Inst]*ref.VmOp{}}
		if n > 1 {
			wk.mem = g.mem.GroupView()
		}
		if k > 0 && g.d.ScratchBytes > 0 {
			dk := *g.d
			addr, err := g.mem.Alloc(fmt.Sprintf("scratch.%d", k), g.d.ScratchBytes, 1<<16)
			if err != nil {
				return err
			}
			dk.ScratchAddr = addr
			wk.d = &dk
		}
		wk.user = wk.d.userSGPRs(nil)
		g.ws = append(g.ws, wk)
	}
	if n > 1 {
		for _, wk := range g.ws {
			wk.mem.Allocs = g.mem.Allocs // including every worker's scratch
		}
	}
	return nil
}

// wavesOf returns the number of waves of work-group id.
func (g *gridRun) wavesOf(id [3]uint32) uint64 {
	return uint64(groupWaves(g.d.GroupSize(id)))
}

// groupWaves returns the number of waves of a work-group of the given size.
func groupWaves(size [3]uint32) int {
	return int(size[0]*size[1]*size[2]+63) / 64
}

// runGroups runs work-groups [0, count) and adds their counts to g.res in
// dispatch order (tally). After a fault or an error no later work-group
// starts, and g.res counts exactly the work-groups up to and including the
// first one, in dispatch order, that faulted or failed — its faults are
// the ones reported — whatever the number of workers: later work-groups
// that were already running on other workers are not counted. With a
// GridConfig.Progress, the last report is made before runGroups returns.
func (g *gridRun) runGroups(ctx context.Context, count uint64) error {
	s := newSchedule(g, count)
	s.prog = startProgress(g.cfg.Progress, count)
	defer s.prog.finish()
	if g.nworkers <= 1 {
		_, err := s.run(ctx, g.ws[0])
		return err
	}
	errs := make([]error, len(g.ws))
	errAt := make([]uint64, len(g.ws))
	var wg sync.WaitGroup
	for k, wk := range g.ws {
		wg.Go(func() { errAt[k], errs[k] = s.run(ctx, wk) })
	}
	wg.Wait()
	first := s.stop.Load()
	for k := range g.ws {
		if errs[k] != nil && errAt[k] == first {
			return errs[k]
		}
	}
	return nil
}

// newWaves sets up the waves of work-group id, whose first wave is number
// first: a Machine each (reused from the pool) with its initial registers,
// sharing the group's LDS (cleared) and memory.
func (wk *groupWorker) newWaves(id [3]uint32, first uint64) []*groupWave {
	g, d := wk.g, wk.d
	size := d.GroupSize(id)
	nw := groupWaves(size)
	wk.clearLDS()
	for len(wk.pool) < nw {
		wk.pool = append(wk.pool, wk.newPoolWave())
	}
	waves := wk.pool[:nw]
	if size != wk.idSize || len(wk.ids) < nw {
		// Work-item ids and EXEC depend only on the group's size, which
		// differs from Block only at the grid's upper edges.
		wk.idSize = size
		wk.ids = wk.ids[:0]
		for w := range nw {
			var li laneInit
			li.exec = d.workItemIDs(&li.v, size, w)
			wk.ids = append(wk.ids, li)
		}
	}
	nv := d.workItemVGPRs()
	for w, gw := range waves {
		m := gw.m
		startWave(gw.u, wk.lds, d.ScratchAddr+uint64(w)*d.ScratchPerWave)
		wk.sgpr = d.appendSystemSGPRs(append(wk.sgpr[:0], wk.user...), id, w, w)
		li := &wk.ids[w]
		m.startWave(g.entry, wk.sgpr, li.v[:nv], li.exec, waveInitM0)
		*gw = groupWave{m: m, u: gw.u, no: first + uint64(w), idx: w, bps: gw.bps}
		if g.cfg.Trace != nil {
			gw.traced = g.cfg.Select == nil && gw.no == 0 || g.cfg.Select != nil && g.cfg.Select(gw.no)
		}
		if want := !gw.traced; want != gw.bps {
			wk.setBarrierBreaks(gw, want)
		}
	}
	return waves
}

// newPoolWave returns a new wave slot: a Machine on the worker's memory
// with its vector memory unit.
func (wk *groupWorker) newPoolWave() *groupWave {
	g, d := wk.g, wk.d
	cfg := g.cfg.Config
	cfg.Target = g.l.Target
	cfg.Mode = d.ABI.Mode()
	vcfg := g.cfg.VMem
	if vcfg.LDSLatency == 0 {
		vcfg.LDSLatency = 64
	}
	if wk.lds == nil {
		wk.lds = ref.NewLDS(d.GroupLDS)
	}
	m := NewMachine(g.prog, wk.mem, cfg)
	m.reference = g.cfg.Engine == EngineReference
	u := &ref.VMemUnit{Cfg: vcfg, Ops: wk.ops}
	m.VectorMemory = u
	return &groupWave{m: m, u: u}
}

// startWave readies a wave slot's vector memory unit for its next wave:
// the work-group's LDS, the wave's scratch base, nothing in flight. Its
// caches (compiled operations, the last allocation found) stay valid: the
// program and the allocations do not change during a run.
func startWave(u *ref.VMemUnit, lds *ref.LdsBlock, scratch uint64) {
	u.Lds, u.Scratch = lds, scratch
	u.Pending = u.Pending[:0]
	u.Lines.N = 0
	u.NoFast = false
}

// setBarrierBreaks sets (on) or clears breakpoints at every s_barrier of
// wave gw: an untraced wave stops there to meet its work-group.
func (wk *groupWorker) setBarrierBreaks(gw *groupWave, on bool) {
	g := wk.g
	for i, b := range g.bar {
		if !b {
			continue
		}
		if on {
			_ = gw.m.SetBreakpoint(g.prog.Addrs[i])
		} else {
			gw.m.ClearBreakpoint(g.prog.Addrs[i])
		}
	}
	gw.bps = on
}

// clearLDS zeroes the work-group's LDS, [0, GroupLDS) of the LDS window,
// in place (Memory.zero): a worker's view of memory holds the window's
// pages privately (Memory.local), and with one worker no other goroutine
// touches memory.
func (wk *groupWorker) clearLDS() {
	wk.mem.Zero(core.SharedApertureBase, int(wk.d.GroupLDS))
}

// runGroup runs work-group n (id) to completion and returns its counts
// (those of every wave, up to where it stopped) and the faults that stopped
// it. An internal error (a panic in the emulator) becomes an error naming
// the wave and its PC rather than ending the process from a worker
// goroutine.
func (wk *groupWorker) runGroup(ctx context.Context, n uint64, id [3]uint32, first uint64) (st groupStats, err error) {
	var cur *groupWave
	var waves []*groupWave
	wk.faults = wk.faults[:0]
	defer func() {
		r := recover()
		if r != nil {
			we := WaveError{Group: id, Err: fmt.Errorf("emu: internal error: %v", r)}
			if cur != nil {
				we.Wave, we.Index = cur.no, cur.idx
				if i := cur.m.w.Pc(); i >= 0 && i < len(cur.m.w.Code) {
					we.PC = cur.m.w.Code[i].Pc
				}
			}
			err = we
		}
		st.waves = uint64(len(waves))
		for _, gw := range waves {
			st.instructions += gw.m.Steps()
			c := gw.m.Cycle()
			st.cycles += c
			st.maxCycles = max(st.maxCycles, c)
		}
		if len(wk.faults) > 0 {
			st.faults = append([]WaveError(nil), wk.faults...)
		}
		if r == nil {
			wk.waveEnd(waves)
		}
	}()
	waves = wk.newWaves(id, first)
	for {
		live, waiting := 0, 0
		for _, gw := range waves {
			if gw.done {
				continue
			}
			live++
			if !gw.waiting {
				cur = gw
				if err := wk.runWave(ctx, id, gw); err != nil {
					return st, err
				}
			}
			if gw.waiting {
				waiting++
			}
			if len(wk.faults) > 0 {
				return st, nil
			}
		}
		if live == 0 {
			break
		}
		// Every live wave is at the barrier (or has ended): release them.
		if waiting > 0 {
			for _, gw := range waves {
				gw.waiting = false
			}
		}
	}
	return st, nil
}

// runWave runs one wave until it ends, faults or stops before s_barrier.
func (wk *groupWorker) runWave(ctx context.Context, id [3]uint32, gw *groupWave) error {
	g := wk.g
	m := gw.m
	fail := func(err error) error {
		we := WaveError{Wave: gw.no, Group: id, Index: gw.idx, PC: m.PC(), Err: err}
		var f *Fault
		var ee *ExecError
		if errors.As(err, &f) || errors.As(err, &ee) {
			wk.faults = append(wk.faults, we)
			return nil
		}
		return we
	}
	budget := int64(0)
	if g.cfg.MaxSteps > 0 {
		budget = g.cfg.MaxSteps - int64(m.Steps())
		if budget <= 0 {
			return fail(ErrStepBudget)
		}
	}
	if gw.traced {
		first := true
		for n := int64(0); budget == 0 || n < budget; n++ {
			idx, _ := g.prog.IndexOf(m.PC())
			if g.bar[idx] && !first {
				gw.waiting = true
				return nil
			}
			first = false
			rec, err := m.Step()
			if rec != nil {
				if terr := g.cfg.Trace(gw.no, rec); terr != nil {
					return terr
				}
			}
			if errors.Is(err, core.ErrEnded) || m.State() == core.Ended {
				gw.done = true
				return nil
			}
			if err != nil {
				return fail(err)
			}
			if n&1023 == 1023 && ctx.Err() != nil {
				return ctx.Err()
			}
		}
		return fail(ErrStepBudget)
	}
	r, err := m.Run(ctx, budget)
	switch {
	case r.Reason == StopEnded:
		gw.done = true
		return nil
	case r.Reason == StopBreakpoint:
		gw.waiting = true
		return nil
	case r.Reason == StopCanceled:
		return ctx.Err()
	case r.Reason == StopBudget:
		return fail(ErrStepBudget)
	case err != nil:
		return fail(err)
	}
	return fail(fmt.Errorf("wave stopped: %v", r.Reason))
}

package emu

import (
	"context"
	"errors"
	"fmt"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// WaveSession is one wave of a grid chosen for debugging.
type WaveSession struct {
	Machine *Machine // the chosen wave, at the kernel's entry
	Wave    uint64   // its number in dispatch order
	Group   [3]uint32
	Index   int // wave within the work-group
	// Others are the work-group's other waves, stopped at their first
	// s_barrier or ended (at the entry with SiblingsAtEntry); one that did
	// not get there within the budget stops where the budget ran out.
	Others []*Machine
	// Unready, when set, is a *WaveError naming the first other wave that
	// did not reach an s_barrier or its end within the budget (it wraps
	// ErrStepBudget). The chosen wave can still run up to its barrier.
	Unready  error
	Dispatch *Dispatch
	Memory   *Memory
}

// PrepareWave gets wave n of a launch ready to debug: every earlier
// work-group runs to completion (concurrently, as in RunGrid, so memory
// holds their results), wave n's work-group is set up, and its other waves
// run until they reach an s_barrier or end, at most SiblingSteps each
// (see WaveSession.Unready). None of those steps is recorded: only the
// returned machines record history, each up to cfg.Config.HistoryBytes.
// The returned Machine is at the kernel's entry with the ABI's initial
// registers; breakpoints it inherits at s_barrier are cleared. The
// machines do not meet at barriers by themselves: OpenSession makes a
// Session of them that does.
func PrepareWave(ctx context.Context, l *Launch, cfg GridConfig, n uint64) (*WaveSession, error) {
	cfg.Trace, cfg.Select = nil, nil
	hist := cfg.Config.HistoryBytes
	cfg.Config.HistoryBytes = 0
	g := &gridRun{l: l, cfg: cfg, mem: core.NewMemory(), res: &GridResult{}}
	if err := g.setup(); err != nil {
		return nil, err
	}
	// Find wave n's work-group and the number of its first wave.
	gi, idx, ok := g.d.WaveAt(n)
	if !ok {
		return nil, fmt.Errorf("emu: the grid has %d waves; there is no wave %d", g.d.WaveCount(), n)
	}
	waveNo := n - uint64(idx)
	if err := g.runGroups(ctx, gi); err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return nil, fmt.Errorf("emu: preparing wave %d: stopped after %d of the %d work-groups before it: %w", n, g.res.WorkGroups, gi, err)
		}
		return nil, err
	}
	if len(g.res.Faults) > 0 {
		return nil, g.res.Faults[0]
	}
	// The chosen work-group runs on worker 0 over the shared memory itself
	// (its LDS window included), with machines of its own.
	id := g.d.GroupID(gi)
	wk := g.ws[0]
	wk.mem, wk.pool = g.mem, nil
	waves := wk.newWaves(id, waveNo)
	budget := cfg.SiblingSteps
	if budget <= 0 {
		budget = DefaultSiblingSteps
	}
	if cfg.MaxSteps > 0 {
		budget = min(budget, cfg.MaxSteps)
	}
	g.cfg.MaxSteps = budget // runWave's bound
	s := &WaveSession{Group: id, Dispatch: g.d, Memory: g.mem}
	for _, gw := range waves {
		if gw.no == n {
			s.Machine, s.Wave, s.Index = gw.m, gw.no, gw.idx
			for _, pc := range gw.m.Breakpoints() {
				gw.m.ClearBreakpoint(pc)
			}
			gw.m.SetHistoryLimit(hist)
			continue
		}
		if !cfg.SiblingsAtEntry {
			if err := wk.runWave(ctx, id, gw); err != nil {
				if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
					return nil, fmt.Errorf("emu: preparing wave %d: stopped running wave %d of its work-group: %w", n, gw.no, err)
				}
				if !errors.Is(err, ErrStepBudget) {
					return nil, err
				}
				if s.Unready == nil {
					s.Unready = WaveError{Wave: gw.no, Group: id, Index: gw.idx, PC: gw.m.PC(),
						Err: fmt.Errorf("did not reach an s_barrier or its end within %d steps: %w", budget, ErrStepBudget)}
				}
			}
		}
		gw.m.SetHistoryLimit(hist)
		s.Others = append(s.Others, gw.m)
	}
	return s, nil
}

package emu

import (
	"context"
	"runtime"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// liveHeap returns the live heap after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestContinueHistoryWithinBudget continues a wave looping on `s_branch -1`
// for millions of steps (Run in chunks, then Step one at a time, as the
// debugger's continue does) with an 8 MiB history: the live heap the
// history holds stays within the limit plus 1 MiB of slack, the oldest
// steps are dropped, and stepping back still works.
func TestContinueHistoryWithinBudget(t *testing.T) {
	const limit = 8 << 20
	const slack = 1 << 20
	cfg := core.DefaultConfig(isa.GFX9)
	cfg.HistoryBytes = limit
	base := liveHeap()
	m := NewMachine(prog(isa.GFX9, I("s_branch", label(0))), nil, cfg)
	const steps = 3_000_000
	for m.Steps() < steps {
		if _, err := m.Run(context.Background(), 1<<16); err != nil {
			t.Fatal(err)
		}
	}
	for range 200_000 {
		mustStep(t, m)
	}
	live := liveHeap()
	runtime.KeepAlive(m)
	if live > base && live-base > limit+slack {
		t.Errorf("live heap grew by %.1f MiB for an %d MiB history (%d steps kept)", float64(live-base)/(1<<20), limit>>20, m.HistoryLen())
	}
	if b := m.HistoryBytes(); b > limit {
		t.Errorf("HistoryBytes %d > limit %d", b, limit)
	}
	n := m.HistoryLen()
	if n == 0 || uint64(n) >= m.Steps() {
		t.Fatalf("history keeps %d of %d steps", n, m.Steps())
	}
	end := m.Steps()
	for i := range n {
		if err := m.StepBack(); err != nil {
			t.Fatalf("step back %d of %d: %v", i+1, n, err)
		}
	}
	if m.Steps() != end-uint64(n) || m.PC() != 0 {
		t.Errorf("after undoing %d steps: %d steps, pc %#x", n, m.Steps(), m.PC())
	}
	if err := m.StepBack(); err != core.ErrNoHistory {
		t.Errorf("step back past the oldest kept step: %v", err)
	}
	mustStep(t, m)
}

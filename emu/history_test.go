package emu

import (
	"context"
	"reflect"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// fullState is everything step-back must restore.
type fullState struct {
	Snap *Snapshot
	Mem  []byte
}

func capture(m *Machine) fullState {
	s := m.Snapshot()
	s.LastAddrs = nil // a view of the last record, not state
	mem := make([]byte, 0x1000)
	m.Mem.ReadRaw(bufAddr, mem)
	return fullState{s, mem}
}

// Step forwards through loads, stores, cache traffic, VALU and branches,
// then back: every earlier state is restored exactly.
func TestStepBackExact(t *testing.T) {
	m := smemMachine(t,
		"s_mov_b32 s10, 3",
		"s_load_dwordx4 s[0:3], s[4:5], 0x0",
		"s_store_dword s10, s[4:5], 0x40",
		"v_mov_b32_e32 v1, s10",
		"v_add_u32_e32 v1, 1, v1",
		"s_waitcnt lgkmcnt(0)",
		"s_atomic_add s11, s[4:5], 0x80 glc",
		"s_dcache_wb",
		"s_sub_u32 s10, s10, 1",
		"s_cmp_lg_u32 s10, 0",
		"s_cbranch_scc1 -9",
		"s_dcache_inv",
		"s_endpgm")
	var states []fullState
	for m.State() == core.Running && len(states) < 1000 {
		states = append(states, capture(m))
		if _, err := m.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if len(states) < 20 {
		t.Fatalf("only %d steps", len(states))
	}
	for i := len(states) - 1; i >= 0; i-- {
		if err := m.StepBack(); err != nil {
			t.Fatalf("step back %d: %v", i, err)
		}
		if got := capture(m); !reflect.DeepEqual(got, states[i]) {
			t.Fatalf("state after stepping back to %d differs", i)
		}
	}
	if err := m.StepBack(); err != core.ErrNoHistory {
		t.Errorf("step back past the start: %v", err)
	}
}

// One million steps of a mixed SALU/VALU loop fit in 256 MiB of history.
func TestHistoryMillion(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	m := asmMachine(t,
		"s_mov_b32 s0, 0",
		"v_add_u32_e32 v1, 1, v1",
		"v_mul_f32_e32 v2, v1, v1",
		"s_add_u32 s0, s0, 1",
		"s_cmp_lg_u32 s0, 0x7fffffff",
		"s_cbranch_scc1 -5",
		"s_endpgm")
	res, err := m.Run(context.Background(), 1_000_000)
	if err != nil || res.Steps != 1_000_000 {
		t.Fatalf("run: %v %+v", err, res)
	}
	if m.HistoryLen() != 1_000_000 {
		t.Errorf("history holds %d steps", m.HistoryLen())
	}
	if b := m.HistoryBytes(); b > 256<<20 {
		t.Errorf("history uses %d MiB", b>>20)
	}
	t.Logf("1M steps: %.1f MiB of history (%.0f bytes/step)", float64(m.HistoryBytes())/(1<<20), float64(m.HistoryBytes())/1e6)
	before := m.Snapshot()
	for i := 0; i < 1000; i++ {
		if err := m.StepBack(); err != nil {
			t.Fatal(err)
		}
	}
	if m.Steps() != before.Steps-1000 {
		t.Errorf("steps %d", m.Steps())
	}
}

// The history limit drops the oldest steps.
func TestHistoryLimit(t *testing.T) {
	p := asmProgram(t, isa.GFX9, "s_add_u32 s0, s0, 1", "s_branch -2")
	cfg := core.DefaultConfig(isa.GFX9)
	cfg.HistoryBytes = 4096
	m := NewMachine(p, nil, cfg)
	m.Run(context.Background(), 10000)
	if m.HistoryBytes() > 4096 || m.HistoryLen() == 0 || m.HistoryLen() >= 10000 {
		t.Errorf("history %d steps in %d bytes", m.HistoryLen(), m.HistoryBytes())
	}
	n := m.HistoryLen()
	for i := 0; i < n; i++ {
		if err := m.StepBack(); err != nil {
			t.Fatal(err)
		}
	}
	if m.w.S[0] != uint32(10000-n)/2 && m.w.S[0] != uint32(10000-n+1)/2 {
		t.Errorf("s0 = %d after undoing %d of 10000 steps", m.w.S[0], n)
	}
}

// Run honours budgets, breakpoints and cancellation.
func TestRunStops(t *testing.T) {
	m := asmMachine(t, "s_add_u32 s0, s0, 1", "s_branch -2", "s_endpgm")
	res, err := m.Run(context.Background(), 7)
	if err != nil || res.Reason != StopBudget || res.Steps != 7 {
		t.Errorf("budget: %+v %v", res, err)
	}
	m.SetBreakpoint(4)
	res, _ = m.Run(context.Background(), 100)
	if res.Reason != StopBreakpoint || res.PC != 4 {
		t.Errorf("breakpoint: %+v", res)
	}
	// starting on the breakpoint steps over it
	res, _ = m.Run(context.Background(), 100)
	if res.Reason != StopBreakpoint || res.Steps != 2 {
		t.Errorf("second breakpoint: %+v", res)
	}
	m.ClearBreakpoint(4)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err = m.Run(ctx, 0)
	if err == nil || res.Reason != StopCanceled {
		t.Errorf("cancel: %+v %v", res, err)
	}
}

func TestTrapAndEnd(t *testing.T) {
	m := asmMachine(t, "s_trap 2", "s_mov_b32 s0, 5", "s_endpgm")
	res, _ := m.Run(context.Background(), 0)
	if res.Reason != StopTrap || m.State() != core.Trapped {
		t.Fatalf("%+v", res)
	}
	res, err := m.Run(context.Background(), 0)
	if err != nil || res.Reason != StopEnded || m.w.S[0] != 5 {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := m.Step(); err != core.ErrEnded {
		t.Errorf("step after end: %v", err)
	}
}

// Resuming from s_trap is part of the next step: stepping back traps again.
func TestStepBackIntoTrap(t *testing.T) {
	m := asmMachine(t, "s_trap 2", "s_mov_b32 s0, 5", "s_endpgm")
	mustStep(t, m)
	if m.State() != core.Trapped {
		t.Fatalf("state %v", m.State())
	}
	mustStep(t, m)
	if m.State() != core.Running || m.w.S[0] != 5 {
		t.Fatalf("resume: %v s0=%d", m.State(), m.w.S[0])
	}
	if err := m.StepBack(); err != nil || m.State() != core.Trapped || m.w.S[0] != 0 {
		t.Errorf("step back: %v %v s0=%d", err, m.State(), m.w.S[0])
	}
	if _, err := m.Run(context.Background(), 0); err != nil || m.State() != core.Ended {
		t.Errorf("run: %v %v", err, m.State())
	}
	for m.StepBack() == nil {
	}
	if m.State() != core.Running || m.PC() != 0 {
		t.Errorf("undo all: %v %#x", m.State(), m.PC())
	}
}

// VM_CNT operations complete in issue order even when a later one is faster;
// s_waitcnt vmcnt(N) waits for the oldest (the seam issue 5 uses).
func TestVMInOrder(t *testing.T) {
	m := asmMachine(t, "s_waitcnt vmcnt(1)", "s_waitcnt vmcnt(0)", "s_endpgm")
	w := m.Wave()
	a := ref.IssueVector(w, isa.CntVM, 1, 300)
	b := ref.IssueVector(w, isa.CntVM, 1, 10)
	if a == b {
		t.Fatal("ids not distinct")
	}
	r := mustStep(t, m) // vmcnt(1): the slow first op must complete first
	if r.CycleAfter < 300 || len(r.Completed) != 2 {
		t.Errorf("vmcnt(1) ended at cycle %d with %d completed", r.CycleAfter, len(r.Completed))
	}
	if len(r.Completed) == 2 && r.Completed[0].ID != a {
		t.Errorf("completion order %d, %d", r.Completed[0].ID, r.Completed[1].ID)
	}
}

// An empty or missing program stops with an error naming the PC, never a panic.
func TestEmptyProgram(t *testing.T) {
	m := NewMachine(nil, nil, core.DefaultConfig(isa.GFX9))
	if _, err := m.Step(); err == nil {
		t.Error("stepping an empty program succeeded")
	}
	if err := m.StepBack(); err != nil {
		t.Errorf("undo the failed step: %v", err)
	}
	if res, err := m.Run(context.Background(), 10); err == nil || res.Reason != StopError {
		t.Errorf("run: %+v %v", res, err)
	}
}

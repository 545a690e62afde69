package emu

import (
	"context"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// TestRecordingRebasesWithinBudget: a run that writes more pages than half
// the budget can keep the originals of (every page of the buffer holds
// data before the recording starts, and the loop stores to all 16 in turn)
// restarts its recording rather than outgrow the budget; reverse moves then
// reach back to the new start, and any point after it equals a fresh run.
func TestRecordingRebasesWithinBudget(t *testing.T) {
	// storeLoop, storing to page (s0/8)%16 instead of s0%8: eight
	// iterations a page, so the recent pages are few but the pages ever
	// written grow through the run.
	var lines []string
	for _, l := range storeLoop {
		switch l {
		case "s_and_b32 s1, s0, 7":
			lines = append(lines, "s_lshr_b32 s1, s0, 3", "s_and_b32 s1, s1, 15")
		case "s_cbranch_scc1 -17":
			lines = append(lines, "s_cbranch_scc1 -18")
		default:
			lines = append(lines, l)
		}
	}
	loop := asmProgram(t, isa.GFX9, lines...)
	fill := func(m *Machine) {
		b := make([]byte, 0x10000)
		for i := range b {
			b[i] = byte(i*7 + 1)
		}
		if err := m.Mem.Write(bufAddr, b); err != nil {
			t.Fatal(err)
		}
	}
	const budget = 48 << 10
	ctx := context.Background()
	m := loopMachine(t, loop, 2)
	fill(m)
	m.StartRecording(budget)
	m.SetCheckpointInterval(10)
	for range 200 {
		if _, err := m.Run(ctx, 14); err != nil {
			break
		}
		// Within the budget at each checkpoint; in between, the originals
		// of pages first written since (one here) come on top.
		if b := m.RecordingBytes(); b > budget+core.PageSize {
			t.Fatalf("at step %d the recording holds %d bytes, over its budget of %d", m.Steps(), b, budget)
		}
	}
	end, start := m.Steps(), m.RecordingStart()
	if m.Rebases() == 0 || start == 0 {
		t.Fatalf("%d rebases, start %d: the originals of 16 written pages fit half of %d bytes?", m.Rebases(), start, budget)
	}
	for _, at := range []uint64{end - 1, start + (end-start)/2, start} {
		if _, err := m.ReverseStep(ctx, m.Steps()-at); err != nil {
			t.Fatal(err)
		}
		f := loopMachine(t, loop, 2)
		fill(f)
		f.Run(ctx, int64(at))
		if d := diffRuns([2]*Machine{f, m}, [2]error{}, [2]uint64{bufAddr, 0x10000}); d != "" {
			t.Fatalf("back to step %d: %s", at, d)
		}
	}
	if !m.AtStart() {
		t.Fatalf("back to step %d: not at the recording's start (%d)", m.Steps(), start)
	}
	if _, err := m.ReverseStep(ctx, 1); err == nil || m.Steps() != start {
		t.Errorf("a step back past the start: %v, at step %d", err, m.Steps())
	}
}

package emu

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// TestTallyOrder: chunks of work-groups finishing in any order are counted
// in dispatch order, and a stop at work-group f counts exactly 0..f — also
// when later chunks finished first, and when an earlier work-group stops
// the run after a later one did (every chunk from f on faults at its first
// work-group from f, and its worker stops there).
func TestTallyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		n := 1 + r.IntN(300)
		fault := []int{-1, r.IntN(n)}[r.IntN(2)]
		var chunks [][2]int
		for lo := 0; lo < n; {
			hi := min(lo+1+r.IntN(8), n)
			chunks = append(chunks, [2]int{lo, hi})
			lo = hi
		}
		var stop atomic.Uint64
		stop.Store(^uint64(0))
		res := &GridResult{}
		tl := newTally(res, &stop)
		for _, k := range r.Perm(len(chunks)) {
			lo, hi := chunks[k][0], chunks[k][1]
			var sum groupStats
			for g := lo; g < hi; g++ {
				st := groupStats{waves: 1, instructions: uint64(g) + 1, cycles: 10 * (uint64(g) + 1), maxCycles: 10 * (uint64(g) + 1)}
				if g >= fault && fault >= 0 {
					st.faults = []WaveError{{Wave: uint64(g)}}
					for s := stop.Load(); uint64(g) < s && !stop.CompareAndSwap(s, uint64(g)); s = stop.Load() {
					}
					hi = g + 1
				}
				sum.add(&st)
			}
			tl.add(uint64(lo), uint64(hi), &sum)
		}
		last := n - 1
		if fault >= 0 {
			last = fault
		}
		k := uint64(last + 1)
		if res.WorkGroups != k || res.Waves != k || res.Instructions != k*(k+1)/2 || res.Cycles != 10*k*(k+1)/2 || res.MaxCycles != 10*k {
			t.Fatalf("trial %d (%d groups, fault %d): %+v", trial, n, fault, res)
		}
		if fault >= 0 && (len(res.Faults) != 1 || res.Faults[0].Wave != uint64(fault)) {
			t.Fatalf("trial %d: faults %v, want work-group %d's", trial, res.Faults, fault)
		}
	}
}

// TestGridFaultCounts: when work-group 15 of 32 faults, the result counts
// work-groups 0–15 — the same groups, waves, instructions and cycles —
// whether one worker runs them in order or several run later work-groups
// meanwhile. (The fault is a read: a store past the end of a buffer lands
// in the next allocation — the kernarg segment here — and a later
// work-group running early would corrupt the earlier ones' arguments.)
func TestGridFaultCounts(t *testing.T) {
	var first *GridResult
	for _, workers := range []int{1, 2, 4, 8} {
		for rep := 0; rep < 3; rep++ {
			l := loadLaunch(t, "testdata/cl/gfx900/scan_local.co", "scan_local", isa.GFX9)
			l.Grid, l.Block, l.Dims = [3]uint32{2048, 1, 1}, [3]uint32{64, 1, 1}, 1
			// The input buffer holds 1018 of 2048 values and ends before an
			// unmapped gap (the next allocation is 256-byte aligned):
			// work-group 15's lanes 58… fault; later work-groups read the
			// output buffer after the gap and do not.
			l.Args = []LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 4072)}, {Kind: ArgBuffer, Data: make([]byte, 8192)}}
			res, err := RunGrid(context.Background(), l, GridConfig{Config: core.DefaultConfig(isa.GFX9), Workers: workers})
			if err != nil {
				t.Fatalf("workers %d: %v", workers, err)
			}
			if len(res.Faults) != 1 || res.Faults[0].Group != [3]uint32{15, 0, 0} || res.WorkGroups != 16 || res.Waves != 16 {
				t.Fatalf("workers %d: %d work-groups, %d waves, faults %v; want 16, 16 and one in work-group 15",
					workers, res.WorkGroups, res.Waves, res.Faults)
			}
			if first == nil {
				first = res
				continue
			}
			if res.Instructions != first.Instructions || res.Cycles != first.Cycles || res.MaxCycles != first.MaxCycles {
				t.Errorf("workers %d: %d instructions, %d cycles (max %d); one worker: %d, %d (%d)", workers,
					res.Instructions, res.Cycles, res.MaxCycles, first.Instructions, first.Cycles, first.MaxCycles)
			}
		}
	}
}

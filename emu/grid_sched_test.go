package emu

import (
	"math/rand/v2"
	"sync"
	"testing"
)

// TestFirstWave: the closed form of a work-group's first wave number is
// the running sum of the waves of the work-groups before it in dispatch
// order, for grids that are and are not multiples of the block in each
// dimension.
func TestFirstWave(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 300; trial++ {
		d := &Dispatch{}
		for i := range 3 {
			d.Block[i] = 1 + uint32(r.IntN([]int{3, 17, 130}[r.IntN(3)]))
			d.Grid[i] = 1 + uint32(r.IntN(int(d.Block[i])*5))
			d.Groups[i] = (d.Grid[i] + d.Block[i] - 1) / d.Block[i]
		}
		var want uint64
		for n := uint64(0); n < d.GroupCount(); n++ {
			if got := d.firstWave(n); got != want {
				t.Fatalf("grid %v block %v: work-group %d (%v) starts at wave %d, want %d", d.Grid, d.Block, n, d.GroupID(n), got, want)
			}
			s := d.GroupSize(d.GroupID(n))
			want += uint64(s[0]*s[1]*s[2]+63) / 64
		}
	}
}

// TestScheduleClaims: concurrent claims hand out every work-group exactly
// once, in chunks of at most the limit.
func TestScheduleClaims(t *testing.T) {
	for _, count := range []uint64{1, 7, 1000, 100003} {
		for _, workers := range []int{1, 2, 5} {
			s := &schedule{count: count, div: 4 * uint64(workers), limit: 64}
			s.stop.Store(^uint64(0))
			seen := make([]uint8, count)
			var wg sync.WaitGroup
			for range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						lo, hi, ok := s.claim()
						if !ok {
							return
						}
						if hi <= lo || hi-lo > s.limit || hi > count {
							t.Errorf("count %d: chunk [%d, %d)", count, lo, hi)
							return
						}
						for n := lo; n < hi; n++ {
							seen[n]++ // chunks are disjoint: no race
						}
					}
				}()
			}
			wg.Wait()
			for n, c := range seen {
				if c != 1 {
					t.Fatalf("count %d, %d workers: work-group %d claimed %d times", count, workers, n, c)
				}
			}
		}
	}
}

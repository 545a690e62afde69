package emu

import (
	"testing"
)

// TestWaveAtMatchesGroupWalk: WaveCount and WaveAt agree with walking the
// groups one by one, partial edge groups included.
func TestWaveAtMatchesGroupWalk(t *testing.T) {
	for _, c := range []struct{ grid, block [3]uint32 }{
		{[3]uint32{256, 1, 1}, [3]uint32{64, 1, 1}},
		{[3]uint32{200, 1, 1}, [3]uint32{64, 1, 1}},
		{[3]uint32{100, 7, 3}, [3]uint32{16, 4, 2}},
		{[3]uint32{33, 65, 5}, [3]uint32{32, 8, 4}},
		{[3]uint32{10, 10, 10}, [3]uint32{256, 1, 1}},
	} {
		d := &Dispatch{Grid: c.grid, Block: c.block}
		for i := range d.Groups {
			d.Groups[i] = (c.grid[i] + c.block[i] - 1) / c.block[i]
		}
		var n uint64
		for gi := uint64(0); gi < d.GroupCount(); gi++ {
			sz := d.GroupSize(d.GroupID(gi))
			w := (uint64(sz[0])*uint64(sz[1])*uint64(sz[2]) + 63) / 64
			for k := 0; uint64(k) < w; k++ {
				if g, wave, ok := d.WaveAt(n); !ok || g != gi || wave != k {
					t.Fatalf("grid %v block %v: wave %d at group %d wave %d (%v), want group %d wave %d", c.grid, c.block, n, g, wave, ok, gi, k)
				}
				n++
			}
		}
		if got := d.WaveCount(); got != n {
			t.Errorf("grid %v block %v: %d waves, want %d", c.grid, c.block, got, n)
		}
		if _, _, ok := d.WaveAt(n); ok {
			t.Errorf("grid %v block %v: wave %d (past the end) found", c.grid, c.block, n)
		}
	}
}

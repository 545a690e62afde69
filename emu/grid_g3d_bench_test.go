package emu

import (
	"context"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// BenchmarkGridGrid3d runs 4×2×2 work-groups (one 16-lane wave each, ~230
// instructions) of the grid3d kernel on one worker; ns/op is per
// work-group, set-up included.
func BenchmarkGridGrid3d(b *testing.B) {
	grid := [3]uint32{8, 6, 64}
	n := int(grid[0] * grid[1] * grid[2])
	f, err := loader.Load("testdata/cl/gfx900/grid3d.co", loader.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	text, err := f.Text.Data()
	if err != nil {
		b.Fatal(err)
	}
	l := &Launch{Target: isa.GFX9, Version: f.Version, Kernel: f.Kernel("grid3d"), Text: text, TextAddr: f.Text.Addr,
		Grid: grid, Block: [3]uint32{4, 2, 2}, Dims: 3,
		Args: []LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 32*n)}, {Kind: ArgBuffer, Data: make([]byte, 4*n)}, {Kind: ArgBuffer, Data: make([]byte, 4*n)}}}
	g := &gridRun{l: l, cfg: GridConfig{Config: core.DefaultConfig(isa.GFX9), Workers: 1}, mem: core.NewMemory(), res: &GridResult{}}
	g.cfg.Config.HistoryBytes = 0
	if err := g.setup(); err != nil {
		b.Fatal(err)
	}
	groups := g.d.GroupCount()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		n := uint64(i) % groups
		if _, err := g.ws[0].runGroup(context.Background(), n, g.d.GroupID(n), n); err != nil {
			b.Fatal(err)
		}
	}
}

package emu

import (
	"context"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// TestGridZeroSizeNamesDimension: a launch with a zero grid or block
// dimension (what a 2^32 grid size truncates to) is refused with the
// dimension and the sizes, not "empty grid or block".
func TestGridZeroSizeNamesDimension(t *testing.T) {
	l := loadLaunch(t, "testdata/cl/gfx900/scan_local.co", "scan_local", isa.GFX9)
	l.Grid, l.Block, l.Dims = [3]uint32{128, 0, 1}, [3]uint32{64, 1, 1}, 2
	l.Args = []LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 512)}, {Kind: ArgBuffer, Data: make([]byte, 512)}}
	_, err := RunGrid(context.Background(), l, GridConfig{Config: core.DefaultConfig(isa.GFX9)})
	if err == nil || !strings.Contains(err.Error(), "dimension 1: grid 0, block 1: sizes must be 1 to 2^32-1") {
		t.Errorf("RunGrid with grid 128,0: %v", err)
	}
}

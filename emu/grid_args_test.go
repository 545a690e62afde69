package emu

import (
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// TestPlaceArgs: places.cl's arguments as LaunchArgs: a fixed address, an
// offset, an alias and a relocated pointer reach the kernel as placed, and
// a placement that cannot be made is refused naming the argument.
func TestPlaceArgs(t *testing.T) {
	args := func() []LaunchArg {
		return []LaunchArg{
			{Kind: ArgBuffer, Data: make([]byte, 1024), Addr: 0x40000000, Offset: 512},
			{Kind: ArgAlias, Ref: 0, Offset: 4},
			{Kind: ArgBuffer, Data: make([]byte, 16), Pointers: []BufferPointer{{At: 0, Ref: 0, Offset: 8}, {At: 8, Ref: 3}}},
			{Kind: ArgBuffer, Data: make([]byte, 256), Addr: 0x40000400},
			{Kind: ArgBuffer, Data: make([]byte, 48)},
		}
	}
	l := loadLaunch(t, "testdata/cl/gfx900/places.co", "places", isa.GFX9)
	l.Grid, l.Block, l.Dims = [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}, 1
	l.Args = args()
	res, err := RunGrid(context.Background(), l, GridConfig{Config: core.DefaultConfig(isa.GFX9)})
	if err != nil || len(res.Faults) > 0 {
		t.Fatalf("%v %v", err, res.Faults)
	}
	seen := res.Buffers[4]
	// dst, src, opt, table[0], table[1] (the table's own address, seen[2],
	// is the emulator's choice).
	want := map[int]uint64{0: 0x40000200, 1: 0x40000004, 3: 0x40000400, 4: 0x40000008, 5: 0x40000400}
	for i, w := range want {
		if got := binary.LittleEndian.Uint64(seen[8*i:]); got != w {
			t.Errorf("seen[%d] = %#x, want %#x", i, got, w)
		}
	}
	tests := []struct {
		name string
		edit func([]LaunchArg)
		err  string
	}{
		{"alias of no argument", func(a []LaunchArg) { a[1].Ref = 5 }, "emu: argument 1: argument 5 is not a buffer"},
		{"alias beyond", func(a []LaunchArg) { a[1].Offset = 1025 }, "emu: argument 1: offset 1025 is beyond the 1024 bytes of argument 0's buffer"},
		{"pointer outside", func(a []LaunchArg) { a[2].Pointers[1].At = 12 }, "emu: argument 2: pointer at byte 12 is outside its buffer"},
		{"first page", func(a []LaunchArg) { a[3].Addr = 0x800 }, "emu: argument 3: fixed address 0x800 is in the first 4096 bytes"},
		{"overlap", func(a []LaunchArg) { a[3].Addr = 0x40000300 }, `emu: argument 3: fixed address 0x40000300: emu: map "arg3"`},
	}
	for _, tt := range tests {
		l := loadLaunch(t, "testdata/cl/gfx900/places.co", "places", isa.GFX9)
		l.Grid, l.Block, l.Dims = [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}, 1
		l.Args = args()
		tt.edit(l.Args)
		if _, err := RunGrid(context.Background(), l, GridConfig{Config: core.DefaultConfig(isa.GFX9)}); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.err)
		}
	}
}

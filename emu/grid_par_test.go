package emu

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// TestGridWorkers: a grid gives the same buffers and counts whether its
// work-groups run one at a time or on several workers — with LDS and
// barriers (scan_local), global and LDS atomics from every work-group
// (local_hist, atomics: order-independent results), and per-wave scratch
// (scratch_spill). Run with -race to check the shared Memory: atomics
// also mixes atomics with plain dword accesses to the same words (LLVM
// compiles its CAS loop's first read and an unused atomic_xchg to a load
// and a store), which must not race (memory_shared.go).
func TestGridWorkers(t *testing.T) {
	words := func(n int, f func(i int) uint32) []byte {
		b := make([]byte, 4*n)
		for i := 0; i < n; i++ {
			binary.LittleEndian.PutUint32(b[4*i:], f(i))
		}
		return b
	}
	rnd := func(i int) uint32 { return uint32(i)*2654435761 ^ uint32(i)>>3 }
	for _, tc := range []struct {
		kernel string
		grid   uint32
		block  uint32
		args   func() []LaunchArg
	}{
		{"scan_local", 1024, 128, func() []LaunchArg {
			return []LaunchArg{{Kind: ArgBuffer, Data: words(1024, func(i int) uint32 { return uint32(i%7 + 1) })},
				{Kind: ArgBuffer, Data: make([]byte, 4096)}}
		}},
		{"atomics", 1024, 64, func() []LaunchArg {
			return []LaunchArg{{Kind: ArgBuffer, Data: words(1024, rnd)}, {Kind: ArgBuffer, Data: make([]byte, 256)},
				{Kind: ArgBuffer, Data: bytes.Repeat([]byte{0xff}, 48)}, {Kind: ArgBuffer, Data: make([]byte, 4096)},
				{Kind: ArgBuffer, Data: make([]byte, 16)}}
		}},
		{"local_hist", 1024, 64, func() []LaunchArg {
			return []LaunchArg{{Kind: ArgBuffer, Data: words(1024, rnd)}, {Kind: ArgBuffer, Data: make([]byte, 128)}}
		}},
		{"scratch_spill", 512, 64, func() []LaunchArg {
			return []LaunchArg{{Kind: ArgBuffer, Data: words(512, rnd)}, {Kind: ArgBuffer, Data: make([]byte, 2048)}}
		}},
	} {
		for _, tg := range []struct {
			dir string
			t   isa.Target
		}{{"gfx900", isa.GFX9}, {"gfx803", isa.GFX8}} {
			t.Run(tc.kernel+"/"+tg.dir, func(t *testing.T) {
				var first *GridResult
				for _, workers := range []int{1, 3} {
					co := tc.kernel
					if co == "local_hist" {
						co = "atomics"
					}
					l := loadLaunch(t, "testdata/cl/"+tg.dir+"/"+co+".co", tc.kernel, tg.t)
					l.Grid, l.Block, l.Dims = [3]uint32{tc.grid, 1, 1}, [3]uint32{tc.block, 1, 1}, 1
					l.Args = tc.args()
					res, err := RunGrid(context.Background(), l, GridConfig{Config: core.DefaultConfig(tg.t), Workers: workers})
					if err != nil || len(res.Faults) > 0 {
						t.Fatalf("%s/%s workers %d: %v %v", tc.kernel, tg.dir, workers, err, res.Faults)
					}
					if first == nil {
						first = res
						continue
					}
					name := tc.kernel + "/" + tg.dir
					if res.WorkGroups != first.WorkGroups || res.Waves != first.Waves || res.Instructions != first.Instructions {
						t.Errorf("%s: %d workers: %d groups, %d waves, %d instructions; one worker: %d, %d, %d", name, workers,
							res.WorkGroups, res.Waves, res.Instructions, first.WorkGroups, first.Waves, first.Instructions)
					}
					for i := range res.Buffers {
						if !bytes.Equal(res.Buffers[i], first.Buffers[i]) {
							t.Errorf("%s: buffer %d differs between 1 and %d workers", name, i, workers)
						}
					}
				}
			})
		}
	}
}

// TestGridWorkersFault: a fault is reported the same way whatever the
// worker count.
func TestGridWorkersFault(t *testing.T) {
	for _, workers := range []int{1, 4} {
		l := loadLaunch(t, "testdata/cl/gfx900/scan_local.co", "scan_local", isa.GFX9)
		l.Grid, l.Block, l.Dims = [3]uint32{1024, 1, 1}, [3]uint32{64, 1, 1}, 1
		// The output buffer ends 24 bytes short, before an unmapped gap (the
		// next allocation is 64-byte aligned): the last work-group's lanes
		// 58… fault and nothing writes past the gap.
		l.Args = []LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 4096)}, {Kind: ArgBuffer, Data: make([]byte, 4072)}}
		res, err := RunGrid(context.Background(), l, GridConfig{Config: core.DefaultConfig(isa.GFX9), Workers: workers})
		if err != nil {
			t.Fatalf("workers %d: %v", workers, err)
		}
		if len(res.Faults) == 0 {
			t.Fatalf("workers %d: no fault", workers)
		}
		if f := res.Faults[0]; f.Group != [3]uint32{15, 0, 0} || res.WorkGroups != 16 || len(res.Faults) != 1 {
			t.Errorf("workers %d: %d faults, first in work-group %v after %d work-groups, want 1 in 15 after 16",
				workers, len(res.Faults), f.Group, res.WorkGroups)
		}
	}
}

// TestGridCanceled: a canceled run stops and says so, whatever the number
// of workers, even when every wave is too short to notice the
// cancellation itself (waves check every 1024 instructions).
func TestGridCanceled(t *testing.T) {
	for _, workers := range []int{1, 3} {
		l := loadLaunch(t, "testdata/cl/gfx900/scan_local.co", "scan_local", isa.GFX9)
		l.Grid, l.Block, l.Dims = [3]uint32{1 << 16, 1, 1}, [3]uint32{64, 1, 1}, 1
		l.Args = []LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 4<<16)}, {Kind: ArgBuffer, Data: make([]byte, 4<<16)}}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		res, err := RunGrid(ctx, l, GridConfig{Config: core.DefaultConfig(isa.GFX9), Workers: workers})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("workers %d: error %v, want context.Canceled", workers, err)
		}
		if res == nil || res.WorkGroups != 0 || res.Waves != 0 {
			t.Errorf("workers %d: %+v after a cancellation before the start", workers, res)
		}
	}
}

// TestGridSharedInput: a slice passed as two buffer arguments gives each
// argument memory of its own, as separate copies would (adopting it twice
// would alias them), and results of their own.
func TestGridSharedInput(t *testing.T) {
	in := make([]byte, 4096)
	for i := range in {
		in[i] = byte(i%7 + 1)
	}
	var res [2]*GridResult
	for k := range res {
		l := loadLaunch(t, "testdata/cl/gfx900/scan_local.co", "scan_local", isa.GFX9)
		l.Grid, l.Block, l.Dims = [3]uint32{1024, 1, 1}, [3]uint32{128, 1, 1}, 1
		a := bytes.Clone(in)
		b := bytes.Clone(in)
		if k == 1 {
			b = a
		}
		l.Args = []LaunchArg{{Kind: ArgBuffer, Data: a}, {Kind: ArgBuffer, Data: b}}
		r, err := RunGrid(context.Background(), l, GridConfig{Config: core.DefaultConfig(isa.GFX9), Workers: 2})
		if err != nil || len(r.Faults) > 0 {
			t.Fatal(err, r.Faults)
		}
		res[k] = r
	}
	for i := range 2 {
		if !bytes.Equal(res[0].Buffers[i], res[1].Buffers[i]) {
			t.Errorf("buffer %d differs when both arguments are one slice", i)
		}
	}
	if bytes.Equal(res[1].Buffers[0], res[1].Buffers[1]) {
		t.Errorf("the kernel left both buffers alike: the test shows nothing")
	}
}

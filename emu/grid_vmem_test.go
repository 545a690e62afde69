package emu

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// loadLaunch builds a Launch for kernel name in code object path.
func loadLaunch(t *testing.T, path, name string, t9 isa.Target) *Launch {
	t.Helper()
	co, err := loader.Load(path, loader.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { co.Close() })
	k := co.Kernel(name)
	if k == nil {
		t.Fatalf("%s: no kernel %s", path, name)
	}
	text, err := co.Text.Data()
	if err != nil {
		t.Fatal(err)
	}
	return &Launch{Target: t9, Version: co.Version, Kernel: k, Text: text, TextAddr: co.Text.Addr}
}

// TestVMemFeatures runs testdata/cl/asm/vmem_features.s (one wave) and
// checks each feature's output against values computed here from the
// buffer rules of Vega ISA §8.1 (samples/REFERENCES.md).
func TestVMemFeatures(t *testing.T) {
	l := loadLaunch(t, "testdata/cl/asm/vmem_features.co", "vmem_features", isa.GFX9)
	in := make([]byte, 256)
	for i := range in {
		in[i] = byte(i*37 + 11)
	}
	l.Grid, l.Block, l.Dims = [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, 1
	l.Args = []LaunchArg{{Kind: ArgBuffer, Data: append([]byte(nil), in...)}, {Kind: ArgBuffer, Data: make([]byte, 8192)}}
	res, err := RunGrid(context.Background(), l, GridConfig{Config: core.DefaultConfig(isa.GFX9)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Faults) > 0 {
		t.Fatalf("fault: %v", res.Faults[0])
	}
	out := res.Buffers[1]
	d := func(i int) uint32 { return binary.LittleEndian.Uint32(out[4*i:]) }
	inDW := func(i int) uint32 { return binary.LittleEndian.Uint32(in[4*i:]) }
	check := func(what string, i int, want uint32) {
		t.Helper()
		if got := d(i); got != want {
			t.Errorf("%s: out[%d] = %#x, want %#x", what, i, got, want)
		}
	}
	raw := func(lane int) uint32 { // raw offen load, num_records 64 bytes
		if 4*lane < 64 {
			return inDW(lane)
		}
		return 0
	}
	for lane := 0; lane < 64; lane++ {
		check("raw offen (range checked)", lane, raw(lane))
		want := uint32(0) // structured: stride 8, 10 records, offset 4
		if lane < 10 {
			want = inDW(2*lane + 1)
		}
		check("structured idxen", 64+lane, want)
		// 8_8_8_8 UNORM with dst_sel (B, G, R, A); stride 4, 64 records:
		// every lane's record is in range.
		var px [4]float32
		for c := range px {
			px[c] = float32(float64(in[4*lane+c]) / 255)
		}
		sel := [4]int{2, 1, 0, 3}
		for c := 0; c < 4; c++ {
			check("format xyzw", 128+4*lane+c, math.Float32bits(px[sel[c]]))
		}
		check("tbuffer 16_16 uint", 384+lane, uint32(lane)|uint32(1000+lane)<<16)
		check("atomic add return", 448+lane, uint32(lane))
		check("LDS-direct", 576+lane, raw(lane))
		check("ds_swizzle quad reverse", 640+lane, raw(lane&^3|(3-lane&3)))
		check("ds_bpermute", 704+lane, raw(63-lane))
		check("ds_read2st64 first", 768+2*lane, raw(lane))
		check("ds_read2st64 second", 768+2*lane+1, raw(lane)+7)
		check("ds_append return", 896+lane, 0)
		if lane < 10 {
			b := in[lane]
			s := binary.LittleEndian.Uint16(in[lane:])
			check("ubyte", 1024+4*lane, uint32(b))
			check("sbyte", 1024+4*lane+1, uint32(int32(int8(b))))
			check("ushort", 1024+4*lane+2, uint32(s))
			check("sshort", 1024+4*lane+3, uint32(int32(int16(s))))
		}
	}
	check("atomic counter", 512, 64)
	check("ds_append counter", 960, 64)
	if res.Waves != 1 || res.Instructions < 50 {
		t.Errorf("waves %d instructions %d", res.Waves, res.Instructions)
	}
}

// TestVMemTrace: with a trace, the step records carry per-lane addresses,
// range-check outcomes and notes (distinct lines, bank conflicts).
func TestVMemTrace(t *testing.T) {
	l := loadLaunch(t, "testdata/cl/asm/vmem_features.co", "vmem_features", isa.GFX9)
	l.Grid, l.Block, l.Dims = [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, 1
	l.Args = []LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 256)}, {Kind: ArgBuffer, Data: make([]byte, 8192)}}
	var first *StepRecord
	var vmcntSeen bool
	_, err := RunGrid(context.Background(), l, GridConfig{Config: core.DefaultConfig(isa.GFX9),
		Trace: func(wave uint64, r *StepRecord) error {
			if first == nil && r.Inst != nil && r.Inst.Op.String() == "buffer_load_dword" {
				first = r
			}
			if r.CountersAfter.VM > 0 {
				vmcntSeen = true
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if first == nil || len(first.Addrs) != 64 {
		t.Fatalf("first buffer_load_dword record: %+v", first)
	}
	in, out := 0, 0
	for _, a := range first.Addrs {
		if a.InRange {
			in++
		} else {
			out++
		}
	}
	if in != 16 || out != 48 {
		t.Errorf("range check: %d lanes in range, %d out; want 16 and 48", in, out)
	}
	if len(first.Notes) == 0 || core.DistinctLines(first.Addrs) != 4 {
		t.Errorf("notes %v, distinct lines %d (want 4: 256 bytes)", first.Notes, core.DistinctLines(first.Addrs))
	}
	if !vmcntSeen {
		t.Error("no step had VM_CNT outstanding")
	}
}

// TestGridBarrierLDS runs scan_local (two waves per work-group meeting at
// s_barrier, sharing LDS) for both targets and checks the prefix sums.
func TestGridBarrierLDS(t *testing.T) {
	for _, tg := range []struct {
		dir string
		t   isa.Target
	}{{"gfx900", isa.GFX9}, {"gfx803", isa.GFX8}} {
		l := loadLaunch(t, "testdata/cl/"+tg.dir+"/scan_local.co", "scan_local", tg.t)
		l.Grid, l.Block, l.Dims = [3]uint32{512, 1, 1}, [3]uint32{128, 1, 1}, 1
		in := make([]byte, 2048)
		for i := 0; i < 512; i++ {
			binary.LittleEndian.PutUint32(in[4*i:], uint32(i%7+1))
		}
		l.Args = []LaunchArg{{Kind: ArgBuffer, Data: in}, {Kind: ArgBuffer, Data: make([]byte, 2048)}}
		res, err := RunGrid(context.Background(), l, GridConfig{Config: core.DefaultConfig(tg.t)})
		if err != nil || len(res.Faults) > 0 {
			t.Fatalf("%s: %v %v", tg.dir, err, res.Faults)
		}
		if res.WorkGroups != 4 || res.Waves != 8 {
			t.Errorf("%s: %d work-groups, %d waves", tg.dir, res.WorkGroups, res.Waves)
		}
		sum := uint32(0)
		for i := 0; i < 512; i++ {
			if i%128 == 0 {
				sum = 0
			}
			sum += uint32(i%7 + 1)
			if got := binary.LittleEndian.Uint32(res.Buffers[1][4*i:]); got != sum {
				t.Fatalf("%s: out[%d] = %d, want %d", tg.dir, i, got, sum)
			}
		}
	}
}

// TestFlatApertures runs testdata/cl/asm/flat_apertures.s: FLAT addresses
// in the shared and private apertures reach LDS and the wave's scratch
// (set up by the prolog from the ABI's SGPRs), SCRATCH instructions and FLAT
// private accesses agree on the layout, and other addresses are global.
func TestFlatApertures(t *testing.T) {
	l := loadLaunch(t, "testdata/cl/asm/flat_apertures.co", "flat_apertures", isa.GFX9)
	l.Grid, l.Block, l.Dims = [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, 1
	l.Args = []LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 1024)}}
	res, err := RunGrid(context.Background(), l, GridConfig{Config: core.DefaultConfig(isa.GFX9)})
	if err != nil || len(res.Faults) > 0 {
		t.Fatalf("%v %v", err, res.Faults)
	}
	out := res.Buffers[0]
	for lane := 0; lane < 64; lane++ {
		got := func(k int) uint32 { return binary.LittleEndian.Uint32(out[16*lane+4*k:]) }
		if got(0) != uint32(0x100+lane) {
			t.Errorf("lane %d: flat store to LDS read back as %#x", lane, got(0))
		}
		if got(1) != uint32(0x200+lane) {
			t.Errorf("lane %d: flat store to private read back by scratch_load as %#x", lane, got(1))
		}
		if got(2) != uint32(0x300+lane) {
			t.Errorf("lane %d: scratch_store read back by flat private load as %#x", lane, got(2))
		}
		if got(3) != uint32(0x400+lane) {
			t.Errorf("lane %d: global value read by flat as %#x", lane, got(3))
		}
	}
}

// TestPrepareWave picks wave 5 of scan_local (work-group 2, its second
// wave): earlier work-groups' results are in memory, the chosen wave starts
// at the entry with its work-group id in an SGPR, and stepping it to the end
// (its partner waits at the barrier) completes without error.
func TestPrepareWave(t *testing.T) {
	l := loadLaunch(t, "testdata/cl/gfx900/scan_local.co", "scan_local", isa.GFX9)
	l.Grid, l.Block, l.Dims = [3]uint32{512, 1, 1}, [3]uint32{128, 1, 1}, 1
	in := make([]byte, 2048)
	for i := 0; i < 512; i++ {
		binary.LittleEndian.PutUint32(in[4*i:], 1)
	}
	l.Args = []LaunchArg{{Kind: ArgBuffer, Data: in}, {Kind: ArgBuffer, Data: make([]byte, 2048)}}
	s, err := PrepareWave(context.Background(), l, GridConfig{Config: core.DefaultConfig(isa.GFX9)}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if s.Wave != 5 || s.Group != [3]uint32{2, 0, 0} || s.Index != 1 || len(s.Others) != 1 {
		t.Fatalf("session: wave %d group %v index %d others %d", s.Wave, s.Group, s.Index, len(s.Others))
	}
	if s.Machine.PC() != l.Kernel.Entry {
		t.Errorf("pc %#x, want the entry %#x", s.Machine.PC(), l.Kernel.Entry)
	}
	snap := s.Machine.Snapshot()
	found := false
	for _, v := range snap.SGPR[:int(s.Dispatch.ABI.Rsrc2.UserSGPRCount)+1] {
		found = found || v == 2
	}
	if !found || snap.VGPR[0][0] != 64 || snap.EXEC != ^uint64(0) {
		t.Errorf("initial state: sgprs %v, v0[0] = %d (want work-item 64), exec %#x", snap.SGPR[:8], snap.VGPR[0][0], snap.EXEC)
	}
	// Work-groups 0 and 1 are done: the inclusive scan of ones; group 2's
	// part of the output is still zero.
	var out Allocation
	for _, a := range s.Memory.Allocations() {
		if a.Name == "arg1" {
			out = a
		}
	}
	for i, want := range map[int]uint32{0: 1, 127: 128, 128: 1, 255: 128, 256: 0, 511: 0} {
		got, err := s.Memory.ReadU32(out.Addr + uint64(4*i))
		if err != nil || got != want {
			t.Errorf("out[%d] = %d (%v), want %d", i, got, err, want)
		}
	}
	// The partner stopped at the barrier; the chosen wave runs to it.
	r, err := s.Machine.Run(context.Background(), 10000)
	if err != nil || r.Reason != StopEnded && r.Reason != StopBudget {
		t.Errorf("run: %v %v", r.Reason, err)
	}
}

// TestDSGFX8: GFX8 checks LDS addresses against M0 (out-of-range reads
// return 0, writes are dropped); GDS operations stop the wave with a named
// error.
func TestDSGFX8(t *testing.T) {
	l := loadLaunch(t, "testdata/cl/asm/ds_gfx8.co", "ds_m0", isa.GFX8)
	l.Grid, l.Block, l.Dims = [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, 1
	l.Args = []LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 512)}}
	res, err := RunGrid(context.Background(), l, GridConfig{Config: core.DefaultConfig(isa.GFX8)})
	if err != nil || len(res.Faults) > 0 {
		t.Fatalf("%v %v", err, res.Faults)
	}
	out := res.Buffers[0]
	for lane := 0; lane < 64; lane++ {
		limited := binary.LittleEndian.Uint32(out[8*lane:])
		held := binary.LittleEndian.Uint32(out[8*lane+4:])
		wantL, wantH := uint32(0), uint32(0x77) // at or above M0 = 128
		if 4*lane < 128 {
			wantL, wantH = uint32(0x500+lane), uint32(0x500+lane)
		}
		if limited != wantL || held != wantH {
			t.Errorf("lane %d: read under M0 %#x (want %#x), LDS holds %#x (want %#x)", lane, limited, wantL, held, wantH)
		}
	}

	g := loadLaunch(t, "testdata/cl/asm/ds_gfx8.co", "ds_gds", isa.GFX8)
	g.Grid, g.Block, g.Dims = [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, 1
	res, err = RunGrid(context.Background(), g, GridConfig{Config: core.DefaultConfig(isa.GFX8)})
	if err != nil || len(res.Faults) != 1 {
		t.Fatalf("gds: %v, faults %v", err, res.Faults)
	}
	var ee *ExecError
	if !errors.As(res.Faults[0], &ee) || !strings.Contains(ee.Msg, "GDS/GWS") {
		t.Errorf("gds: %v", res.Faults[0])
	}
}

// TestPartialWorkGroups runs grid3d over a grid that is not a multiple of
// the block, as code object v4 (sizes from the dispatch packet) and v5
// (hidden block counts and remainders): every work-item must see its own
// ids and its work-group's actual (partial) size.
func TestPartialWorkGroups(t *testing.T) {
	grid, block := [3]uint32{10, 6, 4}, [3]uint32{4, 4, 2}
	for _, path := range []string{"testdata/cl/gfx900/grid3d.co", "testdata/cl/cov/grid3d.v5.co", "testdata/cl/cov/grid3d.v2.co"} {
		l := loadLaunch(t, path, "grid3d", isa.GFX9)
		l.Grid, l.Block, l.Dims = grid, block, 3
		n := int(grid[0] * grid[1] * grid[2])
		l.Args = []LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 32*n)}, {Kind: ArgBuffer, Data: make([]byte, 4*n)}, {Kind: ArgBuffer, Data: make([]byte, 4*n)}}
		res, err := RunGrid(context.Background(), l, GridConfig{Config: core.DefaultConfig(isa.GFX9)})
		if err != nil || len(res.Faults) > 0 {
			t.Fatalf("%s: %v %v", path, err, res.Faults)
		}
		if res.WorkGroups != 3*2*2 {
			t.Errorf("%s: %d work-groups", path, res.WorkGroups)
		}
		pack := func(a, b, c uint32) uint32 { return a | b<<10 | c<<20 }
		for z := uint32(0); z < grid[2]; z++ {
			for y := uint32(0); y < grid[1]; y++ {
				for x := uint32(0); x < grid[0]; x++ {
					lin := (z*grid[1]+y)*grid[0] + x
					o := func(k uint32) uint32 { return binary.LittleEndian.Uint32(res.Buffers[0][4*(8*lin+k):]) }
					g := [3]uint32{x / block[0], y / block[1], z / block[2]}
					var ls [3]uint32
					for i := range ls {
						ls[i] = min(block[i], grid[i]-g[i]*block[i])
					}
					want := []uint32{pack(x, y, z), pack(x%block[0], y%block[1], z%block[2]), pack(g[0], g[1], g[2]),
						pack(ls[0], ls[1], ls[2]), pack(3, 2, 2), pack(grid[0], grid[1], grid[2]), 3, lin}
					for k, w := range want {
						if got := o(uint32(k)); got != w {
							t.Fatalf("%s: work-item (%d,%d,%d) field %d = %#x, want %#x", path, x, y, z, k, got, w)
						}
					}
				}
			}
		}
	}
}

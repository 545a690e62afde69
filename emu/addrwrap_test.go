package emu

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// Tests that address checks never wrap past 2^64 (issue 22, item 8): an
// access whose bytes run past the top of the address space faults like
// any other access to unmapped memory. The fuzz test of every memory kind
// is in addrwrap_fuzz_test.go.

// awTop is the first byte of the mapping that ends one byte below 2^64
// (the highest a mapping can end: Map refuses a range that wraps).
const awTop = 1<<64 - 1 - 0x2000

// awMachine builds a GFX9 machine running enc, then s_waitcnt and
// s_endpgm, over mem with a vector memory unit (1 KiB of LDS, scratch at
// scratch). With hist it records history (Step journals); without, Run
// takes the fast paths.
func awMachine(t testing.TB, mem *Memory, hist bool, scratch uint64, enc string) *Machine {
	t.Helper()
	cfg := core.DefaultConfig(isa.GFX9)
	if !hist {
		cfg.HistoryBytes = 0
	}
	m := NewMachine(vfProgram(t, isa.GFX9, enc, vmWaitEnd), mem, cfg)
	m.VectorMemory = awUnit(scratch)
	return m
}

// awUnit is a fresh vector memory unit: 1 KiB of LDS, scratch at scratch.
func awUnit(scratch uint64) *ref.VMemUnit {
	return &ref.VMemUnit{Lds: ref.NewLDS(awLDSLim), Cfg: VMemConfig{LDSLatency: 4}, Ops: map[*isa.Inst]*ref.VmOp{}, Scratch: scratch}
}

// awRun runs m to its end: step by step when hist (every step journaled),
// else with one Run. It returns the error that stopped it and, in step
// mode, the addresses the last step recorded.
func awRun(m *Machine, hist bool) ([]LaneAddr, error) {
	if !hist {
		_, err := m.Run(context.Background(), 100)
		return nil, err
	}
	var addrs []LaneAddr
	for range 100 {
		rec, err := m.Step()
		if rec != nil && len(rec.Addrs) > 0 {
			addrs = rec.Addrs
		}
		if err != nil || m.State() != core.Running {
			return addrs, err
		}
	}
	return addrs, errors.New("still running after 100 steps")
}

// TestFlatStoreAtTopOfAddressSpaceFaults: flat_store_dword and
// flat_load_dword at 0xfffffffffffffffc, whose end address wraps to 0,
// fault like the same access at 0xfffffffffffffff8 (nothing mapped), in
// step and fast mode; with a mapping ending at 2^64-1, the one at …fff8
// succeeds and the one at …fffc faults at its last byte, which no
// mapping can hold.
func TestFlatStoreAtTopOfAddressSpaceFaults(t *testing.T) {
	insts := []struct {
		asm, enc string
		write    bool
	}{
		{"flat_store_dword v[2:3], v4", "00 00 70 dc 02 04 00 00", true},
		{"flat_load_dword v4, v[2:3]", "00 00 50 dc 02 00 00 04", false},
	}
	for _, in := range insts {
		for _, hist := range []bool{true, false} {
			for _, top := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/hist=%v/top=%v", in.asm, hist, top), func(t *testing.T) {
					for _, c := range []struct {
						addr  uint64
						fault bool
						bad   uint64 // the fault's address
					}{
						{0xffff_ffff_ffff_fff8, !top, 0xffff_ffff_ffff_fff8},
						{0xffff_ffff_ffff_fffc, true, map[bool]uint64{false: 0xffff_ffff_ffff_fffc, true: 0xffff_ffff_ffff_ffff}[top]},
						{0xffff_ffff_ffff_fffd, true, map[bool]uint64{false: 0xffff_ffff_ffff_fffd, true: 0xffff_ffff_ffff_ffff}[top]},
						{0xffff_ffff_ffff_ffff, true, 0xffff_ffff_ffff_ffff},
					} {
						mem := core.NewMemory()
						if top {
							if err := mem.Map("top", awTop, 0x2000, false); err != nil {
								t.Fatal(err)
							}
						}
						m := awMachine(t, mem, hist, 0, in.enc)
						m.SetExec(1)
						m.w.V[2][0], m.w.V[3][0], m.w.V[4][0] = uint32(c.addr), uint32(c.addr>>32), 0x12345678
						addrs, err := awRun(m, hist)
						var f *Fault
						if !c.fault {
							if err != nil {
								t.Fatalf("%#x: %v, want no fault", c.addr, err)
							}
							continue
						}
						if !errors.As(err, &f) {
							t.Fatalf("%#x: stopped with %v (state %v), want a fault", c.addr, err, m.State())
						}
						want := Fault{PC: 0, Lane: 0, Addr: c.bad, Size: 4, Write: in.write, Reason: "unmapped"}
						if *f != want {
							t.Errorf("%#x: fault %+v, want %+v", c.addr, *f, want)
						}
						if hist && (len(addrs) != 1 || addrs[0].Mapped) {
							t.Errorf("%#x: step recorded %+v, want one address, not mapped", c.addr, addrs)
						}
					}
				})
			}
		}
	}
}

// TestMappedNeverWraps: Memory.Mapped of ranges that reach or pass 2^64
// reports the first byte no mapping holds (2^64-1 at the latest), and
// a range inside the topmost mapping is mapped.
func TestMappedNeverWraps(t *testing.T) {
	mem := core.NewMemory()
	for _, r := range [][2]uint64{{0, 0x1000}, {awTop, 0x2000}} {
		if err := mem.Map("r", r[0], r[1], false); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		addr uint64
		n    int
		ok   bool
		bad  uint64
	}{
		{1<<64 - 8, 4, true, 0},
		{1<<64 - 5, 4, true, 0},
		{1<<64 - 4, 4, false, 1<<64 - 1},
		{1<<64 - 1, 1, false, 1<<64 - 1},
		{1<<64 - 1, 2, false, 1<<64 - 1},
		{1<<64 - 2, 1, true, 0},
		{1<<64 - 2, 16, false, 1<<64 - 1},
		{awTop - 1, 4, false, awTop - 1},
		{awTop, 0x2000, true, 0},
		{awTop, 0x2001, false, 1<<64 - 1},
		{0, 0x1000, true, 0},
		{0xffc, 8, false, 0x1000},
		{0x1000, 4, false, 0x1000},
	} {
		ok, bad := mem.Mapped(c.addr, c.n)
		if ok != c.ok || bad != c.bad {
			t.Errorf("Mapped(%#x, %d) = %v, %#x; want %v, %#x", c.addr, c.n, ok, bad, c.ok, c.bad)
		}
	}
}

// TestFastRunNegativeGlobalOffsetIsSigned: the whole-wave path's run of
// lanes (laneRun) adds a GLOBAL instruction's negative offset
// sign-extended, as the general path does: global_load_dwordx2 at 0x7c
// with offset:-8 reads 0x74, not 0x1_0000_0074 (mapped too), for one lane
// and for a wave of consecutive addresses, with and without saddr.
func TestFastRunNegativeGlobalOffsetIsSigned(t *testing.T) {
	for i := range awKinds {
		k := &awKinds[i]
		if k.off >= 0 || k.mode != awFlat && k.mode != awGlobalS {
			continue
		}
		g := newAWRig(t, k)
		for _, s := range []struct {
			exec uint64
			step int8
		}{{1, 0}, {^uint64(0), int8(k.size)}, {0xff, 0}} {
			r := awSetup(k, 0x7c, 0, s.step, s.exec, 0)
			if msg := g.check(r); msg != "" {
				t.Errorf("%s, exec %#x, step %d: %s", k.asm, s.exec, s.step, msg)
			}
		}
	}
}

// TestStepRecordMappedIsPerDword: a step's record marks a lane's access
// unmapped exactly when a dword it performs is: not for a buffer dword the
// range check dropped past the end of a mapping, and so for a scratch
// dword 256 bytes past the first, which faults.
func TestStepRecordMappedIsPerDword(t *testing.T) {
	for _, c := range []struct {
		asm   string
		edge  uint64
		delta int64
		exec  uint64
		step  int8
		aux   uint32
	}{
		// dword 1 out of range, at 0x2000
		{"buffer_load_dwordx2 v[4:5], v2, s[12:15], s16 offen offset:4", 0x2000, -8, 1, 0, 1<<20 | 8<<8},
		// lane 31's dword 1 at 0x207f
		{"scratch_load_dwordx2 v[4:5], v2, off offset:-4", 0, -256, ^uint64(0), 4, 0xfedcba67},
	} {
		k := awKindOf(t, c.asm)
		if msg := newAWRig(t, k).check(awSetup(k, c.edge, c.delta, c.step, c.exec, c.aux)); msg != "" {
			t.Errorf("%s: %s", k.asm, msg)
		}
	}
}

// awKindOf returns the kind of awKinds whose instruction is asm.
func awKindOf(t *testing.T, asm string) *awKind {
	t.Helper()
	for i := range awKinds {
		if awKinds[i].asm == asm {
			return &awKinds[i]
		}
	}
	t.Fatalf("%q is not in awKinds", asm)
	return nil
}

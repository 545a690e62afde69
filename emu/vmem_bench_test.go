package emu

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// Vector memory loops for the benchmarks (gfx900 encodings): 64 lanes at
// consecutive dwords of a buffer (or the addresses vmemShapes gives), or
// of the wave's scratch through the private segment V#.
var vmemLoops = map[string][]string{
	"global": {
		"80 00 80 be",             // s_mov_b32 s0, 0
		"00 80 50 dc 02 00 7f 04", // loop: global_load_dword v4, v[2:3], off
		"70 0f 8c bf",             // s_waitcnt vmcnt(0)
		"00 81 70 dc 02 04 7f 00", // global_store_dword v[2:3], v4, off offset:256
		"00 81 00 80",             // s_add_u32 s0, s0, 1
		"00 c1 07 bf",             // s_cmp_lg_u32 s0, -1
		"f8 ff 85 bf",             // s_cbranch_scc1 loop
		"00 00 81 bf",             // s_endpgm
	},
	"narrow": {
		"80 00 80 be",             // s_mov_b32 s0, 0
		"01 80 40 dc 02 00 7f 04", // loop: global_load_ubyte v4, v[2:3], off offset:1
		"02 80 4c dc 02 00 7f 05", // global_load_sshort v5, v[2:3], off offset:2
		"70 0f 8c bf",             // s_waitcnt vmcnt(0)
		"02 81 68 dc 02 05 7f 00", // global_store_short v[2:3], v5, off offset:258
		"01 82 60 dc 02 04 7f 00", // global_store_byte v[2:3], v4, off offset:513
		"00 81 00 80",             // s_add_u32 s0, s0, 1
		"00 c1 07 bf",             // s_cmp_lg_u32 s0, -1
		"f4 ff 85 bf",             // s_cbranch_scc1 loop
		"00 00 81 bf",             // s_endpgm
	},
	"wide": {
		"80 00 80 be",             // s_mov_b32 s0, 0
		"00 80 5c dc 02 00 7f 04", // loop: global_load_dwordx4 v[4:7], v[2:3], off
		"70 0f 8c bf",             // s_waitcnt vmcnt(0)
		"00 84 7c dc 02 04 7f 00", // global_store_dwordx4 v[2:3], v[4:7], off offset:1024
		"00 81 00 80",             // s_add_u32 s0, s0, 1
		"00 c1 07 bf",             // s_cmp_lg_u32 s0, -1
		"f8 ff 85 bf",             // s_cbranch_scc1 loop
		"00 00 81 bf",             // s_endpgm
	},
	"rows": { // a 16×4 work-group's wave: four rows of 16 dwords, 12 KiB apart
		"80 00 80 be",             // s_mov_b32 s0, 0
		"00 80 50 dc 02 00 7f 04", // loop: global_load_dword v4, v[2:3], off
		"70 0f 8c bf",             // s_waitcnt vmcnt(0)
		"00 81 70 dc 02 04 7f 00", // global_store_dword v[2:3], v4, off offset:256
		"00 81 00 80",             // s_add_u32 s0, s0, 1
		"00 c1 07 bf",             // s_cmp_lg_u32 s0, -1
		"f8 ff 85 bf",             // s_cbranch_scc1 loop
		"00 00 81 bf",             // s_endpgm
	},
	"twopage": { // 64 consecutive dwords from the middle of a page into the next
		"80 00 80 be",             // s_mov_b32 s0, 0
		"00 80 50 dc 02 00 7f 04", // loop: global_load_dword v4, v[2:3], off
		"70 0f 8c bf",             // s_waitcnt vmcnt(0)
		"00 81 70 dc 02 04 7f 00", // global_store_dword v[2:3], v4, off offset:256
		"00 81 00 80",             // s_add_u32 s0, s0, 1
		"00 c1 07 bf",             // s_cmp_lg_u32 s0, -1
		"f8 ff 85 bf",             // s_cbranch_scc1 loop
		"00 00 81 bf",             // s_endpgm
	},
	"pairs": { // 64 consecutive dwordx2 from the middle of a page into the next
		"80 00 80 be",             // s_mov_b32 s0, 0
		"00 80 54 dc 02 00 7f 04", // loop: global_load_dwordx2 v[4:5], v[2:3], off
		"70 0f 8c bf",             // s_waitcnt vmcnt(0)
		"00 80 74 dc 02 04 7f 00", // global_store_dwordx2 v[2:3], v[4:5], off
		"00 81 00 80",             // s_add_u32 s0, s0, 1
		"00 c1 07 bf",             // s_cmp_lg_u32 s0, -1
		"f8 ff 85 bf",             // s_cbranch_scc1 loop
		"00 00 81 bf",             // s_endpgm
	},
	"strided": { // a 4×2×2 work-group's 16 lanes storing dwords 32 bytes apart (grid3d)
		"80 00 80 be",             // s_mov_b32 s0, 0
		"00 80 50 dc 02 00 7f 04", // loop: global_load_dword v4, v[2:3], off
		"00 80 70 dc 02 04 7f 00", // global_store_dword v[2:3], v4, off
		"04 80 70 dc 02 04 7f 00", // global_store_dword v[2:3], v4, off offset:4
		"08 80 70 dc 02 04 7f 00", // global_store_dword v[2:3], v4, off offset:8
		"0c 80 70 dc 02 04 7f 00", // global_store_dword v[2:3], v4, off offset:12
		"70 0f 8c bf",             // s_waitcnt vmcnt(0)
		"00 81 00 80",             // s_add_u32 s0, s0, 1
		"00 c1 07 bf",             // s_cmp_lg_u32 s0, -1
		"f2 ff 85 bf",             // s_cbranch_scc1 loop
		"00 00 81 bf",             // s_endpgm
	},
	"scratch": {
		"80 00 80 be",             // s_mov_b32 s0, 0
		"04 10 70 e0 01 04 03 10", // loop: buffer_store_dword v4, v1, s[12:15], s16 offen offset:4
		"04 10 50 e0 01 05 03 10", // buffer_load_dword v5, v1, s[12:15], s16 offen offset:4
		"70 0f 8c bf",             // s_waitcnt vmcnt(0)
		"00 81 00 80",             // s_add_u32 s0, s0, 1
		"00 c1 07 bf",             // s_cmp_lg_u32 s0, -1
		"f8 ff 85 bf",             // s_cbranch_scc1 loop
		"00 00 81 bf",             // s_endpgm
	},
}

// vmemShapes gives the loops' lane addresses and EXEC masks where they
// are not 64 consecutive dwords from the buffer's start.
var vmemShapes = map[string]struct {
	addr func(l uint64) uint64
	exec uint64
}{
	"rows":    {func(l uint64) uint64 { return vfA + 0x40 + 4*(l%16) + 0x3000*(l/16) }, ^uint64(0)},
	"twopage": {func(l uint64) uint64 { return vfA + 0xf80 + 4*l }, ^uint64(0)},
	"pairs":   {func(l uint64) uint64 { return vfA + 0xf00 + 8*l }, ^uint64(0)},
	"strided": {func(l uint64) uint64 { return vfA + 0x100 + 32*(l%4+8*(l/4%2)+48*(l/8)) }, 0xffff},
}

// vmemMachine sets up a loop of vmemLoops without history; view runs it on
// a grid worker's view of memory, noFast through the general path.
func vmemMachine(tb testing.TB, loop string, view, noFast bool) *Machine {
	tb.Helper()
	mem := core.NewMemory()
	if err := mem.Map("buf", vfA, 0x10000, false); err != nil {
		tb.Fatal(err)
	}
	if err := mem.Write(vfA, make([]byte, 0x10000)); err != nil { // pages made, as a manifest's buffers are
		tb.Fatal(err)
	}
	d := &Dispatch{ScratchAddr: vfScratch, ScratchBytes: 0x10000}
	if err := mem.Map("scratch", d.ScratchAddr, d.ScratchBytes, false); err != nil {
		tb.Fatal(err)
	}
	if view {
		mem = mem.GroupView()
	}
	cfg := core.DefaultConfig(isa.GFX9)
	cfg.HistoryBytes = 0
	m := NewMachine(vfProgram(tb, isa.GFX9, vmemLoops[loop]...), mem, cfg)
	m.VectorMemory = &ref.VMemUnit{Lds: ref.NewLDS(1024), Cfg: VMemConfig{LDSLatency: 4}, Ops: map[*isa.Inst]*ref.VmOp{},
		Scratch: d.ScratchAddr, NoFast: noFast}
	sh, ok := vmemShapes[loop]
	if !ok {
		sh.addr, sh.exec = func(l uint64) uint64 { return vfA + 4*l }, ^uint64(0)
	}
	m.SetExec(sh.exec)
	for l := 0; l < 64; l++ {
		a := sh.addr(uint64(l))
		m.w.V[1][l] = 8 // a private offset
		m.w.V[2][l], m.w.V[3][l] = uint32(a), uint32(a>>32)
		m.w.V[4][l] = uint32(l * 0x01010101)
	}
	for i, v := range d.scratchRsrc() {
		m.w.S[12+i] = v
	}
	return m
}

// BenchmarkVMem runs each loop through the fast and the general path, on
// plain memory and on a grid worker's view. Minstr/s counts every
// instruction of the loop, scalar ones included.
func BenchmarkVMem(b *testing.B) {
	for _, loop := range []string{"global", "narrow", "wide", "scratch", "rows", "twopage", "pairs", "strided"} {
		for _, c := range []struct {
			name         string
			view, noFast bool
		}{{"fast", false, false}, {"fast-view", true, false}, {"general", false, true}, {"general-view", true, true}} {
			b.Run(loop+"/"+c.name, func(b *testing.B) {
				m := vmemMachine(b, loop, c.view, c.noFast)
				b.ReportAllocs()
				var r0, r1 syscall.Rusage
				syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
				b.ResetTimer()
				res, err := m.Run(context.Background(), int64(b.N))
				if err != nil || res.Steps != int64(b.N) {
					b.Fatalf("%v %+v", err, res)
				}
				b.StopTimer()
				syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
				cpu := time.Duration(r1.Utime.Nano() + r1.Stime.Nano() - r0.Utime.Nano() - r0.Stime.Nano())
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds()/1e6, "Minstr/s")
				if cpu > 0 {
					b.ReportMetric(float64(b.N)/cpu.Seconds()/1e6, "Minstr/cpu-s")
				}
			})
		}
	}
}

// TestVMemFastNoAlloc: the fast path allocates nothing, and the loops
// leave the same registers and memory as the general path.
func TestVMemFastNoAlloc(t *testing.T) {
	for loop := range vmemLoops {
		for _, view := range []bool{false, true} {
			m := vmemMachine(t, loop, view, false)
			m.Run(context.Background(), 1000) // warm up
			if a := testing.AllocsPerRun(5, func() { m.Run(context.Background(), 1000) }); a != 0 {
				t.Errorf("%s (view %v): %v allocations per run", loop, view, a)
			}
			g := vmemMachine(t, loop, view, true)
			g.Run(context.Background(), int64(m.Steps()))
			if d := vfCompare(m, g, nil, nil); d != "" {
				t.Errorf("%s (view %v): %s", loop, view, d)
			}
		}
	}
}

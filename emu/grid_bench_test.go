package emu

import (
	"context"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// saluMix is the scalar control flow LLVM emits around divergent code (the
// loops kernel's hottest instructions), from llvm-mc-19 -mcpu=gfx900:
//
//	s_mov_b32 s0, 0
//	L: s_and_saveexec_b64 s[2:3], vcc
//	s_cbranch_execz S
//	s_andn2_b64 s[4:5], s[4:5], exec
//	S: s_or_b64 exec, exec, s[2:3]
//	s_and_b64 s[6:7], s[6:7], s[4:5]
//	s_cselect_b64 s[8:9], s[6:7], s[4:5]
//	s_add_i32 s0, s0, 1
//	s_cmp_lg_u32 s0, -1
//	s_cbranch_scc1 L
//	s_endpgm
var saluMix = []string{"800080be", "6a2082be", "010088bf", "047e8489", "7e02fe87", "06048686", "06048885", "00810081",
	"00c107bf", "f7ff85bf", "000081bf"}

// BenchmarkSALUMix runs saluMix with history off (ns/op is per instruction).
func BenchmarkSALUMix(b *testing.B) {
	cfg := core.DefaultConfig(isa.GFX9)
	cfg.HistoryBytes = 0
	m := NewMachine(hexProgram(b, isa.GFX9, saluMix...), nil, cfg)
	m.SetScalar(core.CodeVCC, 0xf0f0f0f0)
	m.SetScalar(core.CodeVCC+1, 0x0f0f0f0f)
	m.SetSGPR(4, 0xffff0000)
	m.SetSGPR(6, 0x12345678)
	b.ReportAllocs()
	b.ResetTimer()
	if res, err := m.Run(context.Background(), int64(b.N)); err != nil || res.Steps != int64(b.N) {
		b.Fatalf("%v %+v", err, res)
	}
}

// benchGrid sets up a grid run of kernel name in testdata/cl/gfx900/co
// (grid and block in work-items, one dimension) with one worker, without
// running it.
func benchGrid(b testing.TB, co, name string, grid, block uint32, args []LaunchArg) *gridRun {
	return setupGrid(b, co, name, grid, block, 1, args)
}

func setupGrid(b testing.TB, co, name string, grid, block uint32, workers int, args []LaunchArg) *gridRun {
	f, err := loader.Load("testdata/cl/gfx900/"+co+".co", loader.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	k := f.Kernel(name)
	if k == nil {
		b.Fatalf("no kernel %s", name)
	}
	text, err := f.Text.Data()
	if err != nil {
		b.Fatal(err)
	}
	l := &Launch{Target: isa.GFX9, Version: f.Version, Kernel: k, Text: text, TextAddr: f.Text.Addr,
		Grid: [3]uint32{grid, 1, 1}, Block: [3]uint32{block, 1, 1}, Dims: 1, Args: args}
	g := &gridRun{l: l, cfg: GridConfig{Config: core.DefaultConfig(isa.GFX9), Workers: workers}, mem: core.NewMemory(), res: &GridResult{}}
	g.cfg.Config.HistoryBytes = 0
	if err := g.setup(); err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkWaveSetup sets up one-wave work-groups (Reset, initial
// registers, LDS) without running them: the per-wave cost of grids of many
// small work-groups.
func BenchmarkWaveSetup(b *testing.B) {
	g := benchGrid(b, "scan_local", "scan_local", 64*1024, 64,
		[]LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 4<<16)}, {Kind: ArgBuffer, Data: make([]byte, 4<<16)}})
	wk := g.ws[0]
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		n := uint64(i) % g.d.GroupCount()
		wk.newWaves(g.d.GroupID(n), n)
	}
}

// BenchmarkGridSmallGroups runs a grid of one-wave work-groups of a short
// kernel (scan_local, ~120 instructions a wave) on one worker; ns/op is
// per work-group.
func BenchmarkGridSmallGroups(b *testing.B) {
	const groups = 256
	g := benchGrid(b, "scan_local", "scan_local", 64*groups, 64,
		[]LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 4*64*groups)}, {Kind: ArgBuffer, Data: make([]byte, 4*64*groups)}})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		n := uint64(i) % groups
		if _, err := g.ws[0].runGroup(context.Background(), n, g.d.GroupID(n), n); err != nil {
			b.Fatal(err)
		}
	}
}

package emu_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/emu/manifest"
	"github.com/wavedbg/wavedbg/loader"
	"github.com/wavedbg/wavedbg/samples"
)

// TestEnginesAgreeSamples runs every bundled sample's manifest on both
// engines.
func TestEnginesAgreeSamples(t *testing.T) {
	all := samples.All()
	if len(all) < 10 {
		t.Fatalf("%d samples", len(all))
	}
	for _, s := range all {
		t.Run(s.Name, func(t *testing.T) {
			co, err := loader.NewCodeObject(bytes.NewReader(s.CodeObject), int64(len(s.CodeObject)))
			if err != nil {
				t.Fatal(err)
			}
			defer co.Close()
			m, err := s.RunManifest()
			if err != nil {
				t.Fatal(err)
			}
			enginesAgree(t, "sample "+s.Name, func() (*emu.Launch, error) { return m.Launch(co, nil) }, oracleMaxSteps)
		})
	}
}

// TestEnginesAgreeAsm runs the hand-written kernels of testdata/cl/asm
// (grid_vmem_test.go's launches) on both engines: structured, format and
// narrow buffer loads, tbuffer stores, buffer atomics, range checks,
// LDS-direct loads, ds_swizzle/bpermute/read2st64/append, FLAT apertures
// and SCRATCH, GFX8's M0 range check and GDS (which faults alike).
func TestEnginesAgreeAsm(t *testing.T) {
	in := make([]byte, 256)
	for i := range in {
		in[i] = byte(i*37 + 11)
	}
	for _, tc := range []struct {
		file, kernel string
		args         func() []emu.LaunchArg
		faults       int
	}{
		{"vmem_features", "vmem_features", func() []emu.LaunchArg {
			return []emu.LaunchArg{{Kind: emu.ArgBuffer, Data: bytes.Clone(in)}, {Kind: emu.ArgBuffer, Data: make([]byte, 8192)}}
		}, 0},
		{"flat_apertures", "flat_apertures", func() []emu.LaunchArg {
			return []emu.LaunchArg{{Kind: emu.ArgBuffer, Data: make([]byte, 1024)}}
		}, 0},
		{"ds_gfx8", "ds_m0", func() []emu.LaunchArg {
			return []emu.LaunchArg{{Kind: emu.ArgBuffer, Data: make([]byte, 512)}}
		}, 0},
		{"ds_gfx8", "ds_gds", func() []emu.LaunchArg { return nil }, 1},
	} {
		t.Run(tc.kernel, func(t *testing.T) {
			co, err := loader.Load(filepath.Join(clDir, "asm", tc.file+".co"), loader.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer co.Close()
			mk := func() (*emu.Launch, error) {
				k := co.Kernel(tc.kernel)
				if k == nil {
					return nil, fmt.Errorf("%s: no kernel %s", tc.file, tc.kernel)
				}
				l, err := emu.NewLaunch(co, k)
				if err != nil {
					return nil, err
				}
				l.Grid, l.Block, l.Dims = [3]uint32{64, 1, 1}, [3]uint32{64, 1, 1}, 1
				l.Args = tc.args()
				return l, nil
			}
			fast := enginesAgree(t, tc.kernel, mk, oracleMaxSteps)
			if fast.err != nil || len(fast.res.Faults) != tc.faults {
				t.Errorf("%s: %v, faults %v (want %d)", tc.kernel, fast.err, fast.res.Faults, tc.faults)
			}
		})
	}
}

// TestWaveEndChangesNothing: capturing every wave's final state (the
// suite's GridConfig.WaveEnd) leaves a run's buffers and counts as they
// are without it, on both engines — here with LDS, barriers and two waves
// per work-group.
func TestWaveEndChangesNothing(t *testing.T) {
	m, err := manifest.Load(filepath.Join(clDir, "scan_local.json"))
	if err != nil {
		t.Fatal(err)
	}
	co, err := loader.Load(filepath.Join(clDir, "gfx900", "scan_local.co"), loader.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer co.Close()
	for _, e := range emu.Engines {
		captured, err := runEngine(func() (*emu.Launch, error) { return m.Launch(co, nil) }, e, oracleMaxSteps)
		if err != nil || captured.err != nil {
			t.Fatal(err, captured.err)
		}
		l, err := m.Launch(co, nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg := emu.GridConfig{Config: emu.DefaultConfig(l.Target), MaxSteps: oracleMaxSteps, Workers: 1, Engine: e}
		cfg.Config.HistoryBytes = 0
		plain, err := emu.RunGrid(context.Background(), l, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(captured.waves) != int(plain.Waves) || plain.Waves < 2 {
			t.Errorf("%v: %d waves seen of %d", e, len(captured.waves), plain.Waves)
		}
		c := captured.res
		if c.Instructions != plain.Instructions || c.Cycles != plain.Cycles || !reflect.DeepEqual(c.Buffers, plain.Buffers) {
			t.Errorf("%v: with WaveEnd %d instructions, %d cycles; without %d, %d (or the buffers differ)",
				e, c.Instructions, c.Cycles, plain.Instructions, plain.Cycles)
		}
	}
}

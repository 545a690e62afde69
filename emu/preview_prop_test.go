package emu_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/emu/manifest"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
	"github.com/wavedbg/wavedbg/samples"
)

// previewLaunch is a launch to step through with Preview.
type previewLaunch struct {
	name string
	l    *emu.Launch
}

// sampleLaunch dispatches a bundled sample as its manifest says.
func sampleLaunch(t *testing.T, s samples.Sample) *emu.Launch {
	t.Helper()
	mf, err := manifest.Parse(s.Manifest, ".")
	if err != nil {
		t.Fatalf("%s: %v", s.Name, err)
	}
	co, err := loader.NewCodeObject(bytes.NewReader(s.CodeObject), int64(len(s.CodeObject)))
	if err != nil {
		t.Fatalf("%s: %v", s.Name, err)
	}
	defer co.Close()
	l, err := mf.Launch(co, nil)
	if err != nil {
		t.Fatalf("%s: %v", s.Name, err)
	}
	return l
}

// oracleLaunches dispatches every oracle kernel's manifest for gfx900 and
// gfx803.
func oracleLaunches(t *testing.T) []previewLaunch {
	t.Helper()
	paths, err := filepath.Glob("testdata/cl/*.json")
	if err != nil || len(paths) < 15 {
		t.Fatalf("want the oracle manifests in testdata/cl, found %d (%v)", len(paths), err)
	}
	var out []previewLaunch
	for _, p := range paths {
		mf, err := manifest.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(mf.Source, ".cl")
		for _, proc := range []string{"gfx900", "gfx803"} {
			co, err := loader.Load(filepath.Join("testdata/cl", proc, base+".co"), loader.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			l, err := mf.Launch(co, nil)
			co.Close()
			if err != nil {
				t.Fatalf("%s (%s): %v", p, proc, err)
			}
			out = append(out, previewLaunch{base + "/" + proc, l})
		}
	}
	return out
}

// previewSteps bounds the steps each launch is followed for.
const previewSteps = 3000

// TestPreviewMatchesStep: for every sample and oracle kernel, at every
// step of wave 0, Preview's addresses are exactly those the step then
// records (lane, address, size, range check, mapping), a branch goes
// where Preview said, and Preview changes nothing.
func TestPreviewMatchesStep(t *testing.T) {
	var runs []previewLaunch
	for _, s := range samples.All() {
		runs = append(runs, previewLaunch{s.Name, sampleLaunch(t, s)})
	}
	runs = append(runs, oracleLaunches(t)...)
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			sess, err := emu.PrepareWave(context.Background(), r.l, emu.GridConfig{Config: emu.DefaultConfig(r.l.Target), MaxSteps: 1e6}, 0)
			if err != nil {
				t.Fatal(err)
			}
			m := sess.Machine
			mem := 0
			for i := 0; i < previewSteps; i++ {
				var before *emu.Snapshot
				if i%50 == 0 {
					before = m.Snapshot()
				}
				p, ok := m.Preview()
				if !ok {
					break
				}
				if before != nil && !reflect.DeepEqual(before, m.Snapshot()) {
					t.Fatalf("step %d at 0x%x (%s): Preview changed the wave", i, p.PC, p.Inst)
				}
				rec, err := m.Step()
				if err != nil {
					break // a fault or a stop: the records end here
				}
				if d := previewDiff(p, rec, m); d != "" {
					t.Fatalf("step %d at 0x%x (%s): %s", i, p.PC, p.Inst, d)
				}
				if len(rec.Addrs) > 0 {
					mem++
				}
			}
			if mem == 0 {
				t.Errorf("no memory access in %d steps", previewSteps)
			}
		})
	}
}

// previewDiff says how the step differs from its preview.
func previewDiff(p emu.Preview, rec *emu.StepRecord, m *emu.Machine) string {
	var got []emu.LaneAddr
	if p.Mem != nil {
		for _, a := range p.Mem.Addrs {
			got = append(got, a.LaneAddr)
		}
	}
	if len(got) != len(rec.Addrs) {
		return fmt.Sprintf("preview lists %d accesses, the step %d", len(got), len(rec.Addrs))
	}
	for i := range got {
		if got[i] != rec.Addrs[i] {
			return fmt.Sprintf("access %d: preview %+v, step %+v", i, got[i], rec.Addrs[i])
		}
		if a := p.Mem.Addrs[i]; a.InRange != (a.Why == emu.InRange) {
			return fmt.Sprintf("access %d: in range %v but rule %v", i, a.InRange, a.Why)
		}
	}
	if b := p.Branch; b != nil && m.State() == emu.Running {
		next := p.PC + uint64(p.Inst.Len)
		if b.Taken && m.PC() != b.Target || !b.Taken && b.Target != next && m.PC() != next {
			return fmt.Sprintf("branch to 0x%x taken %v, but the step went to 0x%x", b.Target, b.Taken, m.PC())
		}
	}
	if p.Barrier != p.Inst.Op.Info().Flags.Has(isa.FlagBarrier) {
		return "barrier flag"
	}
	return ""
}

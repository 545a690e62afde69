package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/loader"
	"github.com/wavedbg/wavedbg/samples"
	"github.com/wavedbg/wavedbg/tui"
)

func TestParseDebugArgs(t *testing.T) {
	o, err := parseDebugArgs([]string{"k.co", "--kernel", "vadd", "--grid", "256", "--block", "128", "--arg", "uint=5", "--arg", "buffer,type=int,count=256,fill=iota", "--wave", "3"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if o.file != "k.co" || o.kernel != "vadd" || o.grid != "256" || o.block != "128" || len(o.args) != 2 || o.args[0] != "uint=5" || o.wave != 3 {
		t.Errorf("parsed %+v", o)
	}
	o, err = parseDebugArgs([]string{"--grid", "128", "f.co"}, io.Discard)
	if err != nil || o.file != "f.co" || o.grid != "128" {
		t.Errorf("flags before the file: %+v %v", o, err)
	}
	for _, bad := range [][]string{{"a", "b"}, {"--nosuchflag"}, {"f.co", "--sample", "vector_add"}, {"f.co", "--manifest", "m.json", "--arg", "uint=1"}} {
		if _, err := parseDebugArgs(bad, io.Discard); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestLaunchManifest checks how the debugger's launch is put together:
// the default, a sample's manifest, --arg lists and size overrides.
func TestLaunchManifest(t *testing.T) {
	s, _ := samples.Lookup("vector_add")
	data, base, err := bundled("vector_add")
	if err != nil || len(data) == 0 {
		t.Fatal(err)
	}
	d, err := openDebuggee(&debugOptions{sample: "vector_add"})
	if err != nil {
		t.Fatal(err)
	}
	if d.Name() != s.Kernel {
		t.Errorf("kernel %q", d.Name())
	}
	o := &debugOptions{grid: "256"}
	m, err := o.launchManifest(&tuiKernel, base)
	if err != nil || m.Grid.V[0] != 256 || m.Block.V[0] != 64 || len(m.Args) != 4 {
		t.Errorf("sample manifest with --grid 256: %+v %v", m, err)
	}
	// A partial last work-group is allowed (manifest version 2); a zero
	// grid is not.
	if _, err = (&debugOptions{grid: "100", block: "64"}).launchManifest(&tuiKernel, nil); err != nil {
		t.Errorf("grid 100 in blocks of 64: %v", err)
	}
	if _, err = (&debugOptions{grid: "0", block: "64"}).launchManifest(&tuiKernel, nil); err == nil {
		t.Error("grid 0 accepted")
	}
	// --wave picks a later work-group: vector_add has two of one wave.
	d, err = openDebuggee(&debugOptions{sample: "vector_add", wave: 1})
	if err != nil {
		t.Fatal(err)
	}
	if w := d.Waves(); len(w) != 2 || d.Selected() != 1 || w[1].Group[0] != 1 || !w[0].Idle || w[1].Idle {
		t.Errorf("--wave 1: %+v, selected %d", w, d.Selected())
	}
	if _, err := openDebuggee(&debugOptions{sample: "vector_add", wave: 2}); err == nil {
		t.Error("--wave 2 of a two-wave grid opened")
	}
}

var tuiKernel = loader.Kernel{Name: "vector_add"}

// TestEverySampleSteps opens every bundled sample as `wavedbg --sample`
// does and steps each wave of its work-group to the end: vector memory,
// LDS and barriers run in the debugger.
func TestEverySampleSteps(t *testing.T) {
	if _, err := openDebuggee(&debugOptions{sample: "nope"}); err == nil || !strings.Contains(err.Error(), "vector_add") {
		t.Errorf("--sample nope: %v", err)
	}
	if _, err := openDebuggee(&debugOptions{file: "/nonexistent.co"}); err == nil {
		t.Error("opening a missing file succeeded")
	}
	for _, s := range append(samples.All(), samples.Sample{Name: "scale"}) {
		d, err := openDebuggee(&debugOptions{sample: s.Name})
		if err != nil {
			t.Errorf("--sample %s: %v", s.Name, err)
			continue
		}
		for w := range d.Waves() {
			if err := d.SelectWave(w); err != nil {
				t.Fatal(err)
			}
			if err := stepToEnd(d, 100000); err != nil {
				t.Errorf("%s wave %d: %v", s.Name, w, err)
			}
		}
	}
}

func stepToEnd(d tui.Debuggee, limit int) error {
	for i := 0; i < limit; i++ {
		if _, ok := d.PC(); !ok {
			return nil
		}
		if err := d.Step(); err != nil {
			if _, ok := d.PC(); !ok {
				return nil
			}
			return err
		}
	}
	return errors.New("did not end")
}

// TestCompiledKernelsStep opens every compiled OpenCL kernel of emu's
// differential corpus (emu/testdata/cl) with its run manifest, as
// `wavedbg FILE --manifest M.json` does, and steps wave 0 to its end:
// global, buffer, flat and DS accesses, scratch and barriers all execute.
func TestCompiledKernelsStep(t *testing.T) {
	mans, _ := filepath.Glob("../../emu/testdata/cl/*.json")
	if len(mans) == 0 {
		t.Fatal("no manifests in emu/testdata/cl")
	}
	for _, man := range mans {
		name := strings.TrimSuffix(filepath.Base(man), ".json")
		co := filepath.Join("../../emu/testdata/cl/gfx900", name+".co")
		if _, err := os.Stat(co); err != nil {
			continue // a manifest over another kernel file
		}
		t.Run(name, func(t *testing.T) {
			d, err := openDebuggee(&debugOptions{file: co, manifest: man})
			if err != nil {
				t.Fatal(err)
			}
			if err := stepToEnd(d, 200000); err != nil {
				pc, _ := d.PC()
				t.Errorf("wave 0 at %#x: %v", pc, err)
			}
			// Without a manifest the debugger makes up a launch (buffers
			// counting up, scalars 3) from the kernel's metadata.
			if _, err := openDebuggee(&debugOptions{file: co}); err != nil {
				t.Errorf("default launch: %v", err)
			}
		})
	}
}

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/manifest"
)

// TestRunEngine: run --engine reference writes the same outputs as the
// default fast engine and as PoCL, names the engine in its summary, and an
// unknown engine is a usage error naming the flag.
func TestRunEngine(t *testing.T) {
	man := filepath.Join(clDir, "scan_local.json")
	obj := filepath.Join(clDir, "gfx900", "scan_local.co")
	m, err := manifest.Load(man)
	if err != nil {
		t.Fatal(err)
	}
	outs := map[string]string{}
	for _, engine := range []string{"", "fast", "reference"} {
		dir := t.TempDir()
		args := []string{"run", obj, "--manifest", man, "--out", dir}
		if engine != "" {
			args = append(args, "--engine", engine)
		}
		code, stdout, stderr := runCmd(args...)
		if code != 0 {
			t.Fatalf("--engine %q: exit %d: %s", engine, code, stderr)
		}
		if named := strings.Contains(stdout, "engine reference"); named != (engine == "reference") {
			t.Errorf("--engine %q: summary %q", engine, stdout)
		}
		outs[engine] = dir
	}
	for _, i := range m.Outputs() {
		a := &m.Args[i]
		want, err := os.ReadFile(filepath.Join(clDir, "golden", a.Output))
		if err != nil {
			t.Fatal(err)
		}
		var fast []byte
		for _, engine := range []string{"", "fast", "reference"} {
			got, err := os.ReadFile(filepath.Join(outs[engine], a.Output))
			if err != nil {
				t.Fatal(err)
			}
			if err := a.Compare(got, want); err != nil {
				t.Errorf("--engine %q: %s differs from PoCL: %v", engine, a.Output, err)
			}
			if fast == nil {
				fast = got
			} else if !bytes.Equal(got, fast) {
				t.Errorf("--engine %q: %s differs from the default engine's", engine, a.Output)
			}
		}
	}

	code, _, stderr := runCmd("run", obj, "--manifest", man, "--out", t.TempDir(), "--engine", "slow")
	if code == 0 || !strings.Contains(stderr, "-engine") || !strings.Contains(stderr, `unknown engine "slow"`) {
		t.Errorf("--engine slow: exit %d, stderr %q", code, stderr)
	}
}

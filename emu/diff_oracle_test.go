package emu_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/emu/manifest"
	"github.com/wavedbg/wavedbg/loader"
)

const clDir = "testdata/cl"

// oracleMaxSteps bounds each wave of the oracle kernels (they end in far
// fewer).
const oracleMaxSteps = 200_000

// TestEnginesAgreeOracles runs every oracle manifest (testdata/cl and
// testdata/cl/nonuniform) on every code object built for it — gfx900 and
// gfx803, the -O0 build, the code object versions of cov/ — on both
// engines, and checks the fast engine's outputs against PoCL's golden ones
// as cmd/wavedbg's TestRunOracle does (so that agreeing engines are also
// right).
func TestEnginesAgreeOracles(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(clDir, "*.json"))
	if err != nil || len(paths) < 15 {
		t.Fatalf("oracle manifests: %d (%v)", len(paths), err)
	}
	edges, _ := filepath.Glob(filepath.Join(clDir, "nonuniform", "*.json"))
	if len(edges) == 0 {
		t.Fatal("no manifests in testdata/cl/nonuniform")
	}
	objects := 0
	for _, p := range append(paths, edges...) {
		m, err := manifest.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(filepath.Base(m.Source), ".cl")
		for _, obj := range oracleObjects(t, base) {
			objects++
			name := strings.TrimSuffix(filepath.Base(p), ".json") + "/" + strings.TrimSuffix(strings.TrimPrefix(obj, clDir+"/"), ".co")
			t.Run(name, func(t *testing.T) {
				co, err := loader.Load(obj, loader.LoadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				defer co.Close()
				fast := enginesAgree(t, name, func() (*emu.Launch, error) { return m.Launch(co, nil) }, oracleMaxSteps)
				switch {
				case fast.err != nil || fast.res == nil:
					t.Fatalf("%s: %v", name, fast.err)
				case len(fast.res.Faults) > 0:
					t.Fatalf("%s: %v", name, fast.res.Faults)
				case filepath.Dir(p) != clDir:
					return // nonuniform/: no PoCL output
				}
				for _, i := range m.Outputs() {
					a := &m.Args[i]
					want, err := os.ReadFile(filepath.Join(clDir, "golden", a.Output))
					if err != nil {
						t.Fatal(err)
					}
					if err := a.Compare(fast.res.Buffers[i], want); err != nil {
						t.Errorf("%s: %s differs from PoCL: %v", name, a.Output, err)
					}
				}
			})
		}
	}
	if objects < 40 {
		t.Errorf("only %d oracle code objects", objects)
	}
}

// oracleObjects returns the code objects built from source base: gfx900,
// gfx803 and cov/'s other code object versions.
func oracleObjects(t *testing.T, base string) []string {
	objs := []string{filepath.Join(clDir, "gfx900", base+".co"), filepath.Join(clDir, "gfx803", base+".co")}
	cov, err := filepath.Glob(filepath.Join(clDir, "cov", base+".*.co"))
	if err != nil {
		t.Fatal(err)
	}
	return append(objs, cov...)
}

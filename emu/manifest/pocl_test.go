package manifest

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the PoCL golden outputs in ../testdata/cl/golden")

// clDir holds the oracle kernels, their manifests and PoCL's golden outputs.
const clDir = "../testdata/cl"

// needOracle skips a test whose oracle is missing, or fails it under CI=true.
func needOracle(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("oracle missing under CI=true: "+format, args...)
	}
	t.Skipf("oracle missing: "+format, args...)
}

func manifests(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(clDir, "*.json"))
	if err != nil || len(paths) < 15 {
		t.Fatalf("want at least 15 manifests in %s, found %d (%v)", clDir, len(paths), err)
	}
	return paths
}

// TestOracleCorpus checks every committed manifest against the committed
// sources, code objects and golden outputs, without any oracle installed.
func TestOracleCorpus(t *testing.T) {
	for _, p := range manifests(t) {
		m, err := Load(p)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		base := strings.TrimSuffix(m.Source, ".cl")
		for _, f := range []string{m.Source, "gfx900/" + base + ".co", "gfx803/" + base + ".co"} {
			if _, err := os.Stat(filepath.Join(clDir, f)); err != nil {
				t.Errorf("%s: %v", p, err)
			}
		}
		if len(m.Outputs()) == 0 {
			t.Errorf("%s: no output buffer to compare", p)
		}
		inputs, err := m.Inputs()
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		for _, i := range m.Outputs() {
			a := m.Args[i]
			g, err := os.ReadFile(filepath.Join(clDir, "golden", a.Output))
			if err != nil {
				t.Errorf("%s: %v (run go test -run PoCL -update with PoCL installed)", p, err)
				continue
			}
			if int64(len(g)) != a.Size {
				t.Errorf("%s: golden %s holds %d bytes, buffer is %d", p, a.Output, len(g), a.Size)
			}
			if bytes.Equal(g, inputs[i]) {
				t.Errorf("%s: golden %s equals the buffer's initial contents: the kernel wrote nothing", p, a.Output)
			}
		}
	}
}

// buildRunner compiles pocl_runner.c, or skips (fails under CI) when the
// compiler, the OpenCL loader or PoCL is missing.
func buildRunner(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		needOracle(t, "gcc: %v", err)
	}
	if _, err := os.Stat("/etc/OpenCL/vendors/pocl.icd"); err != nil {
		needOracle(t, "PoCL ICD: %v", err)
	}
	exe := filepath.Join(t.TempDir(), "pocl_runner")
	out, err := exec.Command("gcc", "-O1", "-ffp-contract=off", "-o", exe,
		filepath.Join(clDir, "pocl_runner.c"), "-lOpenCL").CombinedOutput()
	if err != nil {
		needOracle(t, "building pocl_runner: %v\n%s", err, out)
	}
	return exe
}

// TestPoCL runs every manifest on PoCL and compares the outputs with the
// golden files (-update rewrites them), and checks that the runner generates
// the same initial buffers as this package.
func TestPoCL(t *testing.T) {
	if testing.Short() {
		t.Skip("PoCL runs take a few seconds each")
	}
	runner := buildRunner(t)
	for _, p := range manifests(t) {
		name := strings.TrimSuffix(filepath.Base(p), ".json")
		t.Run(name, func(t *testing.T) {
			m, err := Load(p)
			if err != nil {
				t.Fatal(err)
			}
			outDir, inDir := t.TempDir(), t.TempDir()
			cmd := exec.Command(runner, p, outDir, inDir)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("pocl_runner %s: %v\n%s", p, err, out)
			}
			inputs, err := m.Inputs()
			if err != nil {
				t.Fatal(err)
			}
			for i, in := range inputs {
				if in == nil {
					continue
				}
				got, err := os.ReadFile(filepath.Join(inDir, "arg"+strconv.Itoa(i)+".bin"))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, in) {
					t.Errorf("argument %d (%s): the runner's initial buffer differs from Go's (fill %q)", i, m.Args[i].Name, m.Args[i].Fill)
				}
			}
			for _, i := range m.Outputs() {
				a := &m.Args[i]
				got, err := os.ReadFile(filepath.Join(outDir, a.Output))
				if err != nil {
					t.Fatal(err)
				}
				golden := filepath.Join(clDir, "golden", a.Output)
				if *update {
					if err := WriteFileAtomic(golden, got); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatal(err)
				}
				if err := a.Compare(got, want); err != nil {
					t.Errorf("PoCL output differs from the golden file: %v", err)
				}
			}
		})
	}
}

// TestBuildReproducible rebuilds every code object with build.sh --check and
// requires identical bytes.
func TestBuildReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("rebuilds 43 code objects")
	}
	for _, tool := range []string{"clang-15", "ld.lld-15", "dpkg"} {
		if _, err := exec.LookPath(tool); err != nil {
			needOracle(t, "%s: %v", tool, err)
		}
	}
	out, err := exec.Command("bash", filepath.Join(clDir, "build.sh"), "--check").CombinedOutput()
	if err != nil {
		t.Fatalf("build.sh --check: %v\n%s", err, out)
	}
}

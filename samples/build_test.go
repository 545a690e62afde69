package samples

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestBuildReproduces rebuilds every code object with build.sh and checks
// that the committed ones match byte for byte. It skips when the LLVM tools
// are missing, unless CI=true.
func TestBuildReproduces(t *testing.T) {
	missing := func(what string) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s not found (CI=true requires it)", what)
		}
		t.Skipf("%s not found; cannot rebuild the samples", what)
	}
	for _, tool := range []string{"llvm-mc-19", "clang-15", "ld.lld-15"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing(tool)
		}
	}
	libs := os.Getenv("DEVICE_LIBS")
	if libs == "" {
		libs = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode" // build.sh's default (rocm-device-libs)
	}
	if _, err := os.Stat(filepath.Join(libs, "ockl.bc")); err != nil {
		missing("the ROCm device libraries (" + libs + ")")
	}
	out := t.TempDir()
	cmd := exec.Command("sh", "build.sh", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build.sh: %v\n%s", err, b)
	}
	n := 0
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		fresh, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		committed, err := os.ReadFile(rel)
		switch {
		case err != nil:
			t.Errorf("%s: build.sh makes it but it is not committed: %v", rel, err)
		case !bytes.Equal(committed, fresh):
			t.Errorf("%s differs from a fresh build.sh build (%d bytes, fresh %d); run samples/build.sh and commit", rel, len(committed), len(fresh))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < len(All()) {
		t.Errorf("build.sh made %d files for %d samples", n, len(All()))
	}
}

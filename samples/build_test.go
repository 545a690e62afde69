package samples

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestBuildReproduces rebuilds every code object with build.sh and checks
// that the committed ones match byte for byte. It skips when the LLVM tools
// are missing, unless CI=true.
func TestBuildReproduces(t *testing.T) {
	for _, tool := range []string{"llvm-mc-19", "clang-15", "ld.lld-15"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s not found (CI=true requires it)", tool)
			}
			t.Skipf("%s not found; cannot rebuild the samples", tool)
		}
	}
	out := t.TempDir()
	cmd := exec.Command("sh", "build.sh", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build.sh: %v\n%s", err, b)
	}
	for _, s := range All() {
		co := filepath.Join(s.Name, s.Name+".co")
		got, err := os.ReadFile(filepath.Join(out, co))
		if err != nil {
			t.Errorf("%s: build.sh did not produce it: %v", co, err)
			continue
		}
		if !bytes.Equal(got, s.CodeObject) {
			t.Errorf("%s differs from a fresh build.sh build (%d bytes, want %d); run samples/build.sh and commit", co, len(s.CodeObject), len(got))
		}
	}
}

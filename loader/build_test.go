package loader

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestBuildReproducible reruns testdata/build.sh into a temporary directory
// and checks it reproduces every committed code object and bundle byte for
// byte, so the committed files are what the committed sources and script
// make.
func TestBuildReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	for _, tool := range []string{"clang-15", "ld.lld-15", "llvm-objcopy-19", "dpkg"} {
		needTool(t, tool)
	}
	out := t.TempDir()
	cmd := exec.Command("bash", "testdata/build.sh")
	cmd.Env = append(os.Environ(), "OUT="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build.sh: %v\n%s", err, b)
	}
	committed, _ := filepath.Glob("testdata/co/*")
	bundles, _ := filepath.Glob("testdata/bundle/*")
	committed = append(committed, bundles...)
	for _, p := range committed {
		rel, _ := filepath.Rel("testdata", p)
		got, err := os.ReadFile(filepath.Join(out, rel))
		if err != nil {
			t.Errorf("build.sh did not make %s: %v", rel, err)
			continue
		}
		if !bytes.Equal(got, mustRead(t, p)) {
			t.Errorf("build.sh makes a different %s (rerun testdata/build.sh and commit)", rel)
		}
	}
	made, _ := filepath.Glob(filepath.Join(out, "*", "*"))
	if len(made) != len(committed) {
		t.Errorf("build.sh made %d files, %d are committed", len(made), len(committed))
	}
}

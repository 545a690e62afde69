package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestE2ETmux builds wavedbg and runs testdata/e2e.sh, which drives it in a
// detached tmux session and checks the screen. Without tmux, or with
// -short, it skips, except under CI=true (.ci/run installs tmux), where it
// always runs.
func TestE2ETmux(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("builds the binary; skipped with -short (not under CI=true)")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is not installed (CI=true)")
		}
		t.Skip("tmux is not installed")
	}
	bin := filepath.Join(t.TempDir(), "wavedbg")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command("bash", "testdata/e2e.sh", bin).CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("e2e.sh: %v", err)
	}
}

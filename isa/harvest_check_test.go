package isa

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// checkHarvest rebuilds the harvester, regenerates tables/NAME.txt with it
// and LLVM 19 in a temporary directory, and fails if the committed table
// differs.
func checkHarvest(t *testing.T, name string) {
	t.Helper()
	needLLVM(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "harvest")
	if out, err := exec.Command("go", "build", "-o", bin, "./internal/harvest").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if err := os.Mkdir(filepath.Join(dir, "tables"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, name)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("harvest %s: %v\n%s", name, err, out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "tables", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("tables", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("tables/%s.txt is stale: run go run ./isa/internal/harvest %s", name, name)
	}
}

package loader

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
)

// requireOracle skips the test when an oracle (a tool or a file) is
// missing, except under CI=true, where a missing oracle is a failure.
func requireOracle(t testing.TB, what string, ok bool) {
	t.Helper()
	if ok {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("oracle %s is missing (CI=true requires it)", what)
	}
	t.Skipf("oracle %s is missing", what)
}

// needTool returns the path of an oracle program, per requireOracle.
func needTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	requireOracle(t, name, err == nil)
	return p
}

// needFile returns path if it exists, per requireOracle.
func needFile(t testing.TB, path string) string {
	t.Helper()
	_, err := os.Stat(path)
	requireOracle(t, path, err == nil)
	return path
}

// codeObjects lists the committed code objects (ET_DYN and ET_REL).
func codeObjects(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/co/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no code objects in testdata/co (run testdata/build.sh): %v", err)
	}
	sort.Strings(files)
	return files
}

// elfFiles is every committed ELF file: the code objects and the fat binary.
func elfFiles(t testing.TB) []string {
	return append(codeObjects(t), "testdata/bundle/libfat.so")
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

package asm

import (
	"bytes"
	"debug/elf"
	"flag"
	"os"
	"os/exec"
	"testing"
)

var update = flag.Bool("asm.update", false, "rewrite the golden files of testdata from the LLVM tools")

// oracle returns the path of an LLVM tool, or "" when it is missing and
// the test should use its golden file instead. Under CI=true a missing
// tool fails the test.
func oracle(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") == "true" || *update {
		t.Fatalf("oracle %s is missing (CI=true and -asm.update require it)", name)
	}
	return ""
}

// run runs a tool and returns its standard output and error.
func run(t testing.TB, stdin []byte, name string, args ...string) (string, string, error) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

// sectionData returns the bytes of a named section of an ELF image.
func sectionData(t testing.TB, image []byte, name string) []byte {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(image))
	if err != nil {
		t.Fatalf("ELF: %v", err)
	}
	s := f.Section(name)
	if s == nil {
		t.Fatalf("no section %s", name)
	}
	b, err := s.Data()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

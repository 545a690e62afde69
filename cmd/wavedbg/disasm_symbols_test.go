package main

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/tui/sample"
)

// checkSymbolOutsideText moves scale.co's one .text symbol to value and
// runs the file through disasm, info and run: none may fail, and disasm
// must list .text under the section's name, as llvm-objdump-19 does for a
// symbol that does not start inside the section.
func checkSymbolOutsideText(t *testing.T, value uint64) {
	t.Helper()
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.co")
	bad := filepath.Join(dir, "bad.co")
	data := readFile(t, scaleCO)
	if err := os.WriteFile(orig, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, withSymbolValue(t, data, "scale", value), 0o644); err != nil {
		t.Fatal(err)
	}

	_, want, _ := runCmd("disasm", orig)
	want = strings.ReplaceAll(strings.ReplaceAll(want, orig, bad), "<scale", "<.text")
	code, got, stderr := runCmd("disasm", bad)
	if code != 0 {
		t.Fatalf("disasm: exit %d: %s", code, stderr)
	}
	diffLines(t, bad, got, want)

	if code, out, stderr := runCmd("info", bad); code != 0 || !strings.Contains(out, "scale") {
		t.Errorf("info: exit %d, stdout %q, stderr %s", code, out, stderr)
	}
	man := filepath.Join(dir, "scale.json")
	if err := os.WriteFile(man, []byte(sample.Manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCmd("run", bad, "--manifest", man, "--out", dir, "-q"); code != 0 {
		t.Errorf("run: exit %d: %s", code, stderr)
	}
}

// TestDisasmSymbolPastText: a symbol whose value lies past the end of
// .text made the label before it reach past the section (a slice-bounds
// panic in writeListing).
func TestDisasmSymbolPastText(t *testing.T) {
	addr, _ := textRange(t, readFile(t, scaleCO))
	checkSymbolOutsideText(t, addr+0x800)
}

// TestDisasmSymbolValueMax: st_value 0xffffffffffffffff panicked too.
func TestDisasmSymbolValueMax(t *testing.T) {
	checkSymbolOutsideText(t, math.MaxUint64)
}

// TestDisasmOddSymbolsMatchObjdump compares the listing of code objects
// with a symbol outside, at the end of or inside an instruction of .text,
// or a section cut in the middle of a word, with llvm-objdump-19's.
func TestDisasmOddSymbolsMatchObjdump(t *testing.T) {
	if _, err := exec.LookPath("llvm-objdump-19"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("llvm-objdump-19 is required under CI=true")
		}
		t.Skip("llvm-objdump-19 not installed")
	}
	data := readFile(t, scaleCO)
	addr, size := textRange(t, data)
	tests := []struct {
		name string
		data []byte
	}{
		{"past end", withSymbolValue(t, data, "scale", addr+0x800)},
		{"max", withSymbolValue(t, data, "scale", math.MaxUint64)},
		{"at end", withSymbolValue(t, data, "scale", addr+size)},
		{"before", withSymbolValue(t, data, "scale", addr-0x10)},
		{"inside an instruction", withSymbolValue(t, data, "scale", addr+2)},
		{"cut word 1", withSectionSize(t, data, ".text", size-3)},
		{"cut word 2", withSectionSize(t, data, ".text", size-2)},
		{"cut word 3", withSectionSize(t, data, ".text", size-1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := filepath.Join(t.TempDir(), "odd.co")
			if err := os.WriteFile(f, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			want, err := exec.Command("llvm-objdump-19", "-d", "--mcpu=gfx900", f).Output()
			if err != nil {
				t.Fatal(err)
			}
			code, got, stderr := runCmd("disasm", f)
			if code != 0 {
				t.Fatalf("disasm: exit %d: %s", code, stderr)
			}
			diffLines(t, f, got, string(want))
		})
	}
}

// TestDisasmRawUnsupportedTargetMessage: --raw with a processor the
// decoder lacks said only "want gfx8NN or gfx9NN"; it names the processor
// and lists the supported ones.
func TestDisasmRawUnsupportedTargetMessage(t *testing.T) {
	supported := "supported: gfx801, gfx802, gfx803, gfx805, gfx810, gfx900, gfx902, gfx904, gfx906, gfx909, gfx90c"
	tests := []struct{ target, want string }{
		{"gfx908", "--target gfx908 (CDNA) is not supported; " + supported},
		{"gfx90a:xnack+", "--target gfx90a (CDNA 2) is not supported"},
		{"gfx1030", "--target gfx1030 (RDNA 2) is not supported"},
		{"gfx600", "--target gfx600 (GCN 1) is not supported"},
		{"r600", "--target r600 (TeraScale) is not supported"},
		{"foo", `--target "foo" is not an AMDGPU processor; ` + supported},
		{"", "want --target, one of gfx801, gfx802, gfx803, gfx805, gfx810, gfx900, gfx902, gfx904, gfx906, gfx909, gfx90c"},
	}
	for _, tt := range tests {
		code, _, stderr := runCmd("disasm", "--raw", "--target", tt.target, "BF810000")
		if code != 2 || !strings.Contains(stderr, "disasm --raw: "+tt.want) {
			t.Errorf("--target %q: exit %d, stderr %q, want exit 2 and %q", tt.target, code, stderr, tt.want)
		}
	}
	for _, p := range []string{"gfx803", "gfx900", "gfx906:xnack-"} {
		if code, out, stderr := runCmd("disasm", "--raw", "--target", p, "BF810000"); code != 0 || !strings.Contains(out, "s_endpgm") {
			t.Errorf("--target %s: exit %d, stdout %q, stderr %q", p, code, out, stderr)
		}
	}
}

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// dwarfDir holds the -g code objects and their sources (built by its
// build.sh); their DWARF names the sources relative to it.
const dwarfDir = "../../loader/testdata/dwarf"

// sourceGoldens are the code objects of dwarfDir whose -l and -S listings
// are committed in testdata/disasm/dwarf (regenerate with -update); under
// CI=true every code object there is also compared with llvm-objdump-19 live.
var sourceGoldens = map[string][]string{
	"-l": {"loops-gfx803-v4.co", "loops-gfx900-v5.co", "loops-gfx906-v4.co", "loops-gfx900-v4-dwarf4.co",
		"loops-gfx900-v5.o", "loops-gfx900-v4-subdir.co", "loops-gfx900-v5-zstd.co", "calls_O0-gfx906-v5.co"},
	"-S": {"loops-gfx900-v5.co", "calls_O0-gfx803-v4.co"},
}

// checkSourceListing compares wavedbg disasm FLAG with the goldens for
// FLAG and, under CI=true, with llvm-objdump-19 on every code object
// (FLAG alone and with the other of -l and -S).
func checkSourceListing(t *testing.T, flag string) {
	abs, err := filepath.Abs(dwarfDir)
	if err != nil {
		t.Fatal(err)
	}
	goldenDir, err := filepath.Abs("testdata/disasm/dwarf")
	if err != nil {
		t.Fatal(err)
	}
	live := os.Getenv("CI") == "true"
	if *updateInfo || live {
		if _, err := exec.LookPath("llvm-objdump-19"); err != nil {
			t.Fatal("llvm-objdump-19 is required under CI=true and with -update")
		}
	}
	t.Chdir(abs) // the DWARF names the sources relative to it
	run := func(args ...string) (stdout, stderr string) {
		var out, errb bytes.Buffer
		if err := runDisasm(args, &out, &errb); err != nil {
			t.Fatalf("disasm %s: %v %s", args, err, errb.String())
		}
		return out.String(), errb.String()
	}
	for _, file := range sourceGoldens[flag] {
		golden := filepath.Join(goldenDir, file+flag+".txt")
		if *updateInfo {
			cmd := exec.Command("llvm-objdump-19", "-d", flag, file)
			out, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(goldenDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (regenerate with -update)", err)
		}
		if !strings.Contains(string(want), "; ") {
			t.Fatalf("%s holds no source annotations", golden)
		}
		out, warn := run(flag, file)
		if warn != "" {
			t.Errorf("disasm %s %s warned: %s", flag, file, warn)
		}
		diffLines(t, file+" "+flag, out, string(want))
	}
	if !live {
		return
	}
	files, _ := filepath.Glob("*.[co]*")
	other := map[string]string{"-l": "-S", "-S": "-l"}[flag]
	for _, file := range files {
		if strings.HasSuffix(file, ".cl") {
			continue
		}
		for _, flags := range [][]string{{flag}, {flag, other}} {
			cmd := exec.Command("llvm-objdump-19", append(append([]string{"-d"}, flags...), file)...)
			want, err := cmd.Output()
			if err != nil {
				t.Fatal(err)
			}
			out, _ := run(append(flags, file)...)
			diffLines(t, file+" "+strings.Join(flags, " "), out, string(want))
		}
	}
}

func TestDisasmLineNumbersMatchObjdump(t *testing.T) { checkSourceListing(t, "-l") }

func TestDisasmSourceMatchObjdump(t *testing.T) { checkSourceListing(t, "-S") }

// TestDisasmLineNumbersLongFlags checks that --line-numbers and --source
// are -l and -S.
func TestDisasmLineNumbersLongFlags(t *testing.T) {
	t.Chdir(dwarfDir)
	for short, long := range map[string]string{"-l": "--line-numbers", "-S": "--source"} {
		var a, b, errb bytes.Buffer
		if err := runDisasm([]string{short, "loops-gfx900-v5.co"}, &a, &errb); err != nil {
			t.Fatal(err)
		}
		if err := runDisasm([]string{long, "loops-gfx900-v5.co"}, &b, &errb); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() || !strings.Contains(a.String(), "\n; ") {
			t.Errorf("%s and %s differ or annotate nothing", short, long)
		}
	}
}

// TestDisasmSourceMissingWarns runs -S where the source cannot be found:
// the listing carries no source lines (as llvm-objdump's) and one warning
// names the code object and the missing file.
func TestDisasmSourceMissingWarns(t *testing.T) {
	file := filepath.Join(dwarfDir, "loops-gfx900-v5.co")
	var out, plain, errb bytes.Buffer
	if err := runDisasm([]string{"-S", file}, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if err := runDisasm([]string{file}, &plain, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if out.String() != plain.String() {
		t.Error("-S without the source differs from the plain listing")
	}
	if w := errb.String(); strings.Count(w, "\n") != 1 || !strings.Contains(w, file) || !strings.Contains(w, "failed to find source loops.cl") {
		t.Errorf("warning = %q, want one naming %s and loops.cl", w, file)
	}
}

// TestSplitSourceLines checks llvm-objdump's line splitting: CRLF, a last
// line without newline, empty lines.
func TestSplitSourceLines(t *testing.T) {
	for in, want := range map[string][]string{
		"":            {},
		"a\n":         {"a"},
		"a\r\nb":      {"a", "b"},
		"\n\nc\r\n\r": {"", "", "c", "\r"},
	} {
		got := splitSourceLines([]byte(in))
		if strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("splitSourceLines(%q) = %q, want %q", in, got, want)
		}
	}
}

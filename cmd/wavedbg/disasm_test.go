package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/loader"
)

var updateDisasm = flag.Bool("update-disasm", false, "rewrite testdata/disasm/*.txt from llvm-objdump-19")

// disasmCases are code objects whose listing must equal llvm-objdump-19's;
// the expected text is committed in testdata/disasm/NAME.CPU.txt.
var disasmCases = []struct{ file, cpu string }{
	{"../../tui/sample/scale.co", "gfx900"},
	{"../../emu/testdata/cl/gfx803/reduce_local.co", "gfx803"},
	{"testdata/disasm/zeros.co", "gfx900"}, // zero runs, .long, symbolized branches; source zeros.s
}

func goldenName(file, cpu string) string {
	return filepath.Join("testdata/disasm", strings.TrimSuffix(filepath.Base(file), ".co")+"."+cpu+".txt")
}

func TestDisasmListingGolden(t *testing.T) {
	for _, c := range disasmCases {
		if _, err := os.Stat(c.file); err != nil {
			t.Fatalf("committed test input: %v", err)
		}
		golden := goldenName(c.file, c.cpu)
		if *updateDisasm {
			out, err := exec.Command("llvm-objdump-19", "-d", "--mcpu="+c.cpu, c.file).Output()
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(golden, out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if err := runDisasm([]string{c.file}, &out, &errb); err != nil {
			t.Fatalf("%s: %v %s", c.file, err, errb.String())
		}
		diffLines(t, c.file, out.String(), string(want))
	}
}

// TestDisasmListingLive compares with llvm-objdump-19 on every code object
// under emu/testdata and samples when LLVM is installed.
func TestDisasmListingLive(t *testing.T) {
	if _, err := exec.LookPath("llvm-objdump-19"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("llvm-objdump-19 is required under CI=true")
		}
		t.Skip("llvm-objdump-19 not installed")
	}
	files, _ := filepath.Glob("../../emu/testdata/cl/gfx[89]*/*.co")
	for _, f := range files {
		cpu := filepath.Base(filepath.Dir(f))
		want, err := exec.Command("llvm-objdump-19", "-d", "--mcpu="+cpu, f).Output()
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		if err := runDisasm([]string{f}, &out, &errb); err != nil {
			t.Errorf("%s: %v %s", f, err, errb.String())
			continue
		}
		diffLines(t, f, out.String(), string(want))
	}
}

func TestDisasmRaw(t *testing.T) {
	in, err := os.ReadFile("testdata/disasm/raw.hex")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/disasm/raw.gfx900.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if err := runDisasm(append([]string{"--raw", "--target", "gfx900"}, strings.Fields(string(in))...), &out, &errb); err != nil {
		t.Fatal(err, errb.String())
	}
	diffLines(t, "raw", out.String(), string(want))
	if err := runDisasm([]string{"--raw", "--target", "gfx1030", "BF810000"}, &out, &errb); err == nil {
		t.Error("--raw with an unsupported target: want an error")
	}
}

func TestDisasmKernel(t *testing.T) {
	var out, errb bytes.Buffer
	if err := runDisasm([]string{"../../tui/sample/scale.co", "--kernel", "scale"}, &out, &errb); err != nil {
		t.Fatal(err, errb.String())
	}
	if !strings.Contains(out.String(), "<scale>:") || !strings.Contains(out.String(), "s_endpgm") {
		t.Errorf("--kernel scale: %s", out.String())
	}
	if err := runDisasm([]string{"../../tui/sample/scale.co", "--kernel", "nope"}, &out, &errb); err == nil {
		t.Error("--kernel nope: want an error")
	}
}

// diffLines reports the first differing lines of two listings.
func diffLines(t *testing.T, name, have, want string) {
	t.Helper()
	h, w := strings.Split(have, "\n"), strings.Split(want, "\n")
	bad := 0
	for i := 0; i < max(len(h), len(w)); i++ {
		var a, b string
		if i < len(h) {
			a = h[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			if bad < 5 {
				t.Errorf("%s line %d:\n have %q\n want %q", name, i+1, a, b)
			}
			bad++
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d differing lines", name, bad)
	}
}

// TestDisasmListingCorpus compares whole listings with llvm-objdump-19 for
// the gfx803, gfx900 and gfx906 code objects of librocsparse and librocrand:
// the two smallest per library and processor, or all with ISA_LONG=1 and in
// CI.
func TestDisasmListingCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if _, err := exec.LookPath("llvm-objdump-19"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("llvm-objdump-19 is required under CI=true")
		}
		t.Skip("llvm-objdump-19 not installed")
	}
	dir := t.TempDir()
	n := 0
	for _, lib := range []string{"/usr/lib/x86_64-linux-gnu/librocsparse.so.0", "/usr/lib/x86_64-linux-gnu/librocrand.so.1"} {
		c, err := loader.OpenContainer(lib)
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatal(err)
			}
			t.Log(err)
			continue
		}
		for _, cpu := range []string{"gfx803", "gfx900", "gfx906"} {
			var es []*loader.BundleEntry
			for i := range c.Entries {
				if e := &c.Entries[i]; e.IsAMDGPU() && e.Processor() == cpu {
					es = append(es, e)
				}
			}
			sort.Slice(es, func(i, j int) bool { return es[i].Size < es[j].Size })
			if os.Getenv("ISA_LONG") == "" && os.Getenv("CI") != "true" && len(es) > 2 {
				es = es[:2]
			}
			for _, e := range es {
				raw, err := io.ReadAll(e.Reader())
				if err != nil {
					t.Fatal(err)
				}
				f := filepath.Join(dir, fmt.Sprintf("%s-%d.co", cpu, n))
				n++
				if err := os.WriteFile(f, raw, 0o644); err != nil {
					t.Fatal(err)
				}
				want, err := exec.Command("llvm-objdump-19", "-d", "--mcpu="+cpu, f).Output()
				if err != nil {
					t.Fatal(err)
				}
				var out, errb bytes.Buffer
				if err := runDisasm([]string{f}, &out, &errb); err != nil {
					t.Fatalf("%s: %v %s", f, err, errb.String())
				}
				diffLines(t, filepath.Base(lib)+" "+e.ID, out.String(), string(want))
			}
		}
		c.Close()
	}
	t.Logf("%d code objects", n)
}

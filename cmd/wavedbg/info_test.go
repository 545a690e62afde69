package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/loader"
)

// updateInfo (-update) rewrites testdata/info/*.
var updateInfo = flag.Bool("update", false, "rewrite the golden files in testdata/info and testdata/disasm/dwarf")

const loaderTestdata = "../../loader/testdata"

// checkGolden compares got with testdata/info/name, or rewrites it.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "info", name)
	if *updateInfo {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s (go test -update rewrites it)\n--- got ---\n%s", path, got)
	}
}

func runInfoArgs(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = mainExit(append([]string{"info"}, args...), &out, &errOut)
	return out.String(), errOut.String(), code
}

// TestInfoGolden: the text summary of every committed code object and
// container, JSON for a few, bundle listings for every container.
func TestInfoGolden(t *testing.T) {
	cos, _ := filepath.Glob(loaderTestdata + "/co/*")
	bundles, _ := filepath.Glob(loaderTestdata + "/bundle/*")
	if len(cos) == 0 || len(bundles) == 0 {
		t.Fatal("no committed code objects in ../../loader/testdata")
	}
	type tc struct {
		golden string
		args   []string
	}
	var cases []tc
	for _, p := range append(cos, bundles...) {
		cases = append(cases, tc{filepath.Base(p) + ".txt", []string{p}})
	}
	for _, p := range bundles {
		cases = append(cases, tc{filepath.Base(p) + ".list.txt", []string{"--list-bundles", p}})
	}
	for _, name := range []string{"vadd-gfx900-v2.co", "vadd-gfx900-v4.o", "vadd-gfx900-v5.co", "args-gfx90a-v4.co", "lds_scratch-gfx803-v5.co"} {
		cases = append(cases, tc{name + ".json", []string{"--json", loaderTestdata + "/co/" + name}})
	}
	cases = append(cases,
		tc{"libfat.so.list.json", []string{"--list-bundles", "--json", loaderTestdata + "/bundle/libfat.so"}},
		tc{"vadd-zstd.ccob.list.json", []string{"--list-bundles", "--json", loaderTestdata + "/bundle/vadd-zstd.ccob"}},
		tc{"vadd.bundle.json", []string{"--json", loaderTestdata + "/bundle/vadd.bundle"}},
		tc{"v2-r630-gfx803.co.json", []string{"--json", loaderTestdata + "/quirks/v2-r630-gfx803.co"}},
		tc{"libfat.so.gfx90a.txt", []string{loaderTestdata + "/bundle/libfat.so", "--target", "gfx90a:xnack+"}},
		tc{"vadd-zstd.ccob.gfx906.txt", []string{"--target=gfx906", loaderTestdata + "/bundle/vadd-zstd.ccob"}},
	)
	for _, c := range cases {
		t.Run(c.golden, func(t *testing.T) {
			out, errOut, code := runInfoArgs(t, c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			checkGolden(t, c.golden, []byte(out))
		})
	}
}

// infoJSONArgs lists real info --json invocations covering every kind of
// file: each committed code object (v2 to v5, relocatable, linked, legacy
// v2 e_flags), bundles plain and compressed, a fat binary with several
// bundles (listed, and one kernel of it) and --list-bundles of each kind.
func infoJSONArgs(t *testing.T) [][]string {
	t.Helper()
	cos, _ := filepath.Glob(loaderTestdata + "/co/*")
	bundles, _ := filepath.Glob(loaderTestdata + "/bundle/*")
	if len(cos) == 0 || len(bundles) == 0 {
		t.Fatal("no committed code objects in ../../loader/testdata")
	}
	quirks := loaderTestdata + "/quirks/"
	var args [][]string
	for _, p := range append(cos, bundles...) {
		args = append(args, []string{"--json", p})
	}
	for _, p := range append(bundles, cos[0], twice) {
		args = append(args, []string{"--list-bundles", "--json", p})
	}
	return append(args,
		[]string{"--json", quirks + "v2-r630-gfx803.co"},
		[]string{"--json", quirks + "linked-gfx900-v4.co"},
		[]string{"--json", twice},
		[]string{"--json", twice, "--kernel", "second"},
		[]string{"--json", twice, "--target", "gfx900"},
		[]string{"--json", loaderTestdata + "/bundle/vadd-zstd.ccob", "--target", "gfx906"},
	)
}

// TestInfoJSON checks the JSON document against the loader directly.
func TestInfoJSON(t *testing.T) {
	for _, name := range []string{"args-gfx906-v5.co", "lds_scratch-gfx90a-v4.co", "vadd-gfx900-v2.co"} {
		path := loaderTestdata + "/co/" + name
		out, errOut, code := runInfoArgs(t, "--json", path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errOut)
		}
		var doc infoDoc
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		co, err := loader.Load(path, loader.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		co.Close()
		if doc.Schema != "wavedbg/1" || doc.Type != "info" || doc.Container != "code-object" || len(doc.CodeObjects) != 1 {
			t.Fatalf("%s: document %s %s %s with %d code objects", name, doc.Schema, doc.Type, doc.Container, len(doc.CodeObjects))
		}
		o := doc.CodeObjects[0]
		if o.Processor != co.Target.Processor || o.CodeObjectVersion != co.Version || len(o.Kernels) != len(co.Kernels) ||
			o.Entry != nil || o.Mach != hexAddr(uint64(co.Target.Mach)) {
			t.Fatalf("%s: JSON says %s (mach %s) v%d with %d kernels, loader %s v%d with %d", name, o.Processor, o.Mach,
				o.CodeObjectVersion, len(o.Kernels), co.Target.Processor, co.Version, len(co.Kernels))
		}
		for i, k := range o.Kernels {
			ck := &co.Kernels[i]
			if k.Name != ck.Name || k.Entry != hexAddr(ck.Entry) || k.Metadata == nil || len(k.Metadata.Args) != len(ck.Meta.Args) ||
				len(k.Problems) != 0 || len(k.DescriptorFields) == 0 || k.Allocated == nil || k.Allocated.VGPR == 0 {
				t.Errorf("%s kernel %d: JSON %+v disagrees with the loader", name, i, k)
			}
		}
	}
}

// TestInfoJSONFatBinary: a fat binary with several bundles lists every code
// object for the target with its bundle entry and kernel names, as the
// text listing does; --list-bundles lists every entry without kernels.
func TestInfoJSONFatBinary(t *testing.T) {
	var doc infoDoc
	out, errOut, code := runInfoArgs(t, "--json", twice)
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	var got []string
	for _, o := range doc.CodeObjects {
		if o.Entry == nil || len(o.Kernels) != 1 || o.Kernels[0].Metadata != nil {
			t.Fatalf("code object %+v: want its entry and one kernel without details", o)
		}
		got = append(got, fmt.Sprintf("%d %s %s", o.Entry.Bundle, o.Processor, o.Kernels[0].Name))
	}
	want := []string{"0 gfx803 first", "0 gfx900 first", "1 gfx900 second", "2 gfx900 first"}
	if doc.Container != "fat-binary" || doc.Bundles != 3 || !slices.Equal(got, want) {
		t.Errorf("%s with %d bundles: code objects %q, want %q", doc.Container, doc.Bundles, got, want)
	}

	doc = infoDoc{}
	out, errOut, code = runInfoArgs(t, "--list-bundles", "--json", twice)
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	if len(doc.CodeObjects) != 7 || strings.Contains(out, `"kernels"`) {
		t.Errorf("--list-bundles: %d code objects, want 7 without kernels:\n%s", len(doc.CodeObjects), out)
	}
}

// TestInfoJSONNoGoFieldNames: no key anywhere in any info --json document
// holds an upper-case letter (Go field names) or is not snake_case.
func TestInfoJSONNoGoFieldNames(t *testing.T) {
	snake := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	var walk func(path string, v any) []string
	walk = func(path string, v any) []string {
		var bad []string
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if !snake.MatchString(k) {
					bad = append(bad, path+"."+k)
				}
				bad = append(bad, walk(path+"."+k, x)...)
			}
		case []any:
			for i, x := range v {
				bad = append(bad, walk(fmt.Sprintf("%s[%d]", path, i), x)...)
			}
		}
		return bad
	}
	for _, args := range infoJSONArgs(t) {
		out, errOut, code := runInfoArgs(t, args...)
		if code != 0 {
			t.Fatalf("info %q: exit %d: %s", args, code, errOut)
		}
		var doc any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("info %q: %v", args, err)
		}
		if bad := walk("", doc); len(bad) > 0 {
			slices.Sort(bad)
			t.Errorf("info %q: keys not snake_case: %q", args, bad)
		}
	}
}

func TestInfoErrors(t *testing.T) {
	co := loaderTestdata + "/co/vadd-gfx900-v4.co"
	tests := []struct {
		args    []string
		code    int
		wantErr string
	}{
		{nil, 2, "want exactly one FILE"},
		{[]string{co, co}, 2, "want exactly one FILE"},
		{[]string{"--bogus", co}, 2, "flag provided but not defined"},
		{[]string{"--target"}, 2, "flag needs an argument"},
		{[]string{"does-not-exist.co"}, 1, "no such file"},
		{[]string{"info_test.go"}, 1, "info_test.go"},
		{[]string{"--target", "gfx1030", co}, 1, "no code object for target gfx1030"},
		{[]string{"--target", "gfx90a", loaderTestdata + "/bundle/vadd.bundle", "--target", "gfx1100"}, 1, "gfx1100"},
		{[]string{"--help"}, 0, "Usage: wavedbg info"},
	}
	for _, tt := range tests {
		_, errOut, code := runInfoArgs(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.wantErr) {
			t.Errorf("info %q: exit %d, stderr %q; want exit %d mentioning %q", tt.args, code, errOut, tt.code, tt.wantErr)
		}
	}
}

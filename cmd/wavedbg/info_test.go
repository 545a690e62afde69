package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
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

// TestInfoJSON checks the JSON document against the loader directly.
func TestInfoJSON(t *testing.T) {
	for _, name := range []string{"args-gfx906-v5.co", "lds_scratch-gfx90a-v4.co", "vadd-gfx900-v2.co"} {
		path := loaderTestdata + "/co/" + name
		out, errOut, code := runInfoArgs(t, "--json", path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errOut)
		}
		var doc infoJSON
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		co, err := loader.Load(path, loader.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		co.Close()
		if doc.Processor != co.Target.Processor || doc.CodeObjectVersion != co.Version || len(doc.Kernels) != len(co.Kernels) {
			t.Fatalf("%s: JSON says %s v%d with %d kernels, loader %s v%d with %d", name, doc.Processor, doc.CodeObjectVersion,
				len(doc.Kernels), co.Target.Processor, co.Version, len(co.Kernels))
		}
		for i, k := range doc.Kernels {
			ck := &co.Kernels[i]
			if k.Name != ck.Name || k.Entry != ck.Entry || k.Metadata == nil || len(k.Metadata.Args) != len(ck.Meta.Args) ||
				len(k.Problems) != 0 || len(k.Descriptor) == 0 {
				t.Errorf("%s kernel %d: JSON %+v disagrees with the loader", name, i, k)
			}
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

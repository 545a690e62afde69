package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/loader"
)

// twice.so's .hip_fatbin: bundle 0 defines "first" (gfx803, gfx900),
// bundle 1 "second" (gfx900), bundle 2 "first" again (gfx900).
const twice = loaderTestdata + "/quirks/twice.so"

// TestInfoFatBinaryKernels: info lists the kernels of every bundle (text
// and JSON); --kernel describes the code object that defines it, whichever
// bundle that is, and --bundle settles a name defined in several.
func TestInfoFatBinaryKernels(t *testing.T) {
	for _, c := range []struct {
		golden string
		args   []string
	}{
		{"twice.so.txt", []string{twice}},
		{"twice.so.json", []string{"--json", twice}},
		{"twice.so.gfx900.txt", []string{twice, "--target", "gfx900"}},
		{"twice.so.second.txt", []string{twice, "--kernel", "second"}},
		{"twice.so.first.bundle2.txt", []string{twice, "--kernel", "first", "--target", "gfx900", "--bundle", "2"}},
		{"v2-r630-gfx803.co.txt", []string{loaderTestdata + "/quirks/v2-r630-gfx803.co"}},
		{"linked-gfx900-v4.co.txt", []string{loaderTestdata + "/quirks/linked-gfx900-v4.co"}},
	} {
		t.Run(c.golden, func(t *testing.T) {
			out, errOut, code := runInfoArgs(t, c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			checkGolden(t, c.golden, []byte(out))
		})
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{twice, "--kernel", "second"}, "(3 bundles, 7 entries), bundle 1 entry hipv4-amdgcn-amd-amdhsa--gfx900\n"},
		{[]string{twice, "--kernel", "first", "--target", "gfx900", "--bundle", "2"}, "bundle 2 entry hipv4-amdgcn-amd-amdhsa--gfx900\n"},
		{[]string{twice}, "2       gfx900  v4           first\n"},
	} {
		if out, errOut, code := runInfoArgs(t, c.args...); code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("info %q: exit %d %s, want output with %q:\n%s", c.args, code, errOut, c.want, out)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{twice, "--kernel", "first", "--target", "gfx900"},
			`kernel "first" is in 2 code objects: bundle 0 (gfx900), bundle 2 (gfx900); choose one by bundle index (--bundle N)`},
		{[]string{twice, "--kernel", "second", "--bundle", "0"}, `no kernel "second" in any of the 2 code objects for any GCN target`},
		{[]string{twice, "--bundle", "x"}, `invalid value "x" for flag -bundle: want a bundle index, have "x"`},
	} {
		if _, errOut, code := runInfoArgs(t, c.args...); code == 0 || !strings.Contains(errOut, c.want) || !strings.Contains(errOut, "twice.so") && code == 1 {
			t.Errorf("info %q: exit %d, stderr %q; want %q", c.args, code, errOut, c.want)
		}
	}
}

// TestDisasmEveryBundle: disasm FILE --target T prints every code object
// for T, each after a header naming its bundle, each listing equal to
// llvm-objdump-19's of that code object.
func TestDisasmEveryBundle(t *testing.T) {
	var out, errb bytes.Buffer
	if err := runDisasm([]string{twice, "--target", "gfx900"}, &out, &errb); err != nil {
		t.Fatal(err, errb.String())
	}
	c, err := loader.OpenContainer(twice)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	es, err := c.Matching("gfx900")
	if err != nil || len(es) != 3 {
		t.Fatalf("%d gfx900 code objects, %v", len(es), err)
	}
	parts := regexp.MustCompile(`(?m)^; bundle .*\n`).Split(out.String(), -1)
	headers := regexp.MustCompile(`(?m)^; bundle .*$`).FindAllString(out.String(), -1)
	want := []string{
		"; bundle 0 at 0x23c: hipv4-amdgcn-amd-amdhsa--gfx900",
		"; bundle 1 at 0x323c: hipv4-amdgcn-amd-amdhsa--gfx900",
		"; bundle 2 at 0x523c: hipv4-amdgcn-amd-amdhsa--gfx900",
	}
	if strings.Join(headers, "\n") != strings.Join(want, "\n") || parts[0] != "" {
		t.Fatalf("headers %q, want %q", headers, want)
	}
	objdump, err := exec.LookPath("llvm-objdump-19")
	if err != nil && os.Getenv("CI") == "true" {
		t.Fatal("llvm-objdump-19 is required under CI=true")
	}
	for i, e := range es {
		if want[i] != entryHeader(e) {
			t.Errorf("entry %d: header %q, want %q", i, entryHeader(e), want[i])
		}
		if objdump == "" {
			continue
		}
		path := filepath.Join(t.TempDir(), "twice.so")
		b, _ := io.ReadAll(e.Reader())
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		ref, err := exec.Command(objdump, "-d", "--mcpu=gfx900", path).Output()
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Replace(parts[i+1], twice, path, 1)
		diffLines(t, want[i], got, string(ref))
	}
	if !strings.Contains(parts[2], "<second>:") || !strings.Contains(parts[3], "<first>:") {
		t.Errorf("bundle 1 should hold second, bundle 2 first:\n%s", out.String())
	}

	// --kernel picks the one bundle that defines it; a plain code object
	// still gets no header.
	out.Reset()
	if err := runDisasm([]string{twice, "--kernel", "second"}, &out, &errb); err != nil ||
		!strings.HasPrefix(out.String(), "; bundle 1 at 0x323c: hipv4-amdgcn-amd-amdhsa--gfx900\n") || strings.Count(out.String(), "; bundle") != 1 {
		t.Errorf("--kernel second: %v\n%s", err, out.String())
	}
	out.Reset()
	if err := runDisasm([]string{loaderTestdata + "/quirks/linked-gfx900-v4.co"}, &out, &errb); err != nil ||
		strings.Contains(out.String(), "; bundle") || !strings.Contains(out.String(), "<second>:") {
		t.Errorf("linked code object: %v\n%s", err, out.String())
	}
	err = runDisasm([]string{twice, "--kernel", "first", "--target", "gfx900"}, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "bundle 0 (gfx900), bundle 2 (gfx900); choose one by bundle index (--bundle N)") {
		t.Errorf("ambiguous --kernel: %v", err)
	}
}

// TestRunUnsupportedTarget: run, debug and disasm name an unsupported
// target's family and the supported processors, each once.
func TestRunUnsupportedTarget(t *testing.T) {
	const want = "gfx90a (CDNA 2) is not supported; supported: gfx801, gfx802, gfx803, gfx805, gfx810, gfx900, gfx902, gfx904, gfx906, gfx909, gfx90c"
	co := loaderTestdata + "/co/vadd-gfx90a-v4.co"
	buf := "buffer,type=float,count=64"
	code, _, stderr := runCmd("run", co, "--kernel", "vadd", "--grid", "64", "--block", "64", "--arg", buf, "--arg", buf, "--arg", buf)
	if code == 0 || !strings.Contains(stderr, want) {
		t.Errorf("run: exit %d, stderr %q; want %q", code, stderr, want)
	}
	if _, err := openDebuggee(&debugOptions{file: co, kernel: "vadd"}); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("debug: %v; want %q", err, want)
	}
	var out, errb bytes.Buffer
	for _, args := range [][]string{{co}, {"--raw", "--target", "gfx90a:xnack+", "BF810000"}} {
		if err := runDisasm(args, &out, &errb); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("disasm %q: %v; want %q", args, err, want)
		}
	}
}

// TestRunKernelAcrossBundles: run and debug find --kernel in whichever
// bundle defines it, and take --bundle when several do.
func TestRunKernelAcrossBundles(t *testing.T) {
	launch := []string{"--grid", "64", "--block", "64", "-q"}
	for _, c := range []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{"--kernel", "second"}, 0, ""},
		{[]string{"--kernel", "first", "--target", "gfx900", "--bundle", "2"}, 0, ""},
		{[]string{"--kernel", "first", "--target", "gfx900"}, 1, "bundle 0 (gfx900), bundle 2 (gfx900); choose one by bundle index (--bundle N)"},
		{[]string{"--kernel", "second", "--bundle", "7"}, 1, "no GCN code object in bundle 7 (the file has bundles 0 to 2)"},
	} {
		code, _, stderr := runCmd(append(append([]string{"run", twice}, c.args...), launch...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("run %q: exit %d, stderr %q; want exit %d with %q", c.args, code, stderr, c.code, c.want)
		}
	}
	if o, err := parseDebugArgs([]string{twice, "--bundle", "2"}, io.Discard); err != nil || o.bundle == nil || *o.bundle != 2 {
		t.Errorf("debug --bundle 2: %+v, %v", o, err)
	}
	two := 2
	for _, o := range []debugOptions{{file: twice, kernel: "second"}, {file: twice, kernel: "first", target: "gfx900", bundle: &two}} {
		d, err := openDebuggee(&o)
		if err != nil || d == nil {
			t.Errorf("debug %s --kernel %s: %v", o.file, o.kernel, err)
		}
	}
	if _, err := openDebuggee(&debugOptions{file: twice, kernel: "first", target: "gfx900"}); err == nil || !strings.Contains(err.Error(), "(--bundle N)") {
		t.Errorf("debug, ambiguous kernel: %v", err)
	}
}

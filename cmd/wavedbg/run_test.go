package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/manifest"
	"github.com/wavedbg/wavedbg/loader"
)

const clDir = "../../emu/testdata/cl"

func co(name string) string { return filepath.Join(clDir, "gfx900", name+".co") }

func runCmd(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = mainExit(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestRunBadInput: every bad command line or launch gives a clear message
// and a non-zero exit, before anything runs.
func TestRunBadInput(t *testing.T) {
	ia := co("int_alu")
	three := []string{"--arg", "buffer,type=int,count=1024", "--arg", "buffer,type=int,count=1024", "--arg", "buffer,type=int,count=16384,out=o.bin"}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"run", "--kernel", "int_alu", "--grid", "64", "--block", "64"}, "exactly one code object"},
		{"two files", []string{"run", ia, ia, "--kernel", "int_alu"}, "exactly one code object"},
		{"no kernel flag", []string{"run", ia, "--grid", "64", "--block", "64"}, "kernel int_alu takes 3 arguments"},
		{"no grid", []string{"run", ia, "--kernel", "int_alu", "--block", "64"}, "--grid"},
		{"no block", []string{"run", ia, "--kernel", "int_alu", "--grid", "64"}, "--block"},
		{"missing kernel", append([]string{"run", ia, "--kernel", "nope", "--grid", "64", "--block", "64"}, three...), `no kernel "nope"`},
		{"missing file", []string{"run", "/nonexistent.co", "--kernel", "k", "--grid", "64", "--block", "64"}, "nonexistent"},
		{"too few args", []string{"run", ia, "--kernel", "int_alu", "--grid", "64", "--block", "64", "--arg", "buffer,type=int,count=64"}, "takes 3 arguments"},
		{"scalar for pointer", []string{"run", ia, "--kernel", "int_alu", "--grid", "64", "--block", "64", "--arg", "int=1", "--arg", "int=2", "--arg", "int=3"}, "needs a buffer"},
		{"grid not multiple", append([]string{"run", ia, "--kernel", "int_alu", "--grid", "100", "--block", "64"}, three...), ""},
		{"block too big", append([]string{"run", ia, "--kernel", "int_alu", "--grid", "2048", "--block", "2048"}, three...), "more than 1024"},
		{"zero grid", append([]string{"run", ia, "--kernel", "int_alu", "--grid", "0", "--block", "1"}, three...), "at least 1"},
		{"dims differ", append([]string{"run", ia, "--kernel", "int_alu", "--grid", "64,2", "--block", "64"}, three...), "dimensions"},
		{"bad dim", append([]string{"run", ia, "--kernel", "int_alu", "--grid", "6x4", "--block", "64"}, three...), "--grid"},
		{"offset overflow", append([]string{"run", ia, "--kernel", "int_alu", "--grid", "64", "--block", "64", "--offset", "4294967290"}, three...), "2^32"},
		{"reqd size", []string{"run", co("scan_local"), "--kernel", "scan_local", "--grid", "128", "--block", "64", "--arg", "buffer,type=uint,count=128", "--arg", "buffer,type=uint,count=128"}, "requires block 128,1,1"},
		{"scalar size", []string{"run", co("transpose_local"), "--kernel", "transpose_local", "--grid", "16,16", "--block", "16,16", "--arg", "buffer,type=uint,count=256", "--arg", "buffer,type=uint,count=256", "--arg", "uint=16", "--arg", "long=16"}, "expects 4"},
		{"struct size", []string{"run", co("struct_arg"), "--manifest", filepath.Join(clDir, "struct_arg.json"), "--kernel", "struct_arg"}, ""},
		{"local too big", []string{"run", co("reduce_local"), "--kernel", "reduce_local", "--grid", "256", "--block", "256", "--arg", "buffer,type=uint,count=256", "--arg", "buffer,type=uint,count=1", "--arg", "local,size=65537"}, "local size 65537"},
		{"bad arg key", []string{"run", ia, "--kernel", "int_alu", "--grid", "64", "--block", "64", "--arg", "buffer,type=int,colour=red"}, "unknown key"},
		{"bad type", []string{"run", ia, "--kernel", "int_alu", "--grid", "64", "--block", "64", "--arg", "buffer,type=int3,count=4"}, "unknown type"},
		{"bad fill", []string{"run", ia, "--kernel", "int_alu", "--grid", "64", "--block", "64", "--arg", "buffer,type=int,count=4,fill=noise"}, "fill"},
		{"input size", append([]string{"run", ia, "--kernel", "int_alu", "--grid", "64", "--block", "64", "--arg", "buffer,type=int,count=64,in=testdata/run/in16.bin"}, three[2:]...), "holds 16 bytes"},
		{"arg and manifest", []string{"run", ia, "--manifest", filepath.Join(clDir, "int_alu.json"), "--arg", "int=1"}, "cannot be combined"},
		{"bad manifest", []string{"run", ia, "--manifest", "testdata/run/bad.json"}, "unknown field"},
		{"unknown flag", []string{"run", ia, "--colour"}, "flag provided but not defined"},
		{"trace bad wave", []string{"trace", ia, "--wave", "x"}, "wave numbers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := tt.args
			if tt.want == "" {
				args = append(args[:len(args):len(args)], "--out", t.TempDir())
			}
			code, _, stderr := runCmd(args...)
			if tt.want == "" {
				// A valid launch runs.
				if code != 0 {
					t.Errorf("valid launch failed: exit %d: %s", code, stderr)
				}
				return
			}
			if code == 0 {
				t.Fatalf("exit 0, want failure mentioning %q", tt.want)
			}
			if !strings.Contains(stderr, tt.want) {
				t.Errorf("stderr %q does not mention %q", stderr, tt.want)
			}
		})
	}
}

func TestParseArgSpec(t *testing.T) {
	tests := []struct {
		in   string
		want manifest.Arg
		err  string
	}{
		{"uint=48", manifest.Arg{Kind: manifest.Scalar, Type: "uint", Value: "48"}, ""},
		{"scalar,type=long,value=-7", manifest.Arg{Kind: manifest.Scalar, Type: "long", Value: "-7"}, ""},
		{"buffer,type=float,count=8,fill=random:1:0:2,out=o.bin,ulp=3,name=x",
			manifest.Arg{Kind: manifest.Buffer, Type: "float", Size: 32, Fill: "random:1:0:2", Output: "o.bin", ULP: 3, Name: "x"}, ""},
		{"buffer,type=uint,size=0x100,in=a.bin", manifest.Arg{Kind: manifest.Buffer, Type: "uint", Size: 256, Input: "a.bin"}, ""},
		{"local,size=1024", manifest.Arg{Kind: manifest.Local, Size: 1024}, ""},
		{"buffer,type=int,size=8,count=2", manifest.Arg{}, "not both"},
		{"buffer,type", manifest.Arg{}, "key=value"},
		{"struct,fields=int", manifest.Arg{}, "TYPE:VALUE"},
	}
	for _, tt := range tests {
		got, err := parseArgSpec(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if got.Kind != tt.want.Kind || got.Type != tt.want.Type || got.Size != tt.want.Size || got.Value != tt.want.Value ||
			got.Fill != tt.want.Fill || got.Output != tt.want.Output || got.Input != tt.want.Input || got.ULP != tt.want.ULP || got.Name != tt.want.Name {
			t.Errorf("%q: got %+v, want %+v", tt.in, got, tt.want)
		}
	}
	s, err := parseArgSpec("struct,fields=int:100;float:1.5;long:0x10")
	if err != nil || len(s.Fields) != 3 || s.ByValueSize() != 16 {
		t.Errorf("struct: %+v %v", s, err)
	}
}

// fakeLaunch stands in for the emulator: every output buffer becomes its
// input with each byte incremented, so the test can see what was written.
func fakeLaunch(fail error, faults []string) func(context.Context, *loader.CodeObject, *loader.Kernel, *runConfig, [][]byte, io.Writer) (*runResult, error) {
	return func(_ context.Context, _ *loader.CodeObject, _ *loader.Kernel, cfg *runConfig, inputs [][]byte, _ io.Writer) (*runResult, error) {
		if fail != nil {
			return nil, fail
		}
		res := &runResult{Waves: 1, Instructions: 10, Faults: faults, Outputs: make([][]byte, len(inputs))}
		for i, in := range inputs {
			if in != nil {
				out := bytes.Clone(in)
				for j := range out {
					out[j]++
				}
				res.Outputs[i] = out
			}
		}
		return res, nil
	}
}

// TestRunOutputs: outputs appear only after a completed run, whole, and
// nothing (not even a temporary file) is left after a failed one.
func TestRunOutputs(t *testing.T) {
	saved := launch
	defer func() { launch = saved }()
	args := func(dir string) []string {
		return []string{"run", co("int_alu"), "--manifest", filepath.Join(clDir, "int_alu.json"), "--out", dir}
	}
	m, err := manifest.Load(filepath.Join(clDir, "int_alu.json"))
	if err != nil {
		t.Fatal(err)
	}
	inputs, _ := m.Inputs()
	outIdx := m.Outputs()[0]

	for _, tt := range []struct {
		name   string
		fail   error
		faults []string
	}{{"launch error", errors.New("step budget exceeded"), nil}, {"fault", nil, []string{"wave 3: memory violation"}}} {
		dir := t.TempDir()
		launch = fakeLaunch(tt.fail, tt.faults)
		code, _, stderr := runCmd(args(dir)...)
		if code == 0 {
			t.Errorf("%s: exit 0", tt.name)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("%s: files written after a failed run: %v (stderr %s)", tt.name, ents, stderr)
		}
	}

	dir := t.TempDir()
	launch = fakeLaunch(nil, nil)
	code, stdout, stderr := runCmd(args(dir)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "waves 1") || !strings.Contains(stdout, "instructions 10") {
		t.Errorf("summary %q", stdout)
	}
	got, err := os.ReadFile(filepath.Join(dir, m.Args[outIdx].Output))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(inputs[outIdx]) || got[0] != inputs[outIdx][0]+1 {
		t.Errorf("output not the launch's result")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != len(m.Outputs()) {
		t.Errorf("want %d files, got %v", len(m.Outputs()), ents)
	}
}

// TestWriteManifest: a launch given by flags, written with --write-manifest,
// reads back as the same launch.
func TestWriteManifest(t *testing.T) {
	saved := launch
	defer func() { launch = saved }()
	launch = fakeLaunch(nil, nil)
	dir := t.TempDir()
	mpath := filepath.Join(dir, "m.json")
	code, _, stderr := runCmd("run", co("transpose_local"), "-q", "--out", dir, "--write-manifest", mpath,
		"--kernel", "transpose_local", "--grid", "32,16", "--block", "16,16", "--offset", "16,0",
		"--arg", "buffer,type=uint,count=512,fill=iota", "--arg", "buffer,type=uint,count=512,out=t.bin",
		"--arg", "uint=32", "--arg", "uint=16")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	m, err := manifest.Load(mpath)
	if err != nil {
		t.Fatal(err)
	}
	if m.Kernel != "transpose_local" || m.Grid.String() != "32,16" || m.Offset.String() != "16,0" || len(m.Args) != 4 ||
		m.Args[0].Fill != "iota" || m.Args[1].Output != "t.bin" || m.Args[3].Value != "16" {
		b, _ := m.Marshal()
		t.Errorf("manifest does not match the flags:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "t.bin")); err != nil {
		t.Error(err)
	}
}

// TestRunOracle runs every oracle kernel with wavedbg run, for gfx900 and
// gfx803, and compares each output with PoCL's golden output: integers bit
// for bit, floats within the manifest's ULP bound.
func TestRunOracle(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(clDir, "*.json"))
	if err != nil || len(paths) < 15 {
		t.Fatalf("oracle manifests: %d (%v)", len(paths), err)
	}
	for _, p := range paths {
		m, err := manifest.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(m.Source, ".cl")
		objs := map[string]string{"gfx900": filepath.Join(clDir, "gfx900", base+".co"), "gfx803": filepath.Join(clDir, "gfx803", base+".co")}
		if base == m.Kernel { // other code object versions (cov/, gfx900)
			for _, v := range []string{"v2", "v3", "v5"} {
				if o := filepath.Join(clDir, "cov", base+"."+v+".co"); fileExists(o) {
					objs["gfx900-"+v] = o
				}
			}
		}
		for target, obj := range objs {
			name := strings.TrimSuffix(filepath.Base(p), ".json") + "/" + target
			t.Run(name, func(t *testing.T) {
				out := t.TempDir()
				code, _, stderr := runCmd("run", obj, "--manifest", p, "--out", out, "-q")
				if code != 0 {
					t.Fatalf("wavedbg run: exit %d: %s", code, stderr)
				}
				for _, i := range m.Outputs() {
					a := &m.Args[i]
					got, err := os.ReadFile(filepath.Join(out, a.Output))
					if err != nil {
						t.Fatal(err)
					}
					want, err := os.ReadFile(filepath.Join(clDir, "golden", a.Output))
					if err != nil {
						t.Fatal(err)
					}
					if err := a.Compare(got, want); err != nil {
						t.Errorf("%s differs from PoCL: %v", a.Output, err)
					}
				}
			})
		}
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestRunBadKernels: a kernel that never ends stops at the step budget or on
// cancellation, one that faults names the fault; neither writes outputs.
func TestRunBadKernels(t *testing.T) {
	bad := filepath.Join("testdata", "run", "bad.co")
	out := t.TempDir()
	code, _, stderr := runCmd("run", bad, "--kernel", "spin", "--grid", "64", "--block", "64", "--max-steps", "20000",
		"--arg", "buffer,type=int,count=1", "--arg", "buffer,type=int,count=64,out=o.bin", "--out", out)
	if code == 0 || !strings.Contains(stderr, "step budget") {
		t.Errorf("spin: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCmd("run", bad, "--kernel", "wild", "--grid", "64", "--block", "64",
		"--arg", "buffer,type=int,count=64,out=o.bin", "--out", out)
	if code == 0 || !strings.Contains(stderr, "memory fault") || !strings.Contains(stderr, "unmapped") {
		t.Errorf("wild: exit %d, stderr %q", code, stderr)
	}
	if ents, _ := os.ReadDir(out); len(ents) != 0 {
		t.Errorf("outputs written by failed runs: %v", ents)
	}

	// Cancellation (what Ctrl-C does) stops a kernel that would never end.
	cfg, err := parseRunArgs("run", []string{bad, "--kernel", "spin", "--grid", "64", "--block", "64", "--max-steps", "0",
		"--arg", "buffer,type=int,count=1", "--arg", "buffer,type=int,count=64,out=o.bin"}, io.Discard, nil)
	if err != nil {
		t.Fatal(err)
	}
	co, k, inputs, err := prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer co.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := emuLaunch(ctx, co, k, cfg, inputs, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled run: %v", err)
	}
}

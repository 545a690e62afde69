package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/manifest"
)

// TestTrace: wavedbg trace streams one JSON object per executed instruction
// of the chosen wave, with addresses for memory instructions.
func TestTrace(t *testing.T) {
	var out, errOut bytes.Buffer
	dir := t.TempDir()
	code := mainExit([]string{"trace", filepath.Join(clDir, "gfx803", "scan_local.co"), "--manifest",
		filepath.Join(clDir, "scan_local.json"), "--wave", "3", "--out", dir}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) < 50 {
		t.Fatalf("only %d trace lines", len(lines))
	}
	var sawDS, sawVMEM, sawBarrier bool
	for i, l := range lines {
		var r traceRecord
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, l)
		}
		if r.Wave != 3 || r.Seq != uint64(i+1) || r.Inst == "" {
			t.Fatalf("line %d: wave %d seq %d inst %q", i+1, r.Wave, r.Seq, r.Inst)
		}
		switch {
		case strings.HasPrefix(r.Inst, "ds_") && len(r.Addrs) > 0:
			sawDS = true
		case strings.HasPrefix(r.Inst, "flat_") && len(r.Addrs) == 64 && r.Lines > 0:
			sawVMEM = true
		case r.Inst == "s_barrier":
			sawBarrier = true
		}
	}
	if !sawDS || !sawVMEM || !sawBarrier {
		t.Errorf("trace lacks DS addresses (%v), flat addresses with lines (%v) or s_barrier (%v)", sawDS, sawVMEM, sawBarrier)
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, "s_endpgm") {
		t.Errorf("last line is not s_endpgm: %s", last)
	}
}

// TestRunLatency: --vm-latency changes the cycle count, not the results.
func TestRunLatency(t *testing.T) {
	cycles := map[string]string{}
	outs := map[string][]byte{}
	for _, lat := range []string{"10", "2000"} {
		dir := t.TempDir()
		code, stdout, stderr := runCmd("run", co("scan_local"), "--manifest", filepath.Join(clDir, "scan_local.json"),
			"--out", dir, "--vm-latency", lat)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		i := strings.Index(stdout, "cycles ")
		if i < 0 {
			t.Fatalf("no cycles in %q", stdout)
		}
		cycles[lat] = strings.Fields(stdout[i:])[1]
		outs[lat], _ = os.ReadFile(filepath.Join(dir, "scan_local.out.bin"))
	}
	a, _ := strconv.Atoi(cycles["10"])
	b, _ := strconv.Atoi(cycles["2000"])
	if !(a > 0 && b > a+1000) {
		t.Errorf("cycles %d with latency 10, %d with latency 2000", a, b)
	}
	if !bytes.Equal(outs["10"], outs["2000"]) || len(outs["10"]) == 0 {
		t.Error("outputs differ between latencies")
	}
}

// TestRunWorkers: --workers changes how many work-groups run at once, not
// the outputs.
func TestRunWorkers(t *testing.T) {
	for _, k := range []string{"scan_local", "transpose_local", "scratch_spill", "atomics"} {
		t.Run(k, func(t *testing.T) {
			p := filepath.Join(clDir, k+".json")
			m, err := manifest.Load(p)
			if err != nil {
				t.Fatal(err)
			}
			obj := filepath.Join(clDir, "gfx900", strings.TrimSuffix(m.Source, ".cl")+".co")
			var first [][]byte
			for _, w := range []string{"1", "3"} {
				out := t.TempDir()
				code, _, stderr := runCmd("run", obj, "--manifest", p, "--out", out, "-q", "--workers", w)
				if code != 0 {
					t.Fatalf("--workers %s: exit %d: %s", w, code, stderr)
				}
				var got [][]byte
				for _, i := range m.Outputs() {
					b, err := os.ReadFile(filepath.Join(out, m.Args[i].Output))
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, b)
				}
				if first == nil {
					first = got
					continue
				}
				for i := range got {
					if !bytes.Equal(got[i], first[i]) {
						t.Errorf("--workers %s: output %d differs from --workers 1", w, i)
					}
				}
			}
		})
	}
}

// TestRunProfile checks --cpuprofile writes a profile and the summary gives
// the execution time.
func TestRunProfile(t *testing.T) {
	p := filepath.Join(clDir, "int_alu.json")
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	code, stdout, stderr := runCmd("run", co("int_alu"), "--manifest", p, "--out", t.TempDir(), "--cpuprofile", prof)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "executed in ") || !strings.Contains(stdout, "M wave instructions/s") {
		t.Errorf("summary has no execution time: %q", stdout)
	}
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	// pprof profiles are gzip-compressed protocol buffers.
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("profile is not gzip data (%d bytes)", len(b))
	}
}

// TestRunGoTrace: --gotrace (with --cpuprofile) writes a Go execution trace.
func TestRunGoTrace(t *testing.T) {
	dir := t.TempDir()
	tr, prof := filepath.Join(dir, "run.trace"), filepath.Join(dir, "cpu.prof")
	code, _, stderr := runCmd("run", co("int_alu"), "--manifest", filepath.Join(clDir, "int_alu.json"), "--out", dir,
		"--gotrace", tr, "--cpuprofile", prof)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte("go 1.")) {
		t.Errorf("trace starts %q, not a Go trace header", b[:min(len(b), 16)])
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Errorf("no CPU profile beside the trace: %v", err)
	}
}

// TestWriteOutputsAllOrNone: outputs are written together; when one cannot
// be, none is, and no temporary file is left.
func TestWriteOutputsAllOrNone(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := func(outs ...string) *runConfig {
		m := &manifest.Manifest{}
		for _, o := range outs {
			m.Args = append(m.Args, manifest.Arg{Kind: manifest.Buffer, Type: manifest.Int, Size: 8, Output: o})
		}
		return &runConfig{m: m, outDir: dir, quiet: true}
	}
	res := &runResult{Outputs: [][]byte{{1, 2, 3, 4, 5, 6, 7, 8}, {9, 10, 11, 12, 13, 14, 15, 16}, {0, 0, 0, 0, 0, 0, 0, 0}}}
	if err := writeOutputs(cfg("a.bin", "sub/b.bin", "file/c.bin"), res, io.Discard); err == nil {
		t.Fatal("no error writing under a regular file")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 { // "file" and the directory "sub"
		t.Errorf("after a failed write: %v", ents)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "sub")); len(ents) != 0 {
		t.Errorf("after a failed write, sub holds %v", ents)
	}
	if err := writeOutputs(cfg("a.bin", "sub/b.bin"), res, io.Discard); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"a.bin", "sub/b.bin"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.Equal(b, res.Outputs[i]) {
			t.Errorf("%s: % x, %v", name, b, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Errorf("left behind: %v", ents)
	}
}

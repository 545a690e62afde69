package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBatch runs debugger command scripts headless, Delve style: each case
// is the command line, the exit code, and what stdout (or stderr, on an
// error) must contain.
func TestBatch(t *testing.T) {
	script := filepath.Join(t.TempDir(), "cmds.gdb")
	if err := os.WriteFile(script, []byte("# stop at the first VALU\nb 0x1830\n\nc\np/x exec\nx/4f a\nbogus\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sample := []string{"--sample", "vector_add", "--batch"}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  []string
		wantErr  string
	}{
		{"ex", append(sample, "--ex", "b 0x1830", "--ex", "c", "--ex", "p/x s[6:7]", "--ex", "si", "--ex", "info b"), 0,
			[]string{"(wavedbg) b 0x1830\nbreakpoint 1 at 0x1830\n", "breakpoint at 0x1830 after 8 steps\n0x1830  v_mov_b32_e32 v1, s3\n",
				"$1 = 0x100000600", "(wavedbg) si\n0x1834  v_add_co_u32_e32 v0, vcc, s2, v0\n", "1   breakpoint y 0x1830"}, ""},
		{"script", append(sample, "-x", script), 1,
			[]string{"(wavedbg) c\nbreakpoint at 0x1830", "$1 = 0xffffffffffffffff", "0x100000000:  0  1  2  3"},
			"cmds.gdb:7: unknown command \"bogus\""},
		{"ex first, error", append(sample, "--ex", "p q1", "--ex", "c"), 1, []string{"(wavedbg) p q1\n"}, "--ex 1: p: no register or counter \"q1\""},
		{"quit ends", append(sample, "--ex", "q", "--ex", "bogus"), 0, []string{"(wavedbg) q\n"}, ""},
		{"ex needs batch", []string{"--sample", "vector_add", "--ex", "c"}, 2, nil, "--ex, -x and --json run with --batch"},
		{"json", append(sample, "--json", "--ex", "b 0x1830", "--ex", "p bogus"), 1,
			[]string{`{"command":"b 0x1830","from":"--ex 1","output":"breakpoint 1 at 0x1830"}` + "\n",
				`{"command":"p bogus","from":"--ex 2","output":"","error":"p: no register or counter \"bogus\""}` + "\n"}, "--ex 2: p: no register"},
		{"batch needs a file", []string{"--batch", "--ex", "c"}, 2, nil, "--batch needs a FILE or --sample"},
		{"missing script", append(sample, "-x", "nope.gdb"), 1, nil, "-x: open nope.gdb"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := mainExit(tt.args, &out, &errOut)
		if code != tt.wantCode {
			t.Errorf("%s: exit %d, want %d (stderr %q)", tt.name, code, tt.wantCode, errOut.String())
		}
		for _, w := range tt.wantOut {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: stdout lacks %q:\n%s", tt.name, w, out.String())
			}
		}
		if !strings.Contains(errOut.String(), tt.wantErr) {
			t.Errorf("%s: stderr %q lacks %q", tt.name, errOut.String(), tt.wantErr)
		}
		if tt.name == "quit ends" && strings.Contains(out.String(), "bogus") {
			t.Errorf("commands ran after quit:\n%s", out.String())
		}
	}
}

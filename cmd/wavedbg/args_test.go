package main

import (
	"io"
	"strings"
	"testing"
)

// parseLaunch parses a run command line of a one-dimensional launch of
// kernel k (the code object is not opened) plus extra flags.
func parseLaunch(grid string, extra ...string) (*runConfig, error) {
	args := append([]string{"k.co", "--kernel", "k", "--grid", grid, "--block", "64"}, extra...)
	return parseRunArgs("run", args, io.Discard, nil)
}

// TestBufferCountOverflowRefused: --arg counts whose byte size would wrap
// are refused with the argument named, not turned into a small buffer.
func TestBufferCountOverflowRefused(t *testing.T) {
	for _, c := range []struct{ arg, want string }{
		{"buffer,type=double,count=2305843009213693953", `--arg 0 "buffer,type=double,count=2305843009213693953": count 2305843009213693953 of double (8 bytes each) exceeds the largest buffer`},
		{"buffer,type=float,count=9223372036854775807", "count 9223372036854775807 of float (4 bytes each) exceeds"},
		{"buffer,type=char,count=4294967297", "exceeds the largest buffer, 4294967296 bytes"},
		{"buffer,type=int,count=-4", "count -4 is negative"},
		{"buffer,type=int,count=18446744073709551616", "count: "},
		{"buffer,type=int,size=9223372036854775807", "size 9223372036854775807 is not a positive multiple"},
		{"buffer,type=int,size=0,count=4", "not both"},
		{"struct,fields=" + strings.Repeat("double:1;", 512) + "double:1", "the struct exceeds 4096 bytes"},
		{"struct,fields=int:1,count=3", "count is for buffers"},
		{"struct,fields=int:1,size=4", "takes only fields"},
	} {
		_, err := parseLaunch("64", "--arg", c.arg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--arg %.60s: %v, want %q", c.arg, err, c.want)
		}
	}
	cfg, err := parseLaunch("64", "--arg", "buffer,type=double,count=536870912")
	if err != nil || cfg.m.Args[0].Size != 4<<30 {
		t.Errorf("the largest double buffer: %v", err)
	}
}

// TestLaunchMemoryBudget: --mem-limit refuses a launch whose buffers need
// more, before any input is read (the input files do not exist).
func TestLaunchMemoryBudget(t *testing.T) {
	bufs := []string{"--arg", "buffer,type=int,count=1024,in=missing-a.bin", "--arg", "buffer,type=int,count=1024,in=missing-b.bin"}
	for _, c := range []struct{ limit, want string }{
		{"8Ki", ""},
		{"8191", "the launch's buffers need 8192 bytes (8 KiB), more than the memory limit of 8191 bytes (7.999 KiB); --mem-limit raises it"},
		{"4K", "more than the memory limit of 4000 bytes"},
		{"0", ""},
		{"lots", `invalid value "lots" for flag -mem-limit`},
	} {
		_, err := parseLaunch("64", append(bufs, "--mem-limit", c.limit)...)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("--mem-limit %s: %v", c.limit, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("--mem-limit %s: %v, want %q", c.limit, err, c.want)
		}
	}
	// The default is the machine's: 2 × 4 GiB is refused on a machine of
	// less than 16 GiB and accepted on a larger one; either way the
	// message names the flag.
	big := []string{"--arg", "buffer,type=int,size=4294967296", "--arg", "buffer,type=int,size=4294967296"}
	if _, err := parseLaunch("64", big...); err != nil && !strings.Contains(err.Error(), "--mem-limit") {
		t.Errorf("default limit: %v", err)
	}
}

// TestGrid2To32Refused: --grid 4294967296 is refused while parsing, not by
// the emulator with "empty grid or block".
func TestGrid2To32Refused(t *testing.T) {
	_, err := parseLaunch("4294967296")
	if err == nil || !strings.Contains(err.Error(), "dimension 0: grid 4294967296 exceeds the largest grid size, 4294967295") {
		t.Errorf("--grid 4294967296: %v", err)
	}
	if _, err := parseLaunch("4294967232"); err != nil {
		t.Errorf("--grid 4294967232 (2^32-64): %v", err)
	}
}

// TestManifestFromDevZeroRefused: --manifest /dev/zero fails with the
// manifest limit, having read at most that much; an input of /dev/zero
// fails with the buffer's declared size.
func TestManifestFromDevZeroRefused(t *testing.T) {
	code, _, stderr := runCmd("run", "k.co", "--manifest", "/dev/zero")
	if code == 0 || !strings.Contains(stderr, "/dev/zero: the manifest is larger than 16777216 bytes") {
		t.Errorf("--manifest /dev/zero: exit %d: %s", code, stderr)
	}
	code, _, stderr = runCmd("run", co("int_alu"), "--kernel", "int_alu", "--grid", "64", "--block", "64", "--out", t.TempDir(),
		"--arg", "buffer,type=int,count=1024,in=/dev/zero", "--arg", "buffer,type=int,count=1024", "--arg", "buffer,type=int,count=16384,out=o.bin")
	if want := "argument 0 (buffer): input /dev/zero holds more than the buffer's declared 4096 bytes"; code == 0 || !strings.Contains(stderr, want) {
		t.Errorf("in=/dev/zero: exit %d: %s, want %q", code, stderr, want)
	}
}

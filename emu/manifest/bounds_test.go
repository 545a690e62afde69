package manifest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// manifestWith is a valid one-dimensional manifest around args (JSON).
func manifestWith(args string) string {
	return `{"kernel":"k","grid":[64],"block":[64],"args":[` + args + `]}`
}

// TestBufferInputLargerThanDeclaredRefused: an input file longer than its
// buffer is refused, naming the file, the declared size and the argument;
// a shorter one still reports its size; one of exactly the size is read.
func TestBufferInputLargerThanDeclaredRefused(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.bin"), make([]byte, 8), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		size int64
		want string // "" for success
	}{
		{4, "argument 0 (src): input " + filepath.Join(dir, "in.bin") + " holds more than the buffer's declared 4 bytes"},
		{12, "holds 8 bytes, not the buffer's declared 12"},
		{8, ""},
	} {
		m := &Manifest{Dir: dir, Args: []Arg{{Name: "src", Kind: Buffer, Type: Int, Size: c.size, Input: "in.bin"}}}
		in, err := m.Inputs()
		switch {
		case c.want == "" && (err != nil || len(in[0]) != 8):
			t.Errorf("size %d: %v", c.size, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("size %d: error %v, want %q", c.size, err, c.want)
		}
	}
}

// TestBufferCountOverflowRefused: sizes computed from counts never wrap,
// and a struct's size is bounded.
func TestBufferCountOverflowRefused(t *testing.T) {
	for _, c := range []struct {
		t     Type
		count int64
		want  string
	}{
		{Double, 2305843009213693953, "exceeds the largest buffer"},
		{Float, 1<<63 - 1, "exceeds the largest buffer"},
		{Char, MaxBuffer + 1, "exceeds the largest buffer"},
		{Int, -1, "negative"},
		{"int4", 1, "unknown type"},
	} {
		if n, err := BufferSize(c.t, c.count); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("BufferSize(%s, %d) = %d, %v; want an error mentioning %q", c.t, c.count, n, err, c.want)
		}
	}
	if n, err := BufferSize(Double, MaxBuffer/8); err != nil || n != MaxBuffer {
		t.Errorf("BufferSize(double, MaxBuffer/8) = %d, %v", n, err)
	}
	fields := strings.Repeat(`{"type":"double","value":1},`, MaxStruct/8+1)
	big := manifestWith(`{"kind":"struct","fields":[` + strings.TrimSuffix(fields, ",") + `]}`)
	if _, err := Parse([]byte(big), "."); err == nil || !strings.Contains(err.Error(), "exceeds 4096 bytes") {
		t.Errorf("a struct of %d doubles: %v", MaxStruct/8+1, err)
	}
	for _, in := range []string{
		`{"kind":"struct","size":8,"fields":[{"type":"int","value":1}]}`,
		`{"kind":"scalar","type":"int","value":1,"size":8}`,
	} {
		if _, err := Parse([]byte(manifestWith(in)), "."); err == nil || !strings.Contains(err.Error(), "takes only") {
			t.Errorf("%s: %v, want a refusal of its size", in, err)
		}
	}
}

// TestLaunchMemoryBudget: the buffers' total is checked against the limit
// before anything is read (the inputs here do not exist).
func TestLaunchMemoryBudget(t *testing.T) {
	args := make([]Arg, 3)
	for i := range args {
		args[i] = Arg{Kind: Buffer, Type: Int, Size: MaxBuffer, Input: fmt.Sprintf("missing%d.bin", i)}
	}
	args = append(args, Arg{Kind: Local, Size: 1024})
	m := &Manifest{Kernel: "k", Grid: Dim{[3]uint64{64}, 1}, Block: Dim{[3]uint64{64}, 1}, Dir: t.TempDir(), Args: args}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if got, want := m.Footprint(), int64(3*MaxBuffer+1024); got != want {
		t.Errorf("Footprint = %d, want %d", got, want)
	}
	err := m.CheckBudget(8 << 30)
	if err == nil || !strings.Contains(err.Error(), "need 12884902912 bytes (12 GiB), more than the memory limit of 8589934592 bytes (8 GiB)") {
		t.Errorf("CheckBudget(8 GiB) = %v", err)
	}
	for _, limit := range []int64{3*MaxBuffer + 1024, 0} {
		if err := m.CheckBudget(limit); err != nil {
			t.Errorf("CheckBudget(%d) = %v", limit, err)
		}
	}
	if DefaultMemLimit() <= 0 {
		t.Errorf("DefaultMemLimit = %d", DefaultMemLimit())
	}
	for in, want := range map[string]int64{
		"4096": 4096, "1K": 1000, "1Ki": 1024, "2Mi": 2 << 20, "3G": 3e9, "3GiB": 3 << 30, "1Ti": 1 << 40, "0": 0,
	} {
		if got, err := ParseByteSize(in); err != nil || int64(got) != want {
			t.Errorf("ParseByteSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "-1", "1.5G", "9999999999Ti", "12X"} {
		if got, err := ParseByteSize(in); err == nil {
			t.Errorf("ParseByteSize(%q) = %d, want an error", in, got)
		}
	}
}

// TestGrid2To32Refused: a grid dimension of 2^32 work-items (AQL's grid
// sizes are 32-bit) or a grid of more than 2^64-1 work-items is refused
// by Validate, not later by the emulator.
func TestGrid2To32Refused(t *testing.T) {
	for in, want := range map[string]string{
		`{"kernel":"k","grid":[4294967296],"block":[64],"args":[]}`:                          "dimension 0: grid 4294967296 exceeds the largest grid size, 4294967295",
		`{"kernel":"k","grid":[64,4294967296],"block":[64,1],"args":[]}`:                     "dimension 1: grid 4294967296 exceeds",
		`{"kernel":"k","grid":[4294967295,4294967295,4294967295],"block":[1,1,1],"args":[]}`: "more than 2^64-1 work-items",
		`{"kernel":"k","grid":[18446744073709551615],"block":[1],"offset":[1],"args":[]}`:    "exceeds the largest grid size",
		`{"kernel":"k","grid":[64],"block":[64],"offset":[18446744073709551615],"args":[]}`:  "plus offset 18446744073709551615 exceeds 2^32",
		`{"kernel":"k","grid":[4294967295],"block":[1],"offset":[2],"args":[]}`:              "plus offset 2 exceeds 2^32",
	} {
		if _, err := Parse([]byte(in), "."); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
	for _, in := range []string{
		`{"kernel":"k","grid":[4294967295],"block":[1],"args":[]}`,
		`{"kernel":"k","grid":[4294967295],"block":[1],"offset":[1],"args":[]}`,
		`{"kernel":"k","grid":[65536,65536],"block":[64,1],"args":[]}`,
	} {
		if _, err := Parse([]byte(in), "."); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}

// TestUlpNegativeMessage: a negative ulp is refused as negative, not as a
// type mismatch; a positive ulp on an integer buffer names the float types.
func TestUlpNegativeMessage(t *testing.T) {
	for in, want := range map[string]string{
		`{"kind":"buffer","type":"float","size":4,"ulp":-5}`: "ulp -5 is negative; it must be at least 0",
		`{"kind":"buffer","type":"int","size":4,"ulp":2}`:    "ulp 2 needs a float type (half, float or double), not int",
	} {
		if _, err := Parse([]byte(manifestWith(in)), "."); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}

// TestOutputNameWithDotsAccepted: only a ".." path element leaves the
// output directory; a name that merely contains two dots is fine.
func TestOutputNameWithDotsAccepted(t *testing.T) {
	buf := func(out string) string {
		return `{"kind":"buffer","type":"int","size":4,"output":"` + out + `"}`
	}
	for out, ok := range map[string]bool{
		"x..y.bin": true, "..x.bin": true, "x..": true, "a/..b/c.bin": true, "a/../b.bin": true,
		"../x": false, "a/../../x": false, "..": false, "/abs/x.bin": false,
	} {
		_, err := Parse([]byte(manifestWith(buf(out))), ".")
		if ok && err != nil {
			t.Errorf("output %q refused: %v", out, err)
		}
		if !ok && (err == nil || !strings.Contains(err.Error(), "inside the output directory")) {
			t.Errorf("output %q: %v, want a refusal", out, err)
		}
	}
	if _, err := Parse([]byte(manifestWith(buf("a/../b.bin")+","+buf("b.bin"))), "."); err == nil || !strings.Contains(err.Error(), "named twice") {
		t.Errorf("a/../b.bin and b.bin: %v, want named twice", err)
	}
}

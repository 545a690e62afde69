package manifest

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHalfRoundTrip converts every half to float32 and back.
func TestHalfRoundTrip(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		f := HalfToFloat32(uint16(h))
		got := halfFromFloat32(f)
		if math.IsNaN(float64(f)) {
			if got&0x7c00 != 0x7c00 || got&0x3ff == 0 {
				t.Errorf("NaN %#04x came back as %#04x", h, got)
			}
			continue
		}
		if got != uint16(h) {
			t.Errorf("%#04x -> %g -> %#04x", h, f, got)
		}
	}
}

// TestHalfRounding checks values halfway between halves round to even.
func TestHalfRounding(t *testing.T) {
	for h := uint16(0x0001); h < 0x7bff; h += 97 {
		lo, hi := HalfToFloat32(h), HalfToFloat32(h+1)
		mid := float32((float64(lo) + float64(hi)) / 2)
		want := h
		if h&1 == 1 {
			want = h + 1
		}
		if got := halfFromFloat32(mid); got != want {
			t.Errorf("midpoint of %#04x and %#04x: got %#04x, want %#04x", h, h+1, got, want)
		}
		if got := halfFromFloat32(-mid); got != want|0x8000 {
			t.Errorf("negative midpoint of %#04x: got %#04x", h, got)
		}
	}
}

func elems(t *testing.T, typ Type, fill string, n int) []uint64 {
	t.Helper()
	f, err := parseFill(fill, typ)
	if err != nil {
		t.Fatal(err)
	}
	es, _ := typ.Size()
	b := f.generate(typ, int64(n*es))
	out := make([]uint64, n)
	for i := range out {
		out[i] = loadBits(b[i*es:], es)
	}
	return out
}

func TestFillPatterns(t *testing.T) {
	for i, v := range elems(t, Short, "iota:-3:2", 10) {
		if int16(v) != int16(-3+2*i) {
			t.Errorf("iota short [%d] = %d", i, int16(v))
		}
	}
	for i, v := range elems(t, Float, "iota:0.5:0.25", 8) {
		if got := math.Float32frombits(uint32(v)); got != 0.5+0.25*float32(i) {
			t.Errorf("iota float [%d] = %g", i, got)
		}
	}
	for _, v := range elems(t, UInt, "const:0xdeadbeef", 5) {
		if v != 0xdeadbeef {
			t.Errorf("const = %#x", v)
		}
	}
	for _, v := range elems(t, Int, "random:9:-1000:1000", 4096) {
		if x := int32(v); x < -1000 || x > 1000 {
			t.Fatalf("random int out of [-1000,1000]: %d", x)
		}
	}
	seen := map[uint64]bool{}
	for _, v := range elems(t, Float, "random:3", 4096) {
		f := math.Float32frombits(uint32(v))
		if f < -1 || f >= 1 || f != float32(math.Round(float64(f)*(1<<23))/(1<<23)) {
			t.Fatalf("random float %g not a multiple of 2^-23 in [-1,1)", f)
		}
		seen[v] = true
	}
	if len(seen) < 4000 {
		t.Errorf("random floats: only %d distinct of 4096", len(seen))
	}
	a, b := elems(t, ULong, "random:5", 64), elems(t, ULong, "random:5", 64)
	c := elems(t, ULong, "random:6", 64)
	same := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("random fill is not deterministic")
		}
		if a[i] == c[i] {
			same++
		}
	}
	if same > 1 {
		t.Errorf("seeds 5 and 6 agree on %d of 64 values", same)
	}
	for _, bad := range []string{"rand:1", "const", "const:1:2", "iota:1", "random:x", "random:1:5:2", "const:300"} {
		if _, err := parseFill(bad, UChar); err == nil {
			t.Errorf("fill %q for uchar accepted", bad)
		}
	}
}

func TestEncode(t *testing.T) {
	tests := []struct {
		typ  Type
		val  Value
		want uint64
		ok   bool
	}{
		{Int, "-1", 0xffffffff, true},
		{UInt, "0xffffffff", 0xffffffff, true},
		{UInt, "4294967296", 0, false},
		{Char, "-128", 0x80, true},
		{Char, "-129", 0, false},
		{ULong, "18446744073709551615", math.MaxUint64, true},
		{Float, "1.5", uint64(math.Float32bits(1.5)), true},
		{Double, "-0.25", math.Float64bits(-0.25), true},
		{Half, "1", 0x3c00, true},
		{Int, "1.5", 0, false},
		{"int3", "1", 0, false},
	}
	for _, tt := range tests {
		b, err := tt.typ.Encode(tt.val)
		if (err == nil) != tt.ok {
			t.Errorf("%s %s: err %v, want ok=%v", tt.typ, tt.val, err, tt.ok)
			continue
		}
		if err == nil && loadBits(b, len(b)) != tt.want {
			t.Errorf("%s %s = %#x, want %#x", tt.typ, tt.val, loadBits(b, len(b)), tt.want)
		}
	}
}

func TestStructLayout(t *testing.T) {
	a := Arg{Kind: Struct, Fields: []Field{{Char, "1"}, {Int, "2"}, {Short, "3"}, {Long, "4"}, {Char, "5"}}}
	b, err := a.Bytes("")
	if err != nil {
		t.Fatal(err)
	}
	// char@0 int@4 short@8 long@16 char@24, size rounded to 8 -> 32.
	if len(b) != 32 || b[0] != 1 || binary.LittleEndian.Uint32(b[4:]) != 2 ||
		binary.LittleEndian.Uint16(b[8:]) != 3 || binary.LittleEndian.Uint64(b[16:]) != 4 || b[24] != 5 {
		t.Errorf("struct bytes % x", b)
	}
}

func TestValidate(t *testing.T) {
	base := `"kernel":"k","grid":[64],"block":[64],"args":[{"kind":"buffer","type":"int","size":16,"output":"o.bin"}]`
	if _, err := Parse([]byte("{"+base+"}"), "."); err != nil {
		t.Fatalf("valid manifest rejected: %v", err)
	}
	// the largest buffer is accepted (Parse allocates nothing)
	if _, err := Parse([]byte(`{"kernel":"k","grid":[64],"block":[64],"args":[{"kind":"buffer","type":"int","size":4294967296}]}`), "."); err != nil {
		t.Errorf("a buffer of MaxBuffer bytes rejected: %v", err)
	}
	bad := map[string]string{
		`{"kernel":"k","grid":[64,2],"block":[64],"args":[]}`:                                                      "dimensions",
		`{"kernel":"k","grid":[2048],"block":[2048],"args":[]}`:                                                    "more than 1024",
		`{"kernel":"k","grid":[0],"block":[1],"args":[]}`:                                                          "at least 1",
		`{"kernel":"k","grid":[64],"block":[64],"offset":[4294967295],"args":[]}`:                                  "2^32",
		`{"kernel":"k","grid":[1,2,3,4],"block":[1],"args":[]}`:                                                    "1 to 3",
		`{"kernel":"k","grid":[64],"block":[64],"args":[{"kind":"buffer","type":"int","size":6}]}`:                 "multiple of",
		`{"kernel":"k","grid":[64],"block":[64],"args":[{"kind":"scalar","type":"uint","value":-1}]}`:              "negative",
		`{"kernel":"k","grid":[64],"block":[64],"args":[{"kind":"buffer","type":"int","size":4294967300}]}`:        "up to 4294967296",
		`{"kernel":"k","grid":[64],"block":[64],"args":[{"kind":"image"}]}`:                                        "unknown kind",
		`{"kernel":"k","grid":[64],"block":[64],"args":[{"kind":"buffer","type":"int","size":4,"ulp":2}]}`:         "float",
		`{"kernel":"k","grid":[64],"block":[64],"args":[{"kind":"buffer","type":"int","size":4,"output":"../x"}]}`: "relative",
		`{"kernel":"k","grid":[64],"block":[64],"args":[],"extra":1}`:                                              "unknown field",
	}
	for in, want := range bad {
		_, err := Parse([]byte(in), ".")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to mention %q", in, err, want)
		}
	}
}

func TestInputFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "in.bin"), []byte{1, 2, 3, 4, 5, 6, 7, 8}, 0o644); err != nil {
		t.Fatal(err)
	}
	for size, ok := range map[int64]bool{8: true, 12: false} {
		a := Arg{Kind: Buffer, Type: Int, Size: size, Input: "in.bin"}
		b, err := a.Bytes(dir)
		if (err == nil) != ok || ok && b[7] != 8 {
			t.Errorf("size %d: %v % x", size, err, b)
		}
	}
}

// TestInputsInOrder: Inputs, which makes buffers concurrently, returns
// each argument's Bytes in argument order, nil for other kinds, and the
// first failing argument's error.
func TestInputsInOrder(t *testing.T) {
	m := &Manifest{Dir: t.TempDir(), Args: []Arg{
		{Kind: Buffer, Type: Int, Size: 1 << 16, Fill: "random:3"},
		{Kind: Scalar, Type: Int, Value: "7"},
		{Kind: Buffer, Type: Float, Size: 12, Fill: "iota:1:2"},
		{Kind: Buffer, Type: UChar, Size: 5 << 12},
	}}
	in, err := m.Inputs()
	if err != nil {
		t.Fatal(err)
	}
	for i := range m.Args {
		want, _ := m.Args[i].Bytes(m.Dir)
		if m.Args[i].Kind != Buffer {
			want = nil
		}
		if !bytes.Equal(in[i], want) || (in[i] == nil) != (want == nil) {
			t.Errorf("argument %d: % x…, want % x…", i, in[i][:min(len(in[i]), 8)], want[:min(len(want), 8)])
		}
	}
	m.Args = append(m.Args, Arg{Kind: Buffer, Type: Int, Size: 8, Input: "missing1"}, Arg{Kind: Buffer, Type: Int, Size: 8, Input: "missing2"})
	if _, err := m.Inputs(); err == nil || !strings.Contains(err.Error(), "argument 4") {
		t.Errorf("error %v, want argument 4's", err)
	}
}

func TestCompare(t *testing.T) {
	f32 := func(fs ...float32) []byte {
		b := make([]byte, 4*len(fs))
		for i, f := range fs {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
		}
		return b
	}
	one := float32(1)
	next := math.Nextafter32(math.Nextafter32(one, 2), 2) // 2 ULP above 1
	a := Arg{Kind: Buffer, Type: Float, Size: 8, Output: "o", ULP: 2}
	if err := a.Compare(f32(next, -0.5), f32(one, -0.5)); err != nil {
		t.Errorf("2 ULP within bound 2: %v", err)
	}
	a.ULP = 1
	err := a.Compare(f32(next, -0.5), f32(one, -0.5))
	if m, ok := err.(*Mismatch); !ok || m.Count != 1 || m.First != 0 || m.MaxULP != 2 {
		t.Errorf("2 ULP beyond bound 1: %v", err)
	}
	// Across zero: the smallest positive and negative denormals are 2 ULP apart.
	if d := ulpDiff(Float, 1, 0x80000001); d != 2 {
		t.Errorf("ulpDiff across zero = %d", d)
	}
	nan := float32(math.NaN())
	if err := a.Compare(f32(nan), f32(nan)); err != nil {
		t.Errorf("NaN vs NaN: %v", err)
	}
	ai := Arg{Kind: Buffer, Type: Int, Size: 4, Output: "o"}
	if err := ai.Compare([]byte{1, 0, 0, 0}, []byte{2, 0, 0, 0}); err == nil {
		t.Error("integers 1 and 2 compared equal")
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	for _, p := range manifests(t) {
		m, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		m2, err := Parse(b, m.Dir)
		if err != nil {
			t.Fatalf("%s: re-parse: %v\n%s", p, err, b)
		}
		b2, _ := m2.Marshal()
		if string(b) != string(b2) {
			t.Errorf("%s: marshal not stable", p)
		}
	}
}

func TestWriteFileAtomic(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sub", "out.bin")
	for _, data := range []string{"first", "second"} {
		if err := WriteFileAtomic(p, []byte(data)); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(p)
		if string(got) != data {
			t.Errorf("got %q want %q", got, data)
		}
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(p), ".*tmp*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestFillConstEveryElement: a const fill, built by doubling, holds the
// value in every whole element of any buffer size, and zero in a partial
// element at the end.
func TestFillConstEveryElement(t *testing.T) {
	for _, typ := range []Type{UChar, Short, UInt, ULong} {
		es, _ := typ.Size()
		f, err := parseFill("const:0x5a", typ)
		if err != nil {
			t.Fatal(err)
		}
		for size := int64(0); size < 100; size++ {
			b := f.generate(typ, size)
			for i := int64(0); i < size; i++ {
				want := byte(0)
				if i%int64(es) == 0 && i+int64(es) <= size {
					want = 0x5a
				}
				if b[i] != want {
					t.Fatalf("%s, %d bytes: byte %d is %#x, want %#x", typ, size, i, b[i], want)
				}
			}
		}
	}
}

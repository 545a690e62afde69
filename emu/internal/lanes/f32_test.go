package lanes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// f32Edges are lane values where the assembly and Go could part: signed
// zeros, denormals, infinities, NaNs with payloads and either sign, the
// extremes, the neighbours of 1, halves (rounding ties) and the
// neighbours of 2^23, 2^31 and 2^32 (the conversions' boundaries).
var f32Edges = []uint32{
	0, 1 << 31, 1, 0x807fffff, 0x007fffff, 0x00800000, 0x80800001,
	0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 0xffa00000, 0x7fffffff, 0x7fa0beef,
	0x7f7fffff, 0xff7fffff, 0x3f800000, 0x3f800001, 0x3f7fffff, 0xbf800000, 0x3f000000, 0xbf000000,
	0x3fc00000, 0x40200000, 0xbfc00000, 0x4b000000, 0x4afffffe, 0x4affffff, 0xcaffffff, 0x4b000001,
	0x4effffff, 0x4f000000, 0x4f000001, 0x4f7fffff, 0x4f800000, 0x4f800001, 0xcf000000, 0xcf000001,
	0x7e800000, 0x00400000, 0x80000001,
}

// f32Value draws a lane value: an edge, an ordinary number, a denormal,
// a NaN with a random payload, or random bits (huge and tiny magnitudes).
func f32Value(r *rand.Rand) uint32 {
	switch r.IntN(6) {
	case 0:
		return f32Edges[r.IntN(len(f32Edges))]
	case 1, 2:
		return math.Float32bits(float32(r.NormFloat64() * math.Pow(2, float64(r.IntN(80)-40))))
	case 3:
		return r.Uint32() &^ (0xff << 23) // a denormal or zero
	case 4:
		return r.Uint32() | 0xff<<23 // a NaN (or an infinity)
	}
	return r.Uint32()
}

// fillF32 fills every lane of p with drawn values (a few lanes small
// integers or halves, for the roundings and conversions).
func fillF32(r *rand.Rand, p *[64]uint32) {
	for l := range p {
		p[l] = f32Value(r)
		if r.IntN(8) == 0 {
			p[l] = math.Float32bits(float32(r.IntN(64)-32) / 2)
		}
	}
}

// cancelF32 sets some lanes of c to -(a × b) rounded, so that a mad
// leaves the product's rounding error only when it fuses, and copies some
// lanes of a into b, some with the sign flipped (a - a, min(-0, +0)).
func cancelF32(r *rand.Rand, a, b, c *[64]uint32) {
	for l := range c {
		switch r.IntN(6) {
		case 0, 1:
			c[l] = math.Float32bits(-(f32At(a, l) * f32At(b, l)))
		case 2:
			b[l] = a[l]
		case 3:
			b[l] = a[l] ^ 1<<31
		}
	}
}

// f32Row is one of the f32 rows with its sources a, b, c (srcs of them)
// and a rounding direction x&3.
type f32Row struct {
	name string
	srcs int
	run  func(d *[64]uint32, src [3]*[64]uint32, x int, n int) uint64
}

var f32Rows = []f32Row{
	{"AddF32", 2, func(d *[64]uint32, s [3]*[64]uint32, _ int, n int) uint64 { return AddF32(d, s[0], s[1], n) }},
	{"SubF32", 2, func(d *[64]uint32, s [3]*[64]uint32, _ int, n int) uint64 { return SubF32(d, s[0], s[1], n) }},
	{"MulF32", 2, func(d *[64]uint32, s [3]*[64]uint32, _ int, n int) uint64 { return MulF32(d, s[0], s[1], n) }},
	{"MadF32", 3, func(d *[64]uint32, s [3]*[64]uint32, _ int, n int) uint64 { return MadF32(d, s[0], s[1], s[2], n) }},
	{"FmaF32", 3, func(d *[64]uint32, s [3]*[64]uint32, _ int, n int) uint64 { return FmaF32(d, s[0], s[1], s[2], n) }},
	{"RcpF32", 1, func(d *[64]uint32, s [3]*[64]uint32, _ int, n int) uint64 { return RcpF32(d, s[0], n) }},
	{"RoundF32", 1, func(d *[64]uint32, s [3]*[64]uint32, x int, n int) uint64 { return RoundF32(x&3, d, s[0], n) }},
	{"MinF32", 2, func(d *[64]uint32, s [3]*[64]uint32, _ int, n int) uint64 { return MinF32(d, s[0], s[1], n) }},
	{"MaxF32", 2, func(d *[64]uint32, s [3]*[64]uint32, _ int, n int) uint64 { return MaxF32(d, s[0], s[1], n) }},
	{"F32FromU32", 1, func(d *[64]uint32, s [3]*[64]uint32, _ int, n int) uint64 {
		F32FromU32(d, s[0], n)
		return 0
	}},
	{"F32FromI32", 1, func(d *[64]uint32, s [3]*[64]uint32, _ int, n int) uint64 {
		F32FromI32(d, s[0], n)
		return 0
	}},
	{"I32FromF32", 1, func(d *[64]uint32, s [3]*[64]uint32, _ int, n int) uint64 {
		I32FromF32(d, s[0], n)
		return 0
	}},
	{"U32FromF32", 1, func(d *[64]uint32, s [3]*[64]uint32, _ int, n int) uint64 {
		U32FromF32(d, s[0], n)
		return 0
	}},
}

// TestF32RowsMatchGo holds each f32 row's assembly to its Go definition,
// bit for bit: lanes 0..n-1 and the NaN mask for every n from 0 to 64,
// with the destination separate or aliasing each source, and the lanes
// past the last quad untouched.
func TestF32RowsMatchGo(t *testing.T) {
	if !SIMD {
		t.Logf("no AVX2 here: the rows run their Go versions only")
	}
	r := rand.New(rand.NewPCG(32, 4))
	for _, row := range f32Rows {
		for n := 0; n <= 64; n++ {
			for alias := 0; alias <= row.srcs; alias++ {
				for it := range 12 {
					desc := fmt.Sprintf("%s n=%d alias=%d it=%d", row.name, n, alias, it)
					checkF32Row(t, r, desc, row, n, alias)
				}
			}
		}
	}
}

// checkF32Row runs row once in each version on the same random operands
// (the destination is source alias-1 when alias > 0) and compares.
func checkF32Row(t *testing.T, r *rand.Rand, desc string, row f32Row, n, alias int) {
	t.Helper()
	var regs [4][64]uint32 // a, b, c, d
	for i := range regs {
		fillF32(r, &regs[i])
	}
	cancelF32(r, &regs[0], &regs[1], &regs[2])
	x := r.IntN(4)
	run := func() ([64]uint32, uint64) {
		work := regs
		src := [3]*[64]uint32{&work[0], &work[1], &work[2]}
		d := &work[3]
		if alias > 0 {
			d = src[alias-1]
		}
		before := *d
		nans := row.run(d, src, x, n)
		for l := (n + 3) &^ 3; l < 64; l++ {
			if d[l] != before[l] {
				t.Fatalf("%s: lane %d past the last quad written", desc, l)
			}
		}
		return *d, nans
	}
	got, gotNaNs := run()
	var want [64]uint32
	var wantNaNs uint64
	withGo(func() { want, wantNaNs = run() })
	if gotNaNs != wantNaNs {
		t.Fatalf("%s: returned lanes %#x, Go %#x", desc, gotNaNs, wantNaNs)
	}
	for l := range n {
		if got[l] != want[l] {
			t.Fatalf("%s: lane %d = %#x, Go %#x (a %#x)", desc, l, got[l], want[l], regs[0][l])
		}
	}
}

// TestU32FromF32Boundaries checks the conversion at every f32 from 2^31
// down and up a few steps, and around 2^32, against exact integers.
func TestU32FromF32Boundaries(t *testing.T) {
	var a, d [64]uint32
	for l := range 32 {
		a[l] = 0x4f000000 - 16 + uint32(l)
		a[32+l] = 0x4f800000 - 16 + uint32(l)
	}
	U32FromF32(&d, &a, 64)
	for l, x := range a {
		want := uint64(math.Float32frombits(x))
		if want > math.MaxUint32 {
			want = math.MaxUint32
		}
		if uint64(d[l]) != want {
			t.Errorf("U32FromF32(%g) = %#x, want %#x", math.Float32frombits(x), d[l], want)
		}
	}
}

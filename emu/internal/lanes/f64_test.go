package lanes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// f64Edges are lane values where the assembly and Go could part: signed
// zeros, denormals, infinities, quiet and signalling NaNs with payloads
// and either sign, the extremes and the neighbours of 1.
var f64Edges = []uint64{
	0, 1 << 63, 1, 0x800fffffffffffff, 0x000fffffffffffff, 0x0010000000000000, 0x8010000000000001,
	0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000001, 0x7ff0000000000001,
	0xfff4000000000000, 0x7fffffffffffffff, 0x7ff4000000c0ffee, 0x7fefffffffffffff, 0xffefffffffffffff,
	0x3ff0000000000000, 0x3ff0000000000001, 0x3fefffffffffffff, 0xbff0000000000000, 0x3fe0000000000000,
	0x5fe0000000000001, 0x1ff0000000000001, 0x0340000000000000, 0x7fc0000000000000, 0x4330000000000000,
}

// f64Value draws a lane value: an edge, an ordinary number, a denormal,
// a NaN with a random payload, or random bits (huge and tiny magnitudes).
func f64Value(r *rand.Rand) uint64 {
	switch r.IntN(6) {
	case 0:
		return f64Edges[r.IntN(len(f64Edges))]
	case 1, 2:
		return math.Float64bits(r.NormFloat64() * math.Pow(2, float64(r.IntN(60)-30)))
	case 3:
		return r.Uint64() &^ (0x7ff << 52) // a denormal or zero
	case 4:
		return r.Uint64() | 0x7ff<<52 // a NaN (or an infinity)
	}
	return r.Uint64()
}

// fillF64 fills every lane of p with drawn values.
func fillF64(r *rand.Rand, p *F64) {
	for l := range 64 {
		u := f64Value(r)
		p[0][l], p[1][l] = uint32(u), uint32(u>>32)
	}
}

// cancelProducts sets some lanes of c to -(a × b) rounded, so that an fma
// leaves the product's rounding error: only a single rounding gets it.
func cancelProducts(r *rand.Rand, a, b, c *F64) {
	for l := range 64 {
		if r.IntN(3) == 0 {
			c.set(l, -(a.at(l) * b.at(l)))
		}
	}
}

// shareLanes copies some lanes of a into b, a few with the sign flipped,
// so that comparisons meet equal operands (signed zeros included).
func shareLanes(r *rand.Rand, a, b *F64) {
	for l := range 64 {
		switch r.IntN(8) {
		case 0, 1:
			b[0][l], b[1][l] = a[0][l], a[1][l]
		case 2:
			b[0][l], b[1][l] = a[0][l], a[1][l]^1<<31
		}
	}
}

// f64Row is one of the f64 rows with its operands in a uniform shape:
// src[0..2] are a, b, c (those it takes), k a word operand, u a uniform
// operand and x the sign flip of a (its top bit), a VCC mask, a rounding
// direction or a comparison code. The integer conversions write d's low
// words; CmpF64 returns its mask and writes nothing.
type f64Row struct {
	name string
	srcs int // f64 register sources
	run  func(d *F64, src [3]*F64, k *[64]uint32, u float64, x uint64, n int) uint64
}

// sign is x's top bit, an fma's sign flip of a.
func sign(x uint64) uint64 { return x & (1 << 63) }

var f64Rows = []f64Row{
	{"AddF64", 2, func(d *F64, s [3]*F64, _ *[64]uint32, _ float64, _ uint64, n int) uint64 {
		return AddF64(d, s[0], s[1], n)
	}},
	{"AddF64U", 1, func(d *F64, s [3]*F64, _ *[64]uint32, u float64, _ uint64, n int) uint64 {
		return AddF64U(d, s[0], u, n)
	}},
	{"MulF64", 2, func(d *F64, s [3]*F64, _ *[64]uint32, _ float64, _ uint64, n int) uint64 {
		return MulF64(d, s[0], s[1], n)
	}},
	{"MulF64U", 1, func(d *F64, s [3]*F64, _ *[64]uint32, u float64, _ uint64, n int) uint64 {
		return MulF64U(d, s[0], u, n)
	}},
	{"FmaF64", 3, func(d *F64, s [3]*F64, _ *[64]uint32, _ float64, x uint64, n int) uint64 {
		return FmaF64(d, s[0], s[1], s[2], sign(x), n)
	}},
	{"FmaF64UB", 2, func(d *F64, s [3]*F64, _ *[64]uint32, u float64, x uint64, n int) uint64 {
		return FmaF64UB(d, s[0], u, s[1], sign(x), n)
	}},
	{"FmaF64UC", 2, func(d *F64, s [3]*F64, _ *[64]uint32, u float64, x uint64, n int) uint64 {
		return FmaF64UC(d, s[0], s[1], u, sign(x), n)
	}},
	{"RcpF64", 1, func(d *F64, s [3]*F64, _ *[64]uint32, _ float64, _ uint64, n int) uint64 {
		return RcpF64(d, s[0], n)
	}},
	{"RsqF64", 1, func(d *F64, s [3]*F64, _ *[64]uint32, _ float64, _ uint64, n int) uint64 {
		return RsqF64(d, s[0], n)
	}},
	{"SqrtF64", 1, func(d *F64, s [3]*F64, _ *[64]uint32, _ float64, _ uint64, n int) uint64 {
		return SqrtF64(d, s[0], n)
	}},
	{"RoundF64", 1, func(d *F64, s [3]*F64, _ *[64]uint32, _ float64, x uint64, n int) uint64 {
		return RoundF64(int(x&3), d, s[0], n)
	}},
	{"CmpF64", 2, func(_ *F64, s [3]*F64, _ *[64]uint32, _ float64, x uint64, n int) uint64 {
		return CmpF64(s[0], s[1], int(x&15), n)
	}},
	{"DivScaleF64", 3, func(d *F64, s [3]*F64, _ *[64]uint32, _ float64, _ uint64, n int) uint64 {
		return DivScaleF64(d, s[0], s[1], s[2], n)
	}},
	{"DivFixupF64", 3, func(d *F64, s [3]*F64, _ *[64]uint32, _ float64, _ uint64, n int) uint64 {
		return DivFixupF64(d, s[0], s[1], s[2], n)
	}},
	{"DivFmasF64", 3, func(d *F64, s [3]*F64, _ *[64]uint32, _ float64, x uint64, n int) uint64 {
		return DivFmasF64(d, s[0], s[1], s[2], x, n)
	}},
	{"LdexpF64", 1, func(d *F64, s [3]*F64, k *[64]uint32, _ float64, _ uint64, n int) uint64 {
		return LdexpF64(d, s[0], k, n)
	}},
	{"F64FromI32", 0, func(d *F64, _ [3]*F64, k *[64]uint32, _ float64, _ uint64, n int) uint64 {
		F64FromI32(d, k, n)
		return 0
	}},
	{"F64FromU32", 0, func(d *F64, _ [3]*F64, k *[64]uint32, _ float64, _ uint64, n int) uint64 {
		F64FromU32(d, k, n)
		return 0
	}},
	{"I32FromF64", 1, func(d *F64, s [3]*F64, _ *[64]uint32, _ float64, _ uint64, n int) uint64 {
		I32FromF64(&d[0], s[0], n)
		return 0
	}},
	{"U32FromF64", 1, func(d *F64, s [3]*F64, _ *[64]uint32, _ float64, _ uint64, n int) uint64 {
		U32FromF64(&d[0], s[0], n)
		return 0
	}},
}

// wordEdges are word operands at the edges of ldexp's exponent range and
// of int32.
var wordEdges = []uint32{0, 1, 0xffffffff, 1 << 31, 1<<31 - 1, 1023, 1024, 2046, 2047, -2046 & 0xffffffff, -1075 & 0xffffffff}

// fillWords fills k with exponent steps, edges and random words.
func fillWords(r *rand.Rand, k *[64]uint32) {
	for l := range k {
		switch r.IntN(3) {
		case 0:
			k[l] = uint32(r.IntN(4400) - 2200)
		case 1:
			k[l] = wordEdges[r.IntN(len(wordEdges))]
		default:
			k[l] = r.Uint32()
		}
	}
}

// withGo runs f with the assembly turned off.
func withGo(f func()) {
	simd, fma := SIMD, FMA
	SIMD, FMA = false, false
	defer func() { SIMD, FMA = simd, fma }()
	f()
}

// TestF64RowsMatchGo holds each f64 row's assembly to its Go definition,
// bit for bit: lanes 0..n-1 and the NaN mask for every n from 0 to 64,
// with the destination separate or aliasing each source, and the lanes
// past the last quad untouched.
func TestF64RowsMatchGo(t *testing.T) {
	if !SIMD {
		t.Logf("no AVX2 here: the rows run their Go versions only")
	}
	r := rand.New(rand.NewPCG(64, 4))
	for _, row := range f64Rows {
		for n := 0; n <= 64; n++ {
			for alias := 0; alias <= row.srcs; alias++ {
				for it := range 6 {
					desc := fmt.Sprintf("%s n=%d alias=%d it=%d", row.name, n, alias, it)
					checkF64Row(t, r, desc, row, n, alias)
				}
			}
		}
	}
}

// checkF64Row runs row once in each version on the same random operands
// (the destination is source alias-1 when alias > 0) and compares.
func checkF64Row(t *testing.T, r *rand.Rand, desc string, row f64Row, n, alias int) {
	t.Helper()
	var regs [4]F64 // a, b, c, d
	for i := range regs {
		fillF64(r, &regs[i])
	}
	shareLanes(r, &regs[0], &regs[1])
	cancelProducts(r, &regs[0], &regs[1], &regs[2])
	var k [64]uint32
	fillWords(r, &k)
	u, x := math.Float64frombits(f64Value(r)), r.Uint64()
	run := func() (F64, uint64) {
		work := regs
		src := [3]*F64{&work[0], &work[1], &work[2]}
		d := &work[3]
		if alias > 0 {
			d = src[alias-1]
		}
		before := *d
		nans := row.run(d, src, &k, u, x, n)
		for l := (n + 3) &^ 3; l < 64; l++ {
			if d[0][l] != before[0][l] || d[1][l] != before[1][l] {
				t.Fatalf("%s: lane %d past the last quad written", desc, l)
			}
		}
		return *d, nans
	}
	got, gotNaNs := run()
	var want F64
	var wantNaNs uint64
	withGo(func() { want, wantNaNs = run() })
	if gotNaNs != wantNaNs {
		t.Fatalf("%s: returned lanes %#x, Go %#x", desc, gotNaNs, wantNaNs)
	}
	for l := range n {
		if got[0][l] != want[0][l] || got[1][l] != want[1][l] {
			t.Fatalf("%s: lane %d = %#x, Go %#x", desc, l,
				uint64(got[0][l])|uint64(got[1][l])<<32, uint64(want[0][l])|uint64(want[1][l])<<32)
		}
	}
}

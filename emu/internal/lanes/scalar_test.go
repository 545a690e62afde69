package lanes

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestScalarRowsMatchGo holds each scalar-operand row's assembly to its Go
// definition (rows and mask) and that to a lane-by-lane reference, for
// every lane count 0 to 64, random and edge-valued rows and scalars, both
// compare flips and the source as the destination, with no lane past the
// last quad written and no mask bit past it set.
func TestScalarRowsMatchGo(t *testing.T) {
	simd := SIMD
	rnd := rand.New(rand.NewPCG(41, 42))
	const unsigned = 1 << 31
	less := func(a, x, flip uint32) bool { return int32(a^flip) < int32(x^flip) }
	ops := []struct {
		name string
		row  func(d, a *[64]uint32, x, flip uint32, n int) uint64
		lane func(a, x, flip uint32) (uint32, bool) // the result or mask bit
		cmp  bool
	}{
		{"AddS", func(d, a *[64]uint32, x, _ uint32, n int) uint64 { AddS(d, a, x, n); return 0 },
			func(a, x, _ uint32) (uint32, bool) { return a + x, false }, false},
		{"SubFromS", func(d, a *[64]uint32, x, _ uint32, n int) uint64 { SubFromS(d, a, x, n); return 0 },
			func(a, x, _ uint32) (uint32, bool) { return x - a, false }, false},
		{"MulLoS", func(d, a *[64]uint32, x, _ uint32, n int) uint64 { MulLoS(d, a, x, n); return 0 },
			func(a, x, _ uint32) (uint32, bool) { return a * x, false }, false},
		{"MulHiS", func(d, a *[64]uint32, x, _ uint32, n int) uint64 { MulHiS(d, a, x, n); return 0 },
			func(a, x, _ uint32) (uint32, bool) { return uint32(uint64(a) * uint64(x) >> 32), false }, false},
		{"ShiftLeftS", func(d, a *[64]uint32, x, _ uint32, n int) uint64 { ShiftLeftS(d, a, x, n); return 0 },
			func(a, x, _ uint32) (uint32, bool) { return a << (x & 31), false }, false},
		{"ShiftRightS", func(d, a *[64]uint32, x, _ uint32, n int) uint64 { ShiftRightS(d, a, x, n); return 0 },
			func(a, x, _ uint32) (uint32, bool) { return a >> (x & 31), false }, false},
		{"ShiftRightSignedS", func(d, a *[64]uint32, x, _ uint32, n int) uint64 { ShiftRightSignedS(d, a, x, n); return 0 },
			func(a, x, _ uint32) (uint32, bool) { return uint32(int32(a) >> (x & 31)), false }, false},
		{"LessS", func(d, a *[64]uint32, x, f uint32, n int) uint64 { return LessS(a, x, f, n) },
			func(a, x, f uint32) (uint32, bool) { return 0, less(a, x, f) }, true},
		{"GreaterS", func(d, a *[64]uint32, x, f uint32, n int) uint64 { return GreaterS(a, x, f, n) },
			func(a, x, f uint32) (uint32, bool) { return 0, less(x, a, f) }, true},
		{"EqualS", func(d, a *[64]uint32, x, _ uint32, n int) uint64 { return EqualS(a, x, n) },
			func(a, x, _ uint32) (uint32, bool) { return 0, a == x }, true},
	}
	for trial := range 300 {
		var start rows
		randomRows(rnd, &start)
		x := start[3][rnd.IntN(64)] // often equal to some lane
		switch trial % 3 {
		case 0:
			x = edges[rnd.IntN(len(edges))]
		case 1: // a shift's amounts, and past 31
			x = rnd.Uint32N(70)
		}
		for _, op := range ops {
			for _, flip := range []uint32{0, unsigned} {
				for _, d := range []int{0, 2} { // row 0, or the source
					for n := range 65 {
						goRows, asmRows := start, start
						var want, got uint64
						withSIMD(false, func() { want = op.row(&goRows[d], &goRows[2], x, flip, n) })
						withSIMD(simd, func() { got = op.row(&asmRows[d], &asmRows[2], x, flip, n) })
						where := fmt.Sprintf("trial %d: %s x=%#x flip=%#x d=row %d, %d lanes", trial, op.name, x, flip, d, n)
						if got != want {
							t.Fatalf("%s: mask %#x, Go %#x", where, got, want)
						}
						if asmRows != goRows {
							t.Fatalf("%s: rows differ from Go's:\n%s", where, rowDiff(&asmRows, &goRows))
						}
						checkUntouched(t, where, &start, &goRows, n)
						if g := 4 * nquads(n); g < 64 && want>>uint(g) != 0 {
							t.Fatalf("%s: mask %#x has bits past the last quad", where, want)
						}
						for l := range n {
							r, bit := op.lane(start[2][l], x, flip)
							switch {
							case op.cmp && want>>uint(l)&1 != bit64(bit):
								t.Fatalf("%s: lane %d's mask bit is %d, want %v", where, l, want>>uint(l)&1, bit)
							case !op.cmp && goRows[d][l] != r:
								t.Fatalf("%s: lane %d = %#x, want %#x", where, l, goRows[d][l], r)
							}
						}
					}
				}
			}
		}
	}
}

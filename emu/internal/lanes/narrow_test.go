package lanes

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// narrowRow is one of the small-integer rows over rows 2 to 4 and its
// lane-by-lane reference.
type narrowRow struct {
	name string
	run  func(d *[64]uint32, s *rows, n int)
	want func(a, b, c uint32) uint32
}

var narrowRows = []narrowRow{
	{"MinI32", func(d *[64]uint32, s *rows, n int) { MinI32(d, &s[2], &s[3], n) },
		func(a, b, c uint32) uint32 { return uint32(min(int64(int32(a)), int64(int32(b)))) }},
	{"Med3I32", func(d *[64]uint32, s *rows, n int) { Med3I32(d, &s[2], &s[3], &s[4], n) },
		func(a, b, c uint32) uint32 {
			v := []int32{int32(a), int32(b), int32(c)}
			slices.Sort(v)
			return uint32(v[1])
		}},
	{"MadI24", func(d *[64]uint32, s *rows, n int) { MadI24(d, &s[2], &s[3], &s[4], n) },
		func(a, b, c uint32) uint32 {
			x, y := int64(a&0xffffff), int64(b&0xffffff)
			if x >= 1<<23 {
				x -= 1 << 24
			}
			if y >= 1<<23 {
				y -= 1 << 24
			}
			return uint32(x*y + int64(c))
		}},
	{"MulU24", func(d *[64]uint32, s *rows, n int) { MulU24(d, &s[2], &s[3], n) },
		func(a, b, c uint32) uint32 { return uint32(uint64(a&0xffffff) * uint64(b&0xffffff)) }},
	{"AddU16", func(d *[64]uint32, s *rows, n int) { AddU16(d, &s[2], &s[3], n) },
		func(a, b, c uint32) uint32 { return uint32(uint16(a) + uint16(b)) }},
	{"AddSatU16", func(d *[64]uint32, s *rows, n int) { AddSatU16(d, &s[2], &s[3], n) },
		func(a, b, c uint32) uint32 { return uint32(min(int(uint16(a))+int(uint16(b)), 65535)) }},
}

// TestNarrowRowsMatchGo holds each small-integer row's assembly to its
// Go definition (the same rows, nothing written past the last quad) and
// the Go definition to an independent lane-by-lane reference, for every
// lane count 0 to 64, random, edge-valued and small registers (24-bit
// and 16-bit edges among them), and each source as the destination.
func TestNarrowRowsMatchGo(t *testing.T) {
	simd := SIMD
	rnd := rand.New(rand.NewPCG(21, 22))
	narrowEdges := []uint32{0x7fffff, 0x800000, 0xffffff, 0x1000000, 0xff800000, 0xffff, 0x8000, 0x10000, 0xfffe}
	for trial := range 300 {
		var start rows
		randomRows(rnd, &start)
		if trial%3 == 0 {
			for k := range start {
				for l := range start[k] {
					start[k][l] = narrowEdges[rnd.IntN(len(narrowEdges))] + rnd.Uint32N(3) - 1
				}
			}
		}
		for _, row := range narrowRows {
			for d := range 4 { // row 0 or a source (rows 2 to 4)
				if d > 0 {
					d++
				}
				for n := range 65 {
					goRows, asmRows := start, start
					withSIMD(false, func() { row.run(&goRows[d], &goRows, n) })
					withSIMD(simd, func() { row.run(&asmRows[d], &asmRows, n) })
					where := fmt.Sprintf("%s trial %d: d=row %d, %d lanes", row.name, trial, d, n)
					if asmRows != goRows {
						t.Fatalf("%s: rows differ from Go's:\n%s", where, rowDiff(&asmRows, &goRows))
					}
					checkUntouched(t, where, &start, &goRows, n)
					for l := range n {
						if w := row.want(start[2][l], start[3][l], start[4][l]); goRows[d][l] != w {
							t.Fatalf("%s: lane %d = %#x, want %#x", where, l, goRows[d][l], w)
						}
					}
				}
			}
		}
	}
}

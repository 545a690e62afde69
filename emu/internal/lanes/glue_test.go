package lanes

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestPlainRowsMatchGo holds Add32's and Sub32's assembly to their Go
// definitions and those to a lane-by-lane a+b and a-b, for every lane
// count 0 to 64, random and edge-valued rows and each source as the
// destination, with no lane past the last quad written.
func TestPlainRowsMatchGo(t *testing.T) {
	simd := SIMD
	rnd := rand.New(rand.NewPCG(31, 32))
	ops := []struct {
		name string
		row  func(d, a, b *[64]uint32, n int)
		lane func(a, b uint32) uint32
	}{
		{"Add32", Add32, func(a, b uint32) uint32 { return a + b }},
		{"Sub32", Sub32, func(a, b uint32) uint32 { return a - b }},
	}
	for trial := range 300 {
		var start rows
		randomRows(rnd, &start)
		for _, op := range ops {
			for _, d := range []int{0, 2, 3} { // row 0, or a source
				for n := range 65 {
					goRows, asmRows := start, start
					withSIMD(false, func() { op.row(&goRows[d], &goRows[2], &goRows[3], n) })
					withSIMD(simd, func() { op.row(&asmRows[d], &asmRows[2], &asmRows[3], n) })
					where := fmt.Sprintf("trial %d: %s d=row %d, %d lanes", trial, op.name, d, n)
					if asmRows != goRows {
						t.Fatalf("%s: rows differ from Go's:\n%s", where, rowDiff(&asmRows, &goRows))
					}
					checkUntouched(t, where, &start, &goRows, n)
					for l := range n {
						if want := op.lane(start[2][l], start[3][l]); goRows[d][l] != want {
							t.Fatalf("%s: lane %d = %#x, want %#x", where, l, goRows[d][l], want)
						}
					}
				}
			}
		}
	}
}

package lanes

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestShiftLeftOrMatchesGo holds ShiftLeftOr's assembly to its Go
// definition and the Go definition to a lane-by-lane a<<(b&31)|c, for
// every lane count 0 to 64, random, edge-valued and small registers
// (shift counts past 31 included) and each source as the destination.
func TestShiftLeftOrMatchesGo(t *testing.T) {
	simd := SIMD
	rnd := rand.New(rand.NewPCG(7, 8))
	for trial := range 400 {
		var start rows
		randomRows(rnd, &start)
		for dst := range 4 { // row 0, or one of the sources: rows 2 to 4
			d := dst
			if d > 0 {
				d++
			}
			for n := range 65 {
				goRows, asmRows := start, start
				withSIMD(false, func() { ShiftLeftOr(&goRows[d], &goRows[2], &goRows[3], &goRows[4], n) })
				withSIMD(simd, func() { ShiftLeftOr(&asmRows[d], &asmRows[2], &asmRows[3], &asmRows[4], n) })
				where := fmt.Sprintf("trial %d: d=row %d, %d lanes", trial, d, n)
				if asmRows != goRows {
					t.Fatalf("%s: rows differ from Go's:\n%s", where, rowDiff(&asmRows, &goRows))
				}
				checkUntouched(t, where, &start, &goRows, n)
				for l := range n {
					want := start[2][l]<<(start[3][l]&31) | start[4][l]
					if goRows[d][l] != want {
						t.Fatalf("%s: lane %d = %#x, want %#x", where, l, goRows[d][l], want)
					}
				}
			}
		}
	}
}

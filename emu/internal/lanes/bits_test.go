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

// TestFillMatchesGo holds Fill's assembly to its Go definition, and that
// to its contract (lanes 0 to n-1 and the rest of their block of eight set
// to x, no other lane written), for every lane count 0 to 64 over random
// rows and edge values.
func TestFillMatchesGo(t *testing.T) {
	simd := SIMD
	rnd := rand.New(rand.NewPCG(9, 10))
	for trial := range 200 {
		var start rows
		randomRows(rnd, &start)
		x := rnd.Uint32()
		if trial%2 == 0 {
			x = edges[rnd.IntN(len(edges))]
		}
		for n := range 65 {
			goRow, asmRow := start[0], start[0]
			withSIMD(false, func() { Fill(&goRow, x, n) })
			withSIMD(simd, func() { Fill(&asmRow, x, n) })
			for l := range goRow {
				want := start[0][l]
				if l < (n+7)&^7 {
					want = x
				}
				if asmRow[l] != goRow[l] || goRow[l] != want {
					t.Fatalf("trial %d, %d lanes, x %#x: lane %d = %#x (assembly), %#x (Go), want %#x", trial, n, x, l, asmRow[l], goRow[l], want)
				}
			}
		}
	}
}

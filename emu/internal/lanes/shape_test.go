package lanes

import (
	"math/rand/v2"
	"testing"
)

// progressionsRef is Progressions lane by lane, from its doc comment.
func progressionsRef(a, b *[64]uint32, stepA, stepB uint32) bool {
	for l := range a {
		if a[l] != a[0]+stepA*uint32(l) || b[l] != b[0]+stepB*uint32(l) {
			return false
		}
	}
	return true
}

// randomRun fills r with a run from a random start by a random step, one
// that wraps at 2³² often, and returns the step.
func randomRun(rnd *rand.Rand, r *[64]uint32) uint32 {
	step := []uint32{0, 1, 4, 8, 12, 1 << 31, ^uint32(0), rnd.Uint32()}[rnd.IntN(8)]
	x := []uint32{rnd.Uint32(), -step * uint32(rnd.IntN(64)), ^uint32(0) - uint32(rnd.IntN(8)), 0}[rnd.IntN(4)]
	for l := range r {
		r[l] = x + step*uint32(l)
	}
	return step
}

// TestProgressionsMatchesGo holds the assembly and Go versions of
// Progressions to the lane-by-lane reference: runs with random starts and
// steps (wrapping ones too), each whole and with one lane of a or of b off
// by one (either way) or by a random bit at every position, given their
// own step or a wrong one, and a and b one register.
func TestProgressionsMatchesGo(t *testing.T) {
	if !SIMD {
		t.Logf("no AVX2 assembly (purego=%v): checking the Go version against the reference only", purego)
	}
	rnd := rand.New(rand.NewPCG(8, 9))
	check := func(a, b *[64]uint32, stepA, stepB uint32) {
		t.Helper()
		want := progressionsRef(a, b, stepA, stepB)
		for _, on := range []bool{false, SIMD} {
			var got bool
			withSIMD(on, func() { got = Progressions(a, b, stepA, stepB) })
			if got != want {
				t.Fatalf("SIMD=%v: Progressions(%#x, %#x, %#x, %#x) = %v", on, *a, *b, stepA, stepB, got)
			}
		}
	}
	for range 300 {
		var a, b [64]uint32
		stepA, stepB := randomRun(rnd, &a), randomRun(rnd, &b)
		check(&a, &b, stepA, stepB)
		check(&a, &a, stepA, stepA)
		check(&a, &b, stepA+1, stepB)
		check(&a, &b, stepA, stepB-1)
		for _, r := range []*[64]uint32{&a, &b} {
			for l := range r {
				saved := r[l]
				for _, d := range []uint32{1, ^uint32(0), 1 << rnd.IntN(32)} {
					r[l] = saved + d
					check(&a, &b, stepA, stepB)
					check(r, r, stepA, stepA)
				}
				r[l] = saved
			}
		}
	}
}

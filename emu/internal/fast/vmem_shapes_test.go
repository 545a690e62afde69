package fast

import (
	"math"
	"math/rand/v2"
	"testing"

	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
)

// TestLaneShapes: uniform, consecutive and consecutiveHi, which read lanes two at a time
// where they can, agree with a lane-by-lane reading on random, uniform and
// consecutive lanes (steps that wrap too), of every length, from even and
// odd lanes (an unaligned start).
func TestLaneShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	var v, h [65]uint32
	for i := 0; i < 20000; i++ {
		from, n := rng.IntN(2), 1+rng.IntN(64)
		step := []uint32{0, 1, 2, 4, 8, 16, rng.Uint32()}[rng.IntN(7)]
		x := []uint32{rng.Uint32(), ^uint32(0) - step*uint32(rng.IntN(70)), 0}[rng.IntN(3)]
		lanes := v[from : from+n]
		period := []int{64, 64, 2, 8, 32}[rng.IntN(5)] // a table's lanes repeat
		for l := range lanes {
			lanes[l] = x + step*uint32(l%period)
		}
		if rng.IntN(3) == 0 {
			lanes[rng.IntN(n)] ^= 1 << rng.IntN(32)
		}
		wantU, wantC := true, true
		for l, y := range lanes {
			wantU = wantU && y == lanes[0]
			wantC = wantC && y == lanes[0]+step*uint32(l)
		}
		if got := Uniform(lanes); got != wantU {
			t.Fatalf("uniform(%#x) = %v", lanes, got)
		}
		if got := Consecutive(lanes, step); got != wantC {
			t.Fatalf("consecutive(%#x, %d) = %v", lanes, step, got)
		}
		for _, p := range []int{2, 4, 8, 16, 32} {
			if p >= n {
				break
			}
			wantP := true
			for l := p; l < n; l++ {
				wantP = wantP && lanes[l] == lanes[l-p]
			}
			if got := Periodic(lanes, p); got != wantP {
				t.Fatalf("periodic(%#x, %d) = %v", lanes, p, got)
			}
		}
		// consecutiveHi: with high dwords, uniform or not, from even and odd lanes
		if uint64(lanes[0])+uint64(n-1)*uint64(step) > math.MaxUint32 {
			continue // its callers never pass a wrapping run
		}
		hfrom := rng.IntN(2)
		hi := h[hfrom : hfrom+n]
		y := rng.Uint32()
		for l := range hi {
			hi[l] = y
		}
		if rng.IntN(2) == 0 {
			hi[rng.IntN(n)] ^= 1 << rng.IntN(32)
		}
		wantH := wantC
		for _, z := range hi {
			wantH = wantH && z == hi[0]
		}
		if got := ConsecutiveHi(lanes, hi, step); got != wantH {
			t.Fatalf("consecutiveHi(%#x, %#x, %d) = %v", lanes, hi, step, got)
		}
	}
}

// TestLaneShapesEveryLane: uniform, consecutive and consecutiveHi, with the
// vector check on and off, agree with a lane-by-lane reading on runs of
// every length from even and odd lanes, with random starts and steps
// (wrapping or not), whole and with one lane of the low or the high dwords
// off by one, either way, at every position.
func TestLaneShapesEveryLane(t *testing.T) {
	saved := simd.SIMD
	defer func() { simd.SIMD = saved }()
	rng := rand.New(rand.NewPCG(6, 6))
	var v, h [65]uint32
	for _, on := range []bool{false, saved} {
		simd.SIMD = on
		for n := 1; n <= 64; n++ {
			for range 20 {
				lo, hi := v[rng.IntN(2):][:n], h[rng.IntN(2):][:n]
				step := []uint32{0, 1, 4, 16, rng.Uint32()}[rng.IntN(5)]
				x, y := rng.Uint32(), rng.Uint32()
				if span := uint64(n-1) * uint64(step); rng.IntN(2) == 0 && span <= math.MaxUint32 {
					x = uint32(rng.Uint64N(1<<32 - span)) // no wrap
				}
				for l := range lo {
					lo[l], hi[l] = x+step*uint32(l), y
				}
				checkShapes(t, lo, hi, step)
				for l := range n {
					for _, r := range [][]uint32{lo, hi} {
						for _, d := range []uint32{1, math.MaxUint32} {
							r[l] += d
							checkShapes(t, lo, hi, step)
							r[l] -= d
						}
					}
				}
			}
		}
	}
}

// checkShapes compares uniform, consecutive and consecutiveHi (when lo's
// run does not wrap, as its callers promise) with a lane-by-lane reading.
func checkShapes(t *testing.T, lo, hi []uint32, step uint32) {
	t.Helper()
	wantU, wantC, wantH := true, true, true
	for l := range lo {
		wantU = wantU && lo[l] == lo[0]
		wantC = wantC && lo[l] == lo[0]+step*uint32(l)
		wantH = wantH && hi[l] == hi[0]
	}
	if got := Uniform(lo); got != wantU {
		t.Fatalf("SIMD=%v: uniform(%#x) = %v", simd.SIMD, lo, got)
	}
	if got := Uniform(hi); got != wantH {
		t.Fatalf("SIMD=%v: uniform(%#x) = %v", simd.SIMD, hi, got)
	}
	if got := Consecutive(lo, step); got != wantC {
		t.Fatalf("SIMD=%v: consecutive(%#x, %#x) = %v", simd.SIMD, lo, step, got)
	}
	if uint64(lo[0])+uint64(len(lo)-1)*uint64(step) > math.MaxUint32 {
		return
	}
	if got := ConsecutiveHi(lo, hi, step); got != (wantC && wantH) {
		t.Fatalf("SIMD=%v: consecutiveHi(%#x, %#x, %#x) = %v", simd.SIMD, lo, hi, step, got)
	}
}

// TestRowsStep: rowsStep, which reads lanes two at a time where it can,
// agrees with a lane-by-lane reading on rows of even and odd lengths, from
// even and odd lanes, with a lane's low or high dword changed or not, and
// without high dwords (GLOBAL-saddr).
func TestRowsStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var v, h [65]uint32
	for i := 0; i < 20000; i++ {
		r := []int{16, 16, 17, 20, 32}[rng.IntN(5)]
		n := r + 1 + rng.IntN(64-r)
		st := []uint32{4, 8, 12, rng.Uint32() >> 8}[rng.IntN(4)]
		from, hfrom := rng.IntN(2), rng.IntN(2)
		lo, hi := v[from:from+n], h[hfrom:hfrom+n]
		y := rng.Uint32()
		for l := range lo {
			if l%r == 0 {
				y = rng.Uint32N(math.MaxUint32 - uint32(r-1)*st) // no row wraps
			}
			lo[l], hi[l] = y+st*uint32(l%r), 0x10
		}
		switch rng.IntN(3) {
		case 0:
			lo[rng.IntN(n)] ^= 1 << rng.IntN(32)
		case 1:
			hi[rng.IntN(n)] ^= 1 << rng.IntN(32)
		}
		if rng.IntN(3) == 0 {
			hi = nil
		}
		want := true
		for l := range lo {
			want = want && lo[l] == lo[l-l%r]+st*uint32(l%r) && (hi == nil || hi[l] == hi[0])
		}
		if got := RowsStep(lo, hi, r, st); got != want {
			t.Fatalf("rowsStep(%#x, %#x, %d, %d) = %v", lo, hi, r, st, got)
		}
	}
}

package fast

import (
	"math/rand/v2"
	"testing"
)

// tablePeriodRef is tablePeriod without its early rejection: the smallest
// power of two p from 2 to 32, below len(lo), with lo[p] == lo[0], if lo
// and hi (unless nil) repeat it.
func tablePeriodRef(lo, hi []uint32) int {
	n, x := len(lo), lo[0]
	p := 2
	for p < n && p <= 32 && lo[p] != x {
		p *= 2
	}
	if p >= n || p > 32 || !Periodic(lo, p) || hi != nil && !Periodic(hi, p) {
		return 0
	}
	return p
}

// TestTablePeriodMatchesRef: tablePeriod agrees with tablePeriodRef on
// lanes that repeat a period (1 to 64), repeat it but for one lane
// (anywhere, the last one often), or hold few distinct values, with and
// without high dwords, of every length, from even and odd lanes.
func TestTablePeriodMatchesRef(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 17))
	var lo, hi [65]uint32
	found := 0
	for trial := range 50000 {
		n := 1 + r.IntN(64)
		start := r.IntN(2)
		p := 1 << r.IntN(7)
		vals := uint32(1 + r.IntN(4))
		for l := range n {
			lo[start+l], hi[start+l] = r.Uint32N(vals), r.Uint32N(2)
			if l >= p {
				lo[start+l], hi[start+l] = lo[start+l-p], hi[start+l-p]
			}
		}
		if trial%3 == 0 {
			k := n - 1
			if r.IntN(2) == 0 {
				k = r.IntN(n)
			}
			lo[start+k] ^= 1 << r.IntN(32)
		}
		l, h := lo[start:start+n], hi[start:start+n]
		if trial%2 == 0 {
			h = nil
		}
		got, want := TablePeriod(l, h), tablePeriodRef(l, h)
		if got != want {
			t.Fatalf("lanes %v (high %v): period %d, want %d", l, h, got, want)
		}
		if got != 0 {
			found++
		}
	}
	if found < 1000 {
		t.Errorf("only %d tables found", found)
	}
}

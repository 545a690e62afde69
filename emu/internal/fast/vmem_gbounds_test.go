package fast

import (
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// TestLaneBitsBoundSpan: the AND and OR of random lane addresses (any
// count, scattered, in one page, one element, near the top of the address
// space) bound laneSpan's lowest and highest, and lie in the page every
// address shares when they share one — what fastWave checks first.
func TestLaneBitsBoundSpan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 7))
	for trial := range 20000 {
		n := 1 + r.IntN(64)
		base := r.Uint64()
		spread := uint64(1) << r.IntN(64)
		ad := make([]uint64, n)
		for l := range ad {
			switch trial % 3 {
			case 0:
				ad[l] = r.Uint64()
			case 1:
				ad[l] = base + r.Uint64N(spread)
			default:
				ad[l] = base&^(core.PageSize-1) + 4*r.Uint64N(core.PageSize/4)
			}
		}
		and, or := LaneBits(ad)
		lo, hi := LaneSpan(ad)
		if and > lo || or < hi {
			t.Fatalf("%#x: AND %#x OR %#x do not bound %#x…%#x", ad, and, or, lo, hi)
		}
		if lo>>core.PageBits == hi>>core.PageBits && (and>>core.PageBits != lo>>core.PageBits || or>>core.PageBits != lo>>core.PageBits) {
			t.Fatalf("%#x: AND %#x OR %#x leave the page of %#x…%#x", ad, and, or, lo, hi)
		}
	}
}

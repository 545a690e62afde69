package lanes

import (
	"math/rand/v2"
	"testing"
)

// TestSignsF64 holds SignsF64 (the AVX2 version where SIMD) to a lane by
// lane abs and neg of the f64 values, for every combination of the two
// modifiers, with d a register of its own or a itself.
func TestSignsF64(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 64))
	for it := range 200 {
		abs, neg := it&1 != 0, it&2 != 0
		var am, nm uint32
		if abs {
			am = 1 << 31
		}
		if neg {
			nm = 1 << 31
		}
		var a, d F64
		fillF64(r, &a)
		fillF64(r, &d)
		want := a
		for l := range 64 {
			u := laneBits(&want, l)
			if abs {
				u &^= 1 << 63
			}
			if neg {
				u ^= 1 << 63
			}
			want[0][l], want[1][l] = uint32(u), uint32(u>>32)
		}
		dst := &d
		if it&4 != 0 {
			dst = &a
		}
		SignsF64(dst, &a, am, nm)
		for l := range 64 {
			if got := laneBits(dst, l); got != laneBits(&want, l) {
				t.Fatalf("#%d abs=%v neg=%v alias=%v lane %d: got %#x, want %#x", it, abs, neg, dst == &a, l, got, laneBits(&want, l))
			}
		}
	}
}

// laneBits is lane l of p as f64 bits.
func laneBits(p *F64, l int) uint64 { return uint64(p[0][l]) | uint64(p[1][l])<<32 }

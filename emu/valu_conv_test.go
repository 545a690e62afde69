package emu

import (
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

// f32ToF16RNE and f16ToF32Bits equal the float64 conversions they replace
// for every half and a sweep of singles.
func TestF16BitConversions(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		want := uint32(ref.OpTable["v_cvt_f32_f16"].V.Fn(&core.Fenv{}, uint64(h), 0, 0))
		if got := fast.F16ToF32Bits(uint16(h)); got != want {
			t.Fatalf("f16ToF32Bits(%#x) = %#x, want %#x", h, got, want)
		}
	}
	r := rand.New(rand.NewPCG(13, 14))
	check := func(u uint32) {
		want := core.F64ToF16(float64(core.F32(u)), 0, core.RmNearest)
		if got := fast.F32ToF16RNE(u); got != want {
			t.Fatalf("f32ToF16RNE(%#x) = %#x, want %#x", u, got, want)
		}
	}
	for e := uint32(0); e < 256; e++ {
		for _, m := range []uint32{0, 1, 0x1000, 0x1001, 0xfff, 0x2000, 0x3000, 0x7fffff, 0x7fe000, 0x7ff000, 0x400000, 0x400001} {
			check(e<<23 | m)
			check(1<<31 | e<<23 | m)
		}
		for i := 0; i < 2000; i++ {
			check(e<<23 | r.Uint32()&0x807fffff)
		}
	}
}

// wv writes exactly the lanes in the mask, sparse, blended (blendCheaper)
// or dense (copyExcept), journaled.
func TestWriteLanes(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	w := &Wave{}
	for i := 0; i < 2000; i++ {
		var vals [64]uint32
		for l := range vals {
			vals[l] = r.Uint32()
		}
		for l := range w.V[7] {
			w.V[7][l] = r.Uint32()
		}
		old := w.V[7]
		mask := fastMask(r)
		switch i % 6 {
		case 0:
			mask = r.Uint64() & r.Uint64() // sparse
		case 1:
			mask = ^(r.Uint64() & r.Uint64() & r.Uint64()) // dense: a few holes
		case 2:
			mask = r.Uint64() >> r.IntN(64) // below a bound: blended or lane by lane
		case 3:
			mask = (r.Uint64() | r.Uint64()) & 0xFFFF // a 16-lane wave's branch
		}
		w.JOn = i%3 == 0
		w.Wv(7, mask, &vals)
		for l := range vals {
			want := old[l]
			if mask>>uint(l)&1 != 0 {
				want = vals[l]
			}
			if w.V[7][l] != want {
				t.Fatalf("mask %#x lane %d: %#x, want %#x", mask, l, w.V[7][l], want)
			}
		}
		if w.JOn {
			undoJournal(w)
			if w.V[7] != old {
				t.Fatalf("mask %#x: the journal does not restore the register", mask)
			}
		}
	}
}

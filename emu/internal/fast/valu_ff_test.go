package fast

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// round32 rounds f32 bits x to an integer in direction dir as the
// kernels do.
func round32(x uint32, dir int) uint32 {
	var d, a [64]uint32
	a[0] = x
	RoundRowF32(dir, &d, &a, 1)
	return d[0]
}

// round32 and the f64 rounding kernels equal the lane functions'
// math.Trunc, Floor, Ceil and RoundToEven (NaNs quieted) on every f32
// exponent and on f64 values around every exponent that matters, with
// halves, odd and even integers, denormals, zeros, infinities and NaNs.
func TestRoundMatchesMath(t *testing.T) {
	fs := [...]func(float64) float64{RdTrunc: math.Trunc, RdFloor: math.Floor, RdCeil: math.Ceil, RdNearest: math.RoundToEven}
	r := rand.New(rand.NewPCG(41, 42))
	for dir, f := range fs {
		check32 := func(u uint32) {
			x := float64(core.F32(u))
			want := core.F32bits(float32(f(x)))
			if x != x {
				want = u | 0x400000
			}
			if got := round32(u, dir); got != want {
				t.Fatalf("dir %d f32 %#x: %#x, want %#x", dir, u, got, want)
			}
		}
		check64 := func(u uint64) {
			x := core.F64(u)
			want := core.F64bits(f(x))
			if x != x {
				want = u | 1<<51
			}
			var a, d F64Regs
			a.Set(0, u)
			RoundRowsF64(dir, &d, &a, 1)
			if got := d.Bits(0); got != want {
				t.Fatalf("dir %d f64 %#x: %#x, want %#x", dir, u, got, want)
			}
		}
		for e := uint32(0); e < 256; e++ {
			for _, m := range []uint32{0, 1, 0x400000, 0x400001, 0x3fffff, 0x7fffff, 0x200000, 0x600000, 0x100000} {
				check32(e<<23 | m)
				check32(1<<31 | e<<23 | m)
			}
			for i := 0; i < 300; i++ {
				check32(e<<23 | r.Uint32()&0x807fffff)
			}
		}
		for e := uint64(0); e < 2048; e++ {
			if e > 16 && e < 1000 || e > 1090 && e < 2030 {
				continue
			}
			for _, m := range []uint64{0, 1, 1 << 51, 1<<51 | 1, 1<<51 - 1, 1<<52 - 1, 1 << 50, 3 << 50} {
				check64(e<<52 | m)
				check64(1<<63 | e<<52 | m)
			}
			for i := 0; i < 300; i++ {
				check64(e<<52 | r.Uint64()&(1<<63|1<<52-1))
			}
		}
	}
}

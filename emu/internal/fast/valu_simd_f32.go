package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

// The f32 kernels' rows for the usual MODE, denormals kept both ways:
// package lanes computes lanes 0 to n-1 (and the rest of the last quad)
// with AVX2, leaving the NaN lanes unwritten for the rules of quiet32 and
// madNaN32 (their sources are intact even when d is one of them).

// fmaRowF32 is v_fma_f32 with the FmaF32 row (VFMADD213PS; callers check
// simd.FMA).
func fmaRowF32(e *core.Fenv, d, a, b, c *[64]uint32, n int) {
	setNaNs32(d, simd.FmaF32(d, a, b, c, n), func(l int) uint32 {
		return uint32(ref.FmaF32(e, uint64(a[l]), uint64(b[l]), uint64(c[l])))
	})
}

// setNaNs32 writes nan(l) to the lanes l of d in nans.
func setNaNs32(d *[64]uint32, nans uint64, nan func(l int) uint32) {
	for ; nans != 0; nans &= nans - 1 {
		l := core.Tz(nans)
		d[l] = nan(l)
	}
}

// quietNaN32 is the NaN result of a binary operation of x and y (quiet32's
// rule).
func quietNaN32(x, y uint32) uint32 { return core.Quiet32(core.F32(0x7fc00000), x, y) }

// addRowF32 is d = a + b.
func addRowF32(d, a, b *[64]uint32, n int) {
	setNaNs32(d, simd.AddF32(d, a, b, n), func(l int) uint32 { return quietNaN32(a[l], b[l]) })
}

// subRowF32 is d = a - b (a NaN as for a + -b).
func subRowF32(d, a, b *[64]uint32, n int) {
	setNaNs32(d, simd.SubF32(d, a, b, n), func(l int) uint32 { return quietNaN32(a[l], b[l]^0x80000000) })
}

// mulRowF32 is d = a × b.
func mulRowF32(d, a, b *[64]uint32, n int) {
	setNaNs32(d, simd.MulF32(d, a, b, n), func(l int) uint32 { return quietNaN32(a[l], b[l]) })
}

// madRowF32 is v_mad_f32: d = a × b + c, the product rounded first.
func madRowF32(d, a, b, c *[64]uint32, n int) {
	setNaNs32(d, simd.MadF32(d, a, b, c, n), func(l int) uint32 { return madNaN32(a[l], b[l], c[l]) })
}

// rcpRowF32 is d = 1 / a (a NaN only from a NaN a, quieted).
func rcpRowF32(d, a *[64]uint32, n int) {
	quietRowF32(d, a, simd.RcpF32(d, a, n))
}

// RoundRowF32 is d = a rounded in direction dir (rdTrunc …).
func RoundRowF32(dir int, d, a *[64]uint32, n int) {
	quietRowF32(d, a, simd.RoundF32(dir, d, a, n))
}

// quietRowF32 writes the NaN results of a unary operation of a (a's NaN
// quieted) to the lanes of d in nans.
func quietRowF32(d, a *[64]uint32, nans uint64) {
	setNaNs32(d, nans, func(l int) uint32 { return a[l] | 0x400000 })
}

// minRowF32 is v_min_f32 with denormals kept (minNum32; minF32 for NaNs).
func minRowF32(e *core.Fenv, d, a, b *[64]uint32, n int) {
	setNaNs32(d, simd.MinF32(d, a, b, n), func(l int) uint32 { return uint32(ref.MinF32(e, uint64(a[l]), uint64(b[l]))) })
}

// maxRowF32 is v_max_f32 with denormals kept (maxNum32; maxF32 for NaNs).
func maxRowF32(e *core.Fenv, d, a, b *[64]uint32, n int) {
	setNaNs32(d, simd.MaxF32(d, a, b, n), func(l int) uint32 { return uint32(ref.MaxF32(e, uint64(a[l]), uint64(b[l]))) })
}

// u32RowF32 is v_cvt_u32_f32 with denormals kept (cvtF32ToU32).
func u32RowF32(d, a *[64]uint32, n int) { simd.U32FromF32(d, a, n) }

// i32RowF32 is v_cvt_i32_f32 with denormals kept (cvtF32ToI32).
func i32RowF32(d, a *[64]uint32, n int) { simd.I32FromF32(d, a, n) }

// The flushing rows, for a MODE that flushes f32 denormals (input, output
// or both): package lanes flushes as flushIn and flushOut do, a v_mad_f32
// product as madF32 does, and leaves NaN lanes to the same rules applied
// to the flushed sources (flushing can make a NaN: 0 × ∞).

// flushMasks are the bits package lanes clears from a denormal input and
// result under e's MODE.
func flushMasks(e *core.Fenv) (in, out uint32) {
	return simd.FlushMask(!e.Din), simd.FlushMask(!e.Dout)
}

// addFlushF32 is addRowF32 flushing.
func addFlushF32(e *core.Fenv, d, a, b *[64]uint32, n int) {
	in, out := flushMasks(e)
	setNaNs32(d, simd.AddF32Flush(d, a, b, n, in, out), func(l int) uint32 { return quietNaN32(a[l], b[l]) })
}

// subFlushF32 is subRowF32 flushing.
func subFlushF32(e *core.Fenv, d, a, b *[64]uint32, n int) {
	in, out := flushMasks(e)
	setNaNs32(d, simd.SubF32Flush(d, a, b, n, in, out), func(l int) uint32 { return quietNaN32(a[l], b[l]^0x80000000) })
}

// mulFlushF32 is mulRowF32 flushing.
func mulFlushF32(e *core.Fenv, d, a, b *[64]uint32, n int) {
	in, out := flushMasks(e)
	setNaNs32(d, simd.MulF32Flush(d, a, b, n, in, out), func(l int) uint32 { return quietNaN32(a[l], b[l]) })
}

// madFlushF32 is madRowF32 flushing.
func madFlushF32(e *core.Fenv, d, a, b, c *[64]uint32, n int) {
	in, out := flushMasks(e)
	setNaNs32(d, simd.MadF32Flush(d, a, b, c, n, in, out), func(l int) uint32 {
		return madNaN32(ref.FlushIn(a[l], e.Din), ref.FlushIn(b[l], e.Din), ref.FlushIn(c[l], e.Din))
	})
}

// fmaFlushF32 is fmaRowF32 flushing (FmaF32Flush has a Go version for a
// host without FMA3).
func fmaFlushF32(e *core.Fenv, d, a, b, c *[64]uint32, n int) {
	in, out := flushMasks(e)
	setNaNs32(d, simd.FmaF32Flush(d, a, b, c, n, in, out), func(l int) uint32 {
		return uint32(ref.FmaF32(e, uint64(ref.FlushIn(a[l], e.Din)), uint64(ref.FlushIn(b[l], e.Din)), uint64(ref.FlushIn(c[l], e.Din))))
	})
}

// rcpFlushF32 is rcpRowF32 flushing: the inputs flushed into d, the row
// in place, the results flushed.
func rcpFlushF32(e *core.Fenv, d, a *[64]uint32, n int) {
	in, out := flushMasks(e)
	simd.FlushF32(d, a, n, in)
	rcpRowF32(d, d, n)
	simd.FlushF32(d, d, n, out)
}

// roundFlushF32 is roundRowF32 flushing the inputs (a rounded number is
// never a denormal).
func roundFlushF32(e *core.Fenv, dir int, d, a *[64]uint32, n int) {
	simd.FlushF32(d, a, n, simd.FlushMask(!e.Din))
	RoundRowF32(dir, d, d, n)
}

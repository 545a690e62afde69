package emu

import simd "github.com/wavedbg/wavedbg/emu/internal/lanes"

// Float rounding to an integer (v_trunc, v_floor, v_ceil, v_rndne for f32
// and f64) without a call per lane: the same exact results as the lane
// functions' math.Trunc … (NaNs quieted, infinities kept).

// Rounding directions.
const (
	rdTrunc = iota
	rdFloor
	rdCeil
	rdNearest // ties to even
)

func sel32(c bool, a, b uint32) uint32 {
	if c {
		return a
	}
	return b
}

// roundRowsF64 rounds lanes 0 to n-1 of a into d with the lane
// functions' math.Trunc, Floor, Ceil and RoundToEven (each one
// instruction where SSE4.1 is present), NaNs quieted as fu64 does.
func roundRowsF64(dir int, d, a *f64Regs, n int) {
	quietUnaryRowsF64(d, a, simd.RoundF64(dir, d.rows(), a.rows(), n))
}

// roundOps are the rounding operations: directions and f32 kernels.
var roundOps = []struct {
	f32, f64 string
	dir      int
	k        kernel
}{
	{"v_trunc_f32", "v_trunc_f64", rdTrunc, kTruncF32},
	{"v_floor_f32", "v_floor_f64", rdFloor, kFloorF32},
	{"v_ceil_f32", "v_ceil_f64", rdCeil, kCeilF32},
	{"v_rndne_f32", "v_rndne_f64", rdNearest, kRndneF32},
}

// The f32 rounding kernels (the results are integers, infinities or
// NaNs: no output flush).
func kTruncF32(e *fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		roundRowF32(rdTrunc, d, a, n)
		return
	}
	roundFlushF32(e, rdTrunc, d, a, e.live)
}

func kFloorF32(e *fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		roundRowF32(rdFloor, d, a, n)
		return
	}
	roundFlushF32(e, rdFloor, d, a, e.live)
}

func kCeilF32(e *fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		roundRowF32(rdCeil, d, a, n)
		return
	}
	roundFlushF32(e, rdCeil, d, a, e.live)
}

func kRndneF32(e *fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		roundRowF32(rdNearest, d, a, n)
		return
	}
	roundFlushF32(e, rdNearest, d, a, e.live)
}

// order32 maps f32 bits other than NaNs to integers in the order of their
// values, -0 below +0 (minF32's and maxF32's order).
func order32(x uint32) uint32 { return x ^ (uint32(int32(x)>>31) | 0x80000000) }

// minNum32 and maxNum32 are minF32 and maxF32 for numbers (no NaN).
func minNum32(x, y uint32) uint32 { return sel32(order32(x) <= order32(y), x, y) }
func maxNum32(x, y uint32) uint32 { return sel32(order32(x) >= order32(y), x, y) }

// isNaN32 reports whether any of x, y and z is a NaN.
func isNaN32(x, y, z uint32) bool {
	return max(x&0x7fffffff, y&0x7fffffff, z&0x7fffffff) > 0x7f800000
}

// The kernels of v_min3_f32, v_max3_f32 and v_med3_f32: numbers compared
// inline, a lane with a NaN asks the lane function.
func kMin3F32(e *fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		d, a, b := d[:n], a[:n], b[:n]
		c := c[:n]
		for l := range d {
			x, y, z := a[l], b[l], c[l]
			u := minNum32(minNum32(x, y), z)
			if isNaN32(x, y, z) {
				u = uint32(laneFnOf("v_min3_f32")(e, uint64(x), uint64(y), uint64(z)))
			}
			d[l] = u
		}
		return
	}
	for l := range d[:e.live] {
		x, y, z := flushIn(a[l], e.din), flushIn(b[l], e.din), flushIn(c[l], e.din)
		u := minNum32(minNum32(x, y), z)
		if isNaN32(x, y, z) {
			u = uint32(laneFnOf("v_min3_f32")(e, uint64(x), uint64(y), uint64(z)))
		}
		d[l] = flushOut(u, e.dout)
	}
}

func kMax3F32(e *fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		d, a, b := d[:n], a[:n], b[:n]
		c := c[:n]
		for l := range d {
			x, y, z := a[l], b[l], c[l]
			u := maxNum32(maxNum32(x, y), z)
			if isNaN32(x, y, z) {
				u = uint32(laneFnOf("v_max3_f32")(e, uint64(x), uint64(y), uint64(z)))
			}
			d[l] = u
		}
		return
	}
	for l := range d[:e.live] {
		x, y, z := flushIn(a[l], e.din), flushIn(b[l], e.din), flushIn(c[l], e.din)
		u := maxNum32(maxNum32(x, y), z)
		if isNaN32(x, y, z) {
			u = uint32(laneFnOf("v_max3_f32")(e, uint64(x), uint64(y), uint64(z)))
		}
		d[l] = flushOut(u, e.dout)
	}
}

func kMed3F32(e *fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		d, a, b := d[:n], a[:n], b[:n]
		c := c[:n]
		for l := range d {
			x, y, z := a[l], b[l], c[l]
			u := maxNum32(minNum32(x, y), minNum32(maxNum32(x, y), z))
			if isNaN32(x, y, z) {
				u = uint32(laneFnOf("v_med3_f32")(e, uint64(x), uint64(y), uint64(z)))
			}
			d[l] = u
		}
		return
	}
	for l := range d[:e.live] {
		x, y, z := flushIn(a[l], e.din), flushIn(b[l], e.din), flushIn(c[l], e.din)
		u := maxNum32(minNum32(x, y), minNum32(maxNum32(x, y), z))
		if isNaN32(x, y, z) {
			u = uint32(laneFnOf("v_med3_f32")(e, uint64(x), uint64(y), uint64(z)))
		}
		d[l] = flushOut(u, e.dout)
	}
}

// laneFnOf returns a VALU operation's lane function, for the lanes a kernel
// hands back to it (NaNs, results leaving the normal range). It is looked
// up when a lane needs it, not copied at init, so no init order between
// this file and the one that registers the operation matters.
func laneFnOf(name string) laneFn { return opTable[name].v.fn }

// kLdexpF32 is v_ldexp_f32: a normal x whose scaled exponent stays normal
// has it added to its exponent field (exact); other lanes ask the lane
// function.
func kLdexpF32(e *fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		d, a, b := d[:n], a[:n], b[:n]
		for l := range d {
			x, n := a[l], b[l]
			ex := int32(x >> 23 & 0xff)
			u := x + n<<23
			if ex == 0 || ex == 0xff || ex+int32(n) < 1 || ex+int32(n) > 0xfe {
				u = uint32(laneFnOf("v_ldexp_f32")(e, uint64(x), uint64(n), 0))
			}
			d[l] = u
		}
		return
	}
	for l := range d[:e.live] {
		x := flushIn(a[l], e.din)
		ex := int32(x >> 23 & 0xff)
		u := x + b[l]<<23
		if ex == 0 || ex == 0xff || ex+int32(b[l]) < 1 || ex+int32(b[l]) > 0xfe {
			u = uint32(laneFnOf("v_ldexp_f32")(e, uint64(x), uint64(b[l]), 0))
		}
		d[l] = flushOut(u, e.dout)
	}
}

// The rounding kernels take the place of the float64 ones valu_defs.go
// registers (which give way to them whichever init runs first).
func init() {
	for _, o := range roundOps {
		kernels[o.f32] = o.k
		kernelsF64[o.f64] = kF64Round + o.dir
	}
	kernels["v_min3_f32"], kernels["v_max3_f32"], kernels["v_med3_f32"] = kMin3F32, kMax3F32, kMed3F32
	mixedIndex["v_ldexp_f32"] = addIndexed(kLdexpF32)
}

package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

// Float rounding to an integer (v_trunc, v_floor, v_ceil, v_rndne for f32
// and f64) without a call per lane: the same exact results as the lane
// functions' math.Trunc … (NaNs quieted, infinities kept).

// Rounding directions.
const (
	RdTrunc = iota
	RdFloor
	RdCeil
	RdNearest // ties to even
)

func sel32(c bool, a, b uint32) uint32 {
	if c {
		return a
	}
	return b
}

// RoundRowsF64 rounds lanes 0 to n-1 of a into d with the lane
// functions' math.Trunc, Floor, Ceil and RoundToEven (each one
// instruction where SSE4.1 is present), NaNs quieted as fu64 does.
func RoundRowsF64(dir int, d, a *F64Regs, n int) {
	quietUnaryRowsF64(d, a, simd.RoundF64(dir, d.rows(), a.rows(), n))
}

// roundOps are the rounding operations: directions and f32 kernels.
var roundOps = []struct {
	f32, f64 string
	dir      int
	k        core.Kernel
}{
	{"v_trunc_f32", "v_trunc_f64", RdTrunc, kTruncF32},
	{"v_floor_f32", "v_floor_f64", RdFloor, kFloorF32},
	{"v_ceil_f32", "v_ceil_f64", RdCeil, kCeilF32},
	{"v_rndne_f32", "v_rndne_f64", RdNearest, kRndneF32},
}

// The f32 rounding kernels (the results are integers, infinities or
// NaNs: no output flush).
func kTruncF32(e *core.Fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		RoundRowF32(RdTrunc, d, a, n)
		return
	}
	roundFlushF32(e, RdTrunc, d, a, e.Live)
}

func kFloorF32(e *core.Fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		RoundRowF32(RdFloor, d, a, n)
		return
	}
	roundFlushF32(e, RdFloor, d, a, e.Live)
}

func kCeilF32(e *core.Fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		RoundRowF32(RdCeil, d, a, n)
		return
	}
	roundFlushF32(e, RdCeil, d, a, e.Live)
}

func kRndneF32(e *core.Fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		RoundRowF32(RdNearest, d, a, n)
		return
	}
	roundFlushF32(e, RdNearest, d, a, e.Live)
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
func kMin3F32(e *core.Fenv, d, a, b, c *[64]uint32) {
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
	for l := range d[:e.Live] {
		x, y, z := ref.FlushIn(a[l], e.Din), ref.FlushIn(b[l], e.Din), ref.FlushIn(c[l], e.Din)
		u := minNum32(minNum32(x, y), z)
		if isNaN32(x, y, z) {
			u = uint32(laneFnOf("v_min3_f32")(e, uint64(x), uint64(y), uint64(z)))
		}
		d[l] = ref.FlushOut(u, e.Dout)
	}
}

func kMax3F32(e *core.Fenv, d, a, b, c *[64]uint32) {
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
	for l := range d[:e.Live] {
		x, y, z := ref.FlushIn(a[l], e.Din), ref.FlushIn(b[l], e.Din), ref.FlushIn(c[l], e.Din)
		u := maxNum32(maxNum32(x, y), z)
		if isNaN32(x, y, z) {
			u = uint32(laneFnOf("v_max3_f32")(e, uint64(x), uint64(y), uint64(z)))
		}
		d[l] = ref.FlushOut(u, e.Dout)
	}
}

func kMed3F32(e *core.Fenv, d, a, b, c *[64]uint32) {
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
	for l := range d[:e.Live] {
		x, y, z := ref.FlushIn(a[l], e.Din), ref.FlushIn(b[l], e.Din), ref.FlushIn(c[l], e.Din)
		u := maxNum32(minNum32(x, y), minNum32(maxNum32(x, y), z))
		if isNaN32(x, y, z) {
			u = uint32(laneFnOf("v_med3_f32")(e, uint64(x), uint64(y), uint64(z)))
		}
		d[l] = ref.FlushOut(u, e.Dout)
	}
}

// laneFnOf returns a VALU operation's lane function, for the lanes a kernel
// hands back to it (NaNs, results leaving the normal range). It is looked
// up when a lane needs it, not copied at init, so no init order between
// this file and the one that registers the operation matters.
func laneFnOf(name string) core.LaneFn { return ref.OpTable[name].V.Fn }

// kLdexpF32 is v_ldexp_f32: a normal x whose scaled exponent stays normal
// has it added to its exponent field (exact); other lanes ask the lane
// function.
func kLdexpF32(e *core.Fenv, d, a, b, c *[64]uint32) {
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
	for l := range d[:e.Live] {
		x := ref.FlushIn(a[l], e.Din)
		ex := int32(x >> 23 & 0xff)
		u := x + b[l]<<23
		if ex == 0 || ex == 0xff || ex+int32(b[l]) < 1 || ex+int32(b[l]) > 0xfe {
			u = uint32(laneFnOf("v_ldexp_f32")(e, uint64(x), uint64(b[l]), 0))
		}
		d[l] = ref.FlushOut(u, e.Dout)
	}
}

// The rounding kernels take the place of the float64 ones ref/valu_defs.go
// registers (which give way to them whichever init runs first).
func init() {
	for _, o := range roundOps {
		Kernels[o.f32] = o.k
		kernelsF64[o.f64] = kF64Round + o.dir
	}
	Kernels["v_min3_f32"], Kernels["v_max3_f32"], Kernels["v_med3_f32"] = kMin3F32, kMax3F32, kMed3F32
	MixedIndex["v_ldexp_f32"] = addIndexed(kLdexpF32)
}

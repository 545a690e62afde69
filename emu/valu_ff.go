package emu

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

// The roundings as when |x| < 2^23 (through an int32 conversion; the
// sign of a zero aside), completed by fixRound32 with selects, so random
// signs and magnitudes cost no mispredicted branches.

func trunc32(x uint32) uint32 { return f32bits(float32(int32(f32(x)))) }

func floor32(x uint32) uint32 {
	f := f32(x)
	t := float32(int32(f))
	return sel32(t > f, f32bits(t-1), f32bits(t))
}

func ceil32(x uint32) uint32 {
	f := f32(x)
	t := float32(int32(f))
	return sel32(t < f, f32bits(t+1), f32bits(t))
}

// rndne32: adding and taking 2^23 rounds to nearest even.
func rndne32(x uint32) uint32 { return f32bits(f32(x&0x7fffffff) + 0x1p23 - 0x1p23) }

// fixRound32 completes a rounding u of x computed as for |x| < 2^23: x's
// sign (a zero keeps it; other results have it), x itself from 2^23 up
// (integral), a NaN quieted.
func fixRound32(x, u uint32) uint32 {
	mag := x & 0x7fffffff
	u = sel32(mag >= 0x4b000000, x, u|x&0x80000000)
	return sel32(mag > 0x7f800000, x|0x400000, u)
}

// The f64 roundings (int64, 2^52).

func trunc64(x uint64) uint64 { return f64bits(float64(int64(f64(x)))) }

func floor64(x uint64) uint64 {
	f := f64(x)
	t := float64(int64(f))
	return sel64(t > f, f64bits(t-1), f64bits(t))
}

func ceil64(x uint64) uint64 {
	f := f64(x)
	t := float64(int64(f))
	return sel64(t < f, f64bits(t+1), f64bits(t))
}

func rndne64(x uint64) uint64 { return f64bits(f64(x&^(1<<63)) + 0x1p52 - 0x1p52) }

func fixRound64(x, u uint64) uint64 {
	mag := x &^ (1 << 63)
	u = sel64(mag >= 0x4330000000000000, x, u|x&(1<<63))
	return sel64(mag > 0x7ff0000000000000, x|1<<51, u)
}

func sel32(c bool, a, b uint32) uint32 {
	if c {
		return a
	}
	return b
}

func sel64(c bool, a, b uint64) uint64 {
	if c {
		return a
	}
	return b
}

// roundRow64 rounds lanes 0 to n-1 of an f64 register (the results are
// integers, infinities or NaNs: no output flush).
func roundRow64(dir int, lo, hi, dlo, dhi *[64]uint32, n int) {
	switch dir {
	case rdTrunc:
		for l := range dlo[:n] {
			x := uint64(lo[l]) | uint64(hi[l])<<32
			u := fixRound64(x, trunc64(x))
			dlo[l], dhi[l] = uint32(u), uint32(u>>32)
		}
	case rdFloor:
		for l := range dlo[:n] {
			x := uint64(lo[l]) | uint64(hi[l])<<32
			u := fixRound64(x, floor64(x))
			dlo[l], dhi[l] = uint32(u), uint32(u>>32)
		}
	case rdCeil:
		for l := range dlo[:n] {
			x := uint64(lo[l]) | uint64(hi[l])<<32
			u := fixRound64(x, ceil64(x))
			dlo[l], dhi[l] = uint32(u), uint32(u>>32)
		}
	default:
		for l := range dlo[:n] {
			x := uint64(lo[l]) | uint64(hi[l])<<32
			u := fixRound64(x, rndne64(x))
			dlo[l], dhi[l] = uint32(u), uint32(u>>32)
		}
	}
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
	for l := range d[:e.live] {
		x := flushIn(a[l], e.din)
		d[l] = fixRound32(x, trunc32(x))
	}
}

func kFloorF32(e *fenv, d, a, b, c *[64]uint32) {
	for l := range d[:e.live] {
		x := flushIn(a[l], e.din)
		d[l] = fixRound32(x, floor32(x))
	}
}

func kCeilF32(e *fenv, d, a, b, c *[64]uint32) {
	for l := range d[:e.live] {
		x := flushIn(a[l], e.din)
		d[l] = fixRound32(x, ceil32(x))
	}
}

func kRndneF32(e *fenv, d, a, b, c *[64]uint32) {
	for l := range d[:e.live] {
		x := flushIn(a[l], e.din)
		d[l] = fixRound32(x, rndne32(x))
	}
}

// minNum32 and maxNum32 are minF32 and maxF32 for numbers (no NaN): -0
// below +0.
func minNum32(x, y uint32) uint32 {
	fx, fy := f32(x), f32(y)
	return sel32(fx < fy || fx == fy && x>>31 != 0, x, y)
}

func maxNum32(x, y uint32) uint32 {
	fx, fy := f32(x), f32(y)
	return sel32(fx > fy || fx == fy && x>>31 == 0, x, y)
}

// kMinMax3F32 is the kernel of v_min3_f32, v_max3_f32 or v_med3_f32 (f of
// three numbers): a lane with a NaN source asks the lane function fn.
func kMinMax3F32(f func(x, y, z uint32) uint32, fn laneFn) kernel {
	return func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d[:e.live] {
			x, y, z := flushIn(a[l], e.din), flushIn(b[l], e.din), flushIn(c[l], e.din)
			var u uint32
			if x&0x7fffffff > 0x7f800000 || y&0x7fffffff > 0x7f800000 || z&0x7fffffff > 0x7f800000 {
				u = uint32(fn(e, uint64(x), uint64(y), uint64(z)))
			} else {
				u = f(x, y, z)
			}
			d[l] = flushOut(u, e.dout)
		}
	}
}

func min3F32(x, y, z uint32) uint32 { return minNum32(minNum32(x, y), z) }
func max3F32(x, y, z uint32) uint32 { return maxNum32(maxNum32(x, y), z) }
func med3F32(x, y, z uint32) uint32 {
	return maxNum32(minNum32(x, y), minNum32(maxNum32(x, y), z))
}

// The rounding kernels replace the float64 ones valu_defs.go registers;
// the three-operand ones wrap its lane functions (this file's init runs
// after that file's).
func init() {
	for _, o := range roundOps {
		kernels[o.f32] = o.k
		kernelsF64[o.f64] = kF64Round + o.dir
	}
	for n, f := range map[string]func(x, y, z uint32) uint32{"v_min3_f32": min3F32, "v_max3_f32": max3F32, "v_med3_f32": med3F32} {
		kernels[n] = kMinMax3F32(f, opTable[n].v.fn)
	}
}

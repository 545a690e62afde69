package emu

// Float rounding to an integer (v_trunc, v_floor, v_ceil, v_rndne for f32
// and f64) on the bits: the lane functions' math.Trunc … through float64
// give the same exact results (and quiet NaNs, keep infinities), without a
// call per lane.

// Rounding directions of roundInt.
const (
	rdTrunc = iota
	rdFloor
	rdCeil
	rdNearest // ties to even
)

// roundInt rounds an IEEE value of mbits mantissa and ebits exponent bits
// to an integer in direction dir; a NaN is quieted.
func roundInt(x uint64, mbits, ebits uint, dir int) uint64 {
	sign := x >> (mbits + ebits) << (mbits + ebits)
	mag := x &^ sign
	bias := uint64(1)<<(ebits-1) - 1
	exp := mag >> mbits
	one := bias << mbits
	switch {
	case exp >= bias+uint64(mbits): // integral, infinite or NaN
		if exp == 2*bias+1 && mag<<(64-mbits) != 0 {
			return x | 1<<(mbits-1)
		}
		return x
	case exp < bias: // |x| < 1
		switch {
		case dir == rdFloor && sign != 0 && mag != 0,
			dir == rdCeil && sign == 0 && mag != 0,
			dir == rdNearest && mag > one-1<<mbits: // above one half
			return sign | one
		}
		return sign
	}
	unit := uint64(1) << (mbits - uint(exp-bias)&63)
	frac := mag & (unit - 1)
	t := x &^ (unit - 1)
	switch dir {
	case rdFloor:
		if sign != 0 && frac != 0 {
			t += unit
		}
	case rdCeil:
		if sign == 0 && frac != 0 {
			t += unit
		}
	case rdNearest:
		if h := unit >> 1; frac > h || frac == h && t&unit != 0 {
			t += unit
		}
	}
	return t
}

// roundOps are the rounding operations and their directions.
var roundOps = []struct {
	f32, f64 string
	dir      int
}{
	{"v_trunc_f32", "v_trunc_f64", rdTrunc},
	{"v_floor_f32", "v_floor_f64", rdFloor},
	{"v_ceil_f32", "v_ceil_f64", rdCeil},
	{"v_rndne_f32", "v_rndne_f64", rdNearest},
}

// kRoundF32 is the kernel of an f32 rounding in direction dir.
func kRoundF32(dir int) kernel {
	return func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d[:e.live] {
			d[l] = flushOut(uint32(roundInt(uint64(flushIn(a[l], e.din)), 23, 8, dir)), e.dout)
		}
	}
}

// The rounding kernels replace the float64 ones valu_defs.go registers
// (this file's init runs after that file's).
func init() {
	for _, o := range roundOps {
		kernels[o.f32] = kRoundF32(o.dir)
		kernelsF64[o.f64] = kF64Round + o.dir
	}
}

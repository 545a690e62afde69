package lanes

import "math"

// The f32 rows: the lanes of an f32 operation over whole registers, one
// word a lane. Those that can make a NaN return the mask of their lanes
// (of 0..n-1) whose result is a NaN and leave those lanes unwritten, so
// that their sources are still intact (the destination may be a source)
// for the caller's NaN rule. The arithmetic is Go's float32 arithmetic:
// rounding to nearest even, denormals kept (flushing is the caller's).
// Each exported row runs its AVX2 version (f32_amd64.s) when SIMD is set,
// else its Go definition: the function of the same name, lower-cased,
// with a Go suffix.

// f32At is lane l of p as a float32.
func f32At(p *[64]uint32, l int) float32 { return math.Float32frombits(p[l]) }

// setF32 writes r to lane l of d unless it is a NaN, which it adds to nans.
func setF32(d *[64]uint32, l int, r float32, nans *uint64) {
	if r != r {
		*nans |= 1 << l
		return
	}
	d[l] = math.Float32bits(r)
}

// AddF32 is d = a + b.
func AddF32(d, a, b *[64]uint32, n int) (nans uint64) {
	if SIMD {
		return addF32AVX(d, a, b, n) & lowLanes(n)
	}
	return addF32Go(d, a, b, n)
}

// addF32Go is AddF32's Go definition.
func addF32Go(d, a, b *[64]uint32, n int) (nans uint64) {
	for l := range n {
		setF32(d, l, f32At(a, l)+f32At(b, l), &nans)
	}
	return nans
}

// SubF32 is d = a - b.
func SubF32(d, a, b *[64]uint32, n int) (nans uint64) {
	if SIMD {
		return subF32AVX(d, a, b, n) & lowLanes(n)
	}
	return subF32Go(d, a, b, n)
}

// subF32Go is SubF32's Go definition.
func subF32Go(d, a, b *[64]uint32, n int) (nans uint64) {
	for l := range n {
		setF32(d, l, f32At(a, l)-f32At(b, l), &nans)
	}
	return nans
}

// MulF32 is d = a × b.
func MulF32(d, a, b *[64]uint32, n int) (nans uint64) {
	if SIMD {
		return mulF32AVX(d, a, b, n) & lowLanes(n)
	}
	return mulF32Go(d, a, b, n)
}

// mulF32Go is MulF32's Go definition.
func mulF32Go(d, a, b *[64]uint32, n int) (nans uint64) {
	for l := range n {
		setF32(d, l, f32At(a, l)*f32At(b, l), &nans)
	}
	return nans
}

// MadF32 is d = a × b + c with the product rounded to f32 first (not a
// fused multiply-add).
func MadF32(d, a, b, c *[64]uint32, n int) (nans uint64) {
	if SIMD {
		return madF32AVX(d, a, b, c, n) & lowLanes(n)
	}
	return madF32Go(d, a, b, c, n)
}

// madF32Go is MadF32's Go definition.
func madF32Go(d, a, b, c *[64]uint32, n int) (nans uint64) {
	for l := range n {
		setF32(d, l, float32(f32At(a, l)*f32At(b, l))+f32At(c, l), &nans) // float32() forbids fusing
	}
	return nans
}

// RcpF32 is d = 1 / a, correctly rounded (a NaN only for a NaN a).
func RcpF32(d, a *[64]uint32, n int) (nans uint64) {
	if SIMD {
		return rcpF32AVX(d, a, n) & lowLanes(n)
	}
	return rcpF32Go(d, a, n)
}

// rcpF32Go is RcpF32's Go definition.
func rcpF32Go(d, a *[64]uint32, n int) (nans uint64) {
	for l := range n {
		setF32(d, l, 1/f32At(a, l), &nans)
	}
	return nans
}

// RoundF32 is d = a rounded to an integer in direction dir (RoundTrunc
// …): math.Trunc, Floor, Ceil or RoundToEven (a NaN only for a NaN a).
func RoundF32(dir int, d, a *[64]uint32, n int) (nans uint64) {
	if SIMD {
		return roundF32AVX(dir, d, a, n) & lowLanes(n)
	}
	return roundF32Go(dir, d, a, n)
}

// roundF32Go is RoundF32's Go definition.
func roundF32Go(dir int, d, a *[64]uint32, n int) (nans uint64) {
	for l := range n {
		x := float64(f32At(a, l))
		switch dir {
		case RoundTrunc:
			x = math.Trunc(x)
		case RoundFloor:
			x = math.Floor(x)
		case RoundCeil:
			x = math.Ceil(x)
		default:
			x = math.RoundToEven(x)
		}
		setF32(d, l, float32(x), &nans)
	}
	return nans
}

// F32FromU32 is d = a's unsigned integers as f32s, rounded to nearest even.
func F32FromU32(d, a *[64]uint32, n int) {
	if SIMD {
		f32FromU32AVX(d, a, n)
		return
	}
	f32FromU32Go(d, a, n)
}

// f32FromU32Go is F32FromU32's Go definition.
func f32FromU32Go(d, a *[64]uint32, n int) {
	for l := range n {
		d[l] = math.Float32bits(float32(a[l]))
	}
}

// U32FromF32 is d = a truncated to an unsigned integer, saturating: 0 for
// a NaN or a ≤ 0, 0xffffffff for a ≥ 2^32.
func U32FromF32(d, a *[64]uint32, n int) {
	if SIMD {
		u32FromF32AVX(d, a, n)
		return
	}
	u32FromF32Go(d, a, n)
}

// u32FromF32Go is U32FromF32's Go definition.
func u32FromF32Go(d, a *[64]uint32, n int) {
	for l := range n {
		x := f32At(a, l)
		switch {
		case !(x > 0):
			d[l] = 0
		case x >= 1<<32:
			d[l] = math.MaxUint32
		default:
			d[l] = uint32(x)
		}
	}
}

// The min and max order f32s by value, -0 below +0; a lane with a NaN
// source is a NaN lane (left to the caller).

// order32 maps the bits of a number to integers in the order of their
// values.
func order32(x uint32) uint32 { return x ^ (uint32(int32(x)>>31) | 0x80000000) }

// hasNaN32 reports whether x or y is a NaN.
func hasNaN32(x, y uint32) bool { return max(x&0x7fffffff, y&0x7fffffff) > 0x7f800000 }

// MinF32 is d = the lesser of a and b.
func MinF32(d, a, b *[64]uint32, n int) (nans uint64) {
	if SIMD {
		return minF32AVX(d, a, b, n) & lowLanes(n)
	}
	return minF32Go(d, a, b, n)
}

// minF32Go is MinF32's Go definition.
func minF32Go(d, a, b *[64]uint32, n int) (nans uint64) {
	for l := range n {
		x, y := a[l], b[l]
		switch {
		case hasNaN32(x, y):
			nans |= 1 << l
		case order32(x) <= order32(y):
			d[l] = x
		default:
			d[l] = y
		}
	}
	return nans
}

// MaxF32 is d = the greater of a and b.
func MaxF32(d, a, b *[64]uint32, n int) (nans uint64) {
	if SIMD {
		return maxF32AVX(d, a, b, n) & lowLanes(n)
	}
	return maxF32Go(d, a, b, n)
}

// maxF32Go is MaxF32's Go definition.
func maxF32Go(d, a, b *[64]uint32, n int) (nans uint64) {
	for l := range n {
		x, y := a[l], b[l]
		switch {
		case hasNaN32(x, y):
			nans |= 1 << l
		case order32(x) >= order32(y):
			d[l] = x
		default:
			d[l] = y
		}
	}
	return nans
}

// F32FromI32 is d = a's signed integers as f32s, rounded to nearest even.
func F32FromI32(d, a *[64]uint32, n int) {
	if SIMD {
		f32FromI32AVX(d, a, n)
		return
	}
	f32FromI32Go(d, a, n)
}

// f32FromI32Go is F32FromI32's Go definition.
func f32FromI32Go(d, a *[64]uint32, n int) {
	for l := range n {
		d[l] = math.Float32bits(float32(int32(a[l])))
	}
}

// I32FromF32 is d = a truncated to a signed integer, saturating: 0 for a
// NaN, the int32 limits beyond them.
func I32FromF32(d, a *[64]uint32, n int) {
	if SIMD {
		i32FromF32AVX(d, a, n)
		return
	}
	i32FromF32Go(d, a, n)
}

// i32FromF32Go is I32FromF32's Go definition.
func i32FromF32Go(d, a *[64]uint32, n int) {
	for l := range n {
		x := f32At(a, l)
		switch {
		case x != x:
			d[l] = 0
		case x >= 1<<31:
			d[l] = math.MaxInt32
		case x <= -1<<31:
			d[l] = 1 << 31
		default:
			d[l] = uint32(int32(x))
		}
	}
}

// FmaF32 is d = a × b + c rounded once.
func FmaF32(d, a, b, c *[64]uint32, n int) (nans uint64) {
	if FMA {
		return fmaF32AVX(d, a, b, c, n) & lowLanes(n)
	}
	return fmaF32Go(d, a, b, c, n)
}

// fmaF32Go is FmaF32's Go definition: the product is exact in float64;
// the sum, rounded to odd in float64 (an inexact sum is the odd one of
// its two neighbours), then rounds to f32 as the exact sum would (53 bits
// ≥ 24 + 2).
func fmaF32Go(d, a, b, c *[64]uint32, n int) (nans uint64) {
	for l := range n {
		p, z := float64(f32At(a, l))*float64(f32At(b, l)), float64(f32At(c, l))
		s := p + z
		t := s - z
		err := (p - t) + (z - (s - t)) // TwoSum: s + err is the exact sum (a NaN for infinities)
		if u := math.Float64bits(s); u&1 == 0 && (err < 0 || err > 0) {
			// s is even and inexact: the odd neighbour towards the exact sum
			if (err < 0) == (s < 0) {
				s = math.Float64frombits(u + 1)
			} else {
				s = math.Float64frombits(u - 1)
			}
		}
		setF32(d, l, float32(s), &nans)
	}
	return nans
}

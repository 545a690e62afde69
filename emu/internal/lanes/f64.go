package lanes

import "math"

// The f64 rows: the lanes of an f64 operation over whole registers. Each
// returns the mask of its lanes (of 0..n-1) whose result is a NaN and
// leaves those lanes unwritten, so that their sources are still intact
// (the destination may be a source) for the caller's NaN rule (which
// source's payload, quieted). The arithmetic is Go's float64 arithmetic:
// rounding to nearest even, denormals kept (input and output flushing are
// the caller's). Each exported row runs its AVX2 version (f64_amd64.s)
// when SIMD is set (and FMA, for those with a fused multiply-add), else
// its Go definition: the function of the same name, lower-cased, with a Go
// suffix.

// F64 is an f64 register: the lanes' low words, then their high words.
type F64 [2][64]uint32

// at is lane l of p as a float64.
func (p *F64) at(l int) float64 {
	return math.Float64frombits(uint64(p[0][l]) | uint64(p[1][l])<<32)
}

// set writes the bits of x to lane l of p.
func (p *F64) set(l int, x float64) {
	u := math.Float64bits(x)
	p[0][l], p[1][l] = uint32(u), uint32(u>>32)
}

// lowLanes is the mask of lanes 0 to n-1.
func lowLanes(n int) uint64 { return 1<<uint(n) - 1 }

// AddF64 is d = a + b.
func AddF64(d, a, b *F64, n int) (nans uint64) {
	if SIMD {
		return addF64AVX(d, a, b, n) & lowLanes(n)
	}
	return addF64Go(d, a, b, n)
}

// addF64Go is AddF64's Go definition.
func addF64Go(d, a, b *F64, n int) (nans uint64) {
	_, _ = a[0][0], b[0][0]
	for l := range d[0][:n] {
		s := a.at(l) + b.at(l)
		if s != s {
			nans |= 1 << l
			continue
		}
		d.set(l, s)
	}
	return nans
}

// AddF64U is AddF64 with a uniform b (y in every lane).
func AddF64U(d, a *F64, y float64, n int) (nans uint64) {
	if SIMD {
		return addF64UAVX(d, a, y, n) & lowLanes(n)
	}
	return addF64UGo(d, a, y, n)
}

// addF64UGo is AddF64U's Go definition.
func addF64UGo(d, a *F64, y float64, n int) (nans uint64) {
	_ = a[0][0]
	for l := range d[0][:n] {
		s := a.at(l) + y
		if s != s {
			nans |= 1 << l
			continue
		}
		d.set(l, s)
	}
	return nans
}

// MulF64 is d = a × b.
func MulF64(d, a, b *F64, n int) (nans uint64) {
	if SIMD {
		return mulF64AVX(d, a, b, n) & lowLanes(n)
	}
	return mulF64Go(d, a, b, n)
}

// mulF64Go is MulF64's Go definition.
func mulF64Go(d, a, b *F64, n int) (nans uint64) {
	_, _ = a[0][0], b[0][0]
	for l := range d[0][:n] {
		s := a.at(l) * b.at(l)
		if s != s {
			nans |= 1 << l
			continue
		}
		d.set(l, s)
	}
	return nans
}

// MulF64U is MulF64 with a uniform b (y in every lane).
func MulF64U(d, a *F64, y float64, n int) (nans uint64) {
	if SIMD {
		return mulF64UAVX(d, a, y, n) & lowLanes(n)
	}
	return mulF64UGo(d, a, y, n)
}

// mulF64UGo is MulF64U's Go definition.
func mulF64UGo(d, a *F64, y float64, n int) (nans uint64) {
	_ = a[0][0]
	for l := range d[0][:n] {
		s := a.at(l) * y
		if s != s {
			nans |= 1 << l
			continue
		}
		d.set(l, s)
	}
	return nans
}

// The fmas take a sign mask an (0 or 1<<63) to flip in a's lanes (a
// compiler's fma of -a is common: Newton-Raphson steps).

// FmaF64 is d = (a^an) × b + c rounded once (math.FMA).
func FmaF64(d, a, b, c *F64, an uint64, n int) (nans uint64) {
	if FMA {
		return fmaF64AVX(d, a, b, c, an, n) & lowLanes(n)
	}
	return fmaF64Go(d, a, b, c, an, n)
}

// fmaF64Go is FmaF64's Go definition.
func fmaF64Go(d, a, b, c *F64, an uint64, n int) (nans uint64) {
	_, _, _ = a[0][0], b[0][0], c[0][0]
	for l := range d[0][:n] {
		x := math.Float64frombits((uint64(a[0][l]) | uint64(a[1][l])<<32) ^ an)
		s := math.FMA(x, b.at(l), c.at(l))
		if s != s {
			nans |= 1 << l
			continue
		}
		d.set(l, s)
	}
	return nans
}

// FmaF64UB is FmaF64 with a uniform b (y in every lane).
func FmaF64UB(d, a *F64, y float64, c *F64, an uint64, n int) (nans uint64) {
	if FMA {
		return fmaF64UBAVX(d, a, y, c, an, n) & lowLanes(n)
	}
	return fmaF64UBGo(d, a, y, c, an, n)
}

// fmaF64UBGo is FmaF64UB's Go definition.
func fmaF64UBGo(d, a *F64, y float64, c *F64, an uint64, n int) (nans uint64) {
	_, _ = a[0][0], c[0][0]
	for l := range d[0][:n] {
		x := math.Float64frombits((uint64(a[0][l]) | uint64(a[1][l])<<32) ^ an)
		s := math.FMA(x, y, c.at(l))
		if s != s {
			nans |= 1 << l
			continue
		}
		d.set(l, s)
	}
	return nans
}

// FmaF64UC is FmaF64 with a uniform c (z in every lane).
func FmaF64UC(d, a, b *F64, z float64, an uint64, n int) (nans uint64) {
	if FMA {
		return fmaF64UCAVX(d, a, b, z, an, n) & lowLanes(n)
	}
	return fmaF64UCGo(d, a, b, z, an, n)
}

// fmaF64UCGo is FmaF64UC's Go definition.
func fmaF64UCGo(d, a, b *F64, z float64, an uint64, n int) (nans uint64) {
	_, _ = a[0][0], b[0][0]
	for l := range d[0][:n] {
		x := math.Float64frombits((uint64(a[0][l]) | uint64(a[1][l])<<32) ^ an)
		s := math.FMA(x, b.at(l), z)
		if s != s {
			nans |= 1 << l
			continue
		}
		d.set(l, s)
	}
	return nans
}

// RcpF64 is d = 1 / a.
func RcpF64(d, a *F64, n int) (nans uint64) {
	if SIMD {
		return rcpF64AVX(d, a, n) & lowLanes(n)
	}
	return rcpF64Go(d, a, n)
}

// rcpF64Go is RcpF64's Go definition.
func rcpF64Go(d, a *F64, n int) (nans uint64) {
	_ = a[0][0]
	for l := range d[0][:n] {
		s := 1 / a.at(l)
		if s != s {
			nans |= 1 << l
			continue
		}
		d.set(l, s)
	}
	return nans
}

// RsqF64 is d = 1 / √a (two roundings).
func RsqF64(d, a *F64, n int) (nans uint64) {
	if SIMD {
		return rsqF64AVX(d, a, n) & lowLanes(n)
	}
	return rsqF64Go(d, a, n)
}

// rsqF64Go is RsqF64's Go definition.
func rsqF64Go(d, a *F64, n int) (nans uint64) {
	_ = a[0][0]
	for l := range d[0][:n] {
		s := 1 / math.Sqrt(a.at(l))
		if s != s {
			nans |= 1 << l
			continue
		}
		d.set(l, s)
	}
	return nans
}

// SqrtF64 is d = √a.
func SqrtF64(d, a *F64, n int) (nans uint64) {
	if SIMD {
		return sqrtF64AVX(d, a, n) & lowLanes(n)
	}
	return sqrtF64Go(d, a, n)
}

// sqrtF64Go is SqrtF64's Go definition.
func sqrtF64Go(d, a *F64, n int) (nans uint64) {
	_ = a[0][0]
	for l := range d[0][:n] {
		s := math.Sqrt(a.at(l))
		if s != s {
			nans |= 1 << l
			continue
		}
		d.set(l, s)
	}
	return nans
}

// The rounding directions of RoundF64 (emu's order: rdTrunc …).
const (
	RoundTrunc = iota
	RoundFloor
	RoundCeil
	RoundNearestEven
)

// RoundF64 is d = a rounded to an integer in direction dir: math.Trunc,
// Floor, Ceil or RoundToEven.
func RoundF64(dir int, d, a *F64, n int) (nans uint64) {
	if SIMD {
		return roundF64AVX(dir, d, a, n) & lowLanes(n)
	}
	return roundF64Go(dir, d, a, n)
}

// roundF64Go is RoundF64's Go definition.
func roundF64Go(dir int, d, a *F64, n int) (nans uint64) {
	_ = a[0][0]
	for l := range d[0][:n] {
		s := a.at(l)
		switch dir {
		case RoundTrunc:
			s = math.Trunc(s)
		case RoundFloor:
			s = math.Floor(s)
		case RoundCeil:
			s = math.Ceil(s)
		default:
			s = math.RoundToEven(s)
		}
		if s != s {
			nans |= 1 << l
			continue
		}
		d.set(l, s)
	}
	return nans
}

package core

import (
	"math"
	"math/big"
)

// Rounding modes as MODE.FP_ROUND encodes them.
const (
	RmNearest  = 0
	RmPlusInf  = 1
	RmMinusInf = 2
	RmZero     = 3
)

func F32bits(f float32) uint32 { return math.Float32bits(f) }
func F32(u uint32) float32     { return math.Float32frombits(u) }
func F64bits(f float64) uint64 { return math.Float64bits(f) }
func F64(u uint64) float64     { return math.Float64frombits(u) }

// ffmt describes a binary floating-point format narrower than float64.
type ffmt struct {
	mant int     // significand bits including the implicit one
	emin int     // exponent of the smallest normal number
	max  float64 // largest finite value
}

var (
	fmtF32 = ffmt{24, -126, math.MaxFloat32}
	fmtF16 = ffmt{11, -14, 65504}
)

// roundFmt rounds the exact value hi+lo (|lo| below half an ulp of hi in
// float64) to format f under mode rm, including subnormals and overflow,
// and returns it as a float64 (exactly representable in f).
func roundFmt(hi, lo float64, f ffmt, rm int) float64 {
	if math.IsNaN(hi) || math.IsInf(hi, 0) {
		return hi
	}
	if hi == 0 {
		if lo == 0 {
			return hi
		}
		hi, lo = lo, 0
	}
	m, e := math.Frexp(hi)
	ie := e - 1
	if math.Abs(m) == 0.5 && lo != 0 && (lo < 0) == (hi > 0) {
		ie-- // just below a power of two: the finer binade
	}
	if ie < f.emin {
		ie = f.emin
	}
	ulp := math.Ldexp(1, ie-(f.mant-1))
	q, l := hi/ulp, lo/ulp
	n := math.Floor(q)
	fr := q - n
	if fr == 0 && l < 0 {
		n--
		fr = 1
	}
	exact := fr == 0 && l == 0
	neg := hi < 0
	up := false
	switch rm {
	case RmNearest:
		switch {
		case fr > 0.5, fr == 0.5 && l > 0:
			up = true
		case fr == 0.5 && l == 0:
			up = math.Mod(n, 2) != 0
		}
	case RmPlusInf:
		up = !exact
	case RmMinusInf:
		up = false
	case RmZero:
		up = !exact && neg
	}
	if up {
		n++
	}
	r := n * ulp
	if r == 0 {
		return math.Copysign(0, hi)
	}
	if math.Abs(r) > f.max {
		switch {
		case rm == RmNearest, rm == RmPlusInf && !neg, rm == RmMinusInf && neg:
			return math.Inf(int(math.Copysign(1, r)))
		default:
			return math.Copysign(f.max, r)
		}
	}
	return r
}

// RoundF64 rounds hi+lo (hi = RN(hi+lo), lo its exact error) under rm.
func RoundF64(hi, lo float64, rm int, finite bool) float64 {
	if math.IsInf(hi, 0) && finite {
		switch {
		case rm == RmZero, rm == RmPlusInf && hi < 0, rm == RmMinusInf && hi > 0:
			return math.Copysign(math.MaxFloat64, hi)
		}
		return hi
	}
	if lo == 0 || math.IsNaN(lo) || rm == RmNearest {
		return hi
	}
	switch rm {
	case RmPlusInf:
		if lo > 0 {
			return math.Nextafter(hi, math.Inf(1))
		}
	case RmMinusInf:
		if lo < 0 {
			return math.Nextafter(hi, math.Inf(-1))
		}
	case RmZero:
		if hi > 0 && lo < 0 || hi < 0 && lo > 0 {
			return math.Nextafter(hi, 0)
		}
	}
	return hi
}

// TwoSum returns s = RN(a+b) and the exact error.
func TwoSum(a, b float64) (float64, float64) {
	s := a + b
	bb := s - a
	return s, (a - (s - bb)) + (b - bb)
}

// FmaRound returns a*b+c rounded to f64 under rm (big.Float; results in the
// subnormal range are rounded twice: documented as approximate).
func FmaRound(a, b, c float64, rm int) float64 {
	if rm == RmNearest || math.IsNaN(a) || math.IsNaN(b) || math.IsNaN(c) || math.IsInf(a, 0) || math.IsInf(b, 0) || math.IsInf(c, 0) {
		return math.FMA(a, b, c)
	}
	p := new(big.Float).SetPrec(110).SetFloat64(a)
	p.Mul(p, new(big.Float).SetFloat64(b))
	z := new(big.Float).SetPrec(53).SetMode([...]big.RoundingMode{big.ToNearestEven, big.ToPositiveInf, big.ToNegativeInf, big.ToZero}[rm])
	z.Add(p, new(big.Float).SetFloat64(c))
	r, _ := z.Float64()
	if r == 0 {
		s := math.FMA(a, b, c)
		if s == 0 && rm == RmMinusInf && math.Signbit(a) != math.Signbit(b) != math.Signbit(c) {
			return math.Copysign(0, -1)
		}
		return s
	}
	return r
}

// Denormal handling. MODE.FP_DENORM [5:4] is f32, [7:6] f64 and f16:
// bit 0 keeps input denormals, bit 1 keeps output denormals.

func IsDenorm32(u uint32) bool { return u&0x7f800000 == 0 && u&0x7fffff != 0 }
func IsDenorm64(u uint64) bool {
	return u&0x7ff0000000000000 == 0 && u&0xfffffffffffff != 0
}
func IsDenorm16(u uint16) bool { return u&0x7c00 == 0 && u&0x3ff != 0 }

// f16 conversion

// F16ToF64 widens an IEEE half.
func F16ToF64(h uint16) float64 {
	s := 1.0
	if h&0x8000 != 0 {
		s = -1
	}
	e := int(h >> 10 & 0x1f)
	m := float64(h & 0x3ff)
	switch e {
	case 0:
		return s * math.Ldexp(m, -24)
	case 31:
		if m == 0 {
			return math.Inf(int(s))
		}
		return math.Float64frombits(0x7ff8000000000000 | uint64(h&0x3ff)<<42 | uint64(h&0x8000)<<48)
	}
	return s * math.Ldexp(1024+m, e-25)
}

// F64ToF16 narrows (exactly given value hi+lo) to half under rm.
func F64ToF16(hi, lo float64, rm int) uint16 {
	if math.IsNaN(hi) {
		b := math.Float64bits(hi)
		return uint16(b>>48&0x8000) | 0x7e00 | uint16(b>>42&0x1ff)
	}
	r := roundFmt(hi, lo, fmtF16, rm)
	var s uint16
	if math.Signbit(r) {
		s = 0x8000
		r = -r
	}
	switch {
	case math.IsInf(r, 0):
		return s | 0x7c00
	case r == 0:
		return s
	}
	m, e := math.Frexp(r) // r = m*2^e, m in [0.5,1)
	if e-1 < -14 {
		return s | uint16(math.Ldexp(r, 24))
	}
	return s | uint16(e-1+15)<<10 | uint16(math.Ldexp(m, 11))&0x3ff
}

func f32ToF16(f float32, rm int, _ bool) uint16 { return F64ToF16(float64(f), 0, rm) }

// f32 rounding of an exact hi+lo.
func ToF32(hi, lo float64, rm int) float32 {
	if rm == RmNearest && lo == 0 {
		return float32(hi)
	}
	return float32(roundFmt(hi, lo, fmtF32, rm))
}

// Quiet32 returns NaN inputs quieted: the first NaN source wins, a NaN made
// from numbers is the default 0x7fc00000.
func Quiet32(r float32, a, b uint32) uint32 {
	if r == r {
		return F32bits(r)
	}
	if a&0x7fffffff > 0x7f800000 {
		return a | 0x400000
	}
	if b&0x7fffffff > 0x7f800000 {
		return b | 0x400000
	}
	return 0x7fc00000
}

func Quiet64(r float64, a, b uint64) uint64 {
	if r == r {
		return F64bits(r)
	}
	if a&0x7fffffffffffffff > 0x7ff0000000000000 {
		return a | 1<<51
	}
	if b&0x7fffffffffffffff > 0x7ff0000000000000 {
		return b | 1<<51
	}
	return 0x7ff8000000000000
}

func Quiet16(r uint16, a, b uint16) uint16 {
	if r&0x7fff <= 0x7c00 {
		return r
	}
	if a&0x7fff > 0x7c00 {
		return a | 0x200
	}
	if b&0x7fff > 0x7c00 {
		return b | 0x200
	}
	return 0x7e00
}

// OrNaN32, orNaN64 and orNaN16 pick a three-source operation's second
// NaN candidate for quiet32/quiet64/quiet16: b when it is a NaN, else c
// (so the first NaN of a, b and c is the one quieted).
func OrNaN32(b, c uint32) uint32 {
	if b&0x7fffffff > 0x7f800000 {
		return b
	}
	return c
}

func OrNaN64(b, c uint64) uint64 {
	if b&0x7fffffffffffffff > 0x7ff0000000000000 {
		return b
	}
	return c
}

func OrNaN16(b, c uint16) uint16 {
	if b&0x7fff > 0x7c00 {
		return b
	}
	return c
}

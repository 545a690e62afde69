package lanes

import "math"

// Rows of the f64 division helpers, v_ldexp_f64 and the f64 ⇄ 32-bit
// integer conversions. The division helpers and ldexp compute their
// common case and return the mask of the lanes (of 0..n-1) they leave
// unwritten for the caller's lane function.

// DivScaleF64 is v_div_scale_f64's common case: the result is a unless
// the denominator b's exponent field is 0 (zero or denormal), the
// numerator c's is at most 52 (zero included) or c's exceeds b's by 768
// or more, which depends on the high words alone.
func DivScaleF64(d, a, b, c *F64, n int) (rest uint64) {
	if SIMD {
		return divScaleF64AVX(d, a, b, c, n) & lowLanes(n)
	}
	return divScaleF64Go(d, a, b, c, n)
}

// divScaleF64Go is DivScaleF64's Go definition.
func divScaleF64Go(d, a, b, c *F64, n int) (rest uint64) {
	_, _, _ = a[0][0], b[0][0], c[0][0]
	for l := range d[0][:n] {
		expN, expD := int(c[1][l]>>20&0x7ff), int(b[1][l]>>20&0x7ff)
		if expD == 0 || expN <= 52 || expN-expD >= 768 {
			rest |= 1 << l
			continue
		}
		d[0][l], d[1][l] = a[0][l], a[1][l]
	}
	return rest
}

// DivFixupF64 is v_div_fixup_f64's common case: with b and c finite and
// non-zero, the result is |a| with the sign of b × c.
func DivFixupF64(d, a, b, c *F64, n int) (rest uint64) {
	if SIMD {
		return divFixupF64AVX(d, a, b, c, n) & lowLanes(n)
	}
	return divFixupF64Go(d, a, b, c, n)
}

// divFixupF64Go is DivFixupF64's Go definition.
func divFixupF64Go(d, a, b, c *F64, n int) (rest uint64) {
	const inf = 0x7ff00000
	_, _, _ = a[0][0], b[0][0], c[0][0]
	for l := range d[0][:n] {
		bh, ch := b[1][l], c[1][l]
		if bh&inf == inf || ch&inf == inf || bh<<1|b[0][l] == 0 || ch<<1|c[0][l] == 0 {
			rest |= 1 << l
			continue
		}
		d[0][l], d[1][l] = a[0][l], a[1][l]&^(1<<31)|(bh^ch)&(1<<31)
	}
	return rest
}

// fmasScale is v_div_fmas_f64's factor by a lane's VCC bit (×1 is exact
// for every number).
var fmasScale = [2]float64{1, 1 << 64}

// DivFmasF64 is v_div_fmas_f64 but for NaN results: a × b + c rounded
// once, times 2^64 in the lanes whose vcc bit is set.
func DivFmasF64(d, a, b, c *F64, vcc uint64, n int) (rest uint64) {
	if FMA {
		return divFmasF64AVX(d, a, b, c, vcc, n) & lowLanes(n)
	}
	return divFmasF64Go(d, a, b, c, vcc, n)
}

// divFmasF64Go is DivFmasF64's Go definition.
func divFmasF64Go(d, a, b, c *F64, vcc uint64, n int) (rest uint64) {
	_, _, _ = a[0][0], b[0][0], c[0][0]
	for l := range d[0][:n] {
		s := math.FMA(a.at(l), b.at(l), c.at(l)) * fmasScale[vcc&1]
		vcc >>= 1
		if s != s {
			rest |= 1 << l
			continue
		}
		d.set(l, s)
	}
	return rest
}

// LdexpF64 is v_ldexp_f64 for a normal a whose exponent stays normal:
// the exponent field moves by k (exactly as math.Ldexp).
func LdexpF64(d, a *F64, k *[64]uint32, n int) (rest uint64) {
	if SIMD {
		return ldexpF64AVX(d, a, k, n) & lowLanes(n)
	}
	return ldexpF64Go(d, a, k, n)
}

// ldexpF64Go is LdexpF64's Go definition.
func ldexpF64Go(d, a *F64, k *[64]uint32, n int) (rest uint64) {
	_ = a[0][0]
	for l := range d[0][:n] {
		h := a[1][l]
		e, m := int64(h>>20&0x7ff), int64(int32(k[l]))
		if e == 0 || e == 0x7ff || e+m < 1 || e+m > 0x7fe {
			rest |= 1 << l
			continue
		}
		d[0][l], d[1][l] = a[0][l], h+uint32(m)<<20
	}
	return rest
}

// F64FromI32 is v_cvt_f64_i32: d = float64(int32(a)), exact.
func F64FromI32(d *F64, a *[64]uint32, n int) {
	if SIMD {
		f64FromI32AVX(d, a, n)
		return
	}
	f64FromI32Go(d, a, n)
}

// f64FromI32Go is F64FromI32's Go definition.
func f64FromI32Go(d *F64, a *[64]uint32, n int) {
	for l := range d[0][:n] {
		d.set(l, float64(int32(a[l])))
	}
}

// F64FromU32 is v_cvt_f64_u32: d = float64(a), exact.
func F64FromU32(d *F64, a *[64]uint32, n int) {
	if SIMD {
		f64FromU32AVX(d, a, n)
		return
	}
	f64FromU32Go(d, a, n)
}

// f64FromU32Go is F64FromU32's Go definition.
func f64FromU32Go(d *F64, a *[64]uint32, n int) {
	for l := range d[0][:n] {
		d.set(l, float64(a[l]))
	}
}

// I32FromF64 is v_cvt_i32_f64: a truncated and saturated to an int32, a
// NaN to 0.
func I32FromF64(d *[64]uint32, a *F64, n int) {
	if SIMD {
		i32FromF64AVX(d, a, n)
		return
	}
	i32FromF64Go(d, a, n)
}

// i32FromF64Go is I32FromF64's Go definition.
func i32FromF64Go(d *[64]uint32, a *F64, n int) {
	_ = a[0][0]
	for l := range d[:n] {
		switch x := a.at(l); {
		case x != x:
			d[l] = 0
		case x >= math.MaxInt32:
			d[l] = math.MaxInt32
		case x <= math.MinInt32:
			d[l] = 1 << 31
		default:
			d[l] = uint32(int32(x))
		}
	}
}

// U32FromF64 is v_cvt_u32_f64: a truncated and saturated to a uint32, a
// NaN to 0.
func U32FromF64(d *[64]uint32, a *F64, n int) {
	if SIMD {
		u32FromF64AVX(d, a, n)
		return
	}
	u32FromF64Go(d, a, n)
}

// u32FromF64Go is U32FromF64's Go definition.
func u32FromF64Go(d *[64]uint32, a *F64, n int) {
	_ = a[0][0]
	for l := range d[:n] {
		switch x := a.at(l); {
		case x != x, x <= 0:
			d[l] = 0
		case x >= math.MaxUint32:
			d[l] = math.MaxUint32
		default:
			d[l] = uint32(x)
		}
	}
}

package lanes

import "math/bits"

// The f16 ⇄ f32 conversion rows: one word a lane, an f16 in its low
// half; like the package's other rows they compute the lanes of the
// quads holding lanes 0 to n-1. Each runs its F16C version (f16_amd64.s:
// VCVTPS2PH, VCVTPH2PS) when F16C is set, else its Go definition, built
// on the exact bit-level conversions F16FromF32Bits and F32FromF16Bits. A lane whose f16 has a
// zero exponent field (a zero or a denormal) loses the bits of flush:
// 0x7fff flushes it to a signed zero, 0 keeps it.

// F16FromF32 is d = a's f32 lanes narrowed to f16 rounding to nearest
// even (zero-extended), the results' denormals flushed as flush says.
func F16FromF32(d, a *[64]uint32, n int, flush uint32) {
	if F16C {
		f16FromF32F16C(d, a, n, flush)
		return
	}
	f16FromF32Go(d, a, n, flush)
}

// f16FromF32Go is F16FromF32's Go definition.
func f16FromF32Go(d, a *[64]uint32, n int, flush uint32) {
	for l := range 4 * nquads(n) {
		d[l] = flushF16(uint32(F16FromF32Bits(a[l])), flush)
	}
}

// F32FromF16 is d = the f32 of the f16 in each a lane's low half, after
// clearing the bits of clear, flipping those of flip (the abs and neg
// modifiers, bit 15) and flushing a denormal as flush says. (An f16 is a
// normal f32 or zero, so the result needs no flushing.)
func F32FromF16(d, a *[64]uint32, n int, clear, flip, flush uint32) {
	if F16C {
		f32FromF16F16C(d, a, n, clear, flip, flush)
		return
	}
	f32FromF16Go(d, a, n, clear, flip, flush)
}

// f32FromF16Go is F32FromF16's Go definition.
func f32FromF16Go(d, a *[64]uint32, n int, clear, flip, flush uint32) {
	for l := range 4 * nquads(n) {
		h := flushF16(uint32(uint16(a[l]&^clear^flip)), flush)
		d[l] = F32FromF16Bits(uint16(h))
	}
}

// flushF16 clears the bits of flush from h when its exponent field is 0.
func flushF16(h, flush uint32) uint32 {
	if h&0x7c00 == 0 {
		return h &^ flush
	}
	return h
}

// F16FromF32Bits narrows f32 bits to f16 rounding to nearest even (a NaN
// keeps the sign and the payload's top nine bits and is quiet).
func F16FromF32Bits(u uint32) uint16 {
	s := uint16(u>>16) & 0x8000
	e := u >> 23 & 0xff
	m := u & 0x7fffff
	switch {
	case e == 0xff:
		if m != 0 {
			return s | 0x7e00 | uint16(m>>13&0x1ff)
		}
		return s | 0x7c00
	case e >= 143: // 2^16 and above
		return s | 0x7c00
	case e >= 113: // normal: a carry out of the mantissa moves up a binade (or to infinity)
		h := (e-112)<<10 | m>>13
		if rem := m & 0x1fff; rem > 0x1000 || rem == 0x1000 && h&1 != 0 {
			h++
		}
		return s | uint16(h)
	case e < 102: // below 2^-25: rounds to zero
		return s
	}
	// subnormal half: units of 2^-24
	mm := m | 0x800000
	sh := 126 - e
	h := mm >> sh
	half := uint32(1) << (sh - 1)
	if rem := mm & (half<<1 - 1); rem > half || rem == half && h&1 != 0 {
		h++
	}
	return s | uint16(h)
}

// F32FromF16Bits widens f16 bits exactly; a NaN is quieted keeping the
// payload's low nine bits.
func F32FromF16Bits(h uint16) uint32 {
	s := uint32(h&0x8000) << 16
	e := uint32(h >> 10 & 0x1f)
	m := uint32(h & 0x3ff)
	switch {
	case e == 31:
		if m == 0 {
			return s | 0x7f800000
		}
		return s | 0x7fc00000 | (m&0x1ff)<<13
	case e == 0:
		if m == 0 {
			return s
		}
		n := uint32(bits.LeadingZeros32(m) - 21) // moves the leading one to bit 10
		return s | (113-n)<<23 | (m<<n&0x3ff)<<13
	}
	return s | (e+112)<<23 | m<<13
}

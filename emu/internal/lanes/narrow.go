package lanes

// The small-integer rows: 32-bit signed min and median of three, the
// 24-bit multiplies and the 16-bit adds, one
// word a lane, computing the quads holding lanes 0 to n-1. Each runs its
// AVX2 version (narrow_amd64.s) when SIMD is set, else its Go definition.

// MinI32 is d = min(a, b) as int32s (v_min_i32).
func MinI32(d, a, b *[64]uint32, n int) {
	if SIMD {
		minI32AVX2(d, a, b, n)
		return
	}
	minI32Go(d, a, b, n)
}

// minI32Go is MinI32's Go definition.
func minI32Go(d, a, b *[64]uint32, n int) {
	for l := range 4 * nquads(n) {
		d[l] = uint32(min(int32(a[l]), int32(b[l])))
	}
}

// Med3I32 is d = the median of a, b and c as int32s (v_med3_i32).
func Med3I32(d, a, b, c *[64]uint32, n int) {
	if SIMD {
		med3I32AVX2(d, a, b, c, n)
		return
	}
	med3I32Go(d, a, b, c, n)
}

// med3I32Go is Med3I32's Go definition.
func med3I32Go(d, a, b, c *[64]uint32, n int) {
	for l := range 4 * nquads(n) {
		x, y := int32(a[l]), int32(b[l])
		d[l] = uint32(max(min(x, y), min(max(x, y), int32(c[l]))))
	}
}

// MadI24 is d = a × b + c, the factors the sign-extended low 24 bits of
// a and b, truncated to 32 bits (v_mad_i32_i24 without clamp).
func MadI24(d, a, b, c *[64]uint32, n int) {
	if SIMD {
		madI24AVX2(d, a, b, c, n)
		return
	}
	madI24Go(d, a, b, c, n)
}

// madI24Go is MadI24's Go definition.
func madI24Go(d, a, b, c *[64]uint32, n int) {
	for l := range 4 * nquads(n) {
		d[l] = uint32(sext24(a[l])*sext24(b[l])) + c[l]
	}
}

// MulU24 is d = a × b, the factors the low 24 bits of a and b, truncated
// to 32 bits (v_mul_u32_u24).
func MulU24(d, a, b *[64]uint32, n int) {
	if SIMD {
		mulU24AVX2(d, a, b, n)
		return
	}
	mulU24Go(d, a, b, n)
}

// mulU24Go is MulU24's Go definition.
func mulU24Go(d, a, b *[64]uint32, n int) {
	for l := range 4 * nquads(n) {
		d[l] = a[l] & 0xffffff * (b[l] & 0xffffff)
	}
}

// AddU16 is d = a + b truncated to 16 bits (v_add_u16; the high halves
// of d are 0).
func AddU16(d, a, b *[64]uint32, n int) {
	if SIMD {
		addU16AVX2(d, a, b, n)
		return
	}
	addU16Go(d, a, b, n)
}

// addU16Go is AddU16's Go definition.
func addU16Go(d, a, b *[64]uint32, n int) {
	for l := range 4 * nquads(n) {
		d[l] = (a[l] + b[l]) & 0xffff
	}
}

// AddSatU16 is d = a + b, the low halves as uint16s, saturating at 0xffff
// (v_add_u16 with clamp; the high halves of d are 0).
func AddSatU16(d, a, b *[64]uint32, n int) {
	if SIMD {
		addSatU16AVX2(d, a, b, n)
		return
	}
	addSatU16Go(d, a, b, n)
}

// addSatU16Go is AddSatU16's Go definition.
func addSatU16Go(d, a, b *[64]uint32, n int) {
	for l := range 4 * nquads(n) {
		d[l] = min(a[l]&0xffff+b[l]&0xffff, 0xffff)
	}
}

// sext24 is the low 24 bits of x sign-extended.
func sext24(x uint32) int32 { return int32(x<<8) >> 8 }

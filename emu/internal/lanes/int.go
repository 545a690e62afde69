package lanes

import (
	"unsafe"
)

// The integer lane loops. Each exported function runs the assembly version
// when SIMD is set, else its Go definition (the function of the same name
// with a Go suffix), which runs four consecutive lanes (a quad) a step.
// Masks (carries in and out, selects, compare results) hold lane l's bit
// at bit l; a returned mask has the bits of the computed quads' lanes
// (lanes n up to the end of the last quad included) and no others.

// Add sets d = a + b and returns the carries out.
func Add(d, a, b *[64]uint32, n int) uint64 {
	if SIMD {
		return addAVX2(d, a, b, n)
	}
	return addGo(d, a, b, n)
}

// AddCarry sets d = a + b + the carries in cm and returns the carries out.
func AddCarry(d, a, b *[64]uint32, cm uint64, n int) uint64 {
	if SIMD {
		return addCarryAVX2(d, a, b, cm, n)
	}
	return addCarryGo(d, a, b, cm, n)
}

// AddUniform sets d = x + b, the add of an SGPR or constant base and a
// VGPR offset, and returns the carries out.
func AddUniform(d *[64]uint32, x uint32, b *[64]uint32, n int) uint64 {
	if SIMD {
		return addUniformAVX2(d, x, b, n)
	}
	return addUniformGo(d, x, b, n)
}

// Sub sets d = a - b and returns the borrows out.
func Sub(d, a, b *[64]uint32, n int) uint64 {
	if SIMD {
		return subAVX2(d, a, b, n)
	}
	return subGo(d, a, b, n)
}

// SubBorrow sets d = a - b - the borrows in cm and returns the borrows out.
func SubBorrow(d, a, b *[64]uint32, cm uint64, n int) uint64 {
	if SIMD {
		return subBorrowAVX2(d, a, b, cm, n)
	}
	return subBorrowGo(d, a, b, cm, n)
}

// Select sets d to b's lane where m has the lane's bit, else to a's.
func Select(d, a, b *[64]uint32, m uint64, n int) {
	if SIMD {
		selectAVX2(d, a, b, m, n)
		return
	}
	selectGo(d, a, b, m, n)
}

// MulWide sets each lane of the pair dlo, dhi to the 64-bit product a×b.
func MulWide(dlo, dhi, a, b *[64]uint32, n int) {
	if SIMD {
		mulWideAVX2(dlo, dhi, a, b, n)
		return
	}
	mulWideGo(dlo, dhi, a, b, n)
}

// MadWide sets each lane of the pair dlo, dhi to a×b + the 64-bit addend
// clo, chi (v_mad_u64_u32) and returns the carries out of bit 63.
func MadWide(dlo, dhi, a, b, clo, chi *[64]uint32, n int) uint64 {
	if SIMD {
		return madWideAVX2(dlo, dhi, a, b, clo, chi, n)
	}
	return madWideGo(dlo, dhi, a, b, clo, chi, n)
}

// MulLo sets d to the low dwords of the products a×b.
func MulLo(d, a, b *[64]uint32, n int) {
	if SIMD {
		mulLoAVX2(d, a, b, n)
		return
	}
	mulLoGo(d, a, b, n)
}

// Add3 sets d = a + b + c, modulo 2^32.
func Add3(d, a, b, c *[64]uint32, n int) {
	if SIMD {
		add3AVX2(d, a, b, c, n)
		return
	}
	add3Go(d, a, b, c, n)
}

// MulHi sets d to the high dwords of the 64-bit products a×b.
func MulHi(d, a, b *[64]uint32, n int) {
	if SIMD {
		mulHiAVX2(d, a, b, n)
		return
	}
	mulHiGo(d, a, b, n)
}

// Less returns the mask of lanes where a < b, unsigned.
func Less(a, b *[64]uint32, n int) uint64 {
	if SIMD {
		return lessAVX2(a, b, n)
	}
	return lessGo(a, b, n)
}

// LessSigned returns the mask of lanes where a < b as int32s.
func LessSigned(a, b *[64]uint32, n int) uint64 {
	if SIMD {
		return lessSignedAVX2(a, b, n)
	}
	return lessSignedGo(a, b, n)
}

// Equal returns the mask of lanes where a == b.
func Equal(a, b *[64]uint32, n int) uint64 {
	if SIMD {
		return equalAVX2(a, b, n)
	}
	return equalGo(a, b, n)
}

// Less64 returns the mask of lanes where the 64-bit value alo, ahi is below
// blo, bhi, unsigned.
func Less64(alo, ahi, blo, bhi *[64]uint32, n int) uint64 {
	if SIMD {
		return less64AVX2(alo, ahi, blo, bhi, 0, n)
	}
	return less64Go(alo, ahi, blo, bhi, 0, n)
}

// LessSigned64 returns the mask of lanes where alo, ahi < blo, bhi as
// int64s.
func LessSigned64(alo, ahi, blo, bhi *[64]uint32, n int) uint64 {
	if SIMD {
		return less64AVX2(alo, ahi, blo, bhi, 1<<31, n)
	}
	return less64Go(alo, ahi, blo, bhi, 1<<31, n)
}

// Equal64 returns the mask of lanes where alo, ahi == blo, bhi.
func Equal64(alo, ahi, blo, bhi *[64]uint32, n int) uint64 {
	if SIMD {
		return equal64AVX2(alo, ahi, blo, bhi, n)
	}
	return equal64Go(alo, ahi, blo, bhi, n)
}

// ShiftLeft64 sets each lane of dlo, dhi to the 64-bit value lo, hi
// shifted left by the lane's amount s mod 64. The rows of D may be those of
// the value, or one up (dlo is hi).
func ShiftLeft64(dlo, dhi, s, lo, hi *[64]uint32, n int) {
	if SIMD {
		shift64AVX2(dlo, dhi, s, lo, hi, shiftLeft, n)
		return
	}
	shift64Go(dlo, dhi, s, lo, hi, shiftLeft, n)
}

// ShiftRight64 is ShiftLeft64 shifting right, unsigned.
func ShiftRight64(dlo, dhi, s, lo, hi *[64]uint32, n int) {
	if SIMD {
		shift64AVX2(dlo, dhi, s, lo, hi, shiftRight, n)
		return
	}
	shift64Go(dlo, dhi, s, lo, hi, shiftRight, n)
}

// ShiftRightSigned64 is ShiftRight64 for int64s.
func ShiftRightSigned64(dlo, dhi, s, lo, hi *[64]uint32, n int) {
	if SIMD {
		shift64AVX2(dlo, dhi, s, lo, hi, shiftRightSigned, n)
		return
	}
	shift64Go(dlo, dhi, s, lo, hi, shiftRightSigned, n)
}

// quads views a register as 16 quads of lanes.
func quads(r *[64]uint32) *[16][4]uint32 { return (*[16][4]uint32)(unsafe.Pointer(r)) }

// nquads is the number of quads holding lanes 0 to n-1.
func nquads(n int) int { return (n + 3) >> 2 }

// quad packs four bits (each 0 or 1) into a nibble, in three LEAs.
func quad(c0, c1, c2, c3 uint64) uint64 { return (c0 + c1*2) + (c2+c3*2)*4 }

// The Go loops shift each quad's nibble in at the top of their mask (m =
// m>>4 | q<<60); quadDown then moves lane l's bit to bit l.
func quadDown(m uint64, g int) uint64 { return m >> uint(64-4*g) }

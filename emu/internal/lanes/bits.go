package lanes

import "unsafe"

// Bitwise rows: v_lshl_or_b32, and the fill of a uniform source.

// ShiftLeftOr sets d = a<<(b&31) | c.
func ShiftLeftOr(d, a, b, c *[64]uint32, n int) {
	if SIMD {
		shiftLeftOrAVX2(d, a, b, c, n)
		return
	}
	shiftLeftOrGo(d, a, b, c, n)
}

// shiftLeftOrGo is ShiftLeftOr's definition, a quad a step.
func shiftLeftOrGo(d, a, b, c *[64]uint32, n int) {
	qa := quads(a)[:nquads(n)]
	qd, qb, qc := quads(d)[:len(qa)], quads(b)[:len(qa)], quads(c)[:len(qa)]
	for i := range qa {
		x, s, z := &qa[i], &qb[i], &qc[i]
		qd[i] = [4]uint32{x[0]<<(s[0]&31) | z[0], x[1]<<(s[1]&31) | z[1], x[2]<<(s[2]&31) | z[2], x[3]<<(s[3]&31) | z[3]}
	}
}

// Fill sets lanes 0 to n-1 of d, and the rest of their block of eight, to
// x: a uniform source's row.
func Fill(d *[64]uint32, x uint32, n int) {
	if SIMD {
		fillAVX2(d, x, n)
		return
	}
	fillGo(d, x, n)
}

// fillGo is Fill's definition, a block of eight lanes a step.
func fillGo(d *[64]uint32, x uint32, n int) {
	p := (*[8][8]uint32)(unsafe.Pointer(d))
	for i := range p[:(n+7)>>3] {
		p[i] = [8]uint32{x, x, x, x, x, x, x, x}
	}
}

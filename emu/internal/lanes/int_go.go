package lanes

import (
	"math/bits"
	"unsafe"
)

// below is 1 when a < b, else 0.
func below(a, b uint32) uint64 { return (uint64(a) - uint64(b)) >> 63 }

// addGo computes each lane's carry as bit 32 of its 64-bit sum.
func addGo(d, a, b *[64]uint32, n int) uint64 {
	g := nquads(n)
	qa := quads(a)[:g]
	qd, qb := quads(d)[:len(qa)], quads(b)[:len(qa)]
	var m uint64
	for i := range qa {
		x, y := &qa[i], &qb[i]
		s0 := uint64(x[0]) + uint64(y[0])
		s1 := uint64(x[1]) + uint64(y[1])
		s2 := uint64(x[2]) + uint64(y[2])
		s3 := uint64(x[3]) + uint64(y[3])
		qd[i] = [4]uint32{uint32(s0), uint32(s1), uint32(s2), uint32(s3)}
		m = m>>4 | quad(s0>>32, s1>>32, s2>>32, s3>>32)<<60
	}
	return quadDown(m, g)
}

// addCarryGo takes a quad's carries in from quadBits, one memory operand a
// lane.
func addCarryGo(d, a, b *[64]uint32, cm uint64, n int) uint64 {
	g := nquads(n)
	qa := quads(a)[:g]
	qd, qb := quads(d)[:len(qa)], quads(b)[:len(qa)]
	var m uint64
	for i := range qa {
		x, y, c := &qa[i], &qb[i], &quadBits[cm&15]
		cm >>= 4
		s0 := uint64(x[0]) + uint64(y[0]) + c[0]
		s1 := uint64(x[1]) + uint64(y[1]) + c[1]
		s2 := uint64(x[2]) + uint64(y[2]) + c[2]
		s3 := uint64(x[3]) + uint64(y[3]) + c[3]
		qd[i] = [4]uint32{uint32(s0), uint32(s1), uint32(s2), uint32(s3)}
		m = m>>4 | quad(s0>>32, s1>>32, s2>>32, s3>>32)<<60
	}
	return quadDown(m, g)
}

// addUniformGo first adds and ORs the offsets together, one pass: when
// OR(b) + x < 2^32, which bounds every lane's sum, no lane carries — the
// common case of an index or offset added to an address — and the carry
// loop is skipped. Otherwise a second pass finds the lanes whose sum
// wrapped below x.
func addUniformGo(d *[64]uint32, x uint32, b *[64]uint32, n int) uint64 {
	g := nquads(n)
	qd := quads(d)
	var or uint32
	for i := range quads(b)[:g] {
		y := &quads(b)[i]
		or |= y[0] | y[1] | y[2] | y[3]
		qd[i] = [4]uint32{x + y[0], x + y[1], x + y[2], x + y[3]}
	}
	if uint64(or)+uint64(x) < 1<<32 {
		return 0
	}
	var m uint64
	for i := range qd[:g] {
		s := &qd[i]
		m = m>>4 | quad(below(s[0], x), below(s[1], x), below(s[2], x), below(s[3], x))<<60
	}
	return quadDown(m, g)
}

// subGo computes each lane's borrow as bit 63 of its 64-bit difference.
func subGo(d, a, b *[64]uint32, n int) uint64 {
	g := nquads(n)
	qa := quads(a)[:g]
	qd, qb := quads(d)[:len(qa)], quads(b)[:len(qa)]
	var m uint64
	for i := range qa {
		x, y := &qa[i], &qb[i]
		s0 := uint64(x[0]) - uint64(y[0])
		s1 := uint64(x[1]) - uint64(y[1])
		s2 := uint64(x[2]) - uint64(y[2])
		s3 := uint64(x[3]) - uint64(y[3])
		qd[i] = [4]uint32{uint32(s0), uint32(s1), uint32(s2), uint32(s3)}
		m = m>>4 | quad(s0>>63, s1>>63, s2>>63, s3>>63)<<60
	}
	return quadDown(m, g)
}

// subBorrowGo is subGo with the borrows in from quadBits.
func subBorrowGo(d, a, b *[64]uint32, cm uint64, n int) uint64 {
	g := nquads(n)
	qa := quads(a)[:g]
	qd, qb := quads(d)[:len(qa)], quads(b)[:len(qa)]
	var m uint64
	for i := range qa {
		x, y, c := &qa[i], &qb[i], &quadBits[cm&15]
		cm >>= 4
		s0 := uint64(x[0]) - uint64(y[0]) - c[0]
		s1 := uint64(x[1]) - uint64(y[1]) - c[1]
		s2 := uint64(x[2]) - uint64(y[2]) - c[2]
		s3 := uint64(x[3]) - uint64(y[3]) - c[3]
		qd[i] = [4]uint32{uint32(s0), uint32(s1), uint32(s2), uint32(s3)}
		m = m>>4 | quad(s0>>63, s1>>63, s2>>63, s3>>63)<<60
	}
	return quadDown(m, g)
}

// quadBits[q] holds the four bits of nibble q, one a lane.
var quadBits = func() (t [16][4]uint64) {
	for q := range t {
		for k := range t[q] {
			t[q][k] = uint64(q) >> uint(k) & 1
		}
	}
	return t
}()

// selectGo blends a quad a step as two pairs of lanes viewed as uint64s,
// each through its half of quadMasks[nibble].
func selectGo(d, a, b *[64]uint32, m uint64, n int) {
	pa := pairs(a)[:nquads(n)]
	pd, pb := pairs(d)[:len(pa)], pairs(b)[:len(pa)]
	for i := range pa {
		x, y, k := &pa[i], &pb[i], &quadMasks[m&15]
		m >>= 4
		pd[i] = [2]uint64{x[0] ^ (x[0]^y[0])&k[0], x[1] ^ (x[1]^y[1])&k[1]}
	}
}

// pairs views a register as 16 quads of lanes, each two uint64s (lanes 4i
// and 4i+1, then 4i+2 and 4i+3, the first lane in the low half).
// Registers are 8-byte aligned (checkptr does not check the alignment of
// a pointer-free element type, but x86 does not mind).
func pairs(r *[64]uint32) *[16][2]uint64 { return (*[16][2]uint64)(unsafe.Pointer(r)) }

// quadMasks[q] spreads nibble q to lane masks: all ones in the lanes whose
// bit is set, as pairs.
var quadMasks = func() (t [16][2]uint64) {
	for q := range t {
		for k := range 4 {
			if q>>k&1 != 0 {
				t[q][k>>1] |= 0xffffffff << (32 * uint(k&1))
			}
		}
	}
	return t
}()

func mulWideGo(dlo, dhi, a, b *[64]uint32, n int) {
	qa := quads(a)[:nquads(n)]
	qlo, qhi, qb := quads(dlo)[:len(qa)], quads(dhi)[:len(qa)], quads(b)[:len(qa)]
	for i := range qa {
		x, y := &qa[i], &qb[i]
		p0, p1 := uint64(x[0])*uint64(y[0]), uint64(x[1])*uint64(y[1])
		p2, p3 := uint64(x[2])*uint64(y[2]), uint64(x[3])*uint64(y[3])
		qlo[i] = [4]uint32{uint32(p0), uint32(p1), uint32(p2), uint32(p3)}
		qhi[i] = [4]uint32{uint32(p0 >> 32), uint32(p1 >> 32), uint32(p2 >> 32), uint32(p3 >> 32)}
	}
}

func madWideGo(dlo, dhi, a, b, clo, chi *[64]uint32, n int) uint64 {
	g := nquads(n)
	qa := quads(a)[:g]
	qlo, qhi, qb := quads(dlo)[:len(qa)], quads(dhi)[:len(qa)], quads(b)[:len(qa)]
	qclo, qchi := quads(clo)[:len(qa)], quads(chi)[:len(qa)]
	var m uint64
	for i := range qa {
		x, y, zlo, zhi := &qa[i], &qb[i], &qclo[i], &qchi[i]
		s0, c0 := bits.Add64(uint64(x[0])*uint64(y[0]), uint64(zlo[0])|uint64(zhi[0])<<32, 0)
		s1, c1 := bits.Add64(uint64(x[1])*uint64(y[1]), uint64(zlo[1])|uint64(zhi[1])<<32, 0)
		s2, c2 := bits.Add64(uint64(x[2])*uint64(y[2]), uint64(zlo[2])|uint64(zhi[2])<<32, 0)
		s3, c3 := bits.Add64(uint64(x[3])*uint64(y[3]), uint64(zlo[3])|uint64(zhi[3])<<32, 0)
		qlo[i] = [4]uint32{uint32(s0), uint32(s1), uint32(s2), uint32(s3)}
		qhi[i] = [4]uint32{uint32(s0 >> 32), uint32(s1 >> 32), uint32(s2 >> 32), uint32(s3 >> 32)}
		m = m>>4 | quad(c0, c1, c2, c3)<<60
	}
	return quadDown(m, g)
}

func mulLoGo(d, a, b *[64]uint32, n int) {
	qa := quads(a)[:nquads(n)]
	qd, qb := quads(d)[:len(qa)], quads(b)[:len(qa)]
	for i := range qa {
		x, y := &qa[i], &qb[i]
		qd[i] = [4]uint32{x[0] * y[0], x[1] * y[1], x[2] * y[2], x[3] * y[3]}
	}
}

func add3Go(d, a, b, c *[64]uint32, n int) {
	qa := quads(a)[:nquads(n)]
	qd, qb, qc := quads(d)[:len(qa)], quads(b)[:len(qa)], quads(c)[:len(qa)]
	for i := range qa {
		x, y, z := &qa[i], &qb[i], &qc[i]
		qd[i] = [4]uint32{x[0] + y[0] + z[0], x[1] + y[1] + z[1], x[2] + y[2] + z[2], x[3] + y[3] + z[3]}
	}
}

func mulHiGo(d, a, b *[64]uint32, n int) {
	qa := quads(a)[:nquads(n)]
	qd, qb := quads(d)[:len(qa)], quads(b)[:len(qa)]
	for i := range qa {
		x, y := &qa[i], &qb[i]
		qd[i] = [4]uint32{uint32(uint64(x[0]) * uint64(y[0]) >> 32), uint32(uint64(x[1]) * uint64(y[1]) >> 32),
			uint32(uint64(x[2]) * uint64(y[2]) >> 32), uint32(uint64(x[3]) * uint64(y[3]) >> 32)}
	}
}

func lessGo(a, b *[64]uint32, n int) uint64 {
	g := nquads(n)
	qa := quads(a)[:g]
	qb := quads(b)[:len(qa)]
	var m uint64
	for i := range qa {
		x, y := &qa[i], &qb[i]
		m = m>>4 | quad(below(x[0], y[0]), below(x[1], y[1]), below(x[2], y[2]), below(x[3], y[3]))<<60
	}
	return quadDown(m, g)
}

// lessSignedGo compares with the sign bits flipped, which orders int32s
// as uint32s.
func lessSignedGo(a, b *[64]uint32, n int) uint64 {
	const bias = 1 << 31
	g := nquads(n)
	qa := quads(a)[:g]
	qb := quads(b)[:len(qa)]
	var m uint64
	for i := range qa {
		x, y := &qa[i], &qb[i]
		m = m>>4 | quad(below(x[0]^bias, y[0]^bias), below(x[1]^bias, y[1]^bias),
			below(x[2]^bias, y[2]^bias), below(x[3]^bias, y[3]^bias))<<60
	}
	return quadDown(m, g)
}

// equalGo: x^y - 1 borrows only for x^y == 0.
func equalGo(a, b *[64]uint32, n int) uint64 {
	g := nquads(n)
	qa := quads(a)[:g]
	qb := quads(b)[:len(qa)]
	var m uint64
	for i := range qa {
		x, y := &qa[i], &qb[i]
		t0 := (uint64(x[0]^y[0]) - 1) >> 63
		t1 := (uint64(x[1]^y[1]) - 1) >> 63
		t2 := (uint64(x[2]^y[2]) - 1) >> 63
		t3 := (uint64(x[3]^y[3]) - 1) >> 63
		m = m>>4 | quad(t0, t1, t2, t3)<<60
	}
	return quadDown(m, g)
}

// less64Go compares with hiBias XORed into both high dwords: 1<<31 orders
// int64s as uint64s.
func less64Go(alo, ahi, blo, bhi *[64]uint32, hiBias uint32, n int) uint64 {
	bias := uint64(hiBias) << 32
	g := nquads(n)
	qalo := quads(alo)[:g]
	qahi, qblo, qbhi := quads(ahi)[:len(qalo)], quads(blo)[:len(qalo)], quads(bhi)[:len(qalo)]
	var m uint64
	for i := range qalo {
		var t [4]uint64
		for k := range t {
			x := uint64(qalo[i][k]) | uint64(qahi[i][k])<<32
			y := uint64(qblo[i][k]) | uint64(qbhi[i][k])<<32
			_, t[k] = bits.Sub64(x^bias, y^bias, 0)
		}
		m = m>>4 | quad(t[0], t[1], t[2], t[3])<<60
	}
	return quadDown(m, g)
}

func equal64Go(alo, ahi, blo, bhi *[64]uint32, n int) uint64 {
	g := nquads(n)
	qalo := quads(alo)[:g]
	qahi, qblo, qbhi := quads(ahi)[:len(qalo)], quads(blo)[:len(qalo)], quads(bhi)[:len(qalo)]
	var m uint64
	for i := range qalo {
		var t [4]uint64
		for k := range t {
			d := uint64(qalo[i][k]^qblo[i][k]) | uint64(qahi[i][k]^qbhi[i][k])<<32
			t[k] = ^(d | -d) >> 63 // bit 63 of d | -d is set unless d == 0
		}
		m = m>>4 | quad(t[0], t[1], t[2], t[3])<<60
	}
	return quadDown(m, g)
}

// The 64-bit shifts.
const (
	shiftLeft = iota
	shiftRight
	shiftRightSigned
)

// shift64Go computes each quad's results before it stores any, so D may
// be the value's rows or one up.
func shift64Go(dlo, dhi, s, lo, hi *[64]uint32, kind int, n int) {
	qs := quads(s)[:nquads(n)]
	qdlo, qdhi := quads(dlo)[:len(qs)], quads(dhi)[:len(qs)]
	qlo, qhi := quads(lo)[:len(qs)], quads(hi)[:len(qs)]
	for i := range qs {
		var v [4]uint64
		for k := range v {
			x, c := uint64(qlo[i][k])|uint64(qhi[i][k])<<32, qs[i][k]&63
			switch kind {
			case shiftLeft:
				v[k] = x << c
			case shiftRight:
				v[k] = x >> c
			default:
				v[k] = uint64(int64(x) >> c)
			}
		}
		qdlo[i] = [4]uint32{uint32(v[0]), uint32(v[1]), uint32(v[2]), uint32(v[3])}
		qdhi[i] = [4]uint32{uint32(v[0] >> 32), uint32(v[1] >> 32), uint32(v[2] >> 32), uint32(v[3] >> 32)}
	}
}

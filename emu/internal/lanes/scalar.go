package lanes

// Rows with a scalar operand: the VALU forms whose other source is an
// SGPR or constant (v_add_u32 v, s, v; v_mul_lo_u32 v, v, s;
// v_lshlrev_b32 v, 3, v; v_cmp_* vcc, s, v), which take the value x
// itself instead of a row filled with it.
// Like the other rows they compute the quads holding lanes 0 to n-1; a
// returned mask has the bits of those quads' lanes and no others.

// AddS sets d = a + x.
func AddS(d, a *[64]uint32, x uint32, n int) {
	if SIMD {
		addSAVX2(d, a, x, n)
		return
	}
	addSGo(d, a, x, n)
}

// SubFromS sets d = x - a.
func SubFromS(d, a *[64]uint32, x uint32, n int) {
	if SIMD {
		subFromSAVX2(d, a, x, n)
		return
	}
	subFromSGo(d, a, x, n)
}

// MulLoS sets d to the low dwords of the products a×x.
func MulLoS(d, a *[64]uint32, x uint32, n int) {
	if SIMD {
		mulLoSAVX2(d, a, x, n)
		return
	}
	mulLoSGo(d, a, x, n)
}

// MulHiS sets d to the high dwords of the 64-bit products a×x.
func MulHiS(d, a *[64]uint32, x uint32, n int) {
	if SIMD {
		mulHiSAVX2(d, a, x, n)
		return
	}
	mulHiSGo(d, a, x, n)
}

// ShiftLeftS sets d = a << (x & 31) (v_lshlrev_b32 by an SGPR or
// constant amount).
func ShiftLeftS(d, a *[64]uint32, x uint32, n int) {
	if SIMD {
		shiftLeftSAVX2(d, a, x, n)
		return
	}
	shiftLeftSGo(d, a, x, n)
}

// ShiftRightS sets d = a >> (x & 31), unsigned.
func ShiftRightS(d, a *[64]uint32, x uint32, n int) {
	if SIMD {
		shiftRightSAVX2(d, a, x, n)
		return
	}
	shiftRightSGo(d, a, x, n)
}

// ShiftRightSignedS sets d = a >> (x & 31) as int32s.
func ShiftRightSignedS(d, a *[64]uint32, x uint32, n int) {
	if SIMD {
		shiftRightSignedSAVX2(d, a, x, n)
		return
	}
	shiftRightSignedSGo(d, a, x, n)
}

// LessS returns the mask of lanes where a^flip < x^flip as int32s: a < x
// unsigned for flip 1<<31 (flipping both sign bits orders uint32s as
// int32s), as int32s for flip 0.
func LessS(a *[64]uint32, x, flip uint32, n int) uint64 {
	if SIMD {
		return lessSAVX2(a, x, flip, n)
	}
	return lessSGo(a, x, flip, n)
}

// GreaterS is LessS for a^flip > x^flip.
func GreaterS(a *[64]uint32, x, flip uint32, n int) uint64 {
	if SIMD {
		return greaterSAVX2(a, x, flip, n)
	}
	return greaterSGo(a, x, flip, n)
}

// EqualS returns the mask of lanes where a == x.
func EqualS(a *[64]uint32, x uint32, n int) uint64 {
	if SIMD {
		return equalSAVX2(a, x, n)
	}
	return equalSGo(a, x, n)
}

// The Go definitions, a quad a step.

func addSGo(d, a *[64]uint32, x uint32, n int) {
	qa := quads(a)[:nquads(n)]
	qd := quads(d)[:len(qa)]
	for i := range qa {
		y := &qa[i]
		qd[i] = [4]uint32{y[0] + x, y[1] + x, y[2] + x, y[3] + x}
	}
}

func subFromSGo(d, a *[64]uint32, x uint32, n int) {
	qa := quads(a)[:nquads(n)]
	qd := quads(d)[:len(qa)]
	for i := range qa {
		y := &qa[i]
		qd[i] = [4]uint32{x - y[0], x - y[1], x - y[2], x - y[3]}
	}
}

func mulLoSGo(d, a *[64]uint32, x uint32, n int) {
	qa := quads(a)[:nquads(n)]
	qd := quads(d)[:len(qa)]
	for i := range qa {
		y := &qa[i]
		qd[i] = [4]uint32{y[0] * x, y[1] * x, y[2] * x, y[3] * x}
	}
}

func mulHiSGo(d, a *[64]uint32, x uint32, n int) {
	qa := quads(a)[:nquads(n)]
	qd := quads(d)[:len(qa)]
	m := uint64(x)
	for i := range qa {
		y := &qa[i]
		qd[i] = [4]uint32{uint32(uint64(y[0]) * m >> 32), uint32(uint64(y[1]) * m >> 32),
			uint32(uint64(y[2]) * m >> 32), uint32(uint64(y[3]) * m >> 32)}
	}
}

func shiftLeftSGo(d, a *[64]uint32, x uint32, n int) {
	qa := quads(a)[:nquads(n)]
	qd := quads(d)[:len(qa)]
	s := x & 31
	for i := range qa {
		y := &qa[i]
		qd[i] = [4]uint32{y[0] << s, y[1] << s, y[2] << s, y[3] << s}
	}
}

func shiftRightSGo(d, a *[64]uint32, x uint32, n int) {
	qa := quads(a)[:nquads(n)]
	qd := quads(d)[:len(qa)]
	s := x & 31
	for i := range qa {
		y := &qa[i]
		qd[i] = [4]uint32{y[0] >> s, y[1] >> s, y[2] >> s, y[3] >> s}
	}
}

func shiftRightSignedSGo(d, a *[64]uint32, x uint32, n int) {
	qa := quads(a)[:nquads(n)]
	qd := quads(d)[:len(qa)]
	s := x & 31
	for i := range qa {
		y := &qa[i]
		qd[i] = [4]uint32{uint32(int32(y[0]) >> s), uint32(int32(y[1]) >> s), uint32(int32(y[2]) >> s), uint32(int32(y[3]) >> s)}
	}
}

// lessSGo compares as lessGo does, with the sign bits of a^flip and
// x^flip turned over so that below orders them as int32s.
func lessSGo(a *[64]uint32, x, flip uint32, n int) uint64 {
	const bias = 1 << 31
	g := nquads(n)
	qa := quads(a)[:g]
	f, z := flip^bias, x^flip^bias
	var m uint64
	for i := range qa {
		y := &qa[i]
		m = m>>4 | quad(below(y[0]^f, z), below(y[1]^f, z), below(y[2]^f, z), below(y[3]^f, z))<<60
	}
	return quadDown(m, g)
}

func greaterSGo(a *[64]uint32, x, flip uint32, n int) uint64 {
	const bias = 1 << 31
	g := nquads(n)
	qa := quads(a)[:g]
	f, z := flip^bias, x^flip^bias
	var m uint64
	for i := range qa {
		y := &qa[i]
		m = m>>4 | quad(below(z, y[0]^f), below(z, y[1]^f), below(z, y[2]^f), below(z, y[3]^f))<<60
	}
	return quadDown(m, g)
}

func equalSGo(a *[64]uint32, x uint32, n int) uint64 {
	g := nquads(n)
	qa := quads(a)[:g]
	var m uint64
	for i := range qa {
		y := &qa[i]
		t0 := (uint64(y[0]^x) - 1) >> 63
		t1 := (uint64(y[1]^x) - 1) >> 63
		t2 := (uint64(y[2]^x) - 1) >> 63
		t3 := (uint64(y[3]^x) - 1) >> 63
		m = m>>4 | quad(t0, t1, t2, t3)<<60
	}
	return quadDown(m, g)
}

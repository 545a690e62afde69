package lanes

// Plain 32-bit rows without carries: v_add_u32, v_sub_u32 and
// v_subrev_u32 (Sub32 with the sources swapped).

// Add32 sets d = a + b.
func Add32(d, a, b *[64]uint32, n int) {
	if SIMD {
		add32AVX2(d, a, b, n)
		return
	}
	add32Go(d, a, b, n)
}

// add32Go is Add32's definition, a quad a step.
func add32Go(d, a, b *[64]uint32, n int) {
	qa := quads(a)[:nquads(n)]
	qd, qb := quads(d)[:len(qa)], quads(b)[:len(qa)]
	for i := range qa {
		x, y := &qa[i], &qb[i]
		qd[i] = [4]uint32{x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]}
	}
}

// Sub32 sets d = a - b.
func Sub32(d, a, b *[64]uint32, n int) {
	if SIMD {
		sub32AVX2(d, a, b, n)
		return
	}
	sub32Go(d, a, b, n)
}

// sub32Go is Sub32's definition, a quad a step.
func sub32Go(d, a, b *[64]uint32, n int) {
	qa := quads(a)[:nquads(n)]
	qd, qb := quads(d)[:len(qa)], quads(b)[:len(qa)]
	for i := range qa {
		x, y := &qa[i], &qb[i]
		qd[i] = [4]uint32{x[0] - y[0], x[1] - y[1], x[2] - y[2], x[3] - y[3]}
	}
}

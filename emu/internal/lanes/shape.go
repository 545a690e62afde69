package lanes

// Progressions reports whether, for every lane l, a[l] = a[0] + stepA·l
// and b[l] = b[0] + stepB·l (modulo 2³², so a run may wrap): the shapes
// of a wave's vector-memory addresses. Step 0 asks for a uniform register;
// a and b may be one register.
func Progressions(a, b *[64]uint32, stepA, stepB uint32) bool {
	if SIMD {
		return progressionsAVX2(a, b, stepA, stepB)
	}
	return progressionsGo(a, b, stepA, stepB)
}

// progressionsGo is Progressions' definition, a lane a step.
func progressionsGo(a, b *[64]uint32, stepA, stepB uint32) bool {
	x, y, d := a[0], b[0], uint32(0)
	for l := range a {
		d |= (a[l] ^ x) | (b[l] ^ y)
		x += stepA
		y += stepB
	}
	return d == 0
}

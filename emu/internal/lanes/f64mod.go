package lanes

// SignsF64 writes a to d with abs and neg applied to every lane: each
// high dword's bits in am cleared, then those in nm flipped (am and nm
// are 0 or 1<<31). d may be a.
func SignsF64(d, a *F64, am, nm uint32) {
	if SIMD {
		signsF64AVX(d, a, am, nm)
		return
	}
	signsF64Go(d, a, am, nm)
}

// signsF64Go is SignsF64's Go definition.
func signsF64Go(d, a *F64, am, nm uint32) {
	d[0] = a[0]
	for l := range d[1] {
		d[1][l] = a[1][l]&^am ^ nm
	}
}

package lanes

// CmpF64 is the mask of the lanes l < n where v_cmp_*_f64 with the
// comparison code c holds for a and b: c's bits 0 to 3 are the outcomes
// it accepts, less, equal, greater and unordered (f = 0, lt = 1, eq = 2,
// le = 3, gt = 4, … u = 8, … tru = 15).
func CmpF64(a, b *F64, c int, n int) (mask uint64) {
	if SIMD {
		return cmpF64AVX(a, b, c, n) & lowLanes(n)
	}
	return cmpF64Go(a, b, c, n)
}

// cmpF64Go is CmpF64's Go definition.
func cmpF64Go(a, b *F64, c int, n int) (mask uint64) {
	_, _ = a[0][0], b[0][0]
	for l := range a[0][:n] {
		x, y := a.at(l), b.at(l)
		var outcome uint
		switch {
		case x < y:
			outcome = 0
		case x == y:
			outcome = 1
		case x > y:
			outcome = 2
		default:
			outcome = 3
		}
		mask |= uint64(c>>outcome&1) << l
	}
	return mask
}

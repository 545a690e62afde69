//go:build amd64 && !purego

package lanes

// The AVX2 versions of the integer loops, in int_amd64.s.

//go:noescape
func addAVX2(d, a, b *[64]uint32, n int) uint64

//go:noescape
func addCarryAVX2(d, a, b *[64]uint32, cm uint64, n int) uint64

//go:noescape
func addUniformAVX2(d *[64]uint32, x uint32, b *[64]uint32, n int) uint64

//go:noescape
func subAVX2(d, a, b *[64]uint32, n int) uint64

//go:noescape
func subBorrowAVX2(d, a, b *[64]uint32, cm uint64, n int) uint64

//go:noescape
func selectAVX2(d, a, b *[64]uint32, m uint64, n int)

//go:noescape
func mulWideAVX2(dlo, dhi, a, b *[64]uint32, n int)

//go:noescape
func madWideAVX2(dlo, dhi, a, b, clo, chi *[64]uint32, n int) uint64

//go:noescape
func mulLoAVX2(d, a, b *[64]uint32, n int)

//go:noescape
func add3AVX2(d, a, b, c *[64]uint32, n int)

//go:noescape
func mulHiAVX2(d, a, b *[64]uint32, n int)

//go:noescape
func lessAVX2(a, b *[64]uint32, n int) uint64

//go:noescape
func lessSignedAVX2(a, b *[64]uint32, n int) uint64

//go:noescape
func equalAVX2(a, b *[64]uint32, n int) uint64

//go:noescape
func less64AVX2(alo, ahi, blo, bhi *[64]uint32, hiBias uint32, n int) uint64

//go:noescape
func equal64AVX2(alo, ahi, blo, bhi *[64]uint32, n int) uint64

//go:noescape
func shift64AVX2(dlo, dhi, s, lo, hi *[64]uint32, kind int, n int)

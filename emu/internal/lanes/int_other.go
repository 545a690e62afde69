//go:build !amd64 || purego

package lanes

// Without assembly SIMD is false and the vector versions are never called;
// they are the Go definitions, so that they are still right if they were.
var (
	addAVX2        = addGo
	addCarryAVX2   = addCarryGo
	addUniformAVX2 = addUniformGo
	subAVX2        = subGo
	subBorrowAVX2  = subBorrowGo
	selectAVX2     = selectGo
	mulWideAVX2    = mulWideGo
	madWideAVX2    = madWideGo
	mulLoAVX2      = mulLoGo
	add3AVX2       = add3Go
	mulHiAVX2      = mulHiGo
	lessAVX2       = lessGo
	lessSignedAVX2 = lessSignedGo
	equalAVX2      = equalGo
	equal64AVX2    = equal64Go
	less64AVX2     = less64Go
	shift64AVX2    = shift64Go
)

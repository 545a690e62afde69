//go:build !amd64 || purego

package lanes

// Without assembly SIMD is false and the vector versions are never called;
// they are the Go definitions, so that they are still right if they were.
var (
	addAVX2        = addGo
	addCarryAVX2   = addCarryGo
	subAVX2        = subGo
	subBorrowAVX2  = subBorrowGo
	selectAVX2     = selectGo
	mulWideAVX2    = mulWideGo
	madWideAVX2    = madWideGo
	mulHiAVX2      = mulHiGo
	lessAVX2       = lessGo
	lessSignedAVX2 = lessSignedGo
	equalAVX2      = equalGo
)

//go:build !amd64 || purego

package lanes

// Without assembly the vector versions are the Go definitions (SIMD is
// false, so they are never called).
var (
	addSAVX2              = addSGo
	subFromSAVX2          = subFromSGo
	mulLoSAVX2            = mulLoSGo
	mulHiSAVX2            = mulHiSGo
	lessSAVX2             = lessSGo
	shiftLeftSAVX2        = shiftLeftSGo
	shiftRightSAVX2       = shiftRightSGo
	shiftRightSignedSAVX2 = shiftRightSignedSGo
	greaterSAVX2          = greaterSGo
	equalSAVX2            = equalSGo
)

//go:build !amd64 || purego

package lanes

// Without the assembly the f16 and small-integer rows' assembly versions
// are their Go definitions (never called: F16C and SIMD are false).
var (
	f16FromF32F16C = f16FromF32Go
	f32FromF16F16C = f32FromF16Go
	minI32AVX2     = minI32Go
	med3I32AVX2    = med3I32Go
	madI24AVX2     = madI24Go
	mulU24AVX2     = mulU24Go
	addU16AVX2     = addU16Go
	addSatU16AVX2  = addSatU16Go
)

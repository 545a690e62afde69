//go:build !amd64 || purego

package lanes

// Without the assembly the f32 rows' AVX2 versions are their Go
// definitions (never called: SIMD is false).
var (
	addF32AVX     = addF32Go
	subF32AVX     = subF32Go
	mulF32AVX     = mulF32Go
	madF32AVX     = madF32Go
	rcpF32AVX     = rcpF32Go
	roundF32AVX   = roundF32Go
	f32FromU32AVX = f32FromU32Go
	u32FromF32AVX = u32FromF32Go
	minF32AVX     = minF32Go
	maxF32AVX     = maxF32Go
	f32FromI32AVX = f32FromI32Go
	i32FromF32AVX = i32FromF32Go
	fmaF32AVX     = fmaF32Go
)

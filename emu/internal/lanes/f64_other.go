//go:build !amd64 || purego

package lanes

// Without the assembly SIMD and FMA are false and the AVX2 versions are
// never called; they are the Go definitions, so that they are still right
// if they were.
var (
	addF64AVX      = addF64Go
	addF64UAVX     = addF64UGo
	mulF64AVX      = mulF64Go
	mulF64UAVX     = mulF64UGo
	fmaF64AVX      = fmaF64Go
	fmaF64UBAVX    = fmaF64UBGo
	fmaF64UCAVX    = fmaF64UCGo
	rcpF64AVX      = rcpF64Go
	rsqF64AVX      = rsqF64Go
	sqrtF64AVX     = sqrtF64Go
	divScaleF64AVX = divScaleF64Go
	divFixupF64AVX = divFixupF64Go
	divFmasF64AVX  = divFmasF64Go
	ldexpF64AVX    = ldexpF64Go
	f64FromI32AVX  = f64FromI32Go
	f64FromU32AVX  = f64FromU32Go
	i32FromF64AVX  = i32FromF64Go
	u32FromF64AVX  = u32FromF64Go
	roundF64AVX    = roundF64Go
	cmpF64AVX      = cmpF64Go
)

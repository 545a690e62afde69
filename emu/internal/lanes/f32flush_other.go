//go:build !amd64 || purego

package lanes

// Without the assembly the flushing f32 rows' AVX2 versions are their Go
// definitions (never called: SIMD is false).
var (
	flushF32AVX    = flushF32Go
	addF32FlushAVX = addF32FlushGo
	subF32FlushAVX = subF32FlushGo
	mulF32FlushAVX = mulF32FlushGo
	madF32FlushAVX = madF32FlushGo
	fmaF32FlushAVX = fmaF32FlushGo
)

//go:build !amd64 || purego

package lanes

// Without the assembly the narrow loads' and stores' assembly versions
// are their Go definitions (never called: SIMD is false).
var (
	widenBytesAVX2   = widenBytesGo
	widenShortsAVX2  = widenShortsGo
	narrowBytesAVX2  = narrowBytesGo
	narrowShortsAVX2 = narrowShortsGo
)

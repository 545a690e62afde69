//go:build !amd64 || purego

package lanes

// Without assembly the vector versions are the Go definitions (SIMD is
// false, so they are never called).
var (
	shiftLeftOrAVX2 = shiftLeftOrGo
	fillAVX2        = fillGo
)

//go:build !amd64 || purego

package lanes

// Without assembly the vector versions are the Go definitions (SIMD is
// false, so they are never called).
var (
	add32AVX2 = add32Go
	sub32AVX2 = sub32Go
)

//go:build amd64 && !purego

package lanes

// The AVX2 versions of the plain 32-bit rows, in glue_amd64.s.

//go:noescape
func add32AVX2(d, a, b *[64]uint32, n int)

//go:noescape
func sub32AVX2(d, a, b *[64]uint32, n int)

//go:build amd64 && !purego

package lanes

// The AVX2 versions of the bitwise rows, in bits_amd64.s.

//go:noescape
func shiftLeftOrAVX2(d, a, b, c *[64]uint32, n int)

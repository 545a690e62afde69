//go:build amd64 && !purego

package lanes

// The AVX2 versions of the bitwise rows, in bits_amd64.s.

//go:noescape
func shiftLeftOrAVX2(d, a, b, c *[64]uint32, n int)

//go:noescape
func fillAVX2(d *[64]uint32, x uint32, n int)

//go:build amd64 && !purego

package lanes

// The AVX2 version of the address shape check, in shape_amd64.s.

//go:noescape
func progressionsAVX2(a, b *[64]uint32, stepA, stepB uint32) bool

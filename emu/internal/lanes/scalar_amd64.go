//go:build amd64 && !purego

package lanes

// The AVX2 versions of the scalar-operand rows, in scalar_amd64.s.

//go:noescape
func addSAVX2(d, a *[64]uint32, x uint32, n int)

//go:noescape
func subFromSAVX2(d, a *[64]uint32, x uint32, n int)

//go:noescape
func mulLoSAVX2(d, a *[64]uint32, x uint32, n int)

//go:noescape
func mulHiSAVX2(d, a *[64]uint32, x uint32, n int)

//go:noescape
func shiftLeftSAVX2(d, a *[64]uint32, x uint32, n int)

//go:noescape
func shiftRightSAVX2(d, a *[64]uint32, x uint32, n int)

//go:noescape
func shiftRightSignedSAVX2(d, a *[64]uint32, x uint32, n int)

//go:noescape
func lessSAVX2(a *[64]uint32, x, flip uint32, n int) uint64

//go:noescape
func greaterSAVX2(a *[64]uint32, x, flip uint32, n int) uint64

//go:noescape
func equalSAVX2(a *[64]uint32, x uint32, n int) uint64

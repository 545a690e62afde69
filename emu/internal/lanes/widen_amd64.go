//go:build amd64 && !purego

package lanes

// The assembly versions of the narrow loads' and stores' data movement,
// in widen_amd64.s, their slices' lengths checked by the callers.

//go:noescape
func widenBytesAVX2(dst []uint32, src []byte, signed bool)

//go:noescape
func widenShortsAVX2(dst []uint32, src []byte, signed bool)

//go:noescape
func narrowBytesAVX2(dst []byte, src []uint32, hi bool)

//go:noescape
func narrowShortsAVX2(dst []byte, src []uint32, hi bool)

//go:noescape
func moveRowAVX2(dst, src *[64]uint32)

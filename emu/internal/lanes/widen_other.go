//go:build !amd64 || purego

package lanes

// Without the assembly the narrow loads' and stores' assembly versions
// are their Go definitions (never called: SIMD is false). Functions, not
// variables as for the other rows: a call through a variable would let
// the callers' buffers escape (TestVMemFastNoAlloc).

// widenBytesAVX2 is widenBytesGo.
func widenBytesAVX2(dst []uint32, src []byte, signed bool) { widenBytesGo(dst, src, signed) }

// widenShortsAVX2 is widenShortsGo.
func widenShortsAVX2(dst []uint32, src []byte, signed bool) { widenShortsGo(dst, src, signed) }

// narrowBytesAVX2 is narrowBytesGo.
func narrowBytesAVX2(dst []byte, src []uint32, hi bool) { narrowBytesGo(dst, src, hi) }

// narrowShortsAVX2 is narrowShortsGo.
func narrowShortsAVX2(dst []byte, src []uint32, hi bool) { narrowShortsGo(dst, src, hi) }

// moveRowAVX2 is moveRowGo.
func moveRowAVX2(dst, src *[64]uint32) { moveRowGo(dst, src) }

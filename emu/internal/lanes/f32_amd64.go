//go:build amd64 && !purego

package lanes

// The f32 rows' AVX2 versions (f32_amd64.s): eight lanes a step, a last
// single quad with 128-bit loads and stores. The result is the Go
// version's for lanes 0..n-1; the returned mask may also hold lanes from
// n to the end of the last quad (the Go side clears them).

//go:noescape
func addF32AVX(d, a, b *[64]uint32, n int) uint64

//go:noescape
func subF32AVX(d, a, b *[64]uint32, n int) uint64

//go:noescape
func mulF32AVX(d, a, b *[64]uint32, n int) uint64

//go:noescape
func madF32AVX(d, a, b, c *[64]uint32, n int) uint64

//go:noescape
func rcpF32AVX(d, a *[64]uint32, n int) uint64

// roundF32AVX calls the assembly of direction dir.
func roundF32AVX(dir int, d, a *[64]uint32, n int) uint64 {
	switch dir {
	case RoundTrunc:
		return truncF32AVX(d, a, n)
	case RoundFloor:
		return floorF32AVX(d, a, n)
	case RoundCeil:
		return ceilF32AVX(d, a, n)
	}
	return rndneF32AVX(d, a, n)
}

//go:noescape
func truncF32AVX(d, a *[64]uint32, n int) uint64

//go:noescape
func floorF32AVX(d, a *[64]uint32, n int) uint64

//go:noescape
func ceilF32AVX(d, a *[64]uint32, n int) uint64

//go:noescape
func rndneF32AVX(d, a *[64]uint32, n int) uint64

//go:noescape
func f32FromU32AVX(d, a *[64]uint32, n int)

//go:noescape
func u32FromF32AVX(d, a *[64]uint32, n int)

//go:noescape
func minF32AVX(d, a, b *[64]uint32, n int) uint64

//go:noescape
func maxF32AVX(d, a, b *[64]uint32, n int) uint64

//go:noescape
func f32FromI32AVX(d, a *[64]uint32, n int)

//go:noescape
func i32FromF32AVX(d, a *[64]uint32, n int)

// fmaF32AVX needs FMA3 as well.
//
//go:noescape
func fmaF32AVX(d, a, b, c *[64]uint32, n int) uint64

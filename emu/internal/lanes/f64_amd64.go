//go:build amd64 && !purego

package lanes

// The f64 rows' AVX2 versions (f64_amd64.s): eight lanes a step, a last
// single quad with half-width stores. The result is the Go version's for
// lanes 0..n-1; the returned mask may also hold lanes from n to the end
// of the last quad (the Go side clears them).

//go:noescape
func addF64AVX(d, a, b *F64, n int) uint64

//go:noescape
func addF64UAVX(d, a *F64, y float64, n int) uint64

//go:noescape
func mulF64AVX(d, a, b *F64, n int) uint64

//go:noescape
func mulF64UAVX(d, a *F64, y float64, n int) uint64

// The fmas need FMA3 as well.

//go:noescape
func fmaF64AVX(d, a, b, c *F64, an uint64, n int) uint64

//go:noescape
func fmaF64UBAVX(d, a *F64, y float64, c *F64, an uint64, n int) uint64

//go:noescape
func fmaF64UCAVX(d, a, b *F64, z float64, an uint64, n int) uint64

// fnmaF64AVX and fnmaF64UCAVX are fmaF64AVX and fmaF64UCAVX with a's
// sign flipped (VFNMADD213PD); those jump to them when an is not 0.

//go:noescape
func fnmaF64AVX(d, a, b, c *F64, an uint64, n int) uint64

//go:noescape
func fnmaF64UCAVX(d, a, b *F64, z float64, an uint64, n int) uint64

//go:noescape
func rcpF64AVX(d, a *F64, n int) uint64

//go:noescape
func rsqF64AVX(d, a *F64, n int) uint64

//go:noescape
func sqrtF64AVX(d, a *F64, n int) uint64

//go:noescape
func divScaleF64AVX(d, a, b, c *F64, n int) uint64

//go:noescape
func divFixupF64AVX(d, a, b, c *F64, n int) uint64

//go:noescape
func divFmasF64AVX(d, a, b, c *F64, vcc uint64, n int) uint64

//go:noescape
func ldexpF64AVX(d, a *F64, k *[64]uint32, n int) uint64

//go:noescape
func f64FromI32AVX(d *F64, a *[64]uint32, n int)

//go:noescape
func f64FromU32AVX(d *F64, a *[64]uint32, n int)

//go:noescape
func i32FromF64AVX(d *[64]uint32, a *F64, n int)

//go:noescape
func u32FromF64AVX(d *[64]uint32, a *F64, n int)

// roundF64AVX calls the assembly of direction dir.
func roundF64AVX(dir int, d, a *F64, n int) uint64 {
	switch dir {
	case RoundTrunc:
		return truncF64AVX(d, a, n)
	case RoundFloor:
		return floorF64AVX(d, a, n)
	case RoundCeil:
		return ceilF64AVX(d, a, n)
	}
	return rndneF64AVX(d, a, n)
}

//go:noescape
func truncF64AVX(d, a *F64, n int) uint64

//go:noescape
func floorF64AVX(d, a *F64, n int) uint64

//go:noescape
func ceilF64AVX(d, a *F64, n int) uint64

//go:noescape
func rndneF64AVX(d, a *F64, n int) uint64

//go:noescape
func cmpF64AVX(a, b *F64, c int, n int) uint64

//go:build amd64 && !purego

package lanes

// The assembly versions of the f16 rows (F16C) and the small-integer
// rows (AVX2), in narrow_amd64.s: eight lanes a step, a last single quad
// with 128-bit loads and stores, so they read and write exactly the quads
// holding lanes 0 to n-1.

//go:noescape
func f16FromF32F16C(d, a *[64]uint32, n int, flush uint32)

//go:noescape
func f32FromF16F16C(d, a *[64]uint32, n int, clear, flip, flush uint32)

//go:noescape
func minI32AVX2(d, a, b *[64]uint32, n int)

//go:noescape
func med3I32AVX2(d, a, b, c *[64]uint32, n int)

//go:noescape
func madI24AVX2(d, a, b, c *[64]uint32, n int)

//go:noescape
func addSatU16AVX2(d, a, b *[64]uint32, n int)

//go:noescape
func mulU24AVX2(d, a, b *[64]uint32, n int)

//go:noescape
func addU16AVX2(d, a, b *[64]uint32, n int)

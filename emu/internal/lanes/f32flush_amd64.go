//go:build amd64 && !purego

package lanes

// The flushing f32 rows' AVX2 versions (f32flush_amd64.s), organised as
// the other f32 rows' (f32_amd64.go).

//go:noescape
func flushF32AVX(d, a *[64]uint32, n int, m uint32)

//go:noescape
func addF32FlushAVX(d, a, b *[64]uint32, n int, in, out uint32) uint64

//go:noescape
func subF32FlushAVX(d, a, b *[64]uint32, n int, in, out uint32) uint64

//go:noescape
func mulF32FlushAVX(d, a, b *[64]uint32, n int, in, out uint32) uint64

//go:noescape
func madF32FlushAVX(d, a, b, c *[64]uint32, n int, in, out uint32) uint64

// fmaF32FlushAVX needs FMA3 as well.
//
//go:noescape
func fmaF32FlushAVX(d, a, b, c *[64]uint32, n int, in, out uint32) uint64

//go:build !amd64 || purego

package lanes

// Without the assembly SIMD and FMA are false and the f64 rows never call
// their AVX2 versions: these only let the package build.

const noAsm = "lanes: no assembly in this build"

func addF64AVX(d, a, b *F64, n int) uint64                              { panic(noAsm) }
func addF64UAVX(d, a *F64, y float64, n int) uint64                     { panic(noAsm) }
func mulF64AVX(d, a, b *F64, n int) uint64                              { panic(noAsm) }
func mulF64UAVX(d, a *F64, y float64, n int) uint64                     { panic(noAsm) }
func fmaF64AVX(d, a, b, c *F64, an uint64, n int) uint64                { panic(noAsm) }
func fmaF64UBAVX(d, a *F64, y float64, c *F64, an uint64, n int) uint64 { panic(noAsm) }
func fmaF64UCAVX(d, a, b *F64, z float64, an uint64, n int) uint64      { panic(noAsm) }
func rcpF64AVX(d, a *F64, n int) uint64                                 { panic(noAsm) }
func rsqF64AVX(d, a *F64, n int) uint64                                 { panic(noAsm) }
func sqrtF64AVX(d, a *F64, n int) uint64                                { panic(noAsm) }
func divScaleF64AVX(d, a, b, c *F64, n int) uint64                      { panic(noAsm) }
func divFixupF64AVX(d, a, b, c *F64, n int) uint64                      { panic(noAsm) }
func divFmasF64AVX(d, a, b, c *F64, vcc uint64, n int) uint64           { panic(noAsm) }
func ldexpF64AVX(d, a *F64, k *[64]uint32, n int) uint64                { panic(noAsm) }
func f64FromI32AVX(d *F64, a *[64]uint32, n int)                        { panic(noAsm) }
func f64FromU32AVX(d *F64, a *[64]uint32, n int)                        { panic(noAsm) }
func i32FromF64AVX(d *[64]uint32, a *F64, n int)                        { panic(noAsm) }
func u32FromF64AVX(d *[64]uint32, a *F64, n int)                        { panic(noAsm) }
func roundF64AVX(dir int, d, a *F64, n int) uint64                      { panic(noAsm) }
func cmpF64AVX(a, b *F64, c int, n int) uint64                          { panic(noAsm) }

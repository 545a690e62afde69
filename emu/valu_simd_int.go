package emu

import simd "github.com/wavedbg/wavedbg/emu/internal/lanes"

// The integer kernels whose loops package lanes has (with AVX2 versions)
// join valu_fast.go's table here; like its kernels, they compute whole
// quads.
func init() {
	kernels["v_mul_lo_u32"] = func(e *fenv, d, a, b, c *[64]uint32) { simd.MulLo(d, a, b, e.live) }
	kernels["v_add3_u32"] = func(e *fenv, d, a, b, c *[64]uint32) { simd.Add3(d, a, b, c, e.live) }
}

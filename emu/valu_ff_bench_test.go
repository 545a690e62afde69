package emu

import (
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/fast"
)

// Per-call cost of the f32 kernels on a full wave of numbers in [-1, 1)
// (the oracle kernels' random fills), denormals kept (v_ldexp_f32: small
// exponents):
//
//	go test ./emu -run '^$' -bench F32Kernel
func BenchmarkF32Kernel(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	var a, x, y, d, ex [64]uint32
	for l := range a {
		ex[l] = uint32(l&15 - 8) // float_alu's ldexp(x, (i & 15) - 8)
		a[l] = core.F32bits(float32(r.Float64()*2 - 1))
		x[l] = core.F32bits(float32(r.Float64()*2 - 1))
		y[l] = core.F32bits(float32(r.Float64()*2 - 1))
	}
	e := &core.Fenv{Din: true, Dout: true, Live: 64}
	for _, name := range []string{"v_add_f32", "v_mul_f32", "v_fma_f32", "v_min_f32", "v_max_f32", "v_med3_f32", "v_floor_f32", "v_rndne_f32", "v_ldexp_f32", "v_cvt_i32_f32"} {
		k := fast.Kernels[name]
		if i, ok := fast.MixedIndex[name]; ok {
			k = fast.IdxKernels[i]
		}
		if k == nil {
			b.Fatalf("%s: no kernel", name)
		}
		src1 := &x
		if name == "v_ldexp_f32" {
			src1 = &ex
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				k(e, &d, &a, src1, &y)
			}
		})
	}
}

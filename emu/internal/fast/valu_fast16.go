package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
)

// Whole-register kernels for the 16-bit integer operations that code on
// narrow vector types (uchar4, short2, …) is full of. Their generic forms
// (satOps' exact functions, ref/valu_defs.go's k2 lane functions) call a
// function a lane; these compute in the loop. GFX8/9 zero the result's
// high half. TestKernelsMatchLaneFunctions holds each to its lane function.

func init() {
	for n, k := range map[string]core.Kernel{
		"v_add_u16": func(e *core.Fenv, d, a, b, _ *[64]uint32) { simd.AddU16(d, a, b, e.Live) },
		"v_sub_u16": func(e *core.Fenv, d, a, b, _ *[64]uint32) {
			d2, a2, b2 := lanes(e, d, a, b)
			for l := range d2 {
				d2[l] = (a2[l] - b2[l]) & 0xffff
			}
		},
		"v_subrev_u16": func(e *core.Fenv, d, a, b, _ *[64]uint32) {
			d2, a2, b2 := lanes(e, d, a, b)
			for l := range d2 {
				d2[l] = (b2[l] - a2[l]) & 0xffff
			}
		},
		"v_mul_lo_u16": func(e *core.Fenv, d, a, b, _ *[64]uint32) {
			d2, a2, b2 := lanes(e, d, a, b)
			for l := range d2 {
				d2[l] = (a2[l] * b2[l]) & 0xffff
			}
		},
		"v_lshlrev_b16": func(e *core.Fenv, d, a, b, _ *[64]uint32) {
			d2, a2, b2 := lanes(e, d, a, b)
			for l := range d2 {
				d2[l] = b2[l] << (a2[l] & 15) & 0xffff
			}
		},
		"v_lshrrev_b16": func(e *core.Fenv, d, a, b, _ *[64]uint32) {
			d2, a2, b2 := lanes(e, d, a, b)
			for l := range d2 {
				d2[l] = b2[l] & 0xffff >> (a2[l] & 15)
			}
		},
		"v_ashrrev_i16": func(e *core.Fenv, d, a, b, _ *[64]uint32) {
			d2, a2, b2 := lanes(e, d, a, b)
			for l := range d2 {
				d2[l] = uint32(uint16(int16(b2[l]) >> (a2[l] & 15)))
			}
		},
	} {
		Kernels[n] = k
	}
}

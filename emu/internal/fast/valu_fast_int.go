package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"math/bits"
)

// More whole-register kernels (valu_fast.go) for integer operations common
// in compiled kernels; TestKernelsMatchLaneFunctions checks each against
// its lane function.

func init() {
	for n, k := range map[string]core.Kernel{
		"v_mul_hi_u32": func(e *core.Fenv, d, a, b, c *[64]uint32) { simd.MulHi(d, a, b, e.Live) },
		"v_mul_hi_i32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = uint32(uint64(int64(int32(a[l]))*int64(int32(b[l]))) >> 32)
			}
		},
		"v_max_i32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = uint32(max(int32(a[l]), int32(b[l])))
			}
		},
		"v_min_i32": func(e *core.Fenv, d, a, b, c *[64]uint32) { simd.MinI32(d, a, b, e.Live) },
		"v_max_u32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = max(a[l], b[l])
			}
		},
		"v_min_u32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = min(a[l], b[l])
			}
		},
		"v_bcnt_u32_b32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = uint32(bits.OnesCount32(a[l])) + b[l]
			}
		},
		"v_ffbh_u32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				z := uint32(bits.LeadingZeros32(a[l])) // 32 for 0, which gives -1
				d[l] = z | -(z >> 5)
			}
		},
		"v_not_b32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = ^a[l]
			}
		},
		"v_bfe_u32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = uint32(ref.Bfe64(uint64(a[l]), uint(b[l]&31), uint(c[l]&31), false))
			}
		},
		"v_bfe_i32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = uint32(ref.Bfe64(uint64(a[l]), uint(b[l]&31), uint(c[l]&31), true))
			}
		},
		"v_bfi_b32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = a[l]&b[l] | ^a[l]&c[l]
			}
		},
		"v_lshl_or_b32": func(e *core.Fenv, d, a, b, c *[64]uint32) { simd.ShiftLeftOr(d, a, b, c, e.Live) },
		"v_and_or_b32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = a[l]&b[l] | c[l]
			}
		},
		"v_or3_b32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = a[l] | b[l] | c[l]
			}
		},
		"v_add_lshl_u32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = (a[l] + b[l]) << (c[l] & 31)
			}
		},
		"v_xad_u32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = (a[l] ^ b[l]) + c[l]
			}
		},
		"v_med3_i32": func(e *core.Fenv, d, a, b, c *[64]uint32) { simd.Med3I32(d, a, b, c, e.Live) },
		"v_min3_u32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = min(a[l], b[l], c[l])
			}
		},
		"v_med3_u32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				x, y := a[l], b[l]
				d[l] = max(min(x, y), min(max(x, y), c[l]))
			}
		},
		"v_alignbit_b32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
			for l := range d[:e.Live] {
				d[l] = uint32((uint64(a[l])<<32 | uint64(b[l])) >> (c[l] & 31))
			}
		},
	} {
		Kernels[n] = k
	}
}

// k1, k2 and k3 are the kernels of pure 32-bit integer lane functions
// (l1, l2, l3): one call a lane, without execVOP's per-lane context.
func k1(f func(a uint32) uint32) core.Kernel {
	return func(e *core.Fenv, d, a, b, c *[64]uint32) {
		for l := range d[:e.Live] {
			d[l] = f(a[l])
		}
	}
}

func k2(f ref.U32x2) core.Kernel {
	return func(e *core.Fenv, d, a, b, c *[64]uint32) {
		for l := range d[:e.Live] {
			d[l] = f(a[l], b[l])
		}
	}
}

func k3(f func(a, b, c uint32) uint32) core.Kernel {
	return func(e *core.Fenv, d, a, b, c *[64]uint32) {
		for l := range d[:e.Live] {
			d[l] = f(a[l], b[l], c[l])
		}
	}
}

// addKernel registers k for name unless a dedicated kernel exists.
func addKernel(name string, k core.Kernel) {
	if Kernels[name] == nil {
		Kernels[name] = k
	}
}

// The integer operations that honour clamp (ref/valu_clamp.go) without it:
// the exact result truncated to the destination width.
func init() {
	for _, o := range ref.SatOps {
		f, mask := o.Exact, uint64(1)<<o.Bits-1
		switch o.Nsrc {
		case 2:
			addKernel(o.Name, func(e *core.Fenv, d, a, b, c *[64]uint32) {
				for l := range d[:e.Live] {
					d[l] = uint32(uint64(f(uint64(a[l]), uint64(b[l]), 0)) & mask)
				}
			})
		case 3:
			addKernel(o.Name, func(e *core.Fenv, d, a, b, c *[64]uint32) {
				for l := range d[:e.Live] {
					d[l] = uint32(uint64(f(uint64(a[l]), uint64(b[l]), uint64(c[l]))) & mask)
				}
			})
		}
	}
}

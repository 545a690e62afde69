package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"math"
)

// Less common vector ALU operations.

func init() {
	for n, f := range Int3MoreOps {
		defV(n, core.CVALU, core.Vop{Nsrc: 3, Fn: l3(f)})
	}
	defV("v_mad_legacy_f16", core.CVALU, core.Vop{Nsrc: 3, Ft: 16, Oft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return addF16(e, mulF16(e, a, b), c) }})
	defV("v_fma_legacy_f16", core.CVALU, core.Vop{Nsrc: 3, Ft: 16, Oft: 16, Fn: FmaF16})
	for _, m := range []struct {
		n   string
		sel int
	}{{"v_min3_f16", 0}, {"v_max3_f16", 1}, {"v_med3_f16", 2}} {
		sel := m.sel
		defV(m.n, core.CVALU, core.Vop{Nsrc: 3, Ft: 16, Oft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
			switch sel {
			case 0:
				return minF16(e, minF16(e, a, b), c)
			case 1:
				return maxF16(e, maxF16(e, a, b), c)
			}
			return maxF16(e, minF16(e, a, b), minF16(e, maxF16(e, a, b), c))
		}})
	}
	fix16 := func(e *core.Fenv, a, b, c uint64) uint64 {
		r := DivFixup64(e, core.F64bits(core.F16ToF64(uint16(a))), core.F64bits(core.F16ToF64(uint16(b))), core.F64bits(core.F16ToF64(uint16(c))))
		return uint64(core.F64ToF16(core.F64(r), 0, e.Rm))
	}
	defV("v_div_fixup_f16", core.CVALU, core.Vop{Nsrc: 3, Ft: 16, Oft: 16, Fn: fix16})
	defV("v_div_fixup_legacy_f16", core.CVALU, core.Vop{Nsrc: 3, Ft: 16, Oft: 16, Fn: fix16})
	norm16 := func(signed bool) core.LaneFn {
		return func(e *core.Fenv, a, b, c uint64) uint64 {
			f := core.F16ToF64(uint16(a))
			if f != f {
				return 0
			}
			if signed {
				return uint64(uint16(int16(math.RoundToEven(math.Max(-1, math.Min(1, f)) * 32767))))
			}
			return uint64(uint16(math.RoundToEven(math.Max(0, math.Min(1, f)) * 65535)))
		}
	}
	defV("v_cvt_norm_i16_f16", core.CVALU, core.Vop{Nsrc: 1, Ft: 16, Fn: norm16(true)})
	defV("v_cvt_norm_u16_f16", core.CVALU, core.Vop{Nsrc: 1, Ft: 16, Fn: norm16(false)})
	defV("v_cvt_pknorm_i16_f16", core.CVALU, core.Vop{Nsrc: 2, Ft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		n := norm16(true)
		return n(e, a, 0, 0) | n(e, b, 0, 0)<<16
	}})
	defV("v_cvt_pknorm_u16_f16", core.CVALU, core.Vop{Nsrc: 2, Ft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		n := norm16(false)
		return n(e, a, 0, 0) | n(e, b, 0, 0)<<16
	}})
	defV("v_cvt_pk_u8_f32", core.CVALU, core.Vop{Nsrc: 3, Ft: 32, Isrc: 6, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		f := float64(core.F32(uint32(a)))
		v := uint32(0)
		if f == f {
			v = uint32(math.Max(0, math.Min(255, math.RoundToEven(f))))
		}
		sh := 8 * (uint32(b) & 3)
		return uint64(uint32(c)&^(0xff<<sh) | v<<sh)
	}})
	defV("v_trig_preop_f64", core.CF64, core.Vop{Nsrc: 2, SrcW: [3]uint8{2, 1}, DstW: 2, Ft: 64, Isrc: 2, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		// 53 bits of 2/π starting at bit (exponent(S0) > 1077 ? exponent-1077 : 0) + 53*S1
		shift := int(uint32(b)&31) * 53
		if exp := int(a >> 52 & 0x7ff); exp > 1077 {
			shift += exp - 1077
		}
		return core.F64bits(TwoOverPiBits(shift))
	}}).Exact = "exact for shifts within the 1200-bit table of 2/π"
	// cube map helpers
	cube := func(which int) core.LaneFn {
		return func(e *core.Fenv, a, b, c uint64) uint64 {
			x, y, z := float64(core.F32(uint32(a))), float64(core.F32(uint32(b))), float64(core.F32(uint32(c)))
			ax, ay, az := math.Abs(x), math.Abs(y), math.Abs(z)
			var id, sc, tc, ma float64
			switch {
			case az >= ax && az >= ay:
				id, sc, tc, ma = 4, x, -y, 2*z
				if z < 0 {
					id, sc = 5, -x
				}
			case ay >= ax:
				id, sc, tc, ma = 2, x, z, 2*y
				if y < 0 {
					id, tc = 3, -z
				}
			default:
				id, sc, tc, ma = 0, -z, -y, 2*x
				if x < 0 {
					id, sc = 1, z
				}
			}
			r := [...]float64{id, sc, tc, ma}[which]
			return uint64(core.F32bits(float32(r)))
		}
	}
	for i, n := range []string{"v_cubeid_f32", "v_cubesc_f32", "v_cubetc_f32", "v_cubema_f32"} {
		defV(n, core.CVALU, core.Vop{Nsrc: 3, Ft: 32, Oft: 32, Fn: cube(i)})
	}
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// twoOverPi holds 2/π as 64-bit words, most significant first.
var twoOverPi = [...]uint64{
	0xa2f9836e4e441529, 0xfc2757d1f534ddc0, 0xdb6295993c439041, 0xfe5163abdebbc561,
	0xb7246e3a424dd2e0, 0x06492eea09d1921c, 0xfe1deb1cb129a73e, 0xe88235f52ebb4484,
	0xe99c7026b45f7e41, 0x3991d639835339f4, 0x9c845f8bbdf9283b, 0x1ff897ffde05980f,
	0xef2f118b5a0a6d1f, 0x6d367ecf27cb09b7, 0x4f463f669e5fea2d, 0x7527bac7ebe5f17b,
	0x3d0739f78a5292ea, 0x6bfb5fb11f8d5d08, 0x56033046fc7b6bab,
}

// TwoOverPiBits returns the 53 bits of 2/π after the first shift bits,
// scaled as V_TRIG_PREOP does (value × 2^-(shift+53) · 2^53 … i.e. the
// segment's true magnitude).
func TwoOverPiBits(shift int) float64 {
	var seg uint64
	for i := 0; i < 53; i++ {
		bit := shift + i
		w := bit / 64
		if w >= len(twoOverPi) {
			break
		}
		seg = seg<<1 | twoOverPi[w]>>(63-uint(bit%64))&1
	}
	return math.Ldexp(float64(seg), -(shift + 53))
}

// gfx906 (FeatDL, FeatFMAMix) operations.
func init() {
	// v_fma_mix_f32, v_fma_mixlo_f16, v_fma_mixhi_f16: valu_fmamix.go
	dotI := func(n int, bitsW uint, signed bool) core.LaneFn {
		return func(e *core.Fenv, a, b, c uint64) uint64 {
			s := int64(int32(c))
			if !signed {
				s = int64(uint32(c))
			}
			m := uint64(1)<<bitsW - 1
			for i := 0; i < n; i++ {
				x, y := a>>(uint(i)*bitsW)&m, b>>(uint(i)*bitsW)&m
				if signed {
					sh := 64 - bitsW
					s += int64(x<<sh) >> sh * (int64(y<<sh) >> sh)
				} else {
					s += int64(x * y)
				}
			}
			if e.Clamp {
				if signed {
					s = Sat(s, math.MinInt32, math.MaxInt32)
				} else {
					s = Sat(s, 0, math.MaxUint32)
				}
			}
			return uint64(uint32(s))
		}
	}
	defV("v_dot2_i32_i16", core.CVALU, core.Vop{Nsrc: 3, Fn: dotI(2, 16, true)})
	defV("v_dot2_u32_u16", core.CVALU, core.Vop{Nsrc: 3, Fn: dotI(2, 16, false)})
	defV("v_dot4_i32_i8", core.CVALU, core.Vop{Nsrc: 3, Fn: dotI(4, 8, true)})
	defV("v_dot4_u32_u8", core.CVALU, core.Vop{Nsrc: 3, Fn: dotI(4, 8, false)})
	defV("v_dot8_i32_i4", core.CVALU, core.Vop{Nsrc: 3, Fn: dotI(8, 4, true)})
	defV("v_dot8_u32_u4", core.CVALU, core.Vop{Nsrc: 3, Fn: dotI(8, 4, false)})
	// v_dot2_f32_f16 (VOP3P modifiers): valu_dot.go
}

// Int3MoreOps are more three-source integer operations as functions of
// the sources' words (l3's lane functions; the fast engine's kernels).
var Int3MoreOps = map[string]func(a, b, c uint32) uint32{
	"v_min3_i16": func(a, b, c uint32) uint32 { return uint32(uint16(min(int16(a), int16(b), int16(c)))) },
	"v_max3_i16": func(a, b, c uint32) uint32 { return uint32(uint16(max(int16(a), int16(b), int16(c)))) },
	"v_med3_i16": func(a, b, c uint32) uint32 {
		return uint32(uint16(med3(int64(int16(a)), int64(int16(b)), int64(int16(c)))))
	},
	"v_min3_u16": func(a, b, c uint32) uint32 { return min(a&0xffff, b&0xffff, c&0xffff) },
	"v_max3_u16": func(a, b, c uint32) uint32 { return max(a&0xffff, b&0xffff, c&0xffff) },
	"v_med3_u16": func(a, b, c uint32) uint32 {
		return uint32(med3(int64(a&0xffff), int64(b&0xffff), int64(c&0xffff)))
	},
	"v_lerp_u8": func(a, b, c uint32) uint32 {
		var r uint32
		for i := uint32(0); i < 32; i += 8 {
			r |= ((a>>i&0xff + b>>i&0xff + c>>i&1) >> 1 & 0xff) << i
		}
		return r
	},
}

package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"math"
)

// init registers the floating-point VALU operations: f32, f64 and f16
// arithmetic, conversions and transcendentals.
func init() {
	W2 := [3]uint8{2, 2, 2}
	// --- f32 arithmetic
	defV("v_add_f32", core.CVALU, core.Vop{Nsrc: 2, Ft: 32, Oft: 32, Fn: e2(AddF32)})
	defV("v_sub_f32", core.CVALU, core.Vop{Nsrc: 2, Ft: 32, Oft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return AddF32(e, a, b^0x80000000) }})
	defV("v_subrev_f32", core.CVALU, core.Vop{Nsrc: 2, Ft: 32, Oft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return AddF32(e, b, a^0x80000000) }})
	defV("v_mul_f32", core.CVALU, core.Vop{Nsrc: 2, Ft: 32, Oft: 32, Fn: e2(MulF32)})
	defV("v_mul_legacy_f32", core.CVALU, core.Vop{Nsrc: 2, Ft: 32, Oft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		if uint32(a)&0x7fffffff == 0 || uint32(b)&0x7fffffff == 0 {
			return 0
		}
		return MulF32(e, a, b)
	}})
	defV("v_min_f32", core.CVALU, core.Vop{Nsrc: 2, Ft: 32, Oft: 32, Fn: e2(MinF32)})
	defV("v_max_f32", core.CVALU, core.Vop{Nsrc: 2, Ft: 32, Oft: 32, Fn: e2(MaxF32)})
	defV("v_fma_f32", core.CVALU, core.Vop{Nsrc: 3, Ft: 32, Oft: 32, Fn: FmaF32})
	defV("v_mad_f32", core.CVALU, core.Vop{Nsrc: 3, Ft: 32, Oft: 32, Fn: madF32}).Exact = "exact (product rounded, then the sum: not fused)"
	defV("v_mad_legacy_f32", core.CVALU, core.Vop{Nsrc: 3, Ft: 32, Oft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		if uint32(a)&0x7fffffff == 0 || uint32(b)&0x7fffffff == 0 {
			return AddF32(e, 0, c)
		}
		return madF32(e, a, b, c)
	}})
	defV("v_mac_f32", core.CVALU, core.Vop{Nsrc: 3, Ft: 32, Oft: 32, Mac: true, Fn: madF32})
	defV("v_fmac_f32", core.CVALU, core.Vop{Nsrc: 3, Ft: 32, Oft: 32, Mac: true, Fn: FmaF32})
	defV("v_madmk_f32", core.CVALU, core.Vop{Nsrc: 3, Ft: 32, Oft: 32, Fn: madF32})
	defV("v_madak_f32", core.CVALU, core.Vop{Nsrc: 3, Ft: 32, Oft: 32, Fn: madF32})
	defV("v_ldexp_f32", core.CVALU, core.Vop{Nsrc: 2, Isrc: 2, Ft: 32, Oft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		x := float64(core.F32(uint32(a)))
		if x != x {
			return uint64(uint32(a) | 0x400000)
		}
		return uint64(core.F32bits(core.ToF32(math.Ldexp(x, int(max(min(int32(b), 1000), -1000))), 0, e.Rm)))
	}})
	for _, m := range []struct {
		n      string
		mn, mx bool
	}{{"v_min3_f32", true, false}, {"v_max3_f32", false, true}, {"v_med3_f32", false, false}} {
		m := m
		defV(m.n, core.CVALU, core.Vop{Nsrc: 3, Ft: 32, Oft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
			switch {
			case m.mn:
				return MinF32(e, MinF32(e, a, b), c)
			case m.mx:
				return MaxF32(e, MaxF32(e, a, b), c)
			}
			if core.F32(uint32(a)) != core.F32(uint32(a)) || core.F32(uint32(b)) != core.F32(uint32(b)) || core.F32(uint32(c)) != core.F32(uint32(c)) {
				return MinF32(e, MinF32(e, a, b), c)
			}
			return MaxF32(e, MinF32(e, a, b), MinF32(e, MaxF32(e, a, b), c))
		}})
	}
	// --- f32 unary, conversions, transcendentals
	for n, f := range F32UnaryOps {
		defV(n, core.CVALU, core.Vop{Nsrc: 1, Ft: 32, Oft: 32, Fn: fu32(f)})
	}
	for n, f := range F32TransOps {
		d := defV(n, core.CTrans, core.Vop{Nsrc: 1, Ft: 32, Oft: 32, Fn: fu32(f)})
		d.Exact = "approx: computed in float64 and rounded once (within the manual's 1 ULP)"
	}
	OpTable["v_sqrt_f32"].Exact = "exact (correctly rounded; the manual allows 1 ULP)"
	defV("v_frexp_exp_i32_f32", core.CVALU, core.Vop{Nsrc: 1, Ft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return frexpExp(float64(core.F32(uint32(a)))) }})
	defV("v_cvt_i32_f32", core.CVALU, core.Vop{Nsrc: 1, Ft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return CvtF32ToI32(float64(core.F32(uint32(a)))) }})
	defV("v_cvt_u32_f32", core.CVALU, core.Vop{Nsrc: 1, Ft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return CvtF32ToU32(float64(core.F32(uint32(a)))) }})
	defV("v_cvt_rpi_i32_f32", core.CVALU, core.Vop{Nsrc: 1, Ft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		return CvtF32ToI32(math.Floor(float64(core.F32(uint32(a))) + 0.5))
	}})
	defV("v_cvt_flr_i32_f32", core.CVALU, core.Vop{Nsrc: 1, Ft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		return CvtF32ToI32(math.Floor(float64(core.F32(uint32(a)))))
	}})
	defV("v_cvt_f32_i32", core.CVALU, core.Vop{Nsrc: 1, Oft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return roundInt32(e, float64(int32(a))) }})
	defV("v_cvt_f32_u32", core.CVALU, core.Vop{Nsrc: 1, Oft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return roundInt32(e, float64(uint32(a))) }})
	for i := 0; i < 4; i++ {
		sh := uint(8 * i)
		defV("v_cvt_f32_ubyte"+string(rune('0'+i)), core.CVALU, core.Vop{Nsrc: 1, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
			return uint64(core.F32bits(float32(a >> sh & 0xff)))
		}})
	}
	defV("v_cvt_off_f32_i4", core.CVALU, core.Vop{Nsrc: 1, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		return uint64(core.F32bits(float32(int32(a<<28)>>28) / 16))
	}})
	defV("v_cvt_f16_f32", core.CVALU, core.Vop{Nsrc: 1, Ft: 32, Oft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		// f16 results round under the f64/f16 mode
		rm := int(e.W.S[core.SlotMode] >> 2 & 3)
		return uint64(core.F64ToF16(float64(core.F32(uint32(a))), 0, rm))
	}})
	defV("v_cvt_f32_f16", core.CVALU, core.Vop{Nsrc: 1, Ft: 16, Oft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		h := uint16(a)
		if h&0x7fff > 0x7c00 {
			return uint64(uint32(h&0x8000)<<16 | 0x7fc00000 | uint32(h&0x1ff)<<13)
		}
		return uint64(core.F32bits(float32(core.F16ToF64(h))))
	}})
	defV("v_cvt_pkrtz_f16_f32", core.CVALU, core.Vop{Nsrc: 2, Ft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		return uint64(core.F64ToF16(float64(core.F32(uint32(a))), 0, core.RmZero)) | uint64(core.F64ToF16(float64(core.F32(uint32(b))), 0, core.RmZero))<<16
	}})
	defV("v_cvt_pknorm_i16_f32", core.CVALU, core.Vop{Nsrc: 2, Ft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		n := func(x uint64) uint64 {
			f := float64(core.F32(uint32(x)))
			if f != f {
				return 0
			}
			return uint64(uint16(int16(math.RoundToEven(math.Max(-1, math.Min(1, f)) * 32767))))
		}
		return n(a) | n(b)<<16
	}})
	defV("v_cvt_pknorm_u16_f32", core.CVALU, core.Vop{Nsrc: 2, Ft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		n := func(x uint64) uint64 {
			f := float64(core.F32(uint32(x)))
			if f != f {
				return 0
			}
			return uint64(uint16(math.RoundToEven(math.Max(0, math.Min(1, f)) * 65535)))
		}
		return n(a) | n(b)<<16
	}})
	// --- f64
	defV("v_add_f64", core.CF64, core.Vop{Nsrc: 2, SrcW: W2, DstW: 2, Ft: 64, Oft: 64, Fn: e2(AddF64)})
	defV("v_mul_f64", core.CF64, core.Vop{Nsrc: 2, SrcW: W2, DstW: 2, Ft: 64, Oft: 64, Fn: e2(MulF64)})
	defV("v_min_f64", core.CF64, core.Vop{Nsrc: 2, SrcW: W2, DstW: 2, Ft: 64, Oft: 64, Fn: e2(minF64)})
	defV("v_max_f64", core.CF64, core.Vop{Nsrc: 2, SrcW: W2, DstW: 2, Ft: 64, Oft: 64, Fn: e2(maxF64)})
	defV("v_fma_f64", core.CF64, core.Vop{Nsrc: 3, SrcW: W2, DstW: 2, Ft: 64, Oft: 64, Fn: FmaF64}).Exact = "exact (subnormal results under directed rounding: approx)"
	defV("v_ldexp_f64", core.CF64, core.Vop{Nsrc: 2, Isrc: 2, SrcW: [3]uint8{2, 1}, DstW: 2, Ft: 64, Oft: 64, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		return LdexpF64(a, uint32(b))
	}})
	for n, f := range F64UnaryOps {
		defV(n, core.CF64, core.Vop{Nsrc: 1, SrcW: W2, DstW: 2, Ft: 64, Oft: 64, Fn: fu64(f)})
	}
	for n, f := range F64TransOps {
		defV(n, core.CTrans, core.Vop{Nsrc: 1, SrcW: W2, DstW: 2, Ft: 64, Oft: 64, Fn: fu64(f)}).Exact = "approx: correctly rounded float64 (hardware is less precise)"
	}
	defV("v_frexp_exp_i32_f64", core.CF64, core.Vop{Nsrc: 1, SrcW: W2, Ft: 64, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return frexpExp(core.F64(a)) }})
	defV("v_cvt_i32_f64", core.CF64, core.Vop{Nsrc: 1, SrcW: W2, Ft: 64, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return CvtF32ToI32(core.F64(a)) }})
	defV("v_cvt_u32_f64", core.CF64, core.Vop{Nsrc: 1, SrcW: W2, Ft: 64, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return CvtF32ToU32(core.F64(a)) }})
	defV("v_cvt_f64_i32", core.CF64, core.Vop{Nsrc: 1, DstW: 2, Oft: 64, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return core.F64bits(float64(int32(a))) }})
	defV("v_cvt_f64_u32", core.CF64, core.Vop{Nsrc: 1, DstW: 2, Oft: 64, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return core.F64bits(float64(uint32(a))) }})
	defV("v_cvt_f64_f32", core.CF64, core.Vop{Nsrc: 1, DstW: 2, Ft: 32, Oft: 64, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		x := core.F32(uint32(a))
		if x != x {
			return uint64(a&0x80000000)<<32 | 0x7ff8000000000000 | uint64(a&0x3fffff)<<29
		}
		return core.F64bits(float64(x))
	}})
	defV("v_cvt_f32_f64", core.CF64, core.Vop{Nsrc: 1, SrcW: W2, Ft: 64, Oft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		x := core.F64(a)
		if x != x {
			return uint64(uint32(a>>32)&0x80000000 | 0x7fc00000 | uint32(a>>29)&0x3fffff)
		}
		return uint64(core.F32bits(core.ToF32(x, 0, int(e.W.S[core.SlotMode]&3))))
	}})
	// --- f16
	defV("v_add_f16", core.CVALU, core.Vop{Nsrc: 2, Ft: 16, Oft: 16, Fn: e2(addF16)})
	defV("v_sub_f16", core.CVALU, core.Vop{Nsrc: 2, Ft: 16, Oft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return addF16(e, a, b^0x8000) }})
	defV("v_subrev_f16", core.CVALU, core.Vop{Nsrc: 2, Ft: 16, Oft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return addF16(e, b, a^0x8000) }})
	defV("v_mul_f16", core.CVALU, core.Vop{Nsrc: 2, Ft: 16, Oft: 16, Fn: e2(mulF16)})
	defV("v_min_f16", core.CVALU, core.Vop{Nsrc: 2, Ft: 16, Oft: 16, Fn: e2(minF16)})
	defV("v_max_f16", core.CVALU, core.Vop{Nsrc: 2, Ft: 16, Oft: 16, Fn: e2(maxF16)})
	defV("v_fma_f16", core.CVALU, core.Vop{Nsrc: 3, Ft: 16, Oft: 16, Fn: FmaF16})
	defV("v_mad_f16", core.CVALU, core.Vop{Nsrc: 3, Ft: 16, Oft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return addF16(e, mulF16(e, a, b), c) }})
	defV("v_mac_f16", core.CVALU, core.Vop{Nsrc: 3, Ft: 16, Oft: 16, Mac: true, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return addF16(e, mulF16(e, a, b), c) }})
	defV("v_madmk_f16", core.CVALU, core.Vop{Nsrc: 3, Ft: 16, Oft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return addF16(e, mulF16(e, a, b), c) }})
	defV("v_madak_f16", core.CVALU, core.Vop{Nsrc: 3, Ft: 16, Oft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return addF16(e, mulF16(e, a, b), c) }})
	defV("v_ldexp_f16", core.CVALU, core.Vop{Nsrc: 2, Isrc: 2, Ft: 16, Oft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		x := core.F16ToF64(uint16(a))
		if x != x {
			return uint64(uint16(a) | 0x200)
		}
		return uint64(core.F64ToF16(math.Ldexp(x, int(int16(b))), 0, e.Rm))
	}})
	for n, f := range map[string]func(float64) float64{
		"v_trunc_f16": math.Trunc, "v_ceil_f16": math.Ceil, "v_floor_f16": math.Floor, "v_rndne_f16": rndne,
		"v_fract_f16": func(x float64) float64 { return math.Min(fract64(x), 1-1.0/2048) }, "v_frexp_mant_f16": frexpMant,
		"v_sqrt_f16": math.Sqrt,
	} {
		defV(n, core.CVALU, core.Vop{Nsrc: 1, Ft: 16, Oft: 16, Fn: fu16(f)})
	}
	for n, f := range map[string]func(float64) float64{"v_rcp_f16": recip, "v_rsq_f16": rsqrt, "v_exp_f16": exp2, "v_log_f16": log2, "v_sin_f16": sinRev, "v_cos_f16": cosRev} {
		defV(n, core.CTrans, core.Vop{Nsrc: 1, Ft: 16, Oft: 16, Fn: fu16(f)}).Exact = "approx: float64 result rounded once to f16"
	}
	defV("v_frexp_exp_i16_f16", core.CVALU, core.Vop{Nsrc: 1, Ft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return frexpExp(core.F16ToF64(uint16(a))) & 0xffff }})
	defV("v_cvt_f16_u16", core.CVALU, core.Vop{Nsrc: 1, Oft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return uint64(core.F64ToF16(float64(uint16(a)), 0, e.Rm)) }})
	defV("v_cvt_f16_i16", core.CVALU, core.Vop{Nsrc: 1, Oft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return uint64(core.F64ToF16(float64(int16(a)), 0, e.Rm)) }})
	defV("v_cvt_u16_f16", core.CVALU, core.Vop{Nsrc: 1, Ft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		return uint64(uint16(min(CvtF32ToU32(core.F16ToF64(uint16(a))), 0xffff)))
	}})
	defV("v_cvt_i16_f16", core.CVALU, core.Vop{Nsrc: 1, Ft: 16, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		return uint64(uint16(Sat(int64(int32(CvtF32ToI32(core.F16ToF64(uint16(a))))), -32768, 32767)))
	}})
}

// F64TransOps are the f64 transcendental operations as float64 functions
// (fu64's lane functions; the fast engine's rows).
var F64TransOps = map[string]func(float64) float64{"v_rcp_f64": recip, "v_rsq_f64": rsqrt, "v_sqrt_f64": math.Sqrt}

// F64UnaryOps are the exact f64 unary operations as float64 functions
// (fu64's lane functions; the fast engine's rows).
var F64UnaryOps = map[string]func(float64) float64{
	"v_trunc_f64": math.Trunc, "v_ceil_f64": math.Ceil, "v_floor_f64": math.Floor, "v_rndne_f64": rndne,
	"v_fract_f64": fract64, "v_frexp_mant_f64": frexpMant,
}

// F32TransOps are the f32 transcendental operations as float64
// functions, rounded once (fu32's lane functions; the fast engine's
// kernels).
var F32TransOps = map[string]func(float64) float64{
	"v_rcp_f32": recip, "v_rcp_iflag_f32": recip, "v_rsq_f32": rsqrt, "v_sqrt_f32": math.Sqrt,
	"v_exp_f32": exp2, "v_log_f32": log2, "v_sin_f32": sinRev, "v_cos_f32": cosRev,
	"v_exp_legacy_f32": exp2, "v_log_legacy_f32": log2,
}

// F32UnaryOps are the exact f32 unary operations as float64 functions
// (fu32's lane functions; the fast engine's kernels).
var F32UnaryOps = map[string]func(float64) float64{
	"v_trunc_f32": math.Trunc, "v_ceil_f32": math.Ceil, "v_floor_f32": math.Floor, "v_rndne_f32": rndne,
	"v_fract_f32":      func(x float64) float64 { return math.Min(fract64(x), float64(math.Nextafter32(1, 0))) },
	"v_frexp_mant_f32": frexpMant,
}

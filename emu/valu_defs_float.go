package emu

import "math"

// init registers the floating-point VALU operations: f32, f64 and f16
// arithmetic, conversions and transcendentals.
func init() {
	W2 := [3]uint8{2, 2, 2}
	// --- f32 arithmetic
	defV("v_add_f32", cVALU, vop{nsrc: 2, ft: 32, oft: 32, fn: e2(addF32)})
	defV("v_sub_f32", cVALU, vop{nsrc: 2, ft: 32, oft: 32, fn: func(e *fenv, a, b, c uint64) uint64 { return addF32(e, a, b^0x80000000) }})
	defV("v_subrev_f32", cVALU, vop{nsrc: 2, ft: 32, oft: 32, fn: func(e *fenv, a, b, c uint64) uint64 { return addF32(e, b, a^0x80000000) }})
	defV("v_mul_f32", cVALU, vop{nsrc: 2, ft: 32, oft: 32, fn: e2(mulF32)})
	defV("v_mul_legacy_f32", cVALU, vop{nsrc: 2, ft: 32, oft: 32, fn: func(e *fenv, a, b, c uint64) uint64 {
		if uint32(a)&0x7fffffff == 0 || uint32(b)&0x7fffffff == 0 {
			return 0
		}
		return mulF32(e, a, b)
	}})
	defV("v_min_f32", cVALU, vop{nsrc: 2, ft: 32, oft: 32, fn: e2(minF32)})
	defV("v_max_f32", cVALU, vop{nsrc: 2, ft: 32, oft: 32, fn: e2(maxF32)})
	defV("v_fma_f32", cVALU, vop{nsrc: 3, ft: 32, oft: 32, fn: fmaF32})
	defV("v_mad_f32", cVALU, vop{nsrc: 3, ft: 32, oft: 32, fn: madF32}).exact = "exact (product rounded, then the sum: not fused)"
	defV("v_mad_legacy_f32", cVALU, vop{nsrc: 3, ft: 32, oft: 32, fn: func(e *fenv, a, b, c uint64) uint64 {
		if uint32(a)&0x7fffffff == 0 || uint32(b)&0x7fffffff == 0 {
			return addF32(e, 0, c)
		}
		return madF32(e, a, b, c)
	}})
	defV("v_mac_f32", cVALU, vop{nsrc: 3, ft: 32, oft: 32, mac: true, fn: madF32})
	defV("v_fmac_f32", cVALU, vop{nsrc: 3, ft: 32, oft: 32, mac: true, fn: fmaF32})
	defV("v_madmk_f32", cVALU, vop{nsrc: 3, ft: 32, oft: 32, fn: madF32})
	defV("v_madak_f32", cVALU, vop{nsrc: 3, ft: 32, oft: 32, fn: madF32})
	defV("v_ldexp_f32", cVALU, vop{nsrc: 2, isrc: 2, ft: 32, oft: 32, fn: func(e *fenv, a, b, c uint64) uint64 {
		x := float64(f32(uint32(a)))
		if x != x {
			return uint64(uint32(a) | 0x400000)
		}
		return uint64(f32bits(toF32(math.Ldexp(x, int(max(min(int32(b), 1000), -1000))), 0, e.rm)))
	}})
	for _, m := range []struct {
		n      string
		mn, mx bool
	}{{"v_min3_f32", true, false}, {"v_max3_f32", false, true}, {"v_med3_f32", false, false}} {
		m := m
		defV(m.n, cVALU, vop{nsrc: 3, ft: 32, oft: 32, fn: func(e *fenv, a, b, c uint64) uint64 {
			switch {
			case m.mn:
				return minF32(e, minF32(e, a, b), c)
			case m.mx:
				return maxF32(e, maxF32(e, a, b), c)
			}
			if f32(uint32(a)) != f32(uint32(a)) || f32(uint32(b)) != f32(uint32(b)) || f32(uint32(c)) != f32(uint32(c)) {
				return minF32(e, minF32(e, a, b), c)
			}
			return maxF32(e, minF32(e, a, b), minF32(e, maxF32(e, a, b), c))
		}})
	}
	// --- f32 unary, conversions, transcendentals
	for n, f := range f32UnaryOps {
		defV(n, cVALU, vop{nsrc: 1, ft: 32, oft: 32, fn: fu32(f)})
	}
	for n, f := range f32TransOps {
		d := defV(n, cTrans, vop{nsrc: 1, ft: 32, oft: 32, fn: fu32(f)})
		d.exact = "approx: computed in float64 and rounded once (within the manual's 1 ULP)"
	}
	opTable["v_sqrt_f32"].exact = "exact (correctly rounded; the manual allows 1 ULP)"
	defV("v_frexp_exp_i32_f32", cVALU, vop{nsrc: 1, ft: 32, fn: func(e *fenv, a, b, c uint64) uint64 { return frexpExp(float64(f32(uint32(a)))) }})
	defV("v_cvt_i32_f32", cVALU, vop{nsrc: 1, ft: 32, fn: func(e *fenv, a, b, c uint64) uint64 { return cvtF32ToI32(float64(f32(uint32(a)))) }})
	defV("v_cvt_u32_f32", cVALU, vop{nsrc: 1, ft: 32, fn: func(e *fenv, a, b, c uint64) uint64 { return cvtF32ToU32(float64(f32(uint32(a)))) }})
	defV("v_cvt_rpi_i32_f32", cVALU, vop{nsrc: 1, ft: 32, fn: func(e *fenv, a, b, c uint64) uint64 {
		return cvtF32ToI32(math.Floor(float64(f32(uint32(a))) + 0.5))
	}})
	defV("v_cvt_flr_i32_f32", cVALU, vop{nsrc: 1, ft: 32, fn: func(e *fenv, a, b, c uint64) uint64 {
		return cvtF32ToI32(math.Floor(float64(f32(uint32(a)))))
	}})
	defV("v_cvt_f32_i32", cVALU, vop{nsrc: 1, oft: 32, fn: func(e *fenv, a, b, c uint64) uint64 { return roundInt32(e, float64(int32(a))) }})
	defV("v_cvt_f32_u32", cVALU, vop{nsrc: 1, oft: 32, fn: func(e *fenv, a, b, c uint64) uint64 { return roundInt32(e, float64(uint32(a))) }})
	for i := 0; i < 4; i++ {
		sh := uint(8 * i)
		defV("v_cvt_f32_ubyte"+string(rune('0'+i)), cVALU, vop{nsrc: 1, fn: func(e *fenv, a, b, c uint64) uint64 {
			return uint64(f32bits(float32(a >> sh & 0xff)))
		}})
	}
	defV("v_cvt_off_f32_i4", cVALU, vop{nsrc: 1, fn: func(e *fenv, a, b, c uint64) uint64 {
		return uint64(f32bits(float32(int32(a<<28)>>28) / 16))
	}})
	defV("v_cvt_f16_f32", cVALU, vop{nsrc: 1, ft: 32, oft: 16, fn: func(e *fenv, a, b, c uint64) uint64 {
		// f16 results round under the f64/f16 mode
		rm := int(e.w.s[slotMode] >> 2 & 3)
		return uint64(f64ToF16(float64(f32(uint32(a))), 0, rm))
	}})
	defV("v_cvt_f32_f16", cVALU, vop{nsrc: 1, ft: 16, oft: 32, fn: func(e *fenv, a, b, c uint64) uint64 {
		h := uint16(a)
		if h&0x7fff > 0x7c00 {
			return uint64(uint32(h&0x8000)<<16 | 0x7fc00000 | uint32(h&0x1ff)<<13)
		}
		return uint64(f32bits(float32(f16ToF64(h))))
	}})
	defV("v_cvt_pkrtz_f16_f32", cVALU, vop{nsrc: 2, ft: 32, fn: func(e *fenv, a, b, c uint64) uint64 {
		return uint64(f64ToF16(float64(f32(uint32(a))), 0, rmZero)) | uint64(f64ToF16(float64(f32(uint32(b))), 0, rmZero))<<16
	}})
	defV("v_cvt_pknorm_i16_f32", cVALU, vop{nsrc: 2, ft: 32, fn: func(e *fenv, a, b, c uint64) uint64 {
		n := func(x uint64) uint64 {
			f := float64(f32(uint32(x)))
			if f != f {
				return 0
			}
			return uint64(uint16(int16(math.RoundToEven(math.Max(-1, math.Min(1, f)) * 32767))))
		}
		return n(a) | n(b)<<16
	}})
	defV("v_cvt_pknorm_u16_f32", cVALU, vop{nsrc: 2, ft: 32, fn: func(e *fenv, a, b, c uint64) uint64 {
		n := func(x uint64) uint64 {
			f := float64(f32(uint32(x)))
			if f != f {
				return 0
			}
			return uint64(uint16(math.RoundToEven(math.Max(0, math.Min(1, f)) * 65535)))
		}
		return n(a) | n(b)<<16
	}})
	// --- f64
	defV("v_add_f64", cF64, vop{nsrc: 2, srcW: W2, dstW: 2, ft: 64, oft: 64, fn: e2(addF64)})
	defV("v_mul_f64", cF64, vop{nsrc: 2, srcW: W2, dstW: 2, ft: 64, oft: 64, fn: e2(mulF64)})
	defV("v_min_f64", cF64, vop{nsrc: 2, srcW: W2, dstW: 2, ft: 64, oft: 64, fn: e2(minF64)})
	defV("v_max_f64", cF64, vop{nsrc: 2, srcW: W2, dstW: 2, ft: 64, oft: 64, fn: e2(maxF64)})
	defV("v_fma_f64", cF64, vop{nsrc: 3, srcW: W2, dstW: 2, ft: 64, oft: 64, fn: fmaF64}).exact = "exact (subnormal results under directed rounding: approx)"
	defV("v_ldexp_f64", cF64, vop{nsrc: 2, isrc: 2, srcW: [3]uint8{2, 1}, dstW: 2, ft: 64, oft: 64, fn: func(e *fenv, a, b, c uint64) uint64 {
		return ldexpF64(a, uint32(b))
	}})
	for n, f := range f64UnaryOps {
		defV(n, cF64, vop{nsrc: 1, srcW: W2, dstW: 2, ft: 64, oft: 64, fn: fu64(f)})
	}
	for n, f := range f64TransOps {
		defV(n, cTrans, vop{nsrc: 1, srcW: W2, dstW: 2, ft: 64, oft: 64, fn: fu64(f)}).exact = "approx: correctly rounded float64 (hardware is less precise)"
	}
	defV("v_frexp_exp_i32_f64", cF64, vop{nsrc: 1, srcW: W2, ft: 64, fn: func(e *fenv, a, b, c uint64) uint64 { return frexpExp(f64(a)) }})
	defV("v_cvt_i32_f64", cF64, vop{nsrc: 1, srcW: W2, ft: 64, fn: func(e *fenv, a, b, c uint64) uint64 { return cvtF32ToI32(f64(a)) }})
	defV("v_cvt_u32_f64", cF64, vop{nsrc: 1, srcW: W2, ft: 64, fn: func(e *fenv, a, b, c uint64) uint64 { return cvtF32ToU32(f64(a)) }})
	defV("v_cvt_f64_i32", cF64, vop{nsrc: 1, dstW: 2, oft: 64, fn: func(e *fenv, a, b, c uint64) uint64 { return f64bits(float64(int32(a))) }})
	defV("v_cvt_f64_u32", cF64, vop{nsrc: 1, dstW: 2, oft: 64, fn: func(e *fenv, a, b, c uint64) uint64 { return f64bits(float64(uint32(a))) }})
	defV("v_cvt_f64_f32", cF64, vop{nsrc: 1, dstW: 2, ft: 32, oft: 64, fn: func(e *fenv, a, b, c uint64) uint64 {
		x := f32(uint32(a))
		if x != x {
			return uint64(a&0x80000000)<<32 | 0x7ff8000000000000 | uint64(a&0x3fffff)<<29
		}
		return f64bits(float64(x))
	}})
	defV("v_cvt_f32_f64", cF64, vop{nsrc: 1, srcW: W2, ft: 64, oft: 32, fn: func(e *fenv, a, b, c uint64) uint64 {
		x := f64(a)
		if x != x {
			return uint64(uint32(a>>32)&0x80000000 | 0x7fc00000 | uint32(a>>29)&0x3fffff)
		}
		return uint64(f32bits(toF32(x, 0, int(e.w.s[slotMode]&3))))
	}})
	// --- f16
	defV("v_add_f16", cVALU, vop{nsrc: 2, ft: 16, oft: 16, fn: e2(addF16)})
	defV("v_sub_f16", cVALU, vop{nsrc: 2, ft: 16, oft: 16, fn: func(e *fenv, a, b, c uint64) uint64 { return addF16(e, a, b^0x8000) }})
	defV("v_subrev_f16", cVALU, vop{nsrc: 2, ft: 16, oft: 16, fn: func(e *fenv, a, b, c uint64) uint64 { return addF16(e, b, a^0x8000) }})
	defV("v_mul_f16", cVALU, vop{nsrc: 2, ft: 16, oft: 16, fn: e2(mulF16)})
	defV("v_min_f16", cVALU, vop{nsrc: 2, ft: 16, oft: 16, fn: e2(minF16)})
	defV("v_max_f16", cVALU, vop{nsrc: 2, ft: 16, oft: 16, fn: e2(maxF16)})
	defV("v_fma_f16", cVALU, vop{nsrc: 3, ft: 16, oft: 16, fn: fmaF16})
	defV("v_mad_f16", cVALU, vop{nsrc: 3, ft: 16, oft: 16, fn: func(e *fenv, a, b, c uint64) uint64 { return addF16(e, mulF16(e, a, b), c) }})
	defV("v_mac_f16", cVALU, vop{nsrc: 3, ft: 16, oft: 16, mac: true, fn: func(e *fenv, a, b, c uint64) uint64 { return addF16(e, mulF16(e, a, b), c) }})
	defV("v_madmk_f16", cVALU, vop{nsrc: 3, ft: 16, oft: 16, fn: func(e *fenv, a, b, c uint64) uint64 { return addF16(e, mulF16(e, a, b), c) }})
	defV("v_madak_f16", cVALU, vop{nsrc: 3, ft: 16, oft: 16, fn: func(e *fenv, a, b, c uint64) uint64 { return addF16(e, mulF16(e, a, b), c) }})
	defV("v_ldexp_f16", cVALU, vop{nsrc: 2, isrc: 2, ft: 16, oft: 16, fn: func(e *fenv, a, b, c uint64) uint64 {
		x := f16ToF64(uint16(a))
		if x != x {
			return uint64(uint16(a) | 0x200)
		}
		return uint64(f64ToF16(math.Ldexp(x, int(int16(b))), 0, e.rm))
	}})
	for n, f := range map[string]func(float64) float64{
		"v_trunc_f16": math.Trunc, "v_ceil_f16": math.Ceil, "v_floor_f16": math.Floor, "v_rndne_f16": rndne,
		"v_fract_f16": func(x float64) float64 { return math.Min(fract64(x), 1-1.0/2048) }, "v_frexp_mant_f16": frexpMant,
		"v_sqrt_f16": math.Sqrt,
	} {
		defV(n, cVALU, vop{nsrc: 1, ft: 16, oft: 16, fn: fu16(f)})
	}
	for n, f := range map[string]func(float64) float64{"v_rcp_f16": recip, "v_rsq_f16": rsqrt, "v_exp_f16": exp2, "v_log_f16": log2, "v_sin_f16": sinRev, "v_cos_f16": cosRev} {
		defV(n, cTrans, vop{nsrc: 1, ft: 16, oft: 16, fn: fu16(f)}).exact = "approx: float64 result rounded once to f16"
	}
	defV("v_frexp_exp_i16_f16", cVALU, vop{nsrc: 1, ft: 16, fn: func(e *fenv, a, b, c uint64) uint64 { return frexpExp(f16ToF64(uint16(a))) & 0xffff }})
	defV("v_cvt_f16_u16", cVALU, vop{nsrc: 1, oft: 16, fn: func(e *fenv, a, b, c uint64) uint64 { return uint64(f64ToF16(float64(uint16(a)), 0, e.rm)) }})
	defV("v_cvt_f16_i16", cVALU, vop{nsrc: 1, oft: 16, fn: func(e *fenv, a, b, c uint64) uint64 { return uint64(f64ToF16(float64(int16(a)), 0, e.rm)) }})
	defV("v_cvt_u16_f16", cVALU, vop{nsrc: 1, ft: 16, fn: func(e *fenv, a, b, c uint64) uint64 {
		return uint64(uint16(min(cvtF32ToU32(f16ToF64(uint16(a))), 0xffff)))
	}})
	defV("v_cvt_i16_f16", cVALU, vop{nsrc: 1, ft: 16, fn: func(e *fenv, a, b, c uint64) uint64 {
		return uint64(uint16(sat(int64(int32(cvtF32ToI32(f16ToF64(uint16(a))))), -32768, 32767)))
	}})
}

// f64TransOps are the f64 transcendental operations as float64 functions
// (fu64's lane functions; the fast engine's rows).
var f64TransOps = map[string]func(float64) float64{"v_rcp_f64": recip, "v_rsq_f64": rsqrt, "v_sqrt_f64": math.Sqrt}

// f64UnaryOps are the exact f64 unary operations as float64 functions
// (fu64's lane functions; the fast engine's rows).
var f64UnaryOps = map[string]func(float64) float64{
	"v_trunc_f64": math.Trunc, "v_ceil_f64": math.Ceil, "v_floor_f64": math.Floor, "v_rndne_f64": rndne,
	"v_fract_f64": fract64, "v_frexp_mant_f64": frexpMant,
}

// f32TransOps are the f32 transcendental operations as float64
// functions, rounded once (fu32's lane functions; the fast engine's
// kernels).
var f32TransOps = map[string]func(float64) float64{
	"v_rcp_f32": recip, "v_rcp_iflag_f32": recip, "v_rsq_f32": rsqrt, "v_sqrt_f32": math.Sqrt,
	"v_exp_f32": exp2, "v_log_f32": log2, "v_sin_f32": sinRev, "v_cos_f32": cosRev,
	"v_exp_legacy_f32": exp2, "v_log_legacy_f32": log2,
}

// f32UnaryOps are the exact f32 unary operations as float64 functions
// (fu32's lane functions; the fast engine's kernels).
var f32UnaryOps = map[string]func(float64) float64{
	"v_trunc_f32": math.Trunc, "v_ceil_f32": math.Ceil, "v_floor_f32": math.Floor, "v_rndne_f32": rndne,
	"v_fract_f32":      func(x float64) float64 { return math.Min(fract64(x), float64(math.Nextafter32(1, 0))) },
	"v_frexp_mant_f32": frexpMant,
}

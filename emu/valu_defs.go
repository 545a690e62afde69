package emu

import (
	"math"
	"math/bits"
)

// Shorthands for lane functions over 32-bit values.
type u32x2 = func(a, b uint32) uint32

func l2(f u32x2) laneFn {
	return func(e *fenv, a, b, c uint64) uint64 { return uint64(f(uint32(a), uint32(b))) }
}
func l1(f func(a uint32) uint32) laneFn {
	return func(e *fenv, a, b, c uint64) uint64 { return uint64(f(uint32(a))) }
}
func l3(f func(a, b, c uint32) uint32) laneFn {
	return func(e *fenv, a, b, c uint64) uint64 { return uint64(f(uint32(a), uint32(b), uint32(c))) }
}
func e2(f func(e *fenv, a, b uint64) uint64) laneFn {
	return func(e *fenv, a, b, c uint64) uint64 { return f(e, a, b) }
}

// rev swaps the first two sources (the *rev forms).
func rev(f laneFn) laneFn { return func(e *fenv, a, b, c uint64) uint64 { return f(e, b, a, c) } }

// f32 unary through float64 with one rounding under the mode.
func fu32(f func(x float64) float64) laneFn {
	return func(e *fenv, a, b, c uint64) uint64 {
		x := float64(f32(uint32(a)))
		r := f(x)
		if r != r {
			if x != x {
				return uint64(uint32(a) | 0x400000)
			}
			return 0x7fc00000
		}
		return uint64(f32bits(toF32(r, 0, e.rm)))
	}
}

func fu64(f func(x float64) float64) laneFn {
	return func(e *fenv, a, b, c uint64) uint64 {
		x := f64(a)
		r := f(x)
		if r != r {
			if x != x {
				return a | 1<<51
			}
			return 0x7ff8000000000000
		}
		return f64bits(r)
	}
}

func fu16(f func(x float64) float64) laneFn {
	return func(e *fenv, a, b, c uint64) uint64 {
		x := f16ToF64(uint16(a))
		r := f(x)
		if r != r {
			if x != x {
				return uint64(uint16(a) | 0x200)
			}
			return 0x7e00
		}
		return uint64(f64ToF16(r, 0, e.rm))
	}
}

func recip(x float64) float64 { return 1 / x }
func rsqrt(x float64) float64 { return 1 / math.Sqrt(x) }
func exp2(x float64) float64  { return math.Exp2(x) }
func log2(x float64) float64 {
	if x == 0 {
		return math.Inf(-1)
	}
	return math.Log2(x)
}
func sinRev(x float64) float64 { return math.Sin(x * 2 * math.Pi) }
func cosRev(x float64) float64 { return math.Cos(x * 2 * math.Pi) }
func rndne(x float64) float64  { return math.RoundToEven(x) }

func init() {
	W2 := [3]uint8{2, 2, 2}
	// --- VOP2 / VOP3 32-bit integer
	carry := func(sub, revd, cin bool) laneFn {
		return func(e *fenv, a, b, c uint64) uint64 {
			x, y := uint32(a), uint32(b)
			if revd {
				x, y = y, x
			}
			ci := uint32(0)
			if cin {
				ci = uint32(e.carry)
			}
			var s, co uint32
			if sub {
				s, co = bits.Sub32(x, y, ci)
				if e.clamp && co != 0 {
					s = 0
				}
			} else {
				s, co = bits.Add32(x, y, ci)
				if e.clamp && co != 0 {
					s = 0xffffffff
				}
			}
			e.cout = uint64(co)
			return uint64(s)
		}
	}
	defV("v_add_co_u32", cVALU, vop{nsrc: 2, cout: true, fn: carry(false, false, false)})
	defV("v_sub_co_u32", cVALU, vop{nsrc: 2, cout: true, fn: carry(true, false, false)})
	defV("v_subrev_co_u32", cVALU, vop{nsrc: 2, cout: true, fn: carry(true, true, false)})
	defV("v_addc_co_u32", cVALU, vop{nsrc: 2, cout: true, cin: true, fn: carry(false, false, true)})
	defV("v_subb_co_u32", cVALU, vop{nsrc: 2, cout: true, cin: true, fn: carry(true, false, true)})
	defV("v_subbrev_co_u32", cVALU, vop{nsrc: 2, cout: true, cin: true, fn: carry(true, true, true)})
	defV("v_cndmask_b32", cVALU, vop{nsrc: 2, cin: true, ft: 32, nofl: true, fn: func(e *fenv, a, b, c uint64) uint64 {
		if e.carry != 0 {
			return b
		}
		return a
	}})
	for n, f := range map[string]u32x2{
		"v_and_b32":     func(a, b uint32) uint32 { return a & b },
		"v_or_b32":      func(a, b uint32) uint32 { return a | b },
		"v_xor_b32":     func(a, b uint32) uint32 { return a ^ b },
		"v_xnor_b32":    func(a, b uint32) uint32 { return ^(a ^ b) },
		"v_lshlrev_b32": func(a, b uint32) uint32 { return b << (a & 31) },
		"v_lshrrev_b32": func(a, b uint32) uint32 { return b >> (a & 31) },
		"v_ashrrev_i32": func(a, b uint32) uint32 { return uint32(int32(b) >> (a & 31)) },
		"v_lshl_b32":    func(a, b uint32) uint32 { return a << (b & 31) },
		"v_lshr_b32":    func(a, b uint32) uint32 { return a >> (b & 31) },
		"v_ashr_i32":    func(a, b uint32) uint32 { return uint32(int32(a) >> (b & 31)) },
		"v_min_i32":     func(a, b uint32) uint32 { return uint32(min(int32(a), int32(b))) },
		"v_max_i32":     func(a, b uint32) uint32 { return uint32(max(int32(a), int32(b))) },
		"v_min_u32":     func(a, b uint32) uint32 { return min(a, b) },
		"v_max_u32":     func(a, b uint32) uint32 { return max(a, b) },
		"v_mul_hi_i32_i24": func(a, b uint32) uint32 {
			return uint32(uint64(sext24(uint64(a))*sext24(uint64(b))) >> 32)
		},
		"v_mul_hi_u32_u24": func(a, b uint32) uint32 { return uint32(uint64(a&0xffffff) * uint64(b&0xffffff) >> 32) },
		"v_mul_lo_u32":     func(a, b uint32) uint32 { return a * b },
		"v_mul_lo_i32":     func(a, b uint32) uint32 { return a * b },
		"v_mul_hi_u32":     func(a, b uint32) uint32 { return uint32(uint64(a) * uint64(b) >> 32) },
		"v_mul_hi_i32":     func(a, b uint32) uint32 { return uint32(uint64(int64(int32(a))*int64(int32(b))) >> 32) },
		"v_bfm_b32":        func(a, b uint32) uint32 { return (uint32(1)<<(a&31) - 1) << (b & 31) },
		"v_bcnt_u32_b32":   func(a, b uint32) uint32 { return uint32(bits.OnesCount32(a)) + b },
		"v_cvt_pk_u16_u32": func(a, b uint32) uint32 { return min(a, 0xffff) | min(b, 0xffff)<<16 },
		"v_cvt_pk_i16_i32": func(a, b uint32) uint32 {
			return uint32(uint16(sat(int64(int32(a)), -32768, 32767))) | uint32(uint16(sat(int64(int32(b)), -32768, 32767)))<<16
		},
		"v_pack_b32_f16": func(a, b uint32) uint32 { return a&0xffff | b<<16 },
		// 16-bit integer (GFX8/9 zero the high half)
		"v_mul_lo_u16":  func(a, b uint32) uint32 { return (a * b) & 0xffff },
		"v_lshlrev_b16": func(a, b uint32) uint32 { return (b << (a & 15)) & 0xffff },
		"v_lshrrev_b16": func(a, b uint32) uint32 { return (b & 0xffff) >> (a & 15) },
		"v_ashrrev_i16": func(a, b uint32) uint32 { return uint32(uint16(int16(b) >> (a & 15))) },
		"v_max_u16":     func(a, b uint32) uint32 { return max(a&0xffff, b&0xffff) },
		"v_min_u16":     func(a, b uint32) uint32 { return min(a&0xffff, b&0xffff) },
		"v_max_i16":     func(a, b uint32) uint32 { return uint32(uint16(max(int16(a), int16(b)))) },
		"v_min_i16":     func(a, b uint32) uint32 { return uint32(uint16(min(int16(a), int16(b)))) },
	} {
		defV(n, cVALU, vop{nsrc: 2, fn: l2(f)})
		addKernel(n, k2(f))
	}
	defV("v_mul_lo_u32", cTrans, vop{nsrc: 2, fn: l2(func(a, b uint32) uint32 { return a * b })})
	defV("v_mul_hi_u32", cTrans, vop{nsrc: 2, fn: l2(func(a, b uint32) uint32 { return uint32(uint64(a) * uint64(b) >> 32) })})
	defV("v_mbcnt_lo_u32_b32", cVALU, vop{nsrc: 2, fn: func(e *fenv, a, b, c uint64) uint64 {
		return uint64(uint32(mbcnt(e.lane, uint32(a), false)) + uint32(b))
	}})
	defV("v_mbcnt_hi_u32_b32", cVALU, vop{nsrc: 2, fn: func(e *fenv, a, b, c uint64) uint64 {
		return uint64(uint32(mbcnt(e.lane, uint32(a), true)) + uint32(b))
	}})
	// --- three-source integer
	for n, f := range map[string]func(a, b, c uint32) uint32{
		"v_bfe_u32": func(a, b, c uint32) uint32 { return uint32(bfe64(uint64(a), uint(b&31), uint(c&31), false)) },
		"v_bfe_i32": func(a, b, c uint32) uint32 { return uint32(bfe64(uint64(a), uint(b&31), uint(c&31), true)) },
		"v_bfi_b32": func(a, b, c uint32) uint32 { return a&b | ^a&c },
		"v_alignbit_b32": func(a, b, c uint32) uint32 {
			return uint32((uint64(a)<<32 | uint64(b)) >> (c & 31))
		},
		"v_alignbyte_b32": func(a, b, c uint32) uint32 {
			return uint32((uint64(a)<<32 | uint64(b)) >> (8 * (c & 3)))
		},
		"v_lshl_add_u32": func(a, b, c uint32) uint32 { return a<<(b&31) + c },
		"v_add_lshl_u32": func(a, b, c uint32) uint32 { return (a + b) << (c & 31) },
		"v_add3_u32":     func(a, b, c uint32) uint32 { return a + b + c },
		"v_lshl_or_b32":  func(a, b, c uint32) uint32 { return a<<(b&31) | c },
		"v_and_or_b32":   func(a, b, c uint32) uint32 { return a&b | c },
		"v_or3_b32":      func(a, b, c uint32) uint32 { return a | b | c },
		"v_xad_u32":      func(a, b, c uint32) uint32 { return (a ^ b) + c },
		"v_perm_b32": func(a, b, c uint32) uint32 {
			var r uint32
			for i := uint32(0); i < 4; i++ {
				r |= permByte(a, b, c>>(8*i)&0xff) << (8 * i)
			}
			return r
		},
		"v_min3_i32": func(a, b, c uint32) uint32 { return uint32(min(int32(a), int32(b), int32(c))) },
		"v_max3_i32": func(a, b, c uint32) uint32 { return uint32(max(int32(a), int32(b), int32(c))) },
		"v_med3_i32": func(a, b, c uint32) uint32 { return uint32(med3(int64(int32(a)), int64(int32(b)), int64(int32(c)))) },
		"v_min3_u32": func(a, b, c uint32) uint32 { return min(a, b, c) },
		"v_max3_u32": func(a, b, c uint32) uint32 { return max(a, b, c) },
		"v_med3_u32": func(a, b, c uint32) uint32 { return uint32(med3(int64(a), int64(b), int64(c))) },
	} {
		defV(n, cVALU, vop{nsrc: 3, fn: l3(f)})
		addKernel(n, k3(f))
	}
	// --- 64-bit integer
	defV("v_lshlrev_b64", cF64, vop{nsrc: 2, srcW: [3]uint8{1, 2}, dstW: 2, fn: func(e *fenv, a, b, c uint64) uint64 { return b << (a & 63) }})
	defV("v_lshrrev_b64", cF64, vop{nsrc: 2, srcW: [3]uint8{1, 2}, dstW: 2, fn: func(e *fenv, a, b, c uint64) uint64 { return b >> (a & 63) }})
	defV("v_ashrrev_i64", cF64, vop{nsrc: 2, srcW: [3]uint8{1, 2}, dstW: 2, fn: func(e *fenv, a, b, c uint64) uint64 { return uint64(int64(b) >> (a & 63)) }})
	defV("v_mad_u64_u32", cTrans, vop{nsrc: 3, srcW: [3]uint8{1, 1, 2}, dstW: 2, cout: true, fn: func(e *fenv, a, b, c uint64) uint64 {
		s, co := bits.Add64(uint64(uint32(a))*uint64(uint32(b)), c, 0)
		e.cout = co
		return s
	}})
	defV("v_mad_i64_i32", cTrans, vop{nsrc: 3, srcW: [3]uint8{1, 1, 2}, dstW: 2, cout: true, fn: func(e *fenv, a, b, c uint64) uint64 {
		p := int64(int32(a)) * int64(int32(b))
		s := uint64(p) + c
		// carry out is bit 64 of the 65-bit signed sum
		hp, hc := uint64(p>>63), uint64(int64(c)>>63)
		_, co := bits.Add64(uint64(p), c, 0)
		e.cout = (hp + hc + co) & 1
		return s
	}})
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
	for n, f := range map[string]func(float64) float64{
		"v_trunc_f32": math.Trunc, "v_ceil_f32": math.Ceil, "v_floor_f32": math.Floor, "v_rndne_f32": rndne,
		"v_fract_f32":      func(x float64) float64 { return math.Min(fract64(x), float64(math.Nextafter32(1, 0))) },
		"v_frexp_mant_f32": frexpMant,
	} {
		defV(n, cVALU, vop{nsrc: 1, ft: 32, oft: 32, fn: fu32(f)})
		if kernels[n] == nil { // valu_ff.go's rounding kernels, whichever init runs first
			kernels[n] = kFu32(f)
		}
	}
	for n, f := range map[string]func(float64) float64{
		"v_rcp_f32": recip, "v_rcp_iflag_f32": recip, "v_rsq_f32": rsqrt, "v_sqrt_f32": math.Sqrt,
		"v_exp_f32": exp2, "v_log_f32": log2, "v_sin_f32": sinRev, "v_cos_f32": cosRev,
		"v_exp_legacy_f32": exp2, "v_log_legacy_f32": log2,
	} {
		d := defV(n, cTrans, vop{nsrc: 1, ft: 32, oft: 32, fn: fu32(f)})
		kernels[n] = kFu32(f)
		d.exact = "approx: computed in float64 and rounded once (within the manual's 1 ULP)"
	}
	kernels["v_rcp_f32"], kernels["v_rcp_iflag_f32"] = kRcpF32, kRcpF32
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
	for n, f := range map[string]func(float64) float64{
		"v_trunc_f64": math.Trunc, "v_ceil_f64": math.Ceil, "v_floor_f64": math.Floor, "v_rndne_f64": rndne,
		"v_fract_f64": fract64, "v_frexp_mant_f64": frexpMant,
	} {
		defV(n, cF64, vop{nsrc: 1, srcW: W2, dstW: 2, ft: 64, oft: 64, fn: fu64(f)})
		addF64Unary(n, f)
	}
	for n, f := range map[string]func(float64) float64{"v_rcp_f64": recip, "v_rsq_f64": rsqrt, "v_sqrt_f64": math.Sqrt} {
		defV(n, cTrans, vop{nsrc: 1, srcW: W2, dstW: 2, ft: 64, oft: 64, fn: fu64(f)}).exact = "approx: correctly rounded float64 (hardware is less precise)"
		addF64Unary(n, f)
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
	// --- unary integer and moves
	for n, f := range map[string]func(uint32) uint32{
		"v_not_b32":   func(a uint32) uint32 { return ^a },
		"v_bfrev_b32": bits.Reverse32,
		"v_ffbh_u32": func(a uint32) uint32 {
			if a == 0 {
				return 0xffffffff
			}
			return uint32(bits.LeadingZeros32(a))
		},
		"v_ffbl_b32": func(a uint32) uint32 {
			if a == 0 {
				return 0xffffffff
			}
			return uint32(bits.TrailingZeros32(a))
		},
		"v_ffbh_i32": func(a uint32) uint32 { return uint32(ffbhI32(a)) },
		"v_sat_pk_u8_i16": func(a uint32) uint32 {
			return uint32(sat(int64(int16(a)), 0, 255)) | uint32(sat(int64(int16(a>>16)), 0, 255))<<8
		},
	} {
		defV(n, cVALU, vop{nsrc: 1, fn: l1(f)})
		addKernel(n, k1(f))
	}
	defV("v_mov_b32", cVALU, vop{nsrc: 1, nofl: true, fn: func(e *fenv, a, b, c uint64) uint64 { return a }})
	defV("v_mov_fed_b32", cVALU, vop{nsrc: 1, nofl: true, fn: func(e *fenv, a, b, c uint64) uint64 { return a }})
	// --- division helpers
	defV("v_div_fixup_f32", cVALU, vop{nsrc: 3, ft: 32, oft: 32, fn: divFixup32})
	defV("v_div_fixup_f64", cF64, vop{nsrc: 3, srcW: W2, dstW: 2, ft: 64, oft: 64, fn: divFixup64})
	defV("v_div_fmas_f32", cVALU, vop{nsrc: 3, ft: 32, oft: 32, fn: func(e *fenv, a, b, c uint64) uint64 {
		r := fmaF32(e, a, b, c)
		if e.w.vcc()>>uint(e.lane)&1 != 0 {
			return uint64(f32bits(f32(uint32(r)) * (1 << 32)))
		}
		return r
	}})
	defV("v_div_fmas_f64", cF64, vop{nsrc: 3, srcW: W2, dstW: 2, ft: 64, oft: 64, fn: func(e *fenv, a, b, c uint64) uint64 {
		return divFmas64(e, a, b, c, e.w.vcc()>>uint(e.lane)&1 != 0)
	}})
	defV("v_div_scale_f32", cVALU, vop{nsrc: 3, ft: 32, oft: 32, cout: true, fn: func(e *fenv, a, b, c uint64) uint64 {
		return divScale(e, a, b, c, 32)
	}}).exact = "approx: the manual's pseudocode for special ranges"
	defV("v_div_scale_f64", cF64, vop{nsrc: 3, srcW: W2, dstW: 2, ft: 64, oft: 64, cout: true, fn: func(e *fenv, a, b, c uint64) uint64 {
		return divScale(e, a, b, c, 64)
	}}).exact = "approx: the manual's pseudocode for special ranges"
}

// ldexpF64 is v_ldexp_f64: a×2^n (a NaN is quieted).
func ldexpF64(a uint64, n uint32) uint64 {
	x := f64(a)
	if x != x {
		return a | 1<<51
	}
	return f64bits(math.Ldexp(x, int(int32(n))))
}

// divFmas64 is v_div_fmas_f64: a×b+c, scaled by 2^64 when the lane's VCC
// bit (scale) is set.
func divFmas64(e *fenv, a, b, c uint64, scale bool) uint64 {
	r := fmaF64(e, a, b, c)
	if scale {
		return f64bits(f64(r) * (1 << 64))
	}
	return r
}

// divScale follows V_DIV_SCALE's pseudocode: S0 is the value to scale (the
// numerator or denominator), S1 the denominator, S2 the numerator.
func divScale(e *fenv, a, b, c uint64, w int) uint64 {
	var s0, den, num float64
	var expN, expD int
	bias, mant, scale := 127, 23, 64
	if w == 32 {
		s0, den, num = float64(f32(uint32(a))), float64(f32(uint32(b))), float64(f32(uint32(c)))
		expN, expD = int(uint32(c)>>23&0xff), int(uint32(b)>>23&0xff)
	} else {
		s0, den, num = f64(a), f64(b), f64(c)
		expN, expD = int(c>>52&0x7ff), int(b>>52&0x7ff)
		bias, mant, scale = 1023, 52, 128
	}
	_ = bias
	out := func(f float64) uint64 {
		if w == 32 {
			return uint64(f32bits(float32(f)))
		}
		return f64bits(f)
	}
	switch {
	case num == 0 || den == 0:
		return out(math.NaN())
	case expN-expD >= 96 && w == 32 || expN-expD >= 768 && w == 64:
		e.cout = 1
		if s0 == den {
			return out(math.Ldexp(s0, scale))
		}
	case expD == 0:
		return out(math.Ldexp(s0, scale))
	case expN <= mant:
		return out(math.Ldexp(s0, scale))
	}
	return out(s0)
}

func divFixup32(e *fenv, a, b, c uint64) uint64 {
	q, d, n := f32(uint32(a)), f32(uint32(b)), f32(uint32(c))
	neg := (uint32(b)^uint32(c))>>31 != 0
	sign := func(f float32) uint64 {
		if neg {
			f = -f
		}
		return uint64(f32bits(f))
	}
	switch {
	case n != n:
		return uint64(uint32(c) | 0x400000)
	case d != d:
		return uint64(uint32(b) | 0x400000)
	case d == 0 && n == 0, math.IsInf(float64(d), 0) && math.IsInf(float64(n), 0):
		return 0xffc00000
	case d == 0, math.IsInf(float64(n), 0):
		return sign(float32(math.Inf(1)))
	case math.IsInf(float64(d), 0), n == 0:
		return sign(0)
	}
	return sign(float32(math.Abs(float64(q))))
}

func divFixup64(e *fenv, a, b, c uint64) uint64 {
	q, d, n := f64(a), f64(b), f64(c)
	neg := (b^c)>>63 != 0
	sign := func(f float64) uint64 {
		if neg {
			f = -f
		}
		return f64bits(f)
	}
	switch {
	case n != n:
		return c | 1<<51
	case d != d:
		return b | 1<<51
	case d == 0 && n == 0, math.IsInf(d, 0) && math.IsInf(n, 0):
		return 0xfff8000000000000
	case d == 0, math.IsInf(n, 0):
		return sign(math.Inf(1))
	case math.IsInf(d, 0), n == 0:
		return sign(0)
	}
	return sign(math.Abs(q))
}

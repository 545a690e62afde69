package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"math"
	"math/bits"
)

// Shorthands for lane functions over 32-bit values.
type U32x2 = func(a, b uint32) uint32

func l2(f U32x2) core.LaneFn {
	return func(e *core.Fenv, a, b, c uint64) uint64 { return uint64(f(uint32(a), uint32(b))) }
}
func l1(f func(a uint32) uint32) core.LaneFn {
	return func(e *core.Fenv, a, b, c uint64) uint64 { return uint64(f(uint32(a))) }
}
func l3(f func(a, b, c uint32) uint32) core.LaneFn {
	return func(e *core.Fenv, a, b, c uint64) uint64 { return uint64(f(uint32(a), uint32(b), uint32(c))) }
}
func e2(f func(e *core.Fenv, a, b uint64) uint64) core.LaneFn {
	return func(e *core.Fenv, a, b, c uint64) uint64 { return f(e, a, b) }
}

// rev swaps the first two sources (the *rev forms).
func rev(f core.LaneFn) core.LaneFn {
	return func(e *core.Fenv, a, b, c uint64) uint64 { return f(e, b, a, c) }
}

// f32 unary through float64 with one rounding under the mode.
func fu32(f func(x float64) float64) core.LaneFn {
	return func(e *core.Fenv, a, b, c uint64) uint64 {
		x := float64(core.F32(uint32(a)))
		r := f(x)
		if r != r {
			if x != x {
				return uint64(uint32(a) | 0x400000)
			}
			return 0x7fc00000
		}
		return uint64(core.F32bits(core.ToF32(r, 0, e.Rm)))
	}
}

func fu64(f func(x float64) float64) core.LaneFn {
	return func(e *core.Fenv, a, b, c uint64) uint64 {
		x := core.F64(a)
		r := f(x)
		if r != r {
			if x != x {
				return a | 1<<51
			}
			return 0x7ff8000000000000
		}
		return core.F64bits(r)
	}
}

func fu16(f func(x float64) float64) core.LaneFn {
	return func(e *core.Fenv, a, b, c uint64) uint64 {
		x := core.F16ToF64(uint16(a))
		r := f(x)
		if r != r {
			if x != x {
				return uint64(uint16(a) | 0x200)
			}
			return 0x7e00
		}
		return uint64(core.F64ToF16(r, 0, e.Rm))
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
	carry := func(sub, revd, cin bool) core.LaneFn {
		return func(e *core.Fenv, a, b, c uint64) uint64 {
			x, y := uint32(a), uint32(b)
			if revd {
				x, y = y, x
			}
			ci := uint32(0)
			if cin {
				ci = uint32(e.Carry)
			}
			var s, co uint32
			if sub {
				s, co = bits.Sub32(x, y, ci)
				if e.Clamp && co != 0 {
					s = 0
				}
			} else {
				s, co = bits.Add32(x, y, ci)
				if e.Clamp && co != 0 {
					s = 0xffffffff
				}
			}
			e.Cout = uint64(co)
			return uint64(s)
		}
	}
	defV("v_add_co_u32", core.CVALU, core.Vop{Nsrc: 2, Cout: true, Fn: carry(false, false, false)})
	defV("v_sub_co_u32", core.CVALU, core.Vop{Nsrc: 2, Cout: true, Fn: carry(true, false, false)})
	defV("v_subrev_co_u32", core.CVALU, core.Vop{Nsrc: 2, Cout: true, Fn: carry(true, true, false)})
	defV("v_addc_co_u32", core.CVALU, core.Vop{Nsrc: 2, Cout: true, Cin: true, Fn: carry(false, false, true)})
	defV("v_subb_co_u32", core.CVALU, core.Vop{Nsrc: 2, Cout: true, Cin: true, Fn: carry(true, false, true)})
	defV("v_subbrev_co_u32", core.CVALU, core.Vop{Nsrc: 2, Cout: true, Cin: true, Fn: carry(true, true, true)})
	defV("v_cndmask_b32", core.CVALU, core.Vop{Nsrc: 2, Cin: true, Ft: 32, Nofl: true, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		if e.Carry != 0 {
			return b
		}
		return a
	}})
	for n, f := range Int2Ops {
		defV(n, core.CVALU, core.Vop{Nsrc: 2, Fn: l2(f)})
	}
	defV("v_mul_lo_u32", core.CTrans, core.Vop{Nsrc: 2, Fn: l2(func(a, b uint32) uint32 { return a * b })})
	defV("v_mul_hi_u32", core.CTrans, core.Vop{Nsrc: 2, Fn: l2(func(a, b uint32) uint32 { return uint32(uint64(a) * uint64(b) >> 32) })})
	defV("v_mbcnt_lo_u32_b32", core.CVALU, core.Vop{Nsrc: 2, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		return uint64(uint32(mbcnt(e.Lane, uint32(a), false)) + uint32(b))
	}})
	defV("v_mbcnt_hi_u32_b32", core.CVALU, core.Vop{Nsrc: 2, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		return uint64(uint32(mbcnt(e.Lane, uint32(a), true)) + uint32(b))
	}})
	// --- three-source integer
	for n, f := range Int3Ops {
		defV(n, core.CVALU, core.Vop{Nsrc: 3, Fn: l3(f)})
	}
	// --- 64-bit integer
	defV("v_lshlrev_b64", core.CF64, core.Vop{Nsrc: 2, SrcW: [3]uint8{1, 2}, DstW: 2, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return b << (a & 63) }})
	defV("v_lshrrev_b64", core.CF64, core.Vop{Nsrc: 2, SrcW: [3]uint8{1, 2}, DstW: 2, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return b >> (a & 63) }})
	defV("v_ashrrev_i64", core.CF64, core.Vop{Nsrc: 2, SrcW: [3]uint8{1, 2}, DstW: 2, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return uint64(int64(b) >> (a & 63)) }})
	defV("v_mad_u64_u32", core.CTrans, core.Vop{Nsrc: 3, SrcW: [3]uint8{1, 1, 2}, DstW: 2, Cout: true, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		s, co := bits.Add64(uint64(uint32(a))*uint64(uint32(b)), c, 0)
		e.Cout = co
		return s
	}})
	defV("v_mad_i64_i32", core.CTrans, core.Vop{Nsrc: 3, SrcW: [3]uint8{1, 1, 2}, DstW: 2, Cout: true, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		p := int64(int32(a)) * int64(int32(b))
		s := uint64(p) + c
		// carry out is bit 64 of the 65-bit signed sum
		hp, hc := uint64(p>>63), uint64(int64(c)>>63)
		_, co := bits.Add64(uint64(p), c, 0)
		e.Cout = (hp + hc + co) & 1
		return s
	}})
	// --- unary integer and moves
	for n, f := range Int1Ops {
		defV(n, core.CVALU, core.Vop{Nsrc: 1, Fn: l1(f)})
	}
	defV("v_mov_b32", core.CVALU, core.Vop{Nsrc: 1, Nofl: true, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return a }})
	defV("v_mov_fed_b32", core.CVALU, core.Vop{Nsrc: 1, Nofl: true, Fn: func(e *core.Fenv, a, b, c uint64) uint64 { return a }})
	// --- division helpers
	defV("v_div_fixup_f32", core.CVALU, core.Vop{Nsrc: 3, Ft: 32, Oft: 32, Fn: divFixup32})
	defV("v_div_fixup_f64", core.CF64, core.Vop{Nsrc: 3, SrcW: W2, DstW: 2, Ft: 64, Oft: 64, Fn: DivFixup64})
	defV("v_div_fmas_f32", core.CVALU, core.Vop{Nsrc: 3, Ft: 32, Oft: 32, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		r := FmaF32(e, a, b, c)
		if e.W.Vcc()>>uint(e.Lane)&1 != 0 {
			return uint64(core.F32bits(core.F32(uint32(r)) * (1 << 32)))
		}
		return r
	}})
	defV("v_div_fmas_f64", core.CF64, core.Vop{Nsrc: 3, SrcW: W2, DstW: 2, Ft: 64, Oft: 64, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		return DivFmas64(e, a, b, c, e.W.Vcc()>>uint(e.Lane)&1 != 0)
	}})
	defV("v_div_scale_f32", core.CVALU, core.Vop{Nsrc: 3, Ft: 32, Oft: 32, Cout: true, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		return DivScale(e, a, b, c, 32)
	}}).Exact = "approx: the manual's pseudocode for special ranges"
	defV("v_div_scale_f64", core.CF64, core.Vop{Nsrc: 3, SrcW: W2, DstW: 2, Ft: 64, Oft: 64, Cout: true, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
		return DivScale(e, a, b, c, 64)
	}}).Exact = "approx: the manual's pseudocode for special ranges"
}

// Int1Ops are the unary 32-bit integer operations as functions of the
// source's word (l1's lane functions; the fast engine's kernels).
var Int1Ops = map[string]func(uint32) uint32{
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
		return uint32(Sat(int64(int16(a)), 0, 255)) | uint32(Sat(int64(int16(a>>16)), 0, 255))<<8
	},
}

// Int3Ops are the three-source 32-bit integer operations as functions of
// the sources' words (l3's lane functions; the fast engine's kernels).
var Int3Ops = map[string]func(a, b, c uint32) uint32{
	"v_bfe_u32": func(a, b, c uint32) uint32 { return uint32(Bfe64(uint64(a), uint(b&31), uint(c&31), false)) },
	"v_bfe_i32": func(a, b, c uint32) uint32 { return uint32(Bfe64(uint64(a), uint(b&31), uint(c&31), true)) },
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
}

// Int2Ops are the two-source 32-bit integer operations as functions of
// the sources' words (l2's lane functions; the fast engine's kernels).
var Int2Ops = map[string]U32x2{
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
		return uint32(uint16(Sat(int64(int32(a)), -32768, 32767))) | uint32(uint16(Sat(int64(int32(b)), -32768, 32767)))<<16
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
}

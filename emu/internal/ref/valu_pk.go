package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// VOP3P packed 16-bit math: each half of the result takes its sources'
// halves chosen by op_sel (low result) and op_sel_hi (high result);
// neg_lo/neg_hi negate f16 sources.

type pkFn func(e *core.Fenv, a, b, c uint16) uint16

type pkDef struct {
	fn    pkFn
	nsrc  int
	float bool
}

var pkOps = map[int32]pkDef{}

func defPK(name string, nsrc int, float bool, fn pkFn) {
	id := int32(len(pkOps))
	pkOps[id] = pkDef{fn: fn, nsrc: nsrc, float: float}
	ty := core.TyV2I16
	if float {
		ty = core.TyV2F16
	}
	def(name, execVOP3P, id, 1, ty, core.CVALU)
}

func h2(f func(e *core.Fenv, a, b uint64) uint64) pkFn {
	return func(e *core.Fenv, a, b, c uint16) uint16 { return uint16(f(e, uint64(a), uint64(b))) }
}

func init() {
	defPK("v_pk_add_f16", 2, true, h2(addF16))
	defPK("v_pk_mul_f16", 2, true, h2(mulF16))
	defPK("v_pk_min_f16", 2, true, h2(minF16))
	defPK("v_pk_max_f16", 2, true, h2(maxF16))
	defPK("v_pk_fma_f16", 3, true, func(e *core.Fenv, a, b, c uint16) uint16 { return uint16(FmaF16(e, uint64(a), uint64(b), uint64(c))) })
	defPK("v_pk_add_u16", 2, false, func(e *core.Fenv, a, b, c uint16) uint16 {
		s := uint32(a) + uint32(b)
		if e.Clamp && s > 0xffff {
			return 0xffff
		}
		return uint16(s)
	})
	defPK("v_pk_sub_u16", 2, false, func(e *core.Fenv, a, b, c uint16) uint16 {
		if e.Clamp && b > a {
			return 0
		}
		return a - b
	})
	defPK("v_pk_add_i16", 2, false, func(e *core.Fenv, a, b, c uint16) uint16 {
		s := int32(int16(a)) + int32(int16(b))
		if e.Clamp {
			s = int32(Sat(int64(s), -32768, 32767))
		}
		return uint16(s)
	})
	defPK("v_pk_sub_i16", 2, false, func(e *core.Fenv, a, b, c uint16) uint16 {
		s := int32(int16(a)) - int32(int16(b))
		if e.Clamp {
			s = int32(Sat(int64(s), -32768, 32767))
		}
		return uint16(s)
	})
	defPK("v_pk_mul_lo_u16", 2, false, func(e *core.Fenv, a, b, c uint16) uint16 { return a * b })
	defPK("v_pk_lshlrev_b16", 2, false, func(e *core.Fenv, a, b, c uint16) uint16 { return b << (a & 15) })
	defPK("v_pk_lshrrev_b16", 2, false, func(e *core.Fenv, a, b, c uint16) uint16 { return b >> (a & 15) })
	defPK("v_pk_ashrrev_i16", 2, false, func(e *core.Fenv, a, b, c uint16) uint16 { return uint16(int16(b) >> (a & 15)) })
	defPK("v_pk_max_i16", 2, false, func(e *core.Fenv, a, b, c uint16) uint16 { return uint16(max(int16(a), int16(b))) })
	defPK("v_pk_min_i16", 2, false, func(e *core.Fenv, a, b, c uint16) uint16 { return uint16(min(int16(a), int16(b))) })
	defPK("v_pk_max_u16", 2, false, func(e *core.Fenv, a, b, c uint16) uint16 { return max(a, b) })
	defPK("v_pk_min_u16", 2, false, func(e *core.Fenv, a, b, c uint16) uint16 { return min(a, b) })
	defPK("v_pk_mad_u16", 3, false, func(e *core.Fenv, a, b, c uint16) uint16 {
		r := int64(a)*int64(b) + int64(c)
		if e.Clamp {
			r = Sat(r, 0, 0xffff)
		}
		return uint16(r)
	})
	defPK("v_pk_mad_i16", 3, false, func(e *core.Fenv, a, b, c uint16) uint16 {
		r := int64(int16(a))*int64(int16(b)) + int64(int16(c))
		if e.Clamp {
			r = Sat(r, -32768, 32767)
		}
		return uint16(r)
	})
	def("v_mad_mix_f32", execMadMix, 0, 1, core.TyF32, core.CVALU)
	def("v_mad_mixlo_f16", execMadMix, 1, 1, core.TyF32, core.CVALU)
	def("v_mad_mixhi_f16", execMadMix, 2, 1, core.TyF32, core.CVALU)
}

func execVOP3P(w *core.Wave, in *core.Instr) error {
	d := pkOps[in.Sub]
	if int(in.Nsrc) < d.nsrc || in.Dst[0].Kind != core.OkV {
		return ExecBadOperands(w, in)
	}
	md := in.In.Mods
	e := FenvFor(w, 16)
	e.Clamp = md.Clamp && !d.float
	v := core.Vop{Nsrc: uint8(d.nsrc), SrcW: [3]uint8{1, 1, 1}, Nofl: true}
	var src [3][64]uint64
	for k := 0; k < d.nsrc; k++ {
		vfetch(w, in, &v, k, e, &src[k])
	}
	mask := w.Exec()
	var out [64]uint32
	for m := mask; m != 0; m &= m - 1 {
		l := core.Tz(m)
		var lo, hi [3]uint16
		for k := 0; k < d.nsrc; k++ {
			x := uint32(src[k][l])
			sl, sh := md.OpSel>>uint(k)&1, md.OpSelHi>>uint(k)&1
			lo[k], hi[k] = uint16(x>>(16*sl)), uint16(x>>(16*sh))
			if d.float {
				if md.NegLo>>uint(k)&1 != 0 {
					lo[k] ^= 0x8000
				}
				if md.NegHi>>uint(k)&1 != 0 {
					hi[k] ^= 0x8000
				}
				if !e.Din {
					if core.IsDenorm16(lo[k]) {
						lo[k] &= 0x8000
					}
					if core.IsDenorm16(hi[k]) {
						hi[k] &= 0x8000
					}
				}
			}
		}
		rl := d.fn(e, lo[0], lo[1], lo[2])
		rh := d.fn(e, hi[0], hi[1], hi[2])
		if d.float {
			rl = uint16(Post(e, uint64(rl), 16, 0, md.Clamp))
			rh = uint16(Post(e, uint64(rh), 16, 0, md.Clamp))
		}
		out[l] = uint32(rl) | uint32(rh)<<16
	}
	w.Wv(int(in.Dst[0].Reg), mask, &out)
	return nil
}

// execMadMix executes v_mad_mix*: each source is f32, or with op_sel_hi set
// the f16 half op_sel chooses; the f32 fused result goes whole (mix_f32) or
// rounded to f16 into the low or high half of the destination.
func execMadMix(w *core.Wave, in *core.Instr) error {
	if in.Nsrc < 3 || in.Dst[0].Kind != core.OkV {
		return ExecBadOperands(w, in)
	}
	md := in.In.Mods
	e := FenvFor(w, 32)
	v := core.Vop{Nsrc: 3, SrcW: [3]uint8{1, 1, 1}, Nofl: true}
	var src [3][64]uint64
	for k := 0; k < 3; k++ {
		vfetch(w, in, &v, k, e, &src[k])
	}
	mask := w.Exec()
	dr := int(in.Dst[0].Reg)
	var out [64]uint32
	for m := mask; m != 0; m &= m - 1 {
		l := core.Tz(m)
		var s [3]uint64
		for k := 0; k < 3; k++ {
			x := uint32(src[k][l])
			if md.OpSelHi>>uint(k)&1 != 0 {
				h := uint16(x >> (16 * uint32(md.OpSel>>uint(k)&1)))
				x = core.F32bits(float32(core.F16ToF64(h)))
			}
			if md.NegLo>>uint(k)&1 != 0 {
				x ^= 0x80000000
			}
			if md.NegHi>>uint(k)&1 != 0 {
				x &^= 0x80000000
			}
			s[k] = uint64(x)
		}
		r := uint32(FmaF32(e, s[0], s[1], s[2]))
		switch in.Sub {
		case 0:
			out[l] = uint32(Post(e, uint64(r), 32, 0, md.Clamp))
		case 1:
			h := core.F64ToF16(float64(core.F32(r)), 0, int(w.S[core.SlotMode]>>2&3))
			out[l] = w.V[dr][l]&0xffff0000 | uint32(h)
		case 2:
			h := core.F64ToF16(float64(core.F32(r)), 0, int(w.S[core.SlotMode]>>2&3))
			out[l] = w.V[dr][l]&0xffff | uint32(h)<<16
		}
	}
	w.Wv(dr, mask, &out)
	return nil
}

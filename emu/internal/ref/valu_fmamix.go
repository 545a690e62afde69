package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"math"
)

// gfx904/gfx906 V_FMA_MIX_F32, V_FMA_MIXLO_F16, V_FMA_MIXHI_F16 (Vega
// manual): a fused S0·S1+S2 whose sources are f32, or with op_sel_hi[k]
// set the f16 half of source k that op_sel[k] picks. neg_hi[k] is abs and
// neg_lo[k] negation, applied in that order (-|x|). The exact result is
// rounded once: to f32 for mix_f32 (f32 MODE fields), to f16 into the low or
// high half of D for mixlo/mixhi (f16 MODE fields), the other half kept.
// clamp pins the rounded result to [0, 1].

func init() {
	def("v_fma_mix_f32", execFmaMix, 0, 1, core.TyF32, core.CVALU)
	def("v_fma_mixlo_f16", execFmaMix, 1, 1, core.TyF32, core.CVALU)
	def("v_fma_mixhi_f16", execFmaMix, 2, 1, core.TyF32, core.CVALU)
}

func execFmaMix(w *core.Wave, in *core.Instr) error {
	if in.Nsrc < 3 || in.Dst[0].Kind != core.OkV || in.In == nil {
		return ExecBadOperands(w, in)
	}
	md := in.In.Mods
	e32, e16 := *FenvFor(w, 32), *FenvFor(w, 16)
	v := core.Vop{Nsrc: 3, SrcW: [3]uint8{1, 1, 1}, Nofl: true}
	var src [3][64]uint64
	for k := 0; k < 3; k++ {
		vfetch(w, in, &v, k, &e32, &src[k])
	}
	mask := w.Exec()
	dr := idxReg(w, int(in.Dst[0].Reg), 3)
	if dr > 255 {
		return nil // GPR index past v255: the write is dropped (noted)
	}
	var out [64]uint32
	for m := mask; m != 0; m &= m - 1 {
		l := core.Tz(m)
		var s [3]float64
		var raw [3]uint32
		for k := 0; k < 3; k++ {
			x := uint32(src[k][l])
			var f float64
			if md.OpSelHi>>uint(k)&1 != 0 {
				h := uint16(x >> (16 * uint32(md.OpSel>>uint(k)&1)))
				if !e16.Din && core.IsDenorm16(h) {
					h &= 0x8000
				}
				f = core.F16ToF64(h)
			} else {
				if !e32.Din && core.IsDenorm32(x) {
					x &= 0x80000000
				}
				f = float64(core.F32(x))
			}
			if md.NegHi>>uint(k)&1 != 0 {
				f = math.Abs(f)
			}
			if md.NegLo>>uint(k)&1 != 0 {
				f = -f
			}
			s[k] = f
			raw[k] = core.F32bits(float32(f)) // exact: every source fits in f32
		}
		p := s[0] * s[1] // exact in float64
		hi, lo := core.TwoSum(p, s[2])
		special := math.IsInf(p, 0) || math.IsInf(s[2], 0) || hi != hi
		// an exact zero sum is -0 under round-to-minus-infinity unless both addends are +0
		negZero := hi == 0 && lo == 0 && (e32.Rm == core.RmMinusInf && in.Sub == 0 || e16.Rm == core.RmMinusInf && in.Sub != 0) &&
			(p != 0 || math.Signbit(p) || math.Signbit(s[2]))
		if in.Sub == 0 {
			var r uint32
			if special {
				r = uint32(FmaF32(&e32, uint64(raw[0]), uint64(raw[1]), uint64(raw[2])))
			} else {
				r = core.F32bits(core.ToF32(hi, lo, e32.Rm))
				if negZero {
					r = 0x80000000
				}
			}
			out[l] = uint32(Post(&e32, uint64(r), 32, 0, md.Clamp))
			continue
		}
		var h uint16
		if special {
			h = core.F64ToF16(float64(core.F32(uint32(FmaF32(&e32, uint64(raw[0]), uint64(raw[1]), uint64(raw[2]))))), 0, e16.Rm)
		} else {
			h = core.F64ToF16(hi, lo, e16.Rm)
			if negZero {
				h = 0x8000
			}
		}
		h = uint16(Post(&e16, uint64(h), 16, 0, md.Clamp))
		if in.Sub == 1 {
			out[l] = w.V[dr][l]&0xffff0000 | uint32(h)
		} else {
			out[l] = w.V[dr][l]&0xffff | uint32(h)<<16
		}
	}
	w.Wv(dr, mask, &out)
	return nil
}

package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"math"
)

// gfx906 V_DOT2_F32_F16 (Vega 7nm manual): D.f32 = S0.f16[0]·S1.f16[0] +
// S0.f16[1]·S1.f16[1] + S2.f32. As a VOP3P operation, op_sel picks the half
// read as element 0 and op_sel_hi the half read as element 1 of S0 and S1;
// neg_lo and neg_hi negate element 0 and element 1; neg_lo negates the f32
// S2. f16 inputs follow MODE's f16/f64 denormal bit, the result the f32
// bits; clamp pins the result to [0, 1].

func init() {
	def("v_dot2_f32_f16", execDot2F32F16, 0, 1, core.TyF32, core.CVALU).Exact = "approx: products summed in float64, then rounded once"
}

func execDot2F32F16(w *core.Wave, in *core.Instr) error {
	if in.Nsrc < 3 || in.Dst[0].Kind != core.OkV || in.In == nil {
		return ExecBadOperands(w, in)
	}
	md := in.In.Mods
	e := FenvFor(w, 32)
	din16 := w.S[core.SlotMode]>>6&1 != 0
	v := core.Vop{Nsrc: 3, SrcW: [3]uint8{1, 1, 1}}
	var src [3][64]uint64
	for k := 0; k < 3; k++ {
		vfetch(w, in, &v, k, e, &src[k])
	}
	half := func(x uint32, k int, sel uint8, neg uint8) float64 {
		h := uint16(x >> (16 * uint32(sel>>uint(k)&1)))
		if neg>>uint(k)&1 != 0 {
			h ^= 0x8000
		}
		if !din16 && core.IsDenorm16(h) {
			h &= 0x8000
		}
		return core.F16ToF64(h)
	}
	mask := w.Exec()
	var out [64]uint32
	for m := mask; m != 0; m &= m - 1 {
		l := core.Tz(m)
		a, b := uint32(src[0][l]), uint32(src[1][l])
		c := uint32(src[2][l])
		if md.NegLo>>2&1 != 0 {
			c ^= 0x80000000
		}
		if !e.Din && core.IsDenorm32(c) {
			c &= 0x80000000
		}
		s := half(a, 0, md.OpSel, md.NegLo)*half(b, 1, md.OpSel, md.NegLo) +
			half(a, 0, md.OpSelHi, md.NegHi)*half(b, 1, md.OpSelHi, md.NegHi)
		hi, lo := core.TwoSum(s, float64(core.F32(c)))
		var r uint32
		if hi != hi || math.IsInf(hi, 0) {
			r = core.F32bits(float32(hi))
		} else {
			r = core.F32bits(core.ToF32(hi, lo, e.Rm))
		}
		out[l] = uint32(Post(e, uint64(r), 32, 0, md.Clamp))
	}
	w.Wv(idxReg(w, int(in.Dst[0].Reg), 3), mask, &out)
	return nil
}

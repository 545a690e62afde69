package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

// Row kernels of the f64 division helpers, v_ldexp_f64 and the f64 ⇄
// 32-bit integer conversions (package lanes' rows). The division helpers
// and ldexp compute their common case and return the mask of the lanes
// they leave unwritten for the lane function (execF64Div and execF64Int
// finish those): the sources of such a lane are still intact when the
// destination is one of them.

// divScaleRowsF64 is v_div_scale_f64's common case: divScale returns S0
// unless the denominator b's exponent field is 0 (zero or denormal), the
// numerator c's is at most 52 (zero included) or c's exceeds b's by 768
// or more.
func divScaleRowsF64(d, a, b, c *F64Regs, n int) (rest uint64) {
	return simd.DivScaleF64(d.rows(), a.rows(), b.rows(), c.rows(), n)
}

// divFixupRowsF64 is v_div_fixup_f64's common case: with b and c finite
// and non-zero, divFixup64 gives |a| the sign of b×c.
func divFixupRowsF64(d, a, b, c *F64Regs, n int) (rest uint64) {
	return simd.DivFixupF64(d.rows(), a.rows(), b.rows(), c.rows(), n)
}

// divFmasRowsF64 is v_div_fmas_f64 (divFmas64) but for NaN results.
func divFmasRowsF64(d, a, b, c *F64Regs, vcc uint64, n int) (rest uint64) {
	return simd.DivFmasF64(d.rows(), a.rows(), b.rows(), c.rows(), vcc, n)
}

// ldexpRowsF64 is v_ldexp_f64 for a normal a whose exponent stays normal
// (the exponent field moves, exactly as math.Ldexp).
func ldexpRowsF64(d, a *F64Regs, k *[64]uint32, n int) (rest uint64) {
	return simd.LdexpF64(d.rows(), a.rows(), k, n)
}

// cvtI32RowsF64 is v_cvt_i32_f64 (signed) or v_cvt_u32_f64: the lane
// functions' cvtF32ToI32 and cvtF32ToU32.
func cvtI32RowsF64(d *[64]uint32, a *F64Regs, signed bool, n int) {
	if signed {
		simd.I32FromF64(d, a.rows(), n)
		return
	}
	simd.U32FromF64(d, a.rows(), n)
}

// cvtF64RowsI32 is v_cvt_f64_i32 (signed) or v_cvt_f64_u32.
func cvtF64RowsI32(d *F64Regs, a *[64]uint32, signed bool, n int) {
	if signed {
		simd.F64FromI32(d.rows(), a, n)
		return
	}
	simd.F64FromU32(d.rows(), a, n)
}

// execF64Div runs the three-source division helpers: the rows' common
// case, then the lane function's arithmetic on the lanes left (f64DivRest).
func execF64Div(w *core.Wave, in *core.Instr, din, dout bool) error {
	t := &w.Tmp
	mask := w.Exec()
	r, n := int(in.Dst[0].Reg), core.LiveLanes(mask)
	a := srcRegsF64(w, in, 0, din, (*F64Regs)(t[0:2]))
	b := srcRegsF64(w, in, 1, din, (*F64Regs)(t[2:4]))
	c := srcRegsF64(w, in, 2, din, (*F64Regs)(t[6:8]))
	d := dstRegsF64(w, r, mask, (*F64Regs)(t[4:6]))
	var rest uint64
	switch in.Sub {
	case kF64DivScale:
		rest = divScaleRowsF64(d, a, b, c, n)
	case kF64DivFixup:
		rest = divFixupRowsF64(d, a, b, c, n)
	default:
		rest = divFmasRowsF64(d, a, b, c, w.Vcc(), n)
	}
	var co uint64
	if rest != 0 {
		co = f64DivRest(w, in.Sub, d, a, b, c, rest)
	}
	putRegsF64(w, r, mask, d, n, dout)
	if in.Sub == kF64DivScale {
		setMask(w, in, 1, co&mask)
	}
	return nil
}

// f64DivRest computes the lanes in rest of division helper sub with the
// lane function's arithmetic, returning v_div_scale_f64's carries out.
// Most waves have no such lanes, so the float environment is made here.
func f64DivRest(w *core.Wave, sub int32, d, a, b, c *F64Regs, rest uint64) (co uint64) {
	e := ref.FenvFor(w, 64)
	vcc := w.Vcc()
	for m := rest; m != 0; m &= m - 1 {
		l := core.Tz(m)
		x, y, z := a.Bits(l), b.Bits(l), c.Bits(l)
		switch sub {
		case kF64DivScale:
			e.Cout = 0
			d.Set(l, ref.DivScale(e, x, y, z, 64))
			co |= e.Cout << uint(l)
		case kF64DivFixup:
			d.Set(l, ref.DivFixup64(e, x, y, z))
		default:
			d.Set(l, ref.DivFmas64(e, x, y, z, vcc>>uint(l)&1 != 0))
		}
	}
	return co
}

// execF64Int runs v_ldexp_f64 and the f64 ⇄ 32-bit integer conversions.
func execF64Int(w *core.Wave, in *core.Instr, din, dout bool) error {
	t := &w.Tmp
	mask := w.Exec()
	r, n := int(in.Dst[0].Reg), core.LiveLanes(mask)
	switch in.Sub {
	case kF64Ldexp:
		a := srcRegsF64(w, in, 0, din, (*F64Regs)(t[0:2]))
		k := src32(w, in, 1, &t[2])
		d := dstRegsF64(w, r, mask, (*F64Regs)(t[4:6]))
		for m := ldexpRowsF64(d, a, k, n); m != 0; m &= m - 1 {
			l := core.Tz(m)
			d.Set(l, ref.LdexpF64(a.Bits(l), k[l]))
		}
		putRegsF64(w, r, mask, d, n, dout)
	case kF64CvtI32, kF64CvtU32:
		a := srcRegsF64(w, in, 0, din, (*F64Regs)(t[0:2]))
		d := dstQuads(w, r, mask, &t[4])
		cvtI32RowsF64(d, a, in.Sub == kF64CvtI32, n)
		dstPut(w, r, mask, d)
	default:
		a := src32(w, in, 0, &t[0])
		d := dstRegsF64(w, r, mask, (*F64Regs)(t[4:6]))
		cvtF64RowsI32(d, a, in.Sub == kF64FromI32, n)
		putRegsF64(w, r, mask, d, n, dout)
	}
	return nil
}

package emu

import simd "github.com/wavedbg/wavedbg/emu/internal/lanes"

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
func divScaleRowsF64(d, a, b, c *f64Regs, n int) (rest uint64) {
	return simd.DivScaleF64(d.rows(), a.rows(), b.rows(), c.rows(), n)
}

// divFixupRowsF64 is v_div_fixup_f64's common case: with b and c finite
// and non-zero, divFixup64 gives |a| the sign of b×c.
func divFixupRowsF64(d, a, b, c *f64Regs, n int) (rest uint64) {
	return simd.DivFixupF64(d.rows(), a.rows(), b.rows(), c.rows(), n)
}

// divFmasRowsF64 is v_div_fmas_f64 (divFmas64) but for NaN results.
func divFmasRowsF64(d, a, b, c *f64Regs, vcc uint64, n int) (rest uint64) {
	return simd.DivFmasF64(d.rows(), a.rows(), b.rows(), c.rows(), vcc, n)
}

// ldexpRowsF64 is v_ldexp_f64 for a normal a whose exponent stays normal
// (the exponent field moves, exactly as math.Ldexp).
func ldexpRowsF64(d, a *f64Regs, k *[64]uint32, n int) (rest uint64) {
	return simd.LdexpF64(d.rows(), a.rows(), k, n)
}

// cvtI32RowsF64 is v_cvt_i32_f64 (signed) or v_cvt_u32_f64: the lane
// functions' cvtF32ToI32 and cvtF32ToU32.
func cvtI32RowsF64(d *[64]uint32, a *f64Regs, signed bool, n int) {
	if signed {
		simd.I32FromF64(d, a.rows(), n)
		return
	}
	simd.U32FromF64(d, a.rows(), n)
}

// cvtF64RowsI32 is v_cvt_f64_i32 (signed) or v_cvt_f64_u32.
func cvtF64RowsI32(d *f64Regs, a *[64]uint32, signed bool, n int) {
	if signed {
		simd.F64FromI32(d.rows(), a, n)
		return
	}
	simd.F64FromU32(d.rows(), a, n)
}

// execF64Div runs the three-source division helpers: the rows' common
// case, then the lane function's arithmetic on the lanes left (f64DivRest).
func execF64Div(w *Wave, in *instr, din, dout bool) error {
	t := &w.tmp
	mask := w.exec()
	r, n := int(in.dst[0].reg), liveLanes(mask)
	a := w.srcRegsF64(in, 0, din, (*f64Regs)(t[0:2]))
	b := w.srcRegsF64(in, 1, din, (*f64Regs)(t[2:4]))
	c := w.srcRegsF64(in, 2, din, (*f64Regs)(t[6:8]))
	d := w.dstRegsF64(r, mask, (*f64Regs)(t[4:6]))
	var rest uint64
	switch in.sub {
	case kF64DivScale:
		rest = divScaleRowsF64(d, a, b, c, n)
	case kF64DivFixup:
		rest = divFixupRowsF64(d, a, b, c, n)
	default:
		rest = divFmasRowsF64(d, a, b, c, w.vcc(), n)
	}
	var co uint64
	if rest != 0 {
		co = w.f64DivRest(in.sub, d, a, b, c, rest)
	}
	w.putRegsF64(r, mask, d, n, dout)
	if in.sub == kF64DivScale {
		w.setMask(in, 1, co&mask)
	}
	return nil
}

// f64DivRest computes the lanes in rest of division helper sub with the
// lane function's arithmetic, returning v_div_scale_f64's carries out.
// Most waves have no such lanes, so the float environment is made here.
func (w *Wave) f64DivRest(sub int32, d, a, b, c *f64Regs, rest uint64) (co uint64) {
	e := w.fenvFor(64)
	vcc := w.vcc()
	for m := rest; m != 0; m &= m - 1 {
		l := tz(m)
		x, y, z := a.bits(l), b.bits(l), c.bits(l)
		switch sub {
		case kF64DivScale:
			e.cout = 0
			d.set(l, divScale(e, x, y, z, 64))
			co |= e.cout << uint(l)
		case kF64DivFixup:
			d.set(l, divFixup64(e, x, y, z))
		default:
			d.set(l, divFmas64(e, x, y, z, vcc>>uint(l)&1 != 0))
		}
	}
	return co
}

// execF64Int runs v_ldexp_f64 and the f64 ⇄ 32-bit integer conversions.
func execF64Int(w *Wave, in *instr, din, dout bool) error {
	t := &w.tmp
	mask := w.exec()
	r, n := int(in.dst[0].reg), liveLanes(mask)
	switch in.sub {
	case kF64Ldexp:
		a := w.srcRegsF64(in, 0, din, (*f64Regs)(t[0:2]))
		k := w.src32(in, 1, &t[2])
		d := w.dstRegsF64(r, mask, (*f64Regs)(t[4:6]))
		for m := ldexpRowsF64(d, a, k, n); m != 0; m &= m - 1 {
			l := tz(m)
			d.set(l, ldexpF64(a.bits(l), k[l]))
		}
		w.putRegsF64(r, mask, d, n, dout)
	case kF64CvtI32, kF64CvtU32:
		a := w.srcRegsF64(in, 0, din, (*f64Regs)(t[0:2]))
		d := w.dstQuads(r, mask, &t[4])
		cvtI32RowsF64(d, a, in.sub == kF64CvtI32, n)
		w.dstPut(r, mask, d)
	default:
		a := w.src32(in, 0, &t[0])
		d := w.dstRegsF64(r, mask, (*f64Regs)(t[4:6]))
		cvtF64RowsI32(d, a, in.sub == kF64FromI32, n)
		w.putRegsF64(r, mask, d, n, dout)
	}
	return nil
}

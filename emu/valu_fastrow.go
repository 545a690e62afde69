package emu

// Row kernels: lane-path operations computed for every lane in one loop
// that calls the operation's arithmetic directly (no lane-function call,
// no per-lane context), for instructions without clamp or omod. They
// compute lanes 0 to op.n-1 (up to the highest EXEC lane), read
// laneBegin's sources, apply post's output flush themselves and return
// the carry-out of every lane; laneEnd keeps the EXEC lanes. Each computes
// exactly what its lane function computes (TestLaneFastMatchesGeneric).

// rowKernels are the operations with row kernels.
var rowKernels = map[string]execFn{
	"v_div_scale_f64": rowExec(kDivScale64),
	"v_div_fmas_f64":  rowExec(kDivFmas64),
	"v_div_fixup_f64": rowExec(kDivFixup64),
	"v_ldexp_f64":     rowExec(kLdexp64),
	"v_cvt_i32_f64":   rowExec(func(op *laneOp) uint64 { return kCvtIntF64(op, true) }),
	"v_cvt_u32_f64":   rowExec(func(op *laneOp) uint64 { return kCvtIntF64(op, false) }),
	"v_cvt_f64_i32":   rowExec(func(op *laneOp) uint64 { return kCvtF64Int(op, true) }),
	"v_cvt_f64_u32":   rowExec(func(op *laneOp) uint64 { return kCvtF64Int(op, false) }),
}

// rowFn returns the row kernel of an eligible lane-path instruction, or
// nil.
func rowFn(in *instr, name string) execFn {
	if in.in.Mods.Clamp || in.in.Mods.Omod != 0 {
		return nil
	}
	return rowKernels[name]
}

// rowExec makes the execute function of row kernel k (GPR indexing takes
// execVOP).
func rowExec(k func(op *laneOp) uint64) execFn {
	return func(w *Wave, in *instr) error {
		if w.gprIdx() {
			return execVOP(w, in)
		}
		var op laneOp
		w.laneBegin(in, &op)
		w.laneEnd(in, &op, k(&op)&op.mask)
		return nil
	}
}

// src64 is lane l of source k as a 64-bit value.
func (op *laneOp) src64(k, l int) uint64 { return uint64(op.lo[k][l]) | uint64(op.hi[k][l])<<32 }

// put64 writes an f64 result to lane l, output denormals flushed as post
// flushes them.
func (op *laneOp) put64(l int, u uint64) {
	u = flush64(u, op.e.dout)
	op.dlo[l], op.dhi[l] = uint32(u), uint32(u>>32)
}

// kDivScale64 returns S0 unchanged in divScale's common case (finite
// non-zero operands, exponents neither extreme nor far apart) and asks
// divScale otherwise.
func kDivScale64(op *laneOp) uint64 {
	var co uint64
	e := op.e
	for l := range op.dlo[:op.n] {
		a, b, c := op.src64(0, l), op.src64(1, l), op.src64(2, l)
		expN, expD := int(c>>52&0x7ff), int(b>>52&0x7ff)
		u := a
		if c<<1 == 0 || b<<1 == 0 || expN-expD >= 768 || expD == 0 || expN <= 52 {
			e.cout = 0
			u = divScale(e, a, b, c, 64)
			co |= e.cout << uint(l)
		}
		op.put64(l, u)
	}
	return co
}

func kDivFmas64(op *laneOp) uint64 {
	vcc := op.e.w.vcc()
	for l := range op.dlo[:op.n] {
		op.put64(l, divFmas64(op.e, op.src64(0, l), op.src64(1, l), op.src64(2, l), vcc>>uint(l)&1 != 0))
	}
	return 0
}

// kDivFixup64 gives |S0| the sign of S1×S2 when both are finite and
// non-zero (divFixup64's last case, as bits) and asks divFixup64 otherwise.
func kDivFixup64(op *laneOp) uint64 {
	const sign, inf = 1 << 63, 0x7ff0000000000000
	for l := range op.dlo[:op.n] {
		a, b, c := op.src64(0, l), op.src64(1, l), op.src64(2, l)
		u := a&^sign | (b^c)&sign
		if b<<1 == 0 || c<<1 == 0 || b&inf == inf || c&inf == inf {
			u = divFixup64(op.e, a, b, c)
		}
		op.put64(l, u)
	}
	return 0
}

func kLdexp64(op *laneOp) uint64 {
	for l := range op.dlo[:op.n] {
		op.put64(l, ldexpF64(op.src64(0, l), op.lo[1][l]))
	}
	return 0
}

// kCvtIntF64 is v_cvt_i32_f64 (signed) or v_cvt_u32_f64.
func kCvtIntF64(op *laneOp, signed bool) uint64 {
	lo, hi, d := op.lo[0], op.hi[0], op.dlo
	for l := range d[:op.n] {
		x := f64(uint64(lo[l]) | uint64(hi[l])<<32)
		if signed {
			d[l] = uint32(cvtF32ToI32(x))
		} else {
			d[l] = uint32(cvtF32ToU32(x))
		}
	}
	return 0
}

// kCvtF64Int is v_cvt_f64_i32 (signed) or v_cvt_f64_u32.
func kCvtF64Int(op *laneOp, signed bool) uint64 {
	for l, x := range op.lo[0][:op.n] {
		f := float64(x)
		if signed {
			f = float64(int32(x))
		}
		op.put64(l, f64bits(f))
	}
	return 0
}

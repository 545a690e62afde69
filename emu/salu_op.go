package emu

// Per-operation forms of the commonest 32-bit SOP2 instructions: address
// and id arithmetic at the top of nearly every kernel (s_mul_i32 for the
// work-group offset, s_add for the global id, shifts, masks). Chosen at
// compile time for the operands execSOP2x32 reads inline (SGPRs or
// constants, an SGPR destination), they skip its operand checks and its
// switch on the operation. Like execSOP2x32 they are fast forms: a
// journaled step runs execSOP2 (TestSOP2OpsMatchGeneral).

// sop2Fn returns the per-operation form of a compiled SOP2 instruction, or
// nil.
func sop2Fn(in *instr) execFn {
	if in.def == nil || in.nsrc < 2 || in.dst[0].kind != okS || !plainSrc(&in.src[0]) || !plainSrc(&in.src[1]) {
		return nil
	}
	return sop2Fns[in.name]
}

var sop2Fns = map[string]execFn{
	"s_add_u32":  execSAddU32,
	"s_add_i32":  execSAddI32,
	"s_mul_i32":  execSMulI32,
	"s_and_b32":  execSAnd32,
	"s_or_b32":   execSOr32,
	"s_xor_b32":  execSXor32,
	"s_lshl_b32": execSLshl32,
	"s_lshr_b32": execSLshr32,
	"s_ashr_i32": execSAshr32,
}

func execSAddU32(w *Wave, in *instr) error {
	x, y := w.plain(&in.src[0]), w.plain(&in.src[1])
	r := x + y
	w.s[slotSCC] = b2u(r < x)
	w.s[in.dst[0].reg&127] = r
	return nil
}

func execSAddI32(w *Wave, in *instr) error {
	x, y := w.plain(&in.src[0]), w.plain(&in.src[1])
	r := x + y
	w.s[slotSCC] = (x ^ r) & (y ^ r) >> 31 // signed overflow: the result's sign differs from both operands'
	w.s[in.dst[0].reg&127] = r
	return nil
}

func execSMulI32(w *Wave, in *instr) error {
	w.s[in.dst[0].reg&127] = w.plain(&in.src[0]) * w.plain(&in.src[1])
	return nil
}

func execSAnd32(w *Wave, in *instr) error {
	r := w.plain(&in.src[0]) & w.plain(&in.src[1])
	w.s[slotSCC] = b2u(r != 0)
	w.s[in.dst[0].reg&127] = r
	return nil
}

func execSOr32(w *Wave, in *instr) error {
	r := w.plain(&in.src[0]) | w.plain(&in.src[1])
	w.s[slotSCC] = b2u(r != 0)
	w.s[in.dst[0].reg&127] = r
	return nil
}

func execSXor32(w *Wave, in *instr) error {
	r := w.plain(&in.src[0]) ^ w.plain(&in.src[1])
	w.s[slotSCC] = b2u(r != 0)
	w.s[in.dst[0].reg&127] = r
	return nil
}

func execSLshl32(w *Wave, in *instr) error {
	r := w.plain(&in.src[0]) << (w.plain(&in.src[1]) & 31)
	w.s[slotSCC] = b2u(r != 0)
	w.s[in.dst[0].reg&127] = r
	return nil
}

func execSLshr32(w *Wave, in *instr) error {
	r := w.plain(&in.src[0]) >> (w.plain(&in.src[1]) & 31)
	w.s[slotSCC] = b2u(r != 0)
	w.s[in.dst[0].reg&127] = r
	return nil
}

func execSAshr32(w *Wave, in *instr) error {
	r := uint32(int32(w.plain(&in.src[0])) >> (w.plain(&in.src[1]) & 31))
	w.s[slotSCC] = b2u(r != 0)
	w.s[in.dst[0].reg&127] = r
	return nil
}

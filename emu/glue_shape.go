package emu

import simd "github.com/wavedbg/wavedbg/emu/internal/lanes"

// Operand shapes decided at compile time: the commonest VALU forms get a
// handler that knows its operands' kinds and its kernel's type, so it
// tests no source counts, float environment or mask operands when it
// runs. A source is a VGPR or a constant (prefilled in instr.cf), read in
// place, or an SGPR, which the handler's S form fills into its scratch row
// before running the V form (shapeSrc).

// intShape reports whether in, whose sources are plain (plainVSources),
// runs an integer kernel of two sources, the second a VGPR and the first
// a VGPR, an SGPR or a constant: execIntV's and execIntS's forms.
func intShape(in *instr) bool {
	v := in.def.v
	return in.kft == 0 && v.nsrc == 2 && !v.mac && in.src[1].kind == okV && shapeKind(in.src[0].kind)
}

// shapeKind reports whether a source of kind k has a shape.
func shapeKind(k uint8) bool { return k == okV || k == okS || k == okConst }

// intFn returns intShape's handler for in.
func intFn(in *instr) execFn {
	if in.src[0].kind == okS {
		return execIntS
	}
	return execIntV
}

// shapeSrc returns source k (0 or 1) of a shape handler: a VGPR (below
// 256: uint8 spares the bounds check) or a prefilled constant in place,
// an SGPR from scratch row k, which the S form filled.
func (w *Wave) shapeSrc(in *instr, k int) *[64]uint32 {
	o := &in.src[k]
	if o.kind == okV {
		return &w.v[uint8(o.reg)]
	}
	if o.kind == okConst {
		return &in.cf[2*k]
	}
	return &w.tmp[k]
}

// fillSGPR fills scratch row k with source k, an SGPR, for the lanes a
// kernel under EXEC computes, as an S form does before its V form.
func (w *Wave) fillSGPR(in *instr, k int) {
	fillLanes(&w.tmp[k], w.scalarIn(&in.src[k]), liveLanes(w.exec()))
}

// execIntV is execFastV for intShape's forms: the integer kernel runs with
// the wave's own environment (GPR indexing takes execVOP, as kernelEnv
// decides).
func execIntV(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOP(w, in)
	}
	t := &w.tmp
	mask := w.exec()
	n := liveLanes(mask)
	r := int(in.dst[0].reg)
	e := &w.fe
	e.live = n
	d := w.dstQuads(r, mask, &t[3])
	in.k(e, d, w.shapeSrc(in, 0), &w.v[uint8(in.src[1].reg)], &t[2])
	if d == &t[3] { // scratch: copy the EXEC lanes back
		w.wv(r, mask, d)
	}
	return nil
}

// execIntS is execIntV with an SGPR first source.
func execIntS(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOP(w, in)
	}
	w.fillSGPR(in, 0)
	return execIntV(w, in)
}

// cmpShape reports whether a compare execCmpFast runs is a 32-bit integer
// one of a VGPR and a VGPR, SGPR or constant, writing VCC or an SGPR pair
// (which it sets in.mreg to): execCmpV's and execCmpS's forms.
func cmpShape(in *instr) bool {
	if k := in.sub >> 8 & 0xff; k != cmpI32 && k != cmpU32 || in.src[1].kind != okV || !shapeKind(in.src[0].kind) {
		return false
	}
	in.mreg = codeVCC
	if d := &in.dst[0]; in.ndst >= 1 && d.kind == okS {
		if d.reg >= 127 {
			return false
		}
		in.mreg = uint8(d.reg)
	}
	return true
}

// cmpFn returns cmpShape's handler for in.
func cmpFn(in *instr) execFn {
	if in.src[0].kind == okS {
		return execCmpS
	}
	return execCmpV
}

// execCmpV is execCmpFast for cmpShape's forms.
func execCmpV(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOPC(w, in)
	}
	exec := w.exec()
	var bias uint32
	if in.sub>>8&0xff == cmpI32 {
		bias = 1 << 31
	}
	r := icmpMask32(w.shapeSrc(in, 0), &w.v[uint8(in.src[1].reg)], int(in.sub&0xff), bias, liveLanes(exec)) & exec
	if w.jOn {
		w.ws64(int(in.mreg), r)
	} else {
		w.s[in.mreg&127], w.s[(in.mreg+1)&127] = uint32(r), uint32(r>>32)
	}
	if in.sub>>16 != 0 { // v_cmpx
		w.ws64(codeExec, r)
	}
	return nil
}

// execCmpS is execCmpV with an SGPR first source.
func execCmpS(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOPC(w, in)
	}
	w.fillSGPR(in, 0)
	return execCmpV(w, in)
}

// cndShape reports whether a v_cndmask_b32 execCndFast runs selects
// between VGPRs and constants by VCC or an SGPR pair (which it sets
// in.creg to): execCndV's form.
func cndShape(in *instr) bool {
	a, b, m := in.src[0].kind, in.src[1].kind, &in.src[2]
	if a != okV && a != okConst || b != okV && b != okConst || m.kind != okS || m.reg >= 127 {
		return false
	}
	in.creg = uint8(m.reg)
	return true
}

// execCndV is execCndFast for cndShape's form.
func execCndV(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOP(w, in)
	}
	mask := w.exec()
	n := liveLanes(mask)
	r := int(in.dst[0].reg)
	t := &w.tmp
	d := w.dstQuads(r, mask, &t[3])
	simd.Select(d, w.shapeSrc(in, 0), w.shapeSrc(in, 1), w.laneMask(in), n)
	if d == &t[3] { // scratch: copy the EXEC lanes back
		w.wv(r, mask, d)
	}
	return nil
}

// shift64Shape reports whether a 64-bit shift execShift64 runs shifts a
// VGPR pair by a VGPR or constant amount: execShift64V's form.
func shift64Shape(in *instr) bool {
	k := in.src[0].kind
	return (k == okV || k == okConst) && in.src[1].kind == okV
}

// execShift64V is execShift64 for shift64Shape's form.
func execShift64V(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOP(w, in)
	}
	mask := w.exec()
	n := liveLanes(mask)
	r := int(in.dst[0].reg)
	t := &w.tmp
	dlo, dhi := w.dstQuads(r, mask, &t[3]), w.dstQuads(r+1, mask, &t[4])
	b := uint8(in.src[1].reg) // below 255 (fast64Eligible)
	shift64(in, dlo, dhi, w.shapeSrc(in, 0), &w.v[b], &w.v[b+1], n)
	if dlo == &t[3] { // scratch: copy the EXEC lanes back
		w.wv(r, mask, dlo)
		w.wv(r+1, mask, dhi)
	}
	return nil
}

// mulWideShape reports whether a v_mad_u64_u32 execMad64 runs is a plain
// 32×32→64 product of two VGPRs (a zero addend, so no carries out):
// execMulWideV's form.
func mulWideShape(in *instr) bool {
	return in.sub == k64MadU && in.src[0].kind == okV && in.src[1].kind == okV && zeroConst(&in.src[2])
}

// execMulWideV is execMad64 for mulWideShape's form.
func execMulWideV(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOP(w, in)
	}
	mask := w.exec()
	r := int(in.dst[0].reg)
	t := &w.tmp
	dlo, dhi := w.dstQuads(r, mask, &t[3]), w.dstQuads(r+1, mask, &t[4])
	simd.MulWide(dlo, dhi, &w.v[uint8(in.src[0].reg)], &w.v[uint8(in.src[1].reg)], liveLanes(mask))
	if dlo == &t[3] { // scratch: copy the EXEC lanes back
		w.wv(r, mask, dlo)
		w.wv(r+1, mask, dhi)
	}
	w.setMask(in, 1, 0)
	return nil
}

package emu

import simd "github.com/wavedbg/wavedbg/emu/internal/lanes"

// Shapes of the carry adds and subtracts execCarry runs (instr.shape),
// with their VGPR sources read in place and nothing tested at run time
// but the carries in.
const (
	shNone   uint8 = iota
	shAdd          // v_add_co_u32 of two VGPRs
	shAddUni       // v_add_co_u32 of an SGPR or constant and a VGPR
	shSub          // v_sub_co_u32 of two VGPRs
	shAddc         // v_addc_co_u32 of two VGPRs; this and the next take carries in
	shAddcZ        // v_addc_co_u32 of 0 and a VGPR
	shSubb         // v_subb_co_u32 of two VGPRs
)

// carryShape returns the shape of a carry operation carryEligible
// accepts, or shNone when carryOp must run it, and sets in.mreg and
// in.creg to the SGPR pairs setMask writes and carryIn reads.
func carryShape(in *instr, name string) uint8 {
	mreg, ok := maskPair(in)
	if !ok || in.src[1].kind != okV {
		return shNone
	}
	in.mreg, in.creg = mreg, codeVCC
	if k := in.nsrc - 1; in.def.v.cin && in.src[k].kind != okV {
		if o := &in.src[k]; o.kind != okS || o.reg >= 127 {
			return shNone
		}
		in.creg = uint8(in.src[k].reg)
	}
	a := in.src[0].kind
	switch {
	case name == "v_add_co_u32" && a == okV:
		return shAdd
	case name == "v_add_co_u32" && (a == okS || a == okConst):
		return shAddUni
	case name == "v_addc_co_u32" && a == okV:
		return shAddc
	case name == "v_addc_co_u32" && zeroConst(&in.src[0]):
		return shAddcZ
	case name == "v_sub_co_u32" && a == okV:
		return shSub
	case name == "v_subb_co_u32" && a == okV:
		return shSubb
	}
	return shNone
}

// execCarry is carryOp for an instruction of a carry shape: the kernel
// carryOp would pick, without its source dispatch.
func execCarry(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOP(w, in)
	}
	mask := w.exec()
	n := liveLanes(mask)
	r := int(in.dst[0].reg)
	d := w.dstQuads(r, mask, &w.tmp[3])
	b := &w.v[uint8(in.src[1].reg)] // a VGPR: below 256
	var cm uint64
	if in.shape >= shAddc {
		cm = w.laneMask(in)
	}
	var co uint64
	switch in.shape {
	case shAdd:
		co = simd.Add(d, &w.v[in.src[0].reg], b, n)
	case shAddUni:
		co = addUniform0(d, w.scalarIn(&in.src[0]), b, n)
	case shAddc:
		co = addLanes(d, &w.v[in.src[0].reg], b, cm, n)
	case shAddcZ:
		co = incLanes(d, b, cm, n)
	case shSub:
		co = simd.Sub(d, &w.v[in.src[0].reg], b, n)
	default: // shSubb
		co = subLanes(d, &w.v[in.src[0].reg], b, cm, n)
	}
	if d == &w.tmp[3] { // scratch: copy the EXEC lanes back
		w.wv(r, mask, d)
	}
	if co &= mask; w.jOn {
		w.ws64(int(in.mreg), co)
	} else {
		w.s[in.mreg&127], w.s[(in.mreg+1)&127] = uint32(co), uint32(co>>32)
	}
	return nil
}

// maskPair returns the SGPR pair setMask(in, 1, …) writes, false when it
// writes none.
func maskPair(in *instr) (uint8, bool) {
	if d := &in.dst[1]; in.ndst > 1 && d.kind != okNone {
		return uint8(d.reg), d.kind == okS && d.reg < 127
	}
	return codeVCC, true
}

// laneMask is carryIn (a carry-in or v_cndmask_b32's select mask) for a
// shape handler: the pair in.creg, read directly without the journal.
func (w *Wave) laneMask(in *instr) uint64 {
	if w.jOn {
		return w.carryIn(in)
	}
	return uint64(w.s[in.creg&127]) | uint64(w.s[(in.creg+1)&127])<<32 // (below 127: &127 spares the bounds checks)
}

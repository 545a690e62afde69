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
// carryOp would pick, without its source dispatch, writing the destination
// in place when EXEC is whole quads. GPR indexing takes carryOp.
func execCarry(w *Wave, in *instr) error {
	if !w.plainRun() {
		return carryGeneral(w, in)
	}
	mask := w.exec()
	r := uint8(in.dst[0].reg)
	d := &w.v[r]
	if !quadPrefix(mask) {
		d = &w.tmp[3]
	}
	co := w.carryRun(in, d, liveLanes(mask))
	if d == &w.tmp[3] { // scratch: copy the EXEC lanes back
		w.wv(int(r), mask, d)
	}
	co &= mask
	w.s[in.mreg&127], w.s[(in.mreg+1)&127] = uint32(co), uint32(co>>32)
	return nil
}

// carryRun computes d and the carries out of lanes 0 to n-1 (and the
// rest of their quad) for in's shape, calling the lanes rows directly.
func (w *Wave) carryRun(in *instr, d *[64]uint32, n int) uint64 {
	b := &w.v[uint8(in.src[1].reg)] // a VGPR: below 256
	if in.shape == shAddUni {
		x := uint32(in.src[0].val)
		if in.src[0].kind == okS {
			x = w.s[in.src[0].reg]
		}
		return simd.AddUniform(d, x, b, n)
	}
	if in.shape == shAddcZ {
		return incLanes(d, b, w.carryMask(in), n)
	}
	a := &w.v[uint8(in.src[0].reg)]
	var cm uint64
	if in.shape >= shAddc {
		cm = w.carryMask(in)
	}
	switch {
	case in.shape == shAdd || in.shape == shAddc && cm == 0:
		return simd.Add(d, a, b, n)
	case in.shape == shAddc:
		return simd.AddCarry(d, a, b, cm, n)
	case cm == 0: // shSub, or shSubb without borrows in
		return simd.Sub(d, a, b, n)
	}
	return simd.SubBorrow(d, a, b, cm, n)
}

// carryMask reads the carries in, the SGPR pair in.creg, directly (no
// journal).
func (w *Wave) carryMask(in *instr) uint64 {
	return uint64(w.s[in.creg&127]) | uint64(w.s[(in.creg+1)&127])<<32 // (below 127: &127 spares the bounds checks)
}

// carryGeneral is carryOp with the arguments of in's shape.
func carryGeneral(w *Wave, in *instr) error {
	cin := in.shape >= shAddc
	return carryOp(w, in, false, cin, in.shape == shSub || in.shape == shSubb)
}

// maskPair returns the SGPR pair setMask(in, 1, …) writes, false when it
// writes none.
func maskPair(in *instr) (uint8, bool) {
	if d := &in.dst[1]; in.ndst > 1 && d.kind != okNone {
		return uint8(d.reg), d.kind == okS && d.reg < 127
	}
	return codeVCC, true
}

package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
)

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
func carryShape(in *core.Instr, name string) uint8 {
	mreg, ok := maskPair(in)
	if !ok || in.Src[1].Kind != core.OkV {
		return shNone
	}
	in.Mreg, in.Creg = mreg, core.CodeVCC
	if k := in.Nsrc - 1; in.Def.V.Cin && in.Src[k].Kind != core.OkV {
		if o := &in.Src[k]; o.Kind != core.OkS || o.Reg >= 127 {
			return shNone
		}
		in.Creg = uint8(in.Src[k].Reg)
	}
	a := in.Src[0].Kind
	switch {
	case name == "v_add_co_u32" && a == core.OkV:
		return shAdd
	case name == "v_add_co_u32" && (a == core.OkS || a == core.OkConst):
		return shAddUni
	case name == "v_addc_co_u32" && a == core.OkV:
		return shAddc
	case name == "v_addc_co_u32" && zeroConst(&in.Src[0]):
		return shAddcZ
	case name == "v_sub_co_u32" && a == core.OkV:
		return shSub
	case name == "v_subb_co_u32" && a == core.OkV:
		return shSubb
	}
	return shNone
}

// ExecCarry is carryOp for an instruction of a carry shape: the kernel
// carryOp would pick, without its source dispatch, writing the destination
// in place when EXEC is whole quads. GPR indexing takes carryOp.
func ExecCarry(w *core.Wave, in *core.Instr) error {
	if !plainRun(w) {
		return carryGeneral(w, in)
	}
	mask := w.Exec()
	r := uint8(in.Dst[0].Reg)
	d := &w.V[r]
	if !quadPrefix(mask) {
		d = &w.Tmp[3]
	}
	co := carryRun(w, in, d, core.LiveLanes(mask))
	if d == &w.Tmp[3] { // scratch: copy the EXEC lanes back
		w.Wv(int(r), mask, d)
	}
	co &= mask
	w.S[in.Mreg&127], w.S[(in.Mreg+1)&127] = uint32(co), uint32(co>>32)
	return nil
}

// carryRun computes d and the carries out of lanes 0 to n-1 (and the
// rest of their quad) for in's shape, calling the lanes rows directly.
func carryRun(w *core.Wave, in *core.Instr, d *[64]uint32, n int) uint64 {
	b := &w.V[uint8(in.Src[1].Reg)] // a VGPR: below 256
	if in.Shape == shAddUni {
		x := uint32(in.Src[0].Val)
		if in.Src[0].Kind == core.OkS {
			x = w.S[in.Src[0].Reg]
		}
		return simd.AddUniform(d, x, b, n)
	}
	if in.Shape == shAddcZ {
		return incLanes(d, b, carryMask(w, in), n)
	}
	a := &w.V[uint8(in.Src[0].Reg)]
	var cm uint64
	if in.Shape >= shAddc {
		cm = carryMask(w, in)
	}
	switch {
	case in.Shape == shAdd || in.Shape == shAddc && cm == 0:
		return simd.Add(d, a, b, n)
	case in.Shape == shAddc:
		return simd.AddCarry(d, a, b, cm, n)
	case cm == 0: // shSub, or shSubb without borrows in
		return simd.Sub(d, a, b, n)
	}
	return simd.SubBorrow(d, a, b, cm, n)
}

// carryMask reads the carries in, the SGPR pair in.creg, directly (no
// journal).
func carryMask(w *core.Wave, in *core.Instr) uint64 {
	return uint64(w.S[in.Creg&127]) | uint64(w.S[(in.Creg+1)&127])<<32 // (below 127: &127 spares the bounds checks)
}

// carryGeneral is carryOp with the arguments of in's shape.
func carryGeneral(w *core.Wave, in *core.Instr) error {
	cin := in.Shape >= shAddc
	return carryOp(w, in, false, cin, in.Shape == shSub || in.Shape == shSubb)
}

// maskPair returns the SGPR pair setMask(in, 1, …) writes, false when it
// writes none.
func maskPair(in *core.Instr) (uint8, bool) {
	if d := &in.Dst[1]; in.Ndst > 1 && d.Kind != core.OkNone {
		return uint8(d.Reg), d.Kind == core.OkS && d.Reg < 127
	}
	return core.CodeVCC, true
}

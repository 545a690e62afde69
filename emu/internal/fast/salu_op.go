package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// Per-operation forms of the commonest 32-bit SOP2 instructions: address
// and id arithmetic at the top of nearly every kernel (s_mul_i32 for the
// work-group offset, s_add for the global id, shifts, masks). Chosen at
// compile time for the operands execSOP2x32 reads inline (SGPRs or
// constants, an SGPR destination), they skip its operand checks and its
// switch on the operation. Like execSOP2x32 they are fast forms: a
// journaled step runs execSOP2 (TestSOP2OpsMatchGeneral).

// sop2Fn returns the per-operation form of a compiled SOP2 instruction, or
// nil.
func sop2Fn(in *core.Instr) core.ExecFn {
	if in.Def == nil || in.Nsrc < 2 || in.Dst[0].Kind != core.OkS || !plainSrc(&in.Src[0]) || !plainSrc(&in.Src[1]) {
		return nil
	}
	return Sop2Fns[in.Name]
}

var Sop2Fns = map[string]core.ExecFn{
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

func execSAddU32(w *core.Wave, in *core.Instr) error {
	x, y := plain(w, &in.Src[0]), plain(w, &in.Src[1])
	r := x + y
	w.S[core.SlotSCC] = core.B2u(r < x)
	w.S[in.Dst[0].Reg&127] = r
	return nil
}

func execSAddI32(w *core.Wave, in *core.Instr) error {
	x, y := plain(w, &in.Src[0]), plain(w, &in.Src[1])
	r := x + y
	w.S[core.SlotSCC] = (x ^ r) & (y ^ r) >> 31 // signed overflow: the result's sign differs from both operands'
	w.S[in.Dst[0].Reg&127] = r
	return nil
}

func execSMulI32(w *core.Wave, in *core.Instr) error {
	w.S[in.Dst[0].Reg&127] = plain(w, &in.Src[0]) * plain(w, &in.Src[1])
	return nil
}

func execSAnd32(w *core.Wave, in *core.Instr) error {
	r := plain(w, &in.Src[0]) & plain(w, &in.Src[1])
	w.S[core.SlotSCC] = core.B2u(r != 0)
	w.S[in.Dst[0].Reg&127] = r
	return nil
}

func execSOr32(w *core.Wave, in *core.Instr) error {
	r := plain(w, &in.Src[0]) | plain(w, &in.Src[1])
	w.S[core.SlotSCC] = core.B2u(r != 0)
	w.S[in.Dst[0].Reg&127] = r
	return nil
}

func execSXor32(w *core.Wave, in *core.Instr) error {
	r := plain(w, &in.Src[0]) ^ plain(w, &in.Src[1])
	w.S[core.SlotSCC] = core.B2u(r != 0)
	w.S[in.Dst[0].Reg&127] = r
	return nil
}

func execSLshl32(w *core.Wave, in *core.Instr) error {
	r := plain(w, &in.Src[0]) << (plain(w, &in.Src[1]) & 31)
	w.S[core.SlotSCC] = core.B2u(r != 0)
	w.S[in.Dst[0].Reg&127] = r
	return nil
}

func execSLshr32(w *core.Wave, in *core.Instr) error {
	r := plain(w, &in.Src[0]) >> (plain(w, &in.Src[1]) & 31)
	w.S[core.SlotSCC] = core.B2u(r != 0)
	w.S[in.Dst[0].Reg&127] = r
	return nil
}

func execSAshr32(w *core.Wave, in *core.Instr) error {
	r := uint32(int32(plain(w, &in.Src[0])) >> (plain(w, &in.Src[1]) & 31))
	w.S[core.SlotSCC] = core.B2u(r != 0)
	w.S[in.Dst[0].Reg&127] = r
	return nil
}

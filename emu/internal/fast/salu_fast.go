package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

// Fast forms of the commonest scalar operations. They run only in
// unjournaled steps (emu's form picks the reference form for a journaled
// one), so they read and write the register file directly.

// execSOP2x32 is the fast form of the 32-bit SOP2 operations. With SGPR
// or constant sources and an SGPR destination (nearly always) it reads and
// writes the registers inline; otherwise it is execSOP2.
func execSOP2x32(w *core.Wave, in *core.Instr) error {
	a, b, d := &in.Src[0], &in.Src[1], &in.Dst[0]
	if in.Nsrc < 2 || d.Kind != core.OkS || !plainSrc(a) || !plainSrc(b) {
		return ref.ExecSOP2(w, in)
	}
	r, scc, sets := ref.Sop2x32(in.Sub, plain(w, a), plain(w, b), w.S[core.SlotSCC])
	if sets {
		w.S[core.SlotSCC] = core.B2u(scc)
	}
	w.S[d.Reg&127] = r
	return nil
}

// plainSrc reports whether o is an SGPR-file code or a constant, which
// plain reads.
func plainSrc(o *core.Operand) bool { return o.Kind == core.OkS || o.Kind == core.OkConst }

// plain reads a plainSrc operand directly (no hazard check: for
// unjournaled steps only).
func plain(w *core.Wave, o *core.Operand) uint32 {
	if o.Kind == core.OkConst {
		return uint32(o.Val)
	}
	return w.S[o.Reg&127]
}

// execMov is the fast form of s_mov_b32 and s_mov_b64, the commonest
// scalar operations. With an SGPR-file or constant source and an
// SGPR-file destination (pairs below code 127, as sv64 and sd64 take
// them) it moves the value inline; otherwise it is execSOP1.
func execMov(w *core.Wave, in *core.Instr) error {
	a, d := &in.Src[0], &in.Dst[0]
	if in.Nsrc < 1 || d.Kind != core.OkS || !plainSrc(a) {
		return ref.ExecSOP1(w, in)
	}
	if in.Sub == ref.S1Mov32 {
		w.S[d.Reg&127] = plain(w, a)
		return nil
	}
	if d.Reg >= 127 || a.Kind == core.OkS && a.Reg >= 127 {
		return ref.ExecSOP1(w, in)
	}
	v := a.Val
	if a.Kind == core.OkS {
		v = uint64(w.S[a.Reg&127]) | uint64(w.S[(a.Reg+1)&127])<<32
	}
	w.S[d.Reg&127], w.S[(d.Reg+1)&127] = uint32(v), uint32(v>>32)
	return nil
}

// execSOP2Bit64Fast is execSOP2Bit64's fast form: SGPR pairs read and
// written in place (the accessors do not inline into it).
func execSOP2Bit64Fast(w *core.Wave, in *core.Instr) error {
	if in.Nsrc < 2 {
		return ref.ExecBadOperands(w, in)
	}
	a, b, d := &in.Src[0], &in.Src[1], &in.Dst[0]
	var x, y uint64
	if r := a.Reg; a.Kind == core.OkS && r < 127 {
		x = uint64(w.S[r&127]) | uint64(w.S[(r+1)&127])<<32
	} else {
		x = w.Sv64(a)
	}
	if r := b.Reg; b.Kind == core.OkS && r < 127 {
		y = uint64(w.S[r&127]) | uint64(w.S[(r+1)&127])<<32
	} else {
		y = w.Sv64(b)
	}
	if in.Sub == ref.SCselect64 {
		if w.S[core.SlotSCC] != 0 {
			y = x
		}
		w.Sdst64(d, y)
		return nil
	}
	r := ref.Bitop64(in.Sub, x, y)
	if d.Kind == core.OkS && d.Reg < 127 {
		w.S[d.Reg&127], w.S[(d.Reg+1)&127] = uint32(r), uint32(r>>32)
		w.S[core.SlotSCC] = core.B2u(r != 0)
		return nil
	}
	w.Sd64(d, r)
	w.SetSCC(r != 0)
	return nil
}

// execSaveexecFast is execSaveexec's fast form for the saveexec
// instructions with an SGPR-pair source and destination (the wrexec ones,
// and other operands, take execSaveexec).
func execSaveexecFast(w *core.Wave, in *core.Instr) error {
	if in.Nsrc < 1 || in.Sub == ref.SeAndn1Wr || in.Sub == ref.SeAndn2Wr {
		return ref.ExecSaveexec(w, in)
	}
	a, d := &in.Src[0], &in.Dst[0]
	if a.Kind != core.OkS || a.Reg >= 127 || d.Kind != core.OkS || d.Reg >= 127 {
		return ref.ExecSaveexec(w, in)
	}
	s0 := uint64(w.S[a.Reg&127]) | uint64(w.S[(a.Reg+1)&127])<<32
	ex := w.Exec()
	var r uint64
	switch in.Sub {
	case ref.SeAndn1:
		r = ^s0 & ex
	case ref.SeOrn1:
		r = ^s0 | ex
	default:
		r = ref.Bitop64(ref.SAnd64+2*(in.Sub-ref.SeAnd), s0, ex)
	}
	w.S[d.Reg&127], w.S[(d.Reg+1)&127] = uint32(ex), uint32(ex>>32)
	w.S[core.CodeExec], w.S[core.CodeExec+1] = uint32(r), uint32(r>>32)
	w.S[core.SlotSCC] = core.B2u(r != 0)
	return nil
}

package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

// Fast forms of the commonest scalar operations. They run only in
// unjournaled steps (Wave.form picks the reference form for a journaled
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

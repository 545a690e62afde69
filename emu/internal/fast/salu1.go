package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

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

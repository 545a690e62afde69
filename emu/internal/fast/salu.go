package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

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

package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// Cross-lane and special vector operations.

const (
	lnReadlane = iota
	lnReadfirstlane
	lnWritelane
	lnSwap
	lnNop
)

func init() {
	def("v_readlane_b32", execLane, lnReadlane, 1, core.TyB32, core.CVALU)
	def("v_readfirstlane_b32", execLane, lnReadfirstlane, 1, core.TyB32, core.CVALU)
	def("v_writelane_b32", execLane, lnWritelane, 1, core.TyB32, core.CVALU)
	def("v_swap_b32", execLane, lnSwap, 2, core.TyB32, core.CVALU)
	def("v_nop", execLane, lnNop, 0, core.TyB32, core.CVALU)
	def("v_clrexcp", execLane, lnNop, 0, core.TyB32, core.CVALU)
}

// execLane executes v_readlane_b32 (SDST = VGPR[lane S1]), v_readfirstlane_b32
// (SDST = VGPR[first active lane], lane 0 when EXEC is 0), v_writelane_b32
// (VGPR[lane S1] = S0, regardless of EXEC) and v_swap_b32.
func execLane(w *core.Wave, in *core.Instr) error {
	switch in.Sub {
	case lnNop:
		return nil
	case lnSwap:
		if in.Ndst < 2 || in.Dst[0].Kind != core.OkV || in.Dst[1].Kind != core.OkV {
			return ExecBadOperands(w, in)
		}
		a, b := w.V[in.Dst[0].Reg], w.V[in.Dst[1].Reg]
		m := w.Exec()
		w.Wv(int(in.Dst[0].Reg), m, &b)
		w.Wv(int(in.Dst[1].Reg), m, &a)
		return nil
	}
	if in.Nsrc < 1 {
		return ExecBadOperands(w, in)
	}
	switch in.Sub {
	case lnReadlane, lnReadfirstlane:
		src := &in.Src[0]
		if src.Kind != core.OkV {
			w.Sd(&in.Dst[0], w.Sv(src))
			return nil
		}
		lane := 0
		if in.Sub == lnReadlane {
			if in.Nsrc < 2 {
				return ExecBadOperands(w, in)
			}
			lane = int(w.Sv(&in.Src[1]) & 63)
		} else if ex := w.Exec(); ex != 0 {
			lane = core.Tz(ex)
		}
		w.Sd(&in.Dst[0], w.V[src.Reg][lane])
	case lnWritelane:
		if in.Nsrc < 2 || in.Dst[0].Kind != core.OkV {
			return ExecBadOperands(w, in)
		}
		lane := int(w.Sv(&in.Src[1]) & 63)
		w.WvLane(int(in.Dst[0].Reg), lane, w.Sv(&in.Src[0]))
	}
	return nil
}

// v_movrels_b32 (D = VGPR[S0 + M0]), v_movreld_b32 (VGPR[D + M0] = S0) and
// v_movrelsd_b32 (VGPR[D + M0] = VGPR[S0 + M0]); indexes past v255 are
// dropped (noted).
func execMovrel(w *core.Wave, in *core.Instr) error {
	if in.Nsrc < 1 || in.Dst[0].Kind != core.OkV {
		return ExecBadOperands(w, in)
	}
	m0 := int(w.Rs(core.CodeM0))
	d := int(in.Dst[0].Reg)
	if in.Sub != 0 {
		d += m0
	}
	src := &in.Src[0]
	var vals [64]uint32
	if src.Kind == core.OkV {
		s := int(src.Reg)
		if in.Sub != 1 {
			s += m0
		}
		if s > 255 {
			w.Note("v_movrel: source index past v255")
			return nil
		}
		vals = w.V[s]
	} else {
		x := w.Sv(src)
		for l := range vals {
			vals[l] = x
		}
	}
	if d > 255 {
		w.Note("v_movrel: destination index past v255")
		return nil
	}
	w.Wv(d, w.Exec(), &vals)
	return nil
}

func init() {
	def("v_movrels_b32", execMovrel, 0, 1, core.TyB32, core.CVALU)
	def("v_movreld_b32", execMovrel, 1, 1, core.TyB32, core.CVALU)
	def("v_movrelsd_b32", execMovrel, 2, 1, core.TyB32, core.CVALU)
}

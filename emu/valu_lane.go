package emu

// Cross-lane and special vector operations.

const (
	lnReadlane = iota
	lnReadfirstlane
	lnWritelane
	lnSwap
	lnNop
)

func init() {
	def("v_readlane_b32", execLane, lnReadlane, 1, tyB32, cVALU)
	def("v_readfirstlane_b32", execLane, lnReadfirstlane, 1, tyB32, cVALU)
	def("v_writelane_b32", execLane, lnWritelane, 1, tyB32, cVALU)
	def("v_swap_b32", execLane, lnSwap, 2, tyB32, cVALU)
	def("v_nop", execLane, lnNop, 0, tyB32, cVALU)
	def("v_clrexcp", execLane, lnNop, 0, tyB32, cVALU)
}

// execLane executes v_readlane_b32 (SDST = VGPR[lane S1]), v_readfirstlane_b32
// (SDST = VGPR[first active lane], lane 0 when EXEC is 0), v_writelane_b32
// (VGPR[lane S1] = S0, regardless of EXEC) and v_swap_b32.
func execLane(w *Wave, in *instr) error {
	switch in.sub {
	case lnNop:
		return nil
	case lnSwap:
		if in.ndst < 2 || in.dst[0].kind != okV || in.dst[1].kind != okV {
			return execBadOperands(w, in)
		}
		a, b := w.v[in.dst[0].reg], w.v[in.dst[1].reg]
		m := w.exec()
		w.wv(int(in.dst[0].reg), m, &b)
		w.wv(int(in.dst[1].reg), m, &a)
		return nil
	}
	if in.nsrc < 1 {
		return execBadOperands(w, in)
	}
	switch in.sub {
	case lnReadlane, lnReadfirstlane:
		src := &in.src[0]
		if src.kind != okV {
			w.sd(&in.dst[0], w.sv(src))
			return nil
		}
		lane := 0
		if in.sub == lnReadlane {
			if in.nsrc < 2 {
				return execBadOperands(w, in)
			}
			lane = int(w.sv(&in.src[1]) & 63)
		} else if ex := w.exec(); ex != 0 {
			lane = tz(ex)
		}
		w.sd(&in.dst[0], w.v[src.reg][lane])
	case lnWritelane:
		if in.nsrc < 2 || in.dst[0].kind != okV {
			return execBadOperands(w, in)
		}
		lane := int(w.sv(&in.src[1]) & 63)
		w.wvLane(int(in.dst[0].reg), lane, w.sv(&in.src[0]))
	}
	return nil
}

// v_movrels_b32 (D = VGPR[S0 + M0]), v_movreld_b32 (VGPR[D + M0] = S0) and
// v_movrelsd_b32 (VGPR[D + M0] = VGPR[S0 + M0]); indexes past v255 are
// dropped (noted).
func execMovrel(w *Wave, in *instr) error {
	if in.nsrc < 1 || in.dst[0].kind != okV {
		return execBadOperands(w, in)
	}
	m0 := int(w.rs(codeM0))
	d := int(in.dst[0].reg)
	if in.sub != 0 {
		d += m0
	}
	src := &in.src[0]
	var vals [64]uint32
	if src.kind == okV {
		s := int(src.reg)
		if in.sub != 1 {
			s += m0
		}
		if s > 255 {
			w.note("v_movrel: source index past v255")
			return nil
		}
		vals = w.v[s]
	} else {
		x := w.sv(src)
		for l := range vals {
			vals[l] = x
		}
	}
	if d > 255 {
		w.note("v_movrel: destination index past v255")
		return nil
	}
	w.wv(d, w.exec(), &vals)
	return nil
}

func init() {
	def("v_movrels_b32", execMovrel, 0, 1, tyB32, cVALU)
	def("v_movreld_b32", execMovrel, 1, 1, tyB32, cVALU)
	def("v_movrelsd_b32", execMovrel, 2, 1, tyB32, cVALU)
}

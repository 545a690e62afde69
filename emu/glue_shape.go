package emu

// Operand shapes decided at compile time: the commonest VALU forms get a
// handler that knows its operands' kinds and its kernel's type, so it
// tests no source kinds, counts and float environment when it runs.

// intShape reports whether in, whose sources are plain (plainVSources),
// runs an integer kernel of two sources, the second a VGPR and the first
// a VGPR, an SGPR or a constant (prefilled in instr.cf): execIntV's
// forms.
func intShape(in *instr) bool {
	v := in.def.v
	if in.kft != 0 || v.nsrc != 2 || v.mac || in.src[1].kind != okV {
		return false
	}
	k := in.src[0].kind
	return k == okV || k == okS || k == okConst
}

// execIntV is execFastV for intShape's forms: the integer kernel runs with
// the wave's own environment (GPR indexing takes execVOP, as kernelEnv
// decides).
func execIntV(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOP(w, in)
	}
	t := &w.tmp
	mask := w.exec()
	n := liveLanes(mask)
	var a *[64]uint32
	switch o := &in.src[0]; o.kind {
	case okV:
		a = &w.v[o.reg]
	case okConst:
		a = &in.cf[0]
	default:
		a = fillLanes(&t[0], w.scalarIn(o), n)
	}
	r := int(in.dst[0].reg)
	e := &w.fe
	e.live = n
	d := w.dstQuads(r, mask, &t[3])
	in.k(e, d, a, &w.v[in.src[1].reg], &t[2])
	if d == &t[3] { // scratch: copy the EXEC lanes back
		w.wv(r, mask, d)
	}
	return nil
}

package emu

// f32 kernel glue: the f32 kernels (instr.kft 32) whose sources are plain
// get a handler that tests "no GPR indexing, f32 rounding to nearest
// even" in one look at MODE and reuses the wave's float context
// while MODE is unchanged (fenvCached), instead of execFastV's source
// dispatch and fenvFor.

// f32Fn returns the f32 handler for in, whose sources are plain
// (plainVSources), or nil: execF32U for a unary operation of an SGPR or
// constant, execF32V when no source is an SGPR.
func f32Fn(in *instr) execFn {
	v := in.def.v
	if in.kft != 32 {
		return nil
	}
	a, b := in.src[0].kind, in.src[1].kind
	inPlace := func(k uint8) bool { return k == okV || k == okConst }
	switch {
	case v.nsrc == 1 && (a == okS || a == okConst):
		return execF32U
	case inPlace(a) && (v.nsrc < 2 || inPlace(b)):
		return execF32V
	}
	return nil
}

// f32Plain reports whether an f32 handler may take its plain path under
// MODE m: no GPR indexing and f32 rounding to nearest even.
func (w *Wave) f32Plain(m uint32) bool { return m&(modeGPRIdxEn|3) == rmNearest }

// execF32V runs an f32 kernel whose sources are VGPRs or constants (the
// third, if any, a VGPR or v_mac's destination) in place when EXEC is
// whole quads; anything else takes execFastV.
func execF32V(w *Wave, in *instr) error {
	mask := w.exec()
	m := w.s[slotMode]
	if !w.f32Plain(m) || !quadPrefix(mask) {
		return execFastV(w, in)
	}
	c := &w.tmp[2]
	if v := in.def.v; v.nsrc > 2 {
		r := in.src[2].reg
		if v.mac {
			r = in.dst[0].reg
		}
		c = &w.v[uint8(r)]
	}
	e := &w.fe // fenvCached(32, m), its test inline
	if e.builtFor(w, 32, m) {
		e.clearLane()
	} else {
		e = w.fenvFor(32)
	}
	e.live = liveLanes(mask)
	in.k(e, &w.v[uint8(in.dst[0].reg)], w.shapeSrc(in, 0), w.shapeSrc(in, 1), c)
	return nil
}

// execF32U runs a unary f32 kernel of a uniform source (an SGPR or a
// constant, v_cvt_f32_u32 v, s): every lane's result is the same, so the
// kernel computes one quad and the EXEC lanes are set to its lane 0.
func execF32U(w *Wave, in *instr) error {
	m := w.s[slotMode]
	if !w.f32Plain(m) {
		return execFastV(w, in)
	}
	t := &w.tmp
	a := &t[0]
	if o := &in.src[0]; o.kind == okConst {
		a = &in.cf[0]
	} else {
		x := w.s[o.reg]
		a[0], a[1], a[2], a[3] = x, x, x, x
	}
	e := &w.fe // fenvCached(32, m), its test inline
	if e.builtFor(w, 32, m) {
		e.clearLane()
	} else {
		e = w.fenvFor(32)
	}
	e.live = 1
	in.k(e, &t[3], a, &t[1], &t[2])
	fillMasked(&w.v[uint8(in.dst[0].reg)], t[3][0], w.exec())
	return nil
}

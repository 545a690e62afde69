package emu

// Scalar operand access for the SALU, SOPC and SOPK operations. Their
// sources are almost always SGPRs, and their steps are almost always
// unjournaled (Run without history), where reading a register whose load
// is still in flight needs nothing more than the read (only journaled
// steps record the hazard): these read and write the register file
// directly then, and fall back to the general accessors (sv, sv64, sd,
// sd64, setSCC: hazards, constants, the journal) otherwise, with the same
// results. The 32-bit ones are small enough to inline.

// ssrc reads a 32-bit scalar source.
func (w *Wave) ssrc(o *operand) uint32 {
	if o.kind == okS && !w.jOn {
		return w.s[o.reg&127]
	}
	return w.ssrcSlow(o)
}

// ssrcSlow is ssrc for constants and everything else (through sv).
//
//go:noinline
func (w *Wave) ssrcSlow(o *operand) uint32 {
	if o.kind == okConst {
		return uint32(o.val)
	}
	return w.sv(o)
}

// ssrc64 reads a 64-bit scalar source.
func (w *Wave) ssrc64(o *operand) uint64 {
	if r := o.reg; o.kind == okS && r < 127 && (w.npend == 0 || !w.jOn) {
		return uint64(w.s[r&127]) | uint64(w.s[(r+1)&127])<<32
	}
	return w.ssrc64Slow(o)
}

// ssrc64Slow is ssrc64 for constants and everything else (through sv64).
//
//go:noinline
func (w *Wave) ssrc64Slow(o *operand) uint64 {
	if o.kind == okConst {
		return o.val
	}
	return w.sv64(o)
}

// sdst writes a 32-bit scalar destination.
func (w *Wave) sdst(o *operand, v uint32) {
	if !w.jOn && o.kind == okS {
		w.s[o.reg&127] = v
		return
	}
	w.sd(o, v)
}

// sdst64 writes a 64-bit scalar destination.
func (w *Wave) sdst64(o *operand, v uint64) {
	if r := o.reg; !w.jOn && o.kind == okS && r < 127 {
		w.s[r&127], w.s[(r+1)&127] = uint32(v), uint32(v>>32)
		return
	}
	w.sdst64Slow(o, v)
}

//go:noinline
func (w *Wave) sdst64Slow(o *operand, v uint64) { w.sd64(o, v) }

// sccOut sets SCC.
func (w *Wave) sccOut(b bool) {
	if !w.jOn {
		w.s[slotSCC] = b2u(b)
		return
	}
	w.setSCC(b)
}

// exec64 writes EXEC.
func (w *Wave) exec64(v uint64) {
	if !w.jOn {
		w.s[codeExec], w.s[codeExec+1] = uint32(v), uint32(v>>32)
		return
	}
	w.exec64Slow(v)
}

//go:noinline
func (w *Wave) exec64Slow(v uint64) { w.ws64(codeExec, v) }

// execSOP2x32 executes the 32-bit SOP2 operations. With history off, SGPR
// or constant sources and an SGPR destination (nearly always) it reads and
// writes the registers inline; otherwise it is execSOP2.
func execSOP2x32(w *Wave, in *instr) error {
	a, b, d := &in.src[0], &in.src[1], &in.dst[0]
	if w.jOn || in.nsrc < 2 || d.kind != okS || !plainSrc(a) || !plainSrc(b) {
		return execSOP2(w, in)
	}
	r, scc, sets := sop2x32(in.sub, w.plain(a), w.plain(b), w.s[slotSCC])
	if sets {
		w.s[slotSCC] = b2u(scc)
	}
	w.s[d.reg&127] = r
	return nil
}

// plainSrc reports whether o is an SGPR-file code or a constant, which
// plain reads.
func plainSrc(o *operand) bool { return o.kind == okS || o.kind == okConst }

// plain reads a plainSrc operand directly (no hazard check: for
// unjournaled steps only).
func (w *Wave) plain(o *operand) uint32 {
	if o.kind == okConst {
		return uint32(o.val)
	}
	return w.s[o.reg&127]
}

// execMov executes s_mov_b32 and s_mov_b64, the commonest scalar
// operations. With history off, an SGPR-file or constant source and an
// SGPR-file destination (pairs below code 127, as sv64 and sd64 take
// them) it moves the value inline; otherwise it is execSOP1.
func execMov(w *Wave, in *instr) error {
	a, d := &in.src[0], &in.dst[0]
	if w.jOn || in.nsrc < 1 || d.kind != okS || !plainSrc(a) {
		return execSOP1(w, in)
	}
	if in.sub == s1Mov32 {
		w.s[d.reg&127] = w.plain(a)
		return nil
	}
	if d.reg >= 127 || a.kind == okS && a.reg >= 127 {
		return execSOP1(w, in)
	}
	v := a.val
	if a.kind == okS {
		v = uint64(w.s[a.reg&127]) | uint64(w.s[(a.reg+1)&127])<<32
	}
	w.s[d.reg&127], w.s[(d.reg+1)&127] = uint32(v), uint32(v>>32)
	return nil
}

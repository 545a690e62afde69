package emu

// Scalar operand access for the reference forms of the SALU, SOPC and
// SOPK operations: recording primitives, like state.go's. Their sources
// are almost always SGPRs, and their steps are often unjournaled (an
// operation without a fast form, in Run without history), where reading
// a register whose load is still in flight needs nothing more than the
// read (only journaled steps record the hazard): these read and write the
// register file directly then, and fall back to the general accessors
// (sv, sv64, sd, sd64, setSCC: hazards, constants, the journal)
// otherwise, with the same results. The 32-bit ones are small enough to
// inline.

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

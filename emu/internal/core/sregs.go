package core

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

// Ssrc reads a 32-bit scalar source.
func (w *Wave) Ssrc(o *Operand) uint32 {
	if o.Kind == OkS && !w.JOn {
		return w.S[o.Reg&127]
	}
	return w.ssrcSlow(o)
}

// ssrcSlow is ssrc for constants and everything else (through sv).
//
//go:noinline
func (w *Wave) ssrcSlow(o *Operand) uint32 {
	if o.Kind == OkConst {
		return uint32(o.Val)
	}
	return w.Sv(o)
}

// Ssrc64 reads a 64-bit scalar source.
func (w *Wave) Ssrc64(o *Operand) uint64 {
	if r := o.Reg; o.Kind == OkS && r < 127 && (w.Npend == 0 || !w.JOn) {
		return uint64(w.S[r&127]) | uint64(w.S[(r+1)&127])<<32
	}
	return w.ssrc64Slow(o)
}

// ssrc64Slow is ssrc64 for constants and everything else (through sv64).
//
//go:noinline
func (w *Wave) ssrc64Slow(o *Operand) uint64 {
	if o.Kind == OkConst {
		return o.Val
	}
	return w.Sv64(o)
}

// Sdst writes a 32-bit scalar destination.
func (w *Wave) Sdst(o *Operand, v uint32) {
	if !w.JOn && o.Kind == OkS {
		w.S[o.Reg&127] = v
		return
	}
	w.Sd(o, v)
}

// Sdst64 writes a 64-bit scalar destination.
func (w *Wave) Sdst64(o *Operand, v uint64) {
	if r := o.Reg; !w.JOn && o.Kind == OkS && r < 127 {
		w.S[r&127], w.S[(r+1)&127] = uint32(v), uint32(v>>32)
		return
	}
	w.sdst64Slow(o, v)
}

//go:noinline
func (w *Wave) sdst64Slow(o *Operand, v uint64) { w.Sd64(o, v) }

// SccOut sets SCC.
func (w *Wave) SccOut(b bool) {
	if !w.JOn {
		w.S[SlotSCC] = B2u(b)
		return
	}
	w.SetSCC(b)
}

// Exec64 writes EXEC.
func (w *Wave) Exec64(v uint64) {
	if !w.JOn {
		w.S[CodeExec], w.S[CodeExec+1] = uint32(v), uint32(v>>32)
		return
	}
	w.exec64Slow(v)
}

//go:noinline
func (w *Wave) exec64Slow(v uint64) { w.Ws64(CodeExec, v) }

func B2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

package emu

// Fast forms of the commonest scalar operations. They run only in
// unjournaled steps (Wave.form picks the reference form for a journaled
// one), so they read and write the register file directly.

// execSOP2x32 is the fast form of the 32-bit SOP2 operations. With SGPR
// or constant sources and an SGPR destination (nearly always) it reads and
// writes the registers inline; otherwise it is execSOP2.
func execSOP2x32(w *Wave, in *instr) error {
	a, b, d := &in.src[0], &in.src[1], &in.dst[0]
	if in.nsrc < 2 || d.kind != okS || !plainSrc(a) || !plainSrc(b) {
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

// execMov is the fast form of s_mov_b32 and s_mov_b64, the commonest
// scalar operations. With an SGPR-file or constant source and an
// SGPR-file destination (pairs below code 127, as sv64 and sd64 take
// them) it moves the value inline; otherwise it is execSOP1.
func execMov(w *Wave, in *instr) error {
	a, d := &in.src[0], &in.dst[0]
	if in.nsrc < 1 || d.kind != okS || !plainSrc(a) {
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

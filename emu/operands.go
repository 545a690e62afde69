package emu

// sv reads a 32-bit scalar source.
func (w *Wave) sv(o *operand) uint32 {
	switch o.kind {
	case okS:
		return w.rs(int(o.reg))
	case okConst:
		return uint32(o.val)
	case okSCC:
		return w.s[slotSCC]
	case okVCCZ:
		if w.vcc() == 0 {
			return 1
		}
		return 0
	case okEXECZ:
		if w.exec() == 0 {
			return 1
		}
		return 0
	case okV:
		// a VGPR where a scalar is expected: lane 0 (VOP3 never encodes this)
		return w.v[o.reg][0]
	}
	return 0
}

// sv64 reads a 64-bit scalar source.
func (w *Wave) sv64(o *operand) uint64 {
	switch o.kind {
	case okS:
		if o.reg >= 127 {
			return uint64(w.rs(int(o.reg)))
		}
		return w.rs64(int(o.reg))
	case okConst:
		return o.val
	}
	return uint64(w.sv(o))
}

// sd writes a 32-bit scalar destination.
func (w *Wave) sd(o *operand, v uint32) {
	if o.kind == okS && o.reg < 128 {
		w.ws(int(o.reg), v)
	}
}

// sd64 writes a 64-bit scalar destination.
func (w *Wave) sd64(o *operand, v uint64) {
	if o.kind == okS && o.reg < 127 {
		w.ws(int(o.reg), uint32(v))
		w.ws(int(o.reg)+1, uint32(v>>32))
	}
}

package core

// Sv reads a 32-bit scalar source.
func (w *Wave) Sv(o *Operand) uint32 {
	switch o.Kind {
	case OkS:
		return w.Rs(int(o.Reg))
	case OkConst:
		return uint32(o.Val)
	case OkSCC:
		return w.S[SlotSCC]
	case OkVCCZ:
		if w.Vcc() == 0 {
			return 1
		}
		return 0
	case OkEXECZ:
		if w.Exec() == 0 {
			return 1
		}
		return 0
	case OkV:
		// a VGPR where a scalar is expected: lane 0 (VOP3 never encodes this)
		return w.V[o.Reg][0]
	}
	return 0
}

// Sv64 reads a 64-bit scalar source.
func (w *Wave) Sv64(o *Operand) uint64 {
	switch o.Kind {
	case OkS:
		if o.Reg >= 127 {
			return uint64(w.Rs(int(o.Reg)))
		}
		return w.Rs64(int(o.Reg))
	case OkConst:
		return o.Val
	}
	return uint64(w.Sv(o))
}

// Sd writes a 32-bit scalar destination.
func (w *Wave) Sd(o *Operand, v uint32) {
	if o.Kind == OkS && o.Reg < 128 {
		w.Ws(int(o.Reg), v)
	}
}

// Sd64 writes a 64-bit scalar destination.
func (w *Wave) Sd64(o *Operand, v uint64) {
	if o.Kind == OkS && o.Reg < 127 {
		w.Ws(int(o.Reg), uint32(v))
		w.Ws(int(o.Reg)+1, uint32(v>>32))
	}
}

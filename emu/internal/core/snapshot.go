package core

// StatusReg assembles the STATUS hardware register: SCC [0], EXECZ [9],
// VCCZ [10], HALT [13], TRAP [14], VALID [16].
func (w *Wave) StatusReg() uint32 {
	var v uint32 = 1 << 16
	if w.Scc() {
		v |= 1
	}
	if w.Exec() == 0 {
		v |= 1 << 9
	}
	if w.Vcc() == 0 {
		v |= 1 << 10
	}
	if w.S[SlotHalt] != 0 || w.State() == Halted {
		v |= 1 << 13
	}
	if w.State() == Trapped {
		v |= 1 << 14
	}
	return v
}

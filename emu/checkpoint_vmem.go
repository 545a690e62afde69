package emu

// unitState is a VectorMemory whose state a checkpoint must hold (the
// results of loads in flight).
type unitState interface {
	saveUnit() any
	restoreUnit(any)
}

// vmemSaved is a vmemUnit's state in a checkpoint.
type vmemSaved struct {
	pending []vmResult
	top     uint64
	slotOf  [16]uint8
}

func (u *vmemUnit) saveUnit() any {
	return &vmemSaved{pending: append([]vmResult(nil), u.pending...), top: u.top, slotOf: u.slotOf}
}

func (u *vmemUnit) restoreUnit(s any) {
	v := s.(*vmemSaved)
	u.pending = append(u.pending[:0], v.pending...)
	u.top, u.slotOf = v.top, v.slotOf
}

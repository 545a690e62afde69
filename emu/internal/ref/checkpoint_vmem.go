package ref

// UnitState is a VectorMemory whose state a checkpoint must hold (the
// results of loads in flight).
type UnitState interface {
	SaveUnit() any
	RestoreUnit(any)
}

// VmemSaved is a vmemUnit's state in a checkpoint.
type VmemSaved struct {
	Pending []VmResult
	top     uint64
	slotOf  [16]uint8
}

func (u *VMemUnit) SaveUnit() any {
	return &VmemSaved{Pending: append([]VmResult(nil), u.Pending...), top: u.top, slotOf: u.slotOf}
}

func (u *VMemUnit) RestoreUnit(s any) {
	v := s.(*VmemSaved)
	u.Pending = append(u.Pending[:0], v.Pending...)
	u.top, u.slotOf = v.top, v.slotOf
}

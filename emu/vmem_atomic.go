package emu

// atomicData reads an atomic's source (and compare) value for lane.
func (u *vmemUnit) atomicData(w *Wave, o *vmOp, lane int) (src, cmp uint64) {
	r := o.vdata
	if o.size == 8 {
		src = uint64(w.v[r][lane]) | uint64(w.v[r+1][lane])<<32
		if o.atom == atCmpSwap {
			cmp = uint64(w.v[r+2][lane]) | uint64(w.v[r+3][lane])<<32
		}
		return
	}
	src = uint64(w.v[r][lane])
	if o.atom == atCmpSwap {
		cmp = uint64(w.v[r+1][lane])
	}
	return
}

// atomicApply computes an atomic's new memory value.
func atomicApply(op int, old, src, cmp uint64, wide bool) uint64 {
	m := uint64(0xffffffff)
	if wide {
		m = ^uint64(0)
	}
	old, src, cmp = old&m, src&m, cmp&m
	s := func(x uint64) int64 {
		if wide {
			return int64(x)
		}
		return int64(int32(x))
	}
	var r uint64
	switch op {
	case atSwap:
		r = src
	case atCmpSwap:
		r = old
		if old == cmp {
			r = src
		}
	case atAdd:
		r = old + src
	case atSub:
		r = old - src
	case atRsub:
		r = src - old
	case atSMin:
		r = uint64(min(s(old), s(src)))
	case atSMax:
		r = uint64(max(s(old), s(src)))
	case atUMin:
		r = min(old, src)
	case atUMax:
		r = max(old, src)
	case atAnd:
		r = old & src
	case atOr:
		r = old | src
	case atXor:
		r = old ^ src
	case atInc:
		r = old + 1
		if old >= src {
			r = 0
		}
	case atDec:
		r = old - 1
		if old == 0 || old > src {
			r = src
		}
	default:
		r = old
	}
	return r & m
}

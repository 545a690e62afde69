package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// AtomicData reads an atomic's source (and compare) value for lane.
func (u *VMemUnit) AtomicData(w *core.Wave, o *VmOp, lane int) (src, cmp uint64) {
	r := o.Vdata
	if o.Size == 8 {
		src = uint64(w.V[r][lane]) | uint64(w.V[r+1][lane])<<32
		if o.Atom == atCmpSwap {
			cmp = uint64(w.V[r+2][lane]) | uint64(w.V[r+3][lane])<<32
		}
		return
	}
	src = uint64(w.V[r][lane])
	if o.Atom == atCmpSwap {
		cmp = uint64(w.V[r+1][lane])
	}
	return
}

// AtomicApply computes an atomic's new memory value.
func AtomicApply(op int, old, src, cmp uint64, wide bool) uint64 {
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
	case AtSwap:
		r = src
	case atCmpSwap:
		r = old
		if old == cmp {
			r = src
		}
	case AtAdd:
		r = old + src
	case AtSub:
		r = old - src
	case atRsub:
		r = src - old
	case atSMin:
		r = uint64(min(s(old), s(src)))
	case atSMax:
		r = uint64(max(s(old), s(src)))
	case AtUMin:
		r = min(old, src)
	case AtUMax:
		r = max(old, src)
	case AtAnd:
		r = old & src
	case AtOr:
		r = old | src
	case AtXor:
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

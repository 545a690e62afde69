package emu

import "github.com/wavedbg/wavedbg/isa"

// waitOne is waitcnt with the journal off and one operation in flight,
// the commonest case (a load and the s_waitcnt that consumes it): what
// waitFast does with a list of one, without its sort and key arrays. The
// operation completes if it was due by now or its counter is over the
// wait's limit for it, at the later of the clock and its cycle; else it
// stays, due at its cycle (TestWaitOneMatchesLoop).
func (w *Wave) waitOne(vm, exp, lgkm int) {
	p := &w.pend[0]
	limit := lgkm
	switch p.cnt {
	case isa.CntVM:
		limit = vm
	case isa.CntEXP:
		limit = exp
	}
	now := w.clock()
	if p.done > now && int(p.inc) <= limit {
		w.m.due = p.done
		return
	}
	w.complete(p, 0)
	if p.done > now {
		w.s[slotClock], w.s[slotClock+1] = uint32(p.done), uint32(p.done>>32)
	}
	w.pend = w.pend[:0]
	w.m.due = ^uint64(0)
}

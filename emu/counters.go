package emu

import "github.com/wavedbg/wavedbg/isa"

const cntLGKM, cntVM, cntEXP = isa.CntLGKM, isa.CntVM, isa.CntEXP

// pendingOp is an issued memory operation in flight. Scalar results are
// captured at issue (the scalar cache is read then) and reach the SGPRs at
// completion. Vector memory (issue 5) adds per-lane results through the
// VectorMemory seam; VM_CNT operations complete in issue order.
type pendingOp struct {
	id    uint64
	pc    int // instruction index
	cnt   isa.Counters
	inc   uint8
	issue uint64
	done  uint64
	vec   bool   // result goes to VGPRs (issue 5)
	dst   uint16 // first scalar code written at completion
	n     uint8  // dwords written at completion (0: nothing returns)
	skip  uint16 // dwords not written (out-of-range S_BUFFER dwords)
	data  [16]uint32
}

// issue adds an in-flight operation.
func (w *Wave) issue(op pendingOp) {
	p := w.pushOp(op.cnt, op.inc, op.done)
	op.id, op.pc, op.issue = p.id, p.pc, p.issue
	*p = op
	w.issued(p)
}

// issued journals the operation pushOp appended, now filled in, and marks
// its destination registers pending.
func (w *Wave) issued(p *pendingOp) {
	if w.jOn {
		w.j.ops = append(w.j.ops, opEnt{issued: true, pos: len(w.pend) - 1, op: *p})
	}
	if !p.vec {
		w.npend += raise(w.pendRegs(p))
	}
}

// pushOp appends an operation that raises cnt by inc until cycle done,
// issued now by the current instruction, and returns it for the caller to
// fill in (destination, data) before calling issued. Its data is not
// cleared: only the first n dwords mean anything.
func (w *Wave) pushOp(cnt isa.Counters, inc uint8, done uint64) *pendingOp {
	id := w.get64(slotOpID)
	if !w.jOn {
		w.s[slotOpID], w.s[slotOpID+1] = uint32(id+1), uint32((id+1)>>32)
	} else {
		w.ws64(slotOpID, id+1)
	}
	w.m.due = min(w.m.due, done)
	n := len(w.pend)
	if n == cap(w.pend) {
		w.pend = append(w.pend, pendingOp{})
	}
	w.pend = w.pend[:n+1]
	// field by field: a composite literal is built on the stack and copied
	// in wide moves that cannot forward from its narrow stores
	p := &w.pend[n]
	p.id, p.pc, p.cnt, p.inc, p.issue, p.done = id, w.curIdx, cnt, inc, w.clock(), done
	p.vec, p.dst, p.n, p.skip = false, 0, 0, 0
	return p
}

// pendRegs returns the in-flight write counts of scalar operation op's
// destination SGPRs (those below 128).
func (w *Wave) pendRegs(op *pendingOp) []uint8 {
	return w.pendS[min(int(op.dst), len(w.pendS)):min(int(op.dst)+int(op.n), len(w.pendS))]
}

// raise adds one to each count of c and returns how many were zero.
func raise(c []uint8) (n int) {
	for i, b := range c {
		if b == 0 {
			n++
		}
		c[i] = b + 1
	}
	return n
}

// lower takes one from each count of c and returns how many become zero.
func lower(c []uint8) (n int) {
	for i, b := range c {
		if b == 1 {
			n++
		}
		c[i] = b - 1
	}
	return n
}

// rebuildPending recomputes the per-register pending marks from the list.
func (w *Wave) rebuildPending() {
	w.pendS = [128]uint8{}
	w.npend = 0
	w.m.due = ^uint64(0)
	for i := range w.pend {
		if p := &w.pend[i]; !p.vec {
			w.npend += raise(w.pendRegs(p))
		}
		w.m.due = min(w.m.due, w.pend[i].done)
	}
}

// counters sums the in-flight operations per counter.
func (w *Wave) counters() Counters {
	c, _ := w.outstanding()
	return c
}

// outstanding sums the in-flight operations per counter and returns the
// earliest cycle at which one can complete (VM operations complete in
// order, so only the oldest counts), or ^0 when none is in flight.
func (w *Wave) outstanding() (c Counters, next uint64) {
	next = ^uint64(0)
	seenVM := false
	for i := range w.pend {
		p := &w.pend[i]
		switch p.cnt {
		case isa.CntVM:
			c.VM += int(p.inc)
			if seenVM {
				continue
			}
			seenVM = true
		case isa.CntLGKM:
			c.LGKM += int(p.inc)
		case isa.CntEXP:
			c.EXP += int(p.inc)
		}
		next = min(next, p.done)
	}
	return c, next
}

// retire completes every in-flight operation whose completion cycle has
// come. LGKM operations may complete out of order (a hit overtakes an
// earlier miss); VM operations complete in issue order.
//
// Machine.due is a lower bound of the remaining operations' completion
// cycles, so that the step loop calls retire only when one may be due.
func (w *Wave) retire() { w.retireCount() }

// retireCount is retire, returning the counts of the operations left in
// flight (what outstanding returns; Machine.due is then its next cycle:
// the earliest among them but the VM operations behind the oldest). It
// compacts the list in one pass, the operations left keeping their order.
func (w *Wave) retireCount() (c Counters) {
	now := w.clock()
	due := ^uint64(0)
	vmLeft := false // a VM operation before i stays in flight
	kept := 0       // the operations left are moved down to w.pend[:kept]
	pend := w.pend  // complete does not touch the list
	for i := range pend {
		p := &pend[i]
		vm := p.cnt == isa.CntVM
		// a VM operation behind one still in flight completes after it
		// (which is in due): retire looks at it then
		if blocked := vm && vmLeft; !blocked && p.done <= now {
			w.complete(p, kept)
			continue
		} else if !blocked {
			due = min(due, p.done)
		}
		vmLeft = vmLeft || vm
		switch p.cnt {
		case isa.CntVM:
			c.VM += int(p.inc)
		case isa.CntLGKM:
			c.LGKM += int(p.inc)
		case isa.CntEXP:
			c.EXP += int(p.inc)
		}
		if kept != i {
			pend[kept] = *p
		}
		kept++
	}
	w.pend = w.pend[:kept]
	w.m.due = due
	return c
}

// complete writes the result of op p, which retire is taking off the
// list at position pos (its index once the operations completed before
// it are gone, as the journal records it). Nothing here reads the list.
func (w *Wave) complete(p *pendingOp, pos int) {
	if w.jOn {
		w.j.ops = append(w.j.ops, opEnt{pos: pos, op: *p})
	}
	if p.vec {
		if w.m.VectorMemory != nil {
			w.m.VectorMemory.Complete(w, p.id)
		}
		return
	}
	if d, e := int(p.dst), int(p.dst)+int(p.n); !w.jOn && p.skip == 0 && e <= len(w.pendS) {
		w.npend -= lower(w.pendS[d:e])
		moveDwords(w.s[d:e], p.data[:p.n])
		return
	}
	w.npend -= lower(w.pendRegs(p))
	for k := 0; k < int(p.n); k++ {
		if p.skip>>uint(k)&1 == 0 {
			w.ws(int(p.dst)+k, p.data[k])
		}
	}
}

// waitcnt advances the clock until VM_CNT ≤ vm, EXP_CNT ≤ exp and
// LGKM_CNT ≤ lgkm, completing operations as their cycles come (waitLoop:
// the reference; waitFast and waitOne are execWaitcntFast's).
func (w *Wave) waitcnt(vm, exp, lgkm int) {
	if len(w.pend) == 0 {
		return // nothing in flight: every counter is zero
	}
	w.waitLoop(vm, exp, lgkm)
}

// waitLoop is waitcnt's general form: retire, and jump to the next
// completion, until the counters are low enough.
func (w *Wave) waitLoop(vm, exp, lgkm int) {
	start := w.clock()
	for {
		c := w.retireCount()
		next := w.m.due
		if c.VM <= vm && c.EXP <= exp && c.LGKM <= lgkm || next == ^uint64(0) {
			break
		}
		// Jump to the earliest completion that can lower a counter.
		if next > w.clock() {
			w.setClock(next)
		}
	}
	w.addStall(w.clock() - start)
}

// maxWaitOps bounds the in-flight list waitFast sorts on the stack.
const maxWaitOps = 16

// waitFast is waitcnt's fast form: waitDrain when it can
// decide, else waitSorted.
func (w *Wave) waitFast(vm, exp, lgkm int) {
	if lgkm == 0 && w.waitScalars() || w.waitDrain(vm, exp, lgkm) {
		return
	}
	w.waitSorted(vm, exp, lgkm)
}

// waitScalars is waitDrain for the commonest wait with more than one
// operation in flight, lgkmcnt(0) after a run of scalar loads: when every
// operation in flight is a scalar one (LGKM_CNT, SGPR results) and no two
// write one SGPR, they all complete, in list order, at the latest of their
// completion cycles and the clock. It reports false, having done nothing,
// otherwise.
func (w *Wave) waitScalars() bool {
	t, regs := w.clock(), 0
	for i := range w.pend {
		p := &w.pend[i]
		if p.cnt != isa.CntLGKM || p.vec || int(p.dst)+int(p.n) > len(w.pendS) {
			return false
		}
		t, regs = max(t, p.done), regs+int(p.n)
	}
	if regs != w.npend {
		return false
	}
	for i := range w.pend {
		w.complete(&w.pend[i], 0) // pos is only journaled
	}
	w.s[slotClock], w.s[slotClock+1] = uint32(t), uint32(t>>32)
	w.pend = w.pend[:0]
	w.m.due = ^uint64(0)
	return true
}

// waitDrain is waitSorted without the sort, for the waits compilers emit:
// LGKM_CNT and EXP_CNT waited for down to zero or not at all (scalar loads
// return out of order), VM_CNT to any count. The loop stops at the first
// completion cycle at which every counter is low enough; for each counter
// that is the completion cycle of its last operation (zero), of the VM
// operation whose completion leaves at most vm (they complete in order),
// or the clock; the loop's cycle is the latest of those, t, and the
// operations whose key (waitSorted's) is at most t complete. In list
// order rather than key order: the same registers result when no two of
// them write one SGPR — the VM operations writing VGPRs keep their order,
// and the rest write SGPRs. It reports false, having done nothing, for
// other waits, vector LGKM operations (DS) or two scalar operations in
// flight writing one SGPR (TestWaitFastMatchesLoop).
//
// t needs no keys: a VM operation's key is the latest of the clock and
// the completion cycles of it and the VM operations before it, and the
// VM operations that must complete are those with more than vm VM_CNT
// counts from them to the end of the list, so a pass from the end finds
// t. No two scalar operations write one SGPR when their register counts
// add up to npend, the SGPRs with a write in flight. A pass from the
// start completes the operations, computing each key as it goes, and
// moves the others down.
func (w *Wave) waitDrain(vm, exp, lgkm int) bool {
	now := w.clock()
	pend := w.pend
	var c Counters
	t, regs := now, 0 // regs: the scalar operations' register counts added up
	for i := len(pend) - 1; i >= 0; i-- {
		p := &pend[i]
		switch p.cnt {
		case isa.CntVM:
			if c.VM += int(p.inc); c.VM > vm { // this one and the VM operations before it complete
				t = max(t, p.done)
			}
		case isa.CntLGKM:
			if p.vec {
				return false
			}
			if c.LGKM += int(p.inc); lgkm == 0 {
				t = max(t, p.done)
			}
		case isa.CntEXP:
			if c.EXP += int(p.inc); exp == 0 {
				t = max(t, p.done)
			}
		}
		if !p.vec {
			if int(p.dst)+int(p.n) > 128 {
				return false
			}
			regs += int(p.n)
		}
	}
	if regs != w.npend || lgkm > 0 && lgkm < c.LGKM || exp > 0 && exp < c.EXP {
		return false
	}
	due, kept, vmKey := ^uint64(0), 0, uint64(0)
	for i := range pend {
		p := &pend[i]
		k := max(p.done, now)
		if p.cnt == isa.CntVM {
			k = max(k, vmKey)
			vmKey = k
		}
		if k > t {
			due = min(due, k)
			if kept != i {
				pend[kept] = *p
			}
			kept++
		} else if p.vec { // complete's vector case, without its journal and kind tests
			if vmu := w.m.VectorMemory; vmu != nil {
				vmu.Complete(w, p.id)
			}
		} else {
			w.complete(p, 0) // pos is only journaled
		}
	}
	if t != now {
		w.s[slotClock], w.s[slotClock+1] = uint32(t), uint32(t>>32)
	}
	w.pend = w.pend[:kept]
	w.m.due = due
	return true
}

// waitSorted is waitcnt's fast form: the loop's passes in one. The
// loop completes, at each cycle it jumps to, the operations due by then in
// list order, so an operation completes at its key — the later of the
// clock and its completion cycle, for a VM operation the latest one of it
// and the VM operations before it — and operations complete in key order,
// list order among equal keys. waitFast sorts the list by key, completes
// groups of equal keys until the counters are low enough, advances the
// clock to the last group's key and compacts the list once
// (TestWaitFastMatchesLoop).
func (w *Wave) waitSorted(vm, exp, lgkm int) {
	now := w.clock()
	n := len(w.pend)
	var key [maxWaitOps]uint64
	var order [maxWaitOps]uint8
	var c Counters
	vmKey := uint64(0)
	for i := range w.pend[:n] {
		p := &w.pend[i]
		k := p.done
		switch p.cnt {
		case isa.CntVM:
			k = max(k, vmKey)
			vmKey = k
			c.VM += int(p.inc)
		case isa.CntLGKM:
			c.LGKM += int(p.inc)
		case isa.CntEXP:
			c.EXP += int(p.inc)
		}
		key[i] = max(k, now)
		// insertion by key, after equal keys: list order among them
		j := i
		for ; j > 0 && key[order[j-1]] > key[i]; j-- {
			order[j] = order[j-1]
		}
		order[j] = uint8(i)
	}
	var gone uint32 // completed operations, by list position
	t := now
	for g := 0; ; {
		// complete the operations due at t (the first group may be empty)
		for ; g < n && key[order[g]] == t; g++ {
			p := &w.pend[order[g]]
			w.complete(p, 0) // pos is only journaled
			gone |= 1 << order[g]
			switch p.cnt {
			case isa.CntVM:
				c.VM -= int(p.inc)
			case isa.CntLGKM:
				c.LGKM -= int(p.inc)
			case isa.CntEXP:
				c.EXP -= int(p.inc)
			}
		}
		if c.VM <= vm && c.EXP <= exp && c.LGKM <= lgkm || g == n {
			break
		}
		t = key[order[g]]
	}
	if t != now {
		w.s[slotClock], w.s[slotClock+1] = uint32(t), uint32(t>>32)
	}
	due := ^uint64(0)
	kept := 0
	for i := range w.pend[:n] {
		if gone>>uint(i)&1 != 0 {
			continue
		}
		due = min(due, key[i])
		if kept != i {
			w.pend[kept] = w.pend[i]
		}
		kept++
	}
	w.pend = w.pend[:kept]
	w.m.due = due
}

// waitOne is waitcnt's fast form with one operation in flight,
// the commonest case (a load and the s_waitcnt that consumes it): what
// waitSorted does with a list of one, without its sort and key arrays. The
// operation completes if it was due by now or its counter is over the
// wait's limit for it, at the later of the clock and its cycle; else it
// stays, due at its cycle (TestWaitFastMatchesLoop).
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

package core

import (
	"github.com/wavedbg/wavedbg/isa"
)

const CntLGKM, cntVM, cntEXP = isa.CntLGKM, isa.CntVM, isa.CntEXP

// PendingOp is an issued memory operation in flight. Scalar results are
// captured at issue (the scalar cache is read then) and reach the SGPRs at
// completion. Vector memory adds per-lane results through the
// VectorMemory seam; VM_CNT operations complete in issue order.
type PendingOp struct {
	Id    uint64
	Pc    int // instruction index
	Cnt   isa.Counters
	Inc   uint8
	Issue uint64
	Done  uint64
	Vec   bool   // result goes to VGPRs (vector memory)
	Dst   uint16 // first scalar code written at completion
	N     uint8  // dwords written at completion (0: nothing returns)
	Skip  uint16 // dwords not written (out-of-range S_BUFFER dwords)
	Data  [16]uint32
}

// Issue adds an in-flight operation.
func (w *Wave) Issue(op PendingOp) {
	p := w.PushOp(op.Cnt, op.Inc, op.Done)
	op.Id, op.Pc, op.Issue = p.Id, p.Pc, p.Issue
	*p = op
	w.Issued(p)
}

// Issued journals the operation pushOp appended, now filled in, and marks
// its destination registers pending.
func (w *Wave) Issued(p *PendingOp) {
	if w.JOn {
		w.J.Ops = append(w.J.Ops, opEnt{Issued: true, pos: len(w.Pend) - 1, Op: *p})
	}
	if !p.Vec {
		w.Npend += Raise(w.pendRegs(p))
	}
}

// PushOp appends an operation that raises cnt by inc until cycle done,
// issued now by the current instruction, and returns it for the caller to
// fill in (destination, data) before calling issued. Its data is not
// cleared: only the first n dwords mean anything.
func (w *Wave) PushOp(cnt isa.Counters, inc uint8, done uint64) *PendingOp {
	id := w.Get64(slotOpID)
	if !w.JOn {
		w.S[slotOpID], w.S[slotOpID+1] = uint32(id+1), uint32((id+1)>>32)
	} else {
		w.Ws64(slotOpID, id+1)
	}
	w.M.Due = min(w.M.Due, done)
	n := len(w.Pend)
	if n == cap(w.Pend) {
		w.Pend = append(w.Pend, PendingOp{})
	}
	w.Pend = w.Pend[:n+1]
	// field by field: a composite literal is built on the stack and copied
	// in wide moves that cannot forward from its narrow stores
	p := &w.Pend[n]
	p.Id, p.Pc, p.Cnt, p.Inc, p.Issue, p.Done = id, w.CurIdx, cnt, inc, w.Clock(), done
	p.Vec, p.Dst, p.N, p.Skip = false, 0, 0, 0
	return p
}

// pendRegs returns the in-flight write counts of scalar operation op's
// destination SGPRs (those below 128).
func (w *Wave) pendRegs(op *PendingOp) []uint8 {
	return w.PendS[min(int(op.Dst), len(w.PendS)):min(int(op.Dst)+int(op.N), len(w.PendS))]
}

// Raise adds one to each count of c and returns how many were zero.
func Raise(c []uint8) (n int) {
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

// RebuildPending recomputes the per-register pending marks from the list.
func (w *Wave) RebuildPending() {
	w.PendS = [128]uint8{}
	w.Npend = 0
	w.M.Due = ^uint64(0)
	for i := range w.Pend {
		if p := &w.Pend[i]; !p.Vec {
			w.Npend += Raise(w.pendRegs(p))
		}
		w.M.Due = min(w.M.Due, w.Pend[i].Done)
	}
}

// Counters sums the in-flight operations per counter.
func (w *Wave) Counters() Counters {
	c, _ := w.Outstanding()
	return c
}

// Outstanding sums the in-flight operations per counter and returns the
// earliest cycle at which one can complete (VM operations complete in
// order, so only the oldest counts), or ^0 when none is in flight.
func (w *Wave) Outstanding() (c Counters, next uint64) {
	next = ^uint64(0)
	seenVM := false
	for i := range w.Pend {
		p := &w.Pend[i]
		switch p.Cnt {
		case isa.CntVM:
			c.VM += int(p.Inc)
			if seenVM {
				continue
			}
			seenVM = true
		case isa.CntLGKM:
			c.LGKM += int(p.Inc)
		case isa.CntEXP:
			c.EXP += int(p.Inc)
		}
		next = min(next, p.Done)
	}
	return c, next
}

// Retire completes every in-flight operation whose completion cycle has
// come. LGKM operations may complete out of order (a hit overtakes an
// earlier miss); VM operations complete in issue order.
//
// Machine.due is a lower bound of the remaining operations' completion
// cycles, so that the step loop calls retire only when one may be due.
func (w *Wave) Retire() { w.RetireCount() }

// RetireCount is retire, returning the counts of the operations left in
// flight (what outstanding returns; Machine.due is then its next cycle:
// the earliest among them but the VM operations behind the oldest). It
// compacts the list in one pass, the operations left keeping their order.
func (w *Wave) RetireCount() (c Counters) {
	now := w.Clock()
	due := ^uint64(0)
	vmLeft := false // a VM operation before i stays in flight
	kept := 0       // the operations left are moved down to w.pend[:kept]
	pend := w.Pend  // complete does not touch the list
	for i := range pend {
		p := &pend[i]
		vm := p.Cnt == isa.CntVM
		// a VM operation behind one still in flight completes after it
		// (which is in due): retire looks at it then
		if blocked := vm && vmLeft; !blocked && p.Done <= now {
			w.complete(p, kept)
			continue
		} else if !blocked {
			due = min(due, p.Done)
		}
		vmLeft = vmLeft || vm
		switch p.Cnt {
		case isa.CntVM:
			c.VM += int(p.Inc)
		case isa.CntLGKM:
			c.LGKM += int(p.Inc)
		case isa.CntEXP:
			c.EXP += int(p.Inc)
		}
		if kept != i {
			pend[kept] = *p
		}
		kept++
	}
	w.Pend = w.Pend[:kept]
	w.M.Due = due
	return c
}

// complete writes the result of op p, which retire is taking off the
// list at position pos (its index once the operations completed before
// it are gone, as the journal records it). Nothing here reads the list.
func (w *Wave) complete(p *PendingOp, pos int) {
	if w.JOn {
		w.J.Ops = append(w.J.Ops, opEnt{pos: pos, Op: *p})
	}
	if p.Vec {
		if w.M.VectorMemory != nil {
			w.M.VectorMemory.Complete(w, p.Id)
		}
		return
	}
	if d, e := int(p.Dst), int(p.Dst)+int(p.N); !w.JOn && p.Skip == 0 && e <= len(w.PendS) {
		w.Npend -= lower(w.PendS[d:e])
		moveDwords(w.S[d:e], p.Data[:p.N])
		return
	}
	w.Npend -= lower(w.pendRegs(p))
	for k := 0; k < int(p.N); k++ {
		if p.Skip>>uint(k)&1 == 0 {
			w.Ws(int(p.Dst)+k, p.Data[k])
		}
	}
}

// Waitcnt advances the clock until VM_CNT ≤ vm, EXP_CNT ≤ exp and
// LGKM_CNT ≤ lgkm, completing operations as their cycles come (waitLoop:
// the reference; waitFast and waitOne are execWaitcntFast's).
func (w *Wave) Waitcnt(vm, exp, lgkm int) {
	if len(w.Pend) == 0 {
		return // nothing in flight: every counter is zero
	}
	w.WaitLoop(vm, exp, lgkm)
}

// WaitLoop is waitcnt's general form: retire, and jump to the next
// completion, until the counters are low enough.
func (w *Wave) WaitLoop(vm, exp, lgkm int) {
	start := w.Clock()
	for {
		c := w.RetireCount()
		next := w.M.Due
		if c.VM <= vm && c.EXP <= exp && c.LGKM <= lgkm || next == ^uint64(0) {
			break
		}
		// Jump to the earliest completion that can lower a counter.
		if next > w.Clock() {
			w.SetClock(next)
		}
	}
	w.AddStall(w.Clock() - start)
}

// MaxWaitOps bounds the in-flight list waitFast sorts on the stack.
const MaxWaitOps = 16

// WaitFast is waitcnt's fast form: waitDrain when it can
// decide, else waitSorted.
func (w *Wave) WaitFast(vm, exp, lgkm int) {
	if lgkm == 0 && w.WaitScalars() || w.WaitDrain(vm, exp, lgkm) {
		return
	}
	w.WaitSorted(vm, exp, lgkm)
}

// WaitScalars is waitDrain for the commonest wait with more than one
// operation in flight, lgkmcnt(0) after a run of scalar loads: when every
// operation in flight is a scalar one (LGKM_CNT, SGPR results) and no two
// write one SGPR, they all complete, in list order, at the latest of their
// completion cycles and the clock. It reports false, having done nothing,
// otherwise.
func (w *Wave) WaitScalars() bool {
	t, regs := w.Clock(), 0
	for i := range w.Pend {
		p := &w.Pend[i]
		if p.Cnt != isa.CntLGKM || p.Vec || int(p.Dst)+int(p.N) > len(w.PendS) {
			return false
		}
		t, regs = max(t, p.Done), regs+int(p.N)
	}
	if regs != w.Npend {
		return false
	}
	for i := range w.Pend {
		w.complete(&w.Pend[i], 0) // pos is only journaled
	}
	w.S[SlotClock], w.S[SlotClock+1] = uint32(t), uint32(t>>32)
	w.Pend = w.Pend[:0]
	w.M.Due = ^uint64(0)
	return true
}

// WaitDrain is waitSorted without the sort, for the waits compilers emit:
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
func (w *Wave) WaitDrain(vm, exp, lgkm int) bool {
	now := w.Clock()
	pend := w.Pend
	var c Counters
	t, regs := now, 0 // regs: the scalar operations' register counts added up
	for i := len(pend) - 1; i >= 0; i-- {
		p := &pend[i]
		switch p.Cnt {
		case isa.CntVM:
			if c.VM += int(p.Inc); c.VM > vm { // this one and the VM operations before it complete
				t = max(t, p.Done)
			}
		case isa.CntLGKM:
			if p.Vec {
				return false
			}
			if c.LGKM += int(p.Inc); lgkm == 0 {
				t = max(t, p.Done)
			}
		case isa.CntEXP:
			if c.EXP += int(p.Inc); exp == 0 {
				t = max(t, p.Done)
			}
		}
		if !p.Vec {
			if int(p.Dst)+int(p.N) > 128 {
				return false
			}
			regs += int(p.N)
		}
	}
	if regs != w.Npend || lgkm > 0 && lgkm < c.LGKM || exp > 0 && exp < c.EXP {
		return false
	}
	due, kept, vmKey := ^uint64(0), 0, uint64(0)
	for i := range pend {
		p := &pend[i]
		k := max(p.Done, now)
		if p.Cnt == isa.CntVM {
			k = max(k, vmKey)
			vmKey = k
		}
		if k > t {
			due = min(due, k)
			if kept != i {
				pend[kept] = *p
			}
			kept++
		} else if p.Vec { // complete's vector case, without its journal and kind tests
			if vmu := w.M.VectorMemory; vmu != nil {
				vmu.Complete(w, p.Id)
			}
		} else {
			w.complete(p, 0) // pos is only journaled
		}
	}
	if t != now {
		w.S[SlotClock], w.S[SlotClock+1] = uint32(t), uint32(t>>32)
	}
	w.Pend = w.Pend[:kept]
	w.M.Due = due
	return true
}

// WaitSorted is waitcnt's fast form: the loop's passes in one. The
// loop completes, at each cycle it jumps to, the operations due by then in
// list order, so an operation completes at its key — the later of the
// clock and its completion cycle, for a VM operation the latest one of it
// and the VM operations before it — and operations complete in key order,
// list order among equal keys. waitFast sorts the list by key, completes
// groups of equal keys until the counters are low enough, advances the
// clock to the last group's key and compacts the list once
// (TestWaitFastMatchesLoop).
func (w *Wave) WaitSorted(vm, exp, lgkm int) {
	now := w.Clock()
	n := len(w.Pend)
	var key [MaxWaitOps]uint64
	var order [MaxWaitOps]uint8
	var c Counters
	vmKey := uint64(0)
	for i := range w.Pend[:n] {
		p := &w.Pend[i]
		k := p.Done
		switch p.Cnt {
		case isa.CntVM:
			k = max(k, vmKey)
			vmKey = k
			c.VM += int(p.Inc)
		case isa.CntLGKM:
			c.LGKM += int(p.Inc)
		case isa.CntEXP:
			c.EXP += int(p.Inc)
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
			p := &w.Pend[order[g]]
			w.complete(p, 0) // pos is only journaled
			gone |= 1 << order[g]
			switch p.Cnt {
			case isa.CntVM:
				c.VM -= int(p.Inc)
			case isa.CntLGKM:
				c.LGKM -= int(p.Inc)
			case isa.CntEXP:
				c.EXP -= int(p.Inc)
			}
		}
		if c.VM <= vm && c.EXP <= exp && c.LGKM <= lgkm || g == n {
			break
		}
		t = key[order[g]]
	}
	if t != now {
		w.S[SlotClock], w.S[SlotClock+1] = uint32(t), uint32(t>>32)
	}
	due := ^uint64(0)
	kept := 0
	for i := range w.Pend[:n] {
		if gone>>uint(i)&1 != 0 {
			continue
		}
		due = min(due, key[i])
		if kept != i {
			w.Pend[kept] = w.Pend[i]
		}
		kept++
	}
	w.Pend = w.Pend[:kept]
	w.M.Due = due
}

// WaitOne is waitcnt's fast form with one operation in flight,
// the commonest case (a load and the s_waitcnt that consumes it): what
// waitSorted does with a list of one, without its sort and key arrays. The
// operation completes if it was due by now or its counter is over the
// wait's limit for it, at the later of the clock and its cycle; else it
// stays, due at its cycle (TestWaitFastMatchesLoop).
func (w *Wave) WaitOne(vm, exp, lgkm int) {
	p := &w.Pend[0]
	limit := lgkm
	switch p.Cnt {
	case isa.CntVM:
		limit = vm
	case isa.CntEXP:
		limit = exp
	}
	now := w.Clock()
	if p.Done > now && int(p.Inc) <= limit {
		w.M.Due = p.Done
		return
	}
	w.complete(p, 0)
	if p.Done > now {
		w.S[SlotClock], w.S[SlotClock+1] = uint32(p.Done), uint32(p.Done>>32)
	}
	w.Pend = w.Pend[:0]
	w.M.Due = ^uint64(0)
}

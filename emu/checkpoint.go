package emu

import "unsafe"

// A checkpoint is one wave's complete state at a point of a recorded run:
// its scalar slots (PC, clock, counters, status), the VGPRs below the
// machine's high-water mark, the in-flight operations, the scalar cache,
// and memory as versions of the pages written since recording began.
// Consecutive checkpoints share the versions of pages that did not change
// between them, so a checkpoint holds copies only of the pages written
// since the one before it.
type checkpoint struct {
	steps uint64 // instructions retired (Machine.Steps)
	ev    int    // edits applied (replay.events)

	s        [numSlots]uint32
	v        [][64]uint32 // v0 to vhigh-1
	pend     []pendingOp
	lines    []cacheLine
	filled   []int32
	manyFill bool
	unit     any     // the VectorMemory's state (unitState)
	lat      Latency // Config.Latency, which SetLatency edits

	// pages maps page numbers of the page log to their content here;
	// a page absent from it has its content from before its first write.
	pages map[uint64]*[pageSize]byte
	own   int // versions not shared with the checkpoint before
}

// before reports whether c comes strictly before the position (steps, ev).
func (c *checkpoint) before(steps uint64, ev int) bool {
	return c.ev <= ev && (c.steps < steps || c.steps == steps && c.ev < ev)
}

// size estimates the heap c holds, but its page versions.
func (c *checkpoint) size() int64 {
	return int64(unsafe.Sizeof(*c)) + int64(len(c.v))*256 + int64(cap(c.pend))*int64(unsafe.Sizeof(pendingOp{})) +
		int64(cap(c.lines))*int64(unsafe.Sizeof(cacheLine{})) + int64(cap(c.filled))*4 + unitSize(c.unit) + int64(len(c.pages))*48
}

// take captures m's state; prev, the checkpoint before it (or nil), gives
// the page versions to share.
func (m *Machine) takeCheckpoint(prev *checkpoint, ev int, l *pageLog) *checkpoint {
	w := m.w
	c := &checkpoint{steps: m.Steps(), ev: ev, s: w.s, manyFill: m.manyFill, lat: m.Config.Latency}
	c.v = append([][64]uint32(nil), w.v[:m.vhigh]...)
	c.pend = append([]pendingOp(nil), w.pend...)
	c.lines = append([]cacheLine(nil), w.cache.lines...)
	c.filled = append([]int32(nil), m.filled...)
	if u, ok := m.VectorMemory.(unitState); ok {
		c.unit = u.saveUnit()
	}
	c.pages = make(map[uint64]*[pageSize]byte, len(l.pns))
	for i, pn := range l.pns {
		live := m.Mem.lookPage(pn)
		if live == nil {
			continue // never created: still zero, as before its first write
		}
		var old *[pageSize]byte
		if prev != nil {
			old = prev.pages[pn]
		}
		if old == nil {
			old = l.origOf(i)
		}
		if *old == *live {
			if old != l.orig[i] && old != l.zero {
				c.pages[pn] = old
			}
			continue
		}
		cp := new([pageSize]byte)
		*cp = *live
		c.pages[pn] = cp
	}
	c.own = ownPages(c, prev)
	return c
}

// ownPages counts the page versions of c that prev does not hold.
func ownPages(c, prev *checkpoint) int {
	n := 0
	for pn, pg := range c.pages {
		if prev == nil || prev.pages[pn] != pg {
			n++
		}
	}
	return n
}

// restore puts m back in the state of c: registers, in-flight operations,
// the scalar cache and every page written since recording began.
func (m *Machine) restore(c *checkpoint, l *pageLog) {
	w := m.w
	w.s = c.s
	m.Config.Latency = c.lat
	copy(w.v[:], c.v)
	if m.vhigh > len(c.v) {
		clear(w.v[len(c.v):m.vhigh])
	}
	m.vhigh = len(c.v)
	w.pend = append(w.pend[:0], c.pend...)
	w.rebuildPending()
	copy(w.cache.lines, c.lines)
	m.filled, m.manyFill = append(m.filled[:0], c.filled...), c.manyFill
	if u, ok := m.VectorMemory.(unitState); ok && c.unit != nil {
		u.restoreUnit(c.unit)
	}
	w.jOn = false
	w.j.reset()
	m.hist.clear()
	m.last = m.last[:0]
	for i, pn := range l.pns {
		src := c.pages[pn]
		if src == nil {
			src = l.origOf(i)
		}
		if live := m.Mem.lookPage(pn); live != nil {
			*live = *src
		} else if src != l.zero {
			*m.Mem.page(pn, true) = *src
		}
	}
}

// unitSize estimates the heap of a saved VectorMemory state.
func unitSize(u any) int64 {
	if v, ok := u.(*vmemSaved); ok {
		return int64(cap(v.pending)) * int64(unsafe.Sizeof(vmResult{}))
	}
	return 0
}

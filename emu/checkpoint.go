package emu

import "unsafe"

// A checkpoint is a recorded group's complete state at a point of its
// recording: every wave's state (waveState) and memory as versions of the
// pages written since recording began, taken at the same moment.
// Consecutive checkpoints share the versions of pages that did not change
// between them, so a checkpoint holds copies only of the pages written
// since the one before it.
type checkpoint struct {
	steps uint64 // the group's instructions retired (replay.now)
	ev    int    // edits applied (replay.events)

	waves []waveState // by wave index in the group

	// pages maps page numbers of the page log to their content here;
	// a page absent from it has its content from before its first write.
	pages map[uint64]*[pageSize]byte
	own   int // versions not shared with the checkpoint before
}

// waveState is one wave's part of a checkpoint: its scalar slots (PC,
// clock, counters, status), the VGPRs below the machine's high-water
// mark, the in-flight operations and the scalar cache.
type waveState struct {
	s        [numSlots]uint32
	v        [][64]uint32 // v0 to vhigh-1
	pend     []pendingOp
	lines    []cacheLine
	filled   []int32
	manyFill bool
	unit     any     // the VectorMemory's state (unitState)
	lat      Latency // Config.Latency, which SetLatency edits
}

// before reports whether c comes strictly before the position (steps, ev).
func (c *checkpoint) before(steps uint64, ev int) bool {
	return c.ev <= ev && (c.steps < steps || c.steps == steps && c.ev < ev)
}

// after reports whether c comes after the position (steps, ev): find's
// test.
func (c *checkpoint) after(steps uint64, ev int) bool {
	return c.steps > steps || c.ev > ev
}

// size estimates the heap c holds, but its page versions.
func (c *checkpoint) size() int64 {
	n := int64(unsafe.Sizeof(*c)) + int64(len(c.pages))*48
	for i := range c.waves {
		n += c.waves[i].size()
	}
	return n
}

func (s *waveState) size() int64 {
	return int64(unsafe.Sizeof(*s)) + int64(len(s.v))*256 + int64(cap(s.pend))*int64(unsafe.Sizeof(pendingOp{})) +
		int64(cap(s.lines))*int64(unsafe.Sizeof(cacheLine{})) + int64(cap(s.filled))*4 + unitSize(s.unit)
}

// takeCheckpoint captures the state of the group's waves and memory at
// position (steps, ev); prev, the checkpoint before it (or nil), gives
// the page versions to share.
func (r *replay) takeCheckpoint(prev *checkpoint, steps uint64, ev int) *checkpoint {
	c := &checkpoint{steps: steps, ev: ev, waves: make([]waveState, len(r.waves))}
	for i, m := range r.waves {
		m.saveWave(&c.waves[i])
	}
	c.pages = r.log.snapshot(r.mem, prev)
	c.own = ownPages(c, prev)
	return c
}

// saveWave captures m's wave in s.
func (m *Machine) saveWave(s *waveState) {
	w := m.w
	*s = waveState{s: w.s, manyFill: m.manyFill, lat: m.Config.Latency}
	s.v = append([][64]uint32(nil), w.v[:m.vhigh]...)
	s.pend = append([]pendingOp(nil), w.pend...)
	s.lines = append([]cacheLine(nil), w.cache.lines...)
	s.filled = append([]int32(nil), m.filled...)
	if u, ok := m.VectorMemory.(unitState); ok {
		s.unit = u.saveUnit()
	}
}

// snapshot returns the versions of the logged pages of mem that differ
// from their content before the first write, sharing prev's versions of
// pages that have not changed since.
func (l *pageLog) snapshot(mem *Memory, prev *checkpoint) map[uint64]*[pageSize]byte {
	pages := make(map[uint64]*[pageSize]byte, len(l.pns))
	for i, pn := range l.pns {
		live := mem.lookPage(pn)
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
				pages[pn] = old
			}
			continue
		}
		cp := new([pageSize]byte)
		*cp = *live
		pages[pn] = cp
	}
	return pages
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

// restore puts the group back in the state of c: every wave and every
// page written since recording began.
func (r *replay) restore(c *checkpoint) {
	for i, m := range r.waves {
		m.restoreWave(&c.waves[i])
	}
	l := r.log
	for i, pn := range l.pns {
		src := c.pages[pn]
		if src == nil {
			src = l.origOf(i)
		}
		if live := r.mem.lookPage(pn); live != nil {
			*live = *src
		} else if src != l.zero {
			*r.mem.page(pn, true) = *src
		}
	}
	r.ev = c.ev
	r.atEnd = false
}

// restoreWave puts m's wave back in the state s: registers, in-flight
// operations and the scalar cache.
func (m *Machine) restoreWave(s *waveState) {
	w := m.w
	w.s = s.s
	m.Config.Latency = s.lat
	copy(w.v[:], s.v)
	if m.vhigh > len(s.v) {
		clear(w.v[len(s.v):m.vhigh])
	}
	m.vhigh = len(s.v)
	w.pend = append(w.pend[:0], s.pend...)
	w.rebuildPending()
	copy(w.cache.lines, s.lines)
	m.filled, m.manyFill = append(m.filled[:0], s.filled...), s.manyFill
	if u, ok := m.VectorMemory.(unitState); ok && s.unit != nil {
		u.restoreUnit(s.unit)
	}
	w.jOn = false
	w.j.reset()
	m.hist.clear()
	m.last = m.last[:0]
}

// unitSize estimates the heap of a saved VectorMemory state.
func unitSize(u any) int64 {
	if v, ok := u.(*vmemSaved); ok {
		return int64(cap(v.pending)) * int64(unsafe.Sizeof(vmResult{}))
	}
	return 0
}

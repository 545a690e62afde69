package emu

import (
	"unsafe"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

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
	pages map[uint64]*[core.PageSize]byte
	own   int // versions not shared with the checkpoint before
}

// waveState is one wave's part of a checkpoint: its scalar slots (PC,
// clock, counters, status), the VGPRs below the machine's high-water
// mark, the in-flight operations and the scalar cache.
type waveState struct {
	s        [core.NumSlots]uint32
	v        [][64]uint32 // v0 to vhigh-1
	pend     []core.PendingOp
	lines    []core.CachedLine
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
	return int64(unsafe.Sizeof(*s)) + int64(len(s.v))*256 + int64(cap(s.pend))*int64(unsafe.Sizeof(core.PendingOp{})) +
		int64(cap(s.lines))*int64(unsafe.Sizeof(core.CachedLine{})) + int64(cap(s.filled))*4 + unitSize(s.unit)
}

// takeCheckpoint captures the state of the group's waves and memory at
// position (steps, ev); prev, the checkpoint before it (or nil), gives
// the page versions to share.
func (r *replay) takeCheckpoint(prev *checkpoint, steps uint64, ev int) *checkpoint {
	c := &checkpoint{steps: steps, ev: ev, waves: make([]waveState, len(r.waves))}
	for i, m := range r.waves {
		m.saveWave(&c.waves[i])
	}
	c.pages = snapshot(r.log, r.mem, prev)
	c.own = ownPages(c, prev)
	return c
}

// saveWave captures m's wave in s.
func (m *Machine) saveWave(s *waveState) {
	w := m.w
	*s = waveState{s: w.S, manyFill: m.ManyFill, lat: m.Config.Latency}
	s.v = append([][64]uint32(nil), w.V[:m.vhigh]...)
	s.pend = append([]core.PendingOp(nil), w.Pend...)
	s.lines = append([]core.CachedLine(nil), w.Cache.Lines...)
	s.filled = append([]int32(nil), m.Filled...)
	if u, ok := m.VectorMemory.(ref.UnitState); ok {
		s.unit = u.SaveUnit()
	}
}

// snapshot returns the versions of the logged pages of mem that differ
// from their content before the first write, sharing prev's versions of
// pages that have not changed since.
func snapshot(l *core.PageLog, mem *Memory, prev *checkpoint) map[uint64]*[core.PageSize]byte {
	pages := make(map[uint64]*[core.PageSize]byte, len(l.Pns))
	for i, pn := range l.Pns {
		live := mem.LookPage(pn)
		if live == nil {
			continue // never created: still zero, as before its first write
		}
		var old *[core.PageSize]byte
		if prev != nil {
			old = prev.pages[pn]
		}
		if old == nil {
			old = l.OrigOf(i)
		}
		if *old == *live {
			if old != l.Orig[i] && old != l.Zero {
				pages[pn] = old
			}
			continue
		}
		cp := new([core.PageSize]byte)
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
	for i, pn := range l.Pns {
		src := c.pages[pn]
		if src == nil {
			src = l.OrigOf(i)
		}
		if live := r.mem.LookPage(pn); live != nil {
			*live = *src
		} else if src != l.Zero {
			*r.mem.Page(pn, true) = *src
		}
	}
	r.ev = c.ev
	r.atEnd = false
}

// restoreWave puts m's wave back in the state s: registers, in-flight
// operations and the scalar cache.
func (m *Machine) restoreWave(s *waveState) {
	w := m.w
	w.S = s.s
	m.Config.Latency = s.lat
	copy(w.V[:], s.v)
	if m.vhigh > len(s.v) {
		clear(w.V[len(s.v):m.vhigh])
	}
	m.vhigh = len(s.v)
	w.Pend = append(w.Pend[:0], s.pend...)
	w.RebuildPending()
	copy(w.Cache.Lines, s.lines)
	m.Filled, m.ManyFill = append(m.Filled[:0], s.filled...), s.manyFill
	if u, ok := m.VectorMemory.(ref.UnitState); ok && s.unit != nil {
		u.RestoreUnit(s.unit)
	}
	w.JOn = false
	w.J.Reset()
	m.Hist.Clear()
	m.last = m.last[:0]
}

// unitSize estimates the heap of a saved VectorMemory state.
func unitSize(u any) int64 {
	if v, ok := u.(*ref.VmemSaved); ok {
		return int64(cap(v.Pending)) * int64(unsafe.Sizeof(ref.VmResult{}))
	}
	return 0
}

package core

import (
	"encoding/binary"
)

// What front ends see of the scalar cache beyond its lines: which dwords
// differ from memory, and which loads read a stale copy.

// StaleRead is a dword a scalar load read from a clean cache line whose
// copy differs from memory: the load returned Cached, not Memory.
type StaleRead struct {
	Addr   uint64 // the dword's address
	Line   uint64 // the line it came from (64-byte aligned)
	Cached uint32 // the value the load returned
	Memory uint32 // the value memory holds
}

// Dwords returns the line's data as 16 little-endian dwords.
func (l *CacheLine) Dwords() [LineBytes / 4]uint32 {
	var d [LineBytes / 4]uint32
	for k := range d {
		d[k] = binary.LittleEndian.Uint32(l.Data[4*k:])
	}
	return d
}

// ChangedDwords counts the dwords a memory write changed (for a
// write-back: the line's dirty dwords).
func (w MemWrite) ChangedDwords() int {
	n := 0
	for k := 0; k+4 <= len(w.Old) && k+4 <= len(w.New); k += 4 {
		if binary.LittleEndian.Uint32(w.Old[k:]) != binary.LittleEndian.Uint32(w.New[k:]) {
			n++
		}
	}
	return n
}

// lineDiff fills in c's DirtyDwords or StaleDwords by comparing the line
// with memory.
func (w *Wave) lineDiff(c *CacheLine) {
	if !c.Valid {
		return
	}
	var mem [LineBytes]byte
	w.M.Mem.ReadRaw(c.Addr, mem[:])
	var diff uint16
	for k := 0; k < LineBytes/4; k++ {
		if binary.LittleEndian.Uint32(mem[4*k:]) != binary.LittleEndian.Uint32(c.Data[4*k:]) {
			diff |= 1 << k
		}
	}
	if c.Dirty {
		c.DirtyDwords = diff
	} else {
		c.StaleDwords = diff
	}
}

// checkStale records a stale read when the dword v a load took from clean
// line i at addr differs from memory.
func (w *Wave) checkStale(i int, addr uint64, v uint32) {
	l := &w.Cache.Lines[i]
	if l.dirty {
		return
	}
	var b [4]byte
	w.M.Mem.ReadRaw(addr, b[:])
	if m := binary.LittleEndian.Uint32(b[:]); m != v {
		w.J.Stale = append(w.J.Stale, StaleRead{Addr: addr, Line: l.Tag, Cached: v, Memory: m})
	}
}

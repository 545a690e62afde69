package emu

import (
	"encoding/binary"
	"unsafe"
)

// The scalar data cache: 64-byte lines, set-associative, LRU. It sits
// between SMEM and memory and is not coherent with vector memory: a vector
// store to a cached address leaves the scalar line stale until it is
// invalidated.

const lineBytes = 64

type cacheLine struct {
	tag   uint64 // line address
	valid bool
	dirty bool
	vol   bool
	use   uint64 // LRU stamp: larger is more recent
	data  [lineBytes]byte
}

type scalarCache struct {
	sets, ways int
	lines      []cacheLine // set-major
	loads      []sloadMemo // execSLoad's findings, by instruction index
}

func newScalarCache(cfg CacheConfig) scalarCache {
	ways := cfg.Ways
	if ways <= 0 {
		ways = 4
	}
	size := cfg.Size
	if size <= 0 {
		size = 16 << 10
	}
	sets := size / lineBytes / ways
	if sets < 1 {
		sets = 1
	}
	return scalarCache{sets: sets, ways: ways, lines: make([]cacheLine, sets*ways)}
}

// CacheLine is a scalar-cache line as snapshots show it.
type CacheLine struct {
	Set, Way int
	Addr     uint64 // line address (64-byte aligned)
	Valid    bool
	Dirty    bool
	Volatile bool
	Age      int    // LRU age within the set: 0 is most recently used
	LastUse  uint64 // LRU stamp
	Data     [lineBytes]byte
	// DirtyDwords marks (bit k: dword k) the dwords of a dirty line that
	// differ from memory: what a write-back would write. StaleDwords marks
	// the dwords of a clean line that differ from memory: memory changed
	// underneath (a vector store), and a scalar load would read the old value.
	DirtyDwords, StaleDwords uint16
}

// set returns the set holding addr (without a division when the number of
// sets is a power of two, as it is by default).
func (c *scalarCache) set(addr uint64) int {
	line, n := addr/lineBytes, uint64(c.sets)
	if n&(n-1) == 0 {
		return int(line & (n - 1))
	}
	return int(line % n)
}

// setLine replaces line i, journaling its old content.
func (w *Wave) setLine(i int, l cacheLine) {
	if w.jOn {
		w.j.c = append(w.j.c, cEnt{idx: int32(i), old: w.cache.lines[i]})
	}
	w.cache.lines[i] = l
}

func (w *Wave) touch(i int) {
	u := w.bumpUse()
	if w.jOn {
		w.j.c = append(w.j.c, cEnt{idx: int32(i), old: w.cache.lines[i]})
	}
	w.cache.lines[i].use = u
}

// bumpUse advances the cache's LRU clock and returns the new stamp.
func (w *Wave) bumpUse() uint64 {
	u := w.get64(slotUse) + 1
	if !w.jOn {
		w.s[slotUse], w.s[slotUse+1] = uint32(u), uint32(u>>32)
		return u
	}
	w.ws64(slotUse, u)
	return u
}

// lookup returns the index of the valid line holding addr, or -1.
func (w *Wave) lookup(addr uint64) int {
	tag := addr &^ (lineBytes - 1)
	k := w.cache.set(addr) * w.cache.ways
	set := w.cache.lines[k : k+w.cache.ways]
	for i := range set {
		if set[i].valid && set[i].tag == tag {
			return k + i
		}
	}
	return -1
}

// holds reports whether line i is valid and holds addr (lookup would
// return i: a line is in the cache at most once).
func (c *scalarCache) holds(i int, addr uint64) bool {
	l := &c.lines[i]
	return l.valid && l.tag == addr&^(lineBytes-1)
}

// dwords copies the dwords at addr (in the line) into dst.
func (l *cacheLine) dwords(addr uint64, dst []uint32) {
	d := l.data[addr&(lineBytes-1):]
	if hostLE { // the line's data is private: plain loads are fine
		moveDwords(dst, unsafe.Slice((*uint32)(unsafe.Pointer(&d[0])), len(d)/4))
		return
	}
	for k := range dst {
		dst[k] = binary.LittleEndian.Uint32(d[4*k:])
	}
}

// moveDwords copies src into dst (len(src) ≥ len(dst)), scalar results
// of one, two or four dwords as fixed-size moves rather than a memmove
// call.
func moveDwords(dst, src []uint32) {
	switch len(dst) {
	case 1:
		dst[0] = src[0]
	case 2:
		*(*[2]uint32)(dst) = [2]uint32(src)
	case 4:
		*(*[4]uint32)(dst) = [4]uint32(src)
	default:
		copy(dst, src)
	}
}

// writeBack writes a dirty line to memory and cleans it.
func (w *Wave) writeBack(i int, glc bool) {
	l := w.cache.lines[i]
	if !l.valid || !l.dirty {
		return
	}
	w.memWrite(l.tag, l.data[:], 2)
	w.cacheEvent(CacheEvent{Kind: CacheWriteBack, Addr: l.tag, Set: i / w.cache.ways, Way: i % w.cache.ways, Dirty: true, GLC: glc})
	l.dirty = false
	w.setLine(i, l)
}

// fill brings the line holding addr into the cache (evicting the LRU way,
// writing it back if dirty) and returns its index.
func (w *Wave) fill(addr uint64, glc bool) int {
	_, _, vol, _ := w.allocAt(addr &^ (lineBytes - 1))
	return w.fillLine(addr, glc, vol, nil)
}

// fillLine is fill for a caller that knows the line's volatility (that of
// the allocation holding its address; false if none does) and perhaps its
// page of memory (nil: look it up).
func (w *Wave) fillLine(addr uint64, glc, vol bool, pg *[pageSize]byte) int {
	tag := addr &^ (lineBytes - 1)
	s := w.cache.set(addr)
	victim := -1
	for k := 0; k < w.cache.ways; k++ {
		i := s*w.cache.ways + k
		l := &w.cache.lines[i]
		if !l.valid {
			victim = i
			break
		}
		if victim < 0 || l.use < w.cache.lines[victim].use {
			victim = i
		}
	}
	if old := &w.cache.lines[victim]; old.valid {
		if old.dirty {
			w.writeBack(victim, glc)
		}
		w.cacheEvent(CacheEvent{Kind: CacheEvict, Addr: old.tag, Set: s, Way: victim % w.cache.ways, Dirty: old.dirty, GLC: glc})
	}
	u := w.bumpUse()
	l := &w.cache.lines[victim]
	if w.jOn {
		w.j.c = append(w.j.c, cEnt{idx: int32(victim), old: *l})
	}
	l.tag, l.valid, l.dirty, l.vol, l.use = tag, true, false, vol, u
	readLine(w.m.Mem, tag, pg, &l.data)
	if m := w.m; len(m.filled) < len(w.cache.lines) {
		m.filled = append(m.filled, int32(victim))
	} else {
		m.manyFill = true
	}
	return victim
}

// loadLine makes the line holding addr present for a load and returns its
// index and whether the access hit. GLC loads use the miss-evict policy: the
// line is fetched again from memory (after writing back dirty data).
func (w *Wave) loadLine(addr uint64, glc bool) (int, bool) {
	i := w.lookup(addr)
	switch {
	case i >= 0 && !glc:
		w.touch(i)
		w.cacheEvent(CacheEvent{Kind: CacheHit, Addr: addr &^ (lineBytes - 1), Set: i / w.cache.ways, Way: i % w.cache.ways})
		return i, true
	case i >= 0:
		w.writeBack(i, true)
		l := w.cache.lines[i]
		w.m.Mem.readRaw(l.tag, l.data[:])
		w.setLine(i, l)
		w.touch(i)
		w.cacheEvent(CacheEvent{Kind: CacheMiss, Addr: l.tag, Set: i / w.cache.ways, Way: i % w.cache.ways, GLC: true})
		return i, false
	}
	i = w.fill(addr, glc)
	w.cacheEvent(CacheEvent{Kind: CacheMiss, Addr: addr &^ (lineBytes - 1), Set: i / w.cache.ways, Way: i % w.cache.ways, GLC: glc})
	return i, false
}

func (w *Wave) lineDword(i int, addr uint64) uint32 {
	off := addr & (lineBytes - 1)
	d := w.cache.lines[i].data[off : off+4]
	return uint32(d[0]) | uint32(d[1])<<8 | uint32(d[2])<<16 | uint32(d[3])<<24
}

// storeLine prepares the line holding addr for a store and returns its index
// (-1 for a GLC store to an absent line). GLC=0 stores write-combine: the
// line is allocated (filled on a miss) and becomes dirty. GLC=1 stores write
// through to memory and update a present line without dirtying it.
func (w *Wave) storeLine(addr uint64, glc bool) (int, bool) {
	i := w.lookup(addr)
	hit := i >= 0
	if glc {
		return i, hit
	}
	if i < 0 {
		i = w.fill(addr, false)
		w.cacheEvent(CacheEvent{Kind: CacheMiss, Addr: addr &^ (lineBytes - 1), Set: i / w.cache.ways, Way: i % w.cache.ways})
	} else {
		w.cacheEvent(CacheEvent{Kind: CacheHit, Addr: addr &^ (lineBytes - 1), Set: i / w.cache.ways, Way: i % w.cache.ways})
	}
	w.touch(i)
	return i, hit
}

// storeDword writes v at addr into line i (from storeLine).
func (w *Wave) storeDword(i int, addr uint64, v uint32, glc bool) {
	var b [4]byte
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	if glc {
		w.memWrite(addr, b[:], 0)
	}
	if i < 0 {
		return
	}
	l := w.cache.lines[i]
	copy(l.data[addr&(lineBytes-1):], b[:])
	if !glc {
		l.dirty = true
	}
	w.setLine(i, l)
}

// invalidate drops lines (all, or only volatile ones). Dirty data in a
// dropped line is lost, as on hardware; programs write back first.
func (w *Wave) invalidate(volOnly bool) {
	for i := range w.cache.lines {
		l := w.cache.lines[i]
		if !l.valid || volOnly && !l.vol {
			continue
		}
		w.cacheEvent(CacheEvent{Kind: CacheInvalidate, Addr: l.tag, Set: i / w.cache.ways, Way: i % w.cache.ways, Dirty: l.dirty})
		l.valid, l.dirty = false, false
		w.setLine(i, l)
	}
}

// writeBackAll writes back dirty lines (all, or only volatile ones).
func (w *Wave) writeBackAll(volOnly bool) {
	for i := range w.cache.lines {
		l := &w.cache.lines[i]
		if l.valid && l.dirty && (!volOnly || l.vol) {
			w.writeBack(i, false)
		}
	}
}

// discard drops the line holding addr without writing it back.
func (w *Wave) discard(addr uint64) {
	i := w.lookup(addr)
	if i < 0 {
		return
	}
	l := w.cache.lines[i]
	w.cacheEvent(CacheEvent{Kind: CacheDiscard, Addr: l.tag, Set: i / w.cache.ways, Way: i % w.cache.ways, Dirty: l.dirty})
	l.valid, l.dirty = false, false
	w.setLine(i, l)
}

// memStore is memWrite for a store of mapped memory: unjournaled, one
// that lies in a page is copied straight into it.
func (w *Wave) memStore(addr uint64, p []byte, why uint8) {
	if !w.jOn {
		if off := addr & (pageSize - 1); int(off)+len(p) <= pageSize {
			w.m.Mem.copyIn(w.m.Mem.page(addr>>pageBits, true), off, p)
			return
		}
	}
	w.memWrite(addr, p, why)
}

// memWrite writes memory, journaling the old bytes. why: 0 store, 1 atomic,
// 2 write-back.
func (w *Wave) memWrite(addr uint64, p []byte, why uint8) {
	if w.jOn {
		var e mEnt
		e.addr, e.n, e.why = addr, uint8(len(p)), why
		w.m.Mem.readRaw(addr, e.old[:len(p)])
		copy(e.new[:], p)
		w.j.m = append(w.j.m, e)
	}
	w.m.Mem.writeRaw(addr, p)
}

func (w *Wave) cacheSnapshot() []CacheLine {
	out := make([]CacheLine, 0, len(w.cache.lines))
	for i := range w.cache.lines {
		l := &w.cache.lines[i]
		s := i / w.cache.ways
		age := 0
		for k := 0; k < w.cache.ways; k++ {
			o := &w.cache.lines[s*w.cache.ways+k]
			if o.valid && o.use > l.use {
				age++
			}
		}
		c := CacheLine{Set: s, Way: i % w.cache.ways, Addr: l.tag, Valid: l.valid, Dirty: l.dirty,
			Volatile: l.vol, Age: age, LastUse: l.use, Data: l.data}
		w.lineDiff(&c)
		out = append(out, c)
	}
	return out
}

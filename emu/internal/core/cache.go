package core

import (
	"encoding/binary"
	"sync/atomic"
	"unsafe"
)

// The scalar data cache: 64-byte lines, set-associative, LRU. It sits
// between SMEM and memory and is not coherent with vector memory: a vector
// store to a cached address leaves the scalar line stale until it is
// invalidated.

const LineBytes = 64

type CachedLine struct {
	Tag   uint64 // line address
	Valid bool
	dirty bool
	vol   bool
	Use   uint64 // LRU stamp: larger is more recent
	data  [LineBytes]byte
}

type ScalarCache struct {
	Sets, Ways int
	Lines      []CachedLine // set-major
	Loads      []SloadMemo  // execSLoad's findings, by instruction index
}

func NewScalarCache(cfg CacheConfig) ScalarCache {
	ways := cfg.Ways
	if ways <= 0 {
		ways = 4
	}
	size := cfg.Size
	if size <= 0 {
		size = 16 << 10
	}
	sets := size / LineBytes / ways
	if sets < 1 {
		sets = 1
	}
	return ScalarCache{Sets: sets, Ways: ways, Lines: make([]CachedLine, sets*ways)}
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
	Data     [LineBytes]byte
	// DirtyDwords marks (bit k: dword k) the dwords of a dirty line that
	// differ from memory: what a write-back would write. StaleDwords marks
	// the dwords of a clean line that differ from memory: memory changed
	// underneath (a vector store), and a scalar load would read the old value.
	DirtyDwords, StaleDwords uint16
}

// set returns the set holding addr (without a division when the number of
// sets is a power of two, as it is by default).
func (c *ScalarCache) set(addr uint64) int {
	line, n := addr/LineBytes, uint64(c.Sets)
	if n&(n-1) == 0 {
		return int(line & (n - 1))
	}
	return int(line % n)
}

// SetLine replaces line i, journaling its old content.
func (w *Wave) SetLine(i int, l CachedLine) {
	if w.JOn {
		w.J.c = append(w.J.c, cEnt{idx: int32(i), old: w.Cache.Lines[i]})
	}
	w.Cache.Lines[i] = l
}

func (w *Wave) touch(i int) {
	u := w.bumpUse()
	if w.JOn {
		w.J.c = append(w.J.c, cEnt{idx: int32(i), old: w.Cache.Lines[i]})
	}
	w.Cache.Lines[i].Use = u
}

// bumpUse advances the cache's LRU clock and returns the new stamp.
func (w *Wave) bumpUse() uint64 {
	u := w.Get64(SlotUse) + 1
	if !w.JOn {
		w.S[SlotUse], w.S[SlotUse+1] = uint32(u), uint32(u>>32)
		return u
	}
	w.Ws64(SlotUse, u)
	return u
}

// Lookup returns the index of the valid line holding addr, or -1.
func (w *Wave) Lookup(addr uint64) int {
	tag := addr &^ (LineBytes - 1)
	k := w.Cache.set(addr) * w.Cache.Ways
	set := w.Cache.Lines[k : k+w.Cache.Ways]
	for i := range set {
		if set[i].Valid && set[i].Tag == tag {
			return k + i
		}
	}
	return -1
}

// Holds reports whether line i is valid and holds addr (lookup would
// return i: a line is in the cache at most once).
func (c *ScalarCache) Holds(i int, addr uint64) bool {
	l := &c.Lines[i]
	return l.Valid && l.Tag == addr&^(LineBytes-1)
}

// Dwords copies the dwords at addr (in the line) into dst.
func (l *CachedLine) Dwords(addr uint64, dst []uint32) {
	d := l.data[addr&(LineBytes-1):]
	if HostLE { // the line's data is private: plain loads are fine
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

// WriteBack writes a dirty line to memory and cleans it.
func (w *Wave) WriteBack(i int, glc bool) {
	l := w.Cache.Lines[i]
	if !l.Valid || !l.dirty {
		return
	}
	w.MemWrite(l.Tag, l.data[:], 2)
	w.CacheEvent(CacheEvent{Kind: CacheWriteBack, Addr: l.Tag, Set: i / w.Cache.Ways, Way: i % w.Cache.Ways, Dirty: true, GLC: glc})
	l.dirty = false
	w.SetLine(i, l)
}

// fill brings the line holding addr into the cache (evicting the LRU way,
// writing it back if dirty) and returns its index.
func (w *Wave) fill(addr uint64, glc bool) int {
	_, _, vol, _ := w.AllocAt(addr &^ (LineBytes - 1))
	return w.FillLine(addr, glc, vol, nil)
}

// FillLine is fill for a caller that knows the line's volatility (that of
// the allocation holding its address; false if none does) and perhaps its
// page of memory (nil: look it up).
func (w *Wave) FillLine(addr uint64, glc, vol bool, pg *[PageSize]byte) int {
	tag := addr &^ (LineBytes - 1)
	s := w.Cache.set(addr)
	victim := -1
	for k := 0; k < w.Cache.Ways; k++ {
		i := s*w.Cache.Ways + k
		l := &w.Cache.Lines[i]
		if !l.Valid {
			victim = i
			break
		}
		if victim < 0 || l.Use < w.Cache.Lines[victim].Use {
			victim = i
		}
	}
	if old := &w.Cache.Lines[victim]; old.Valid {
		if old.dirty {
			w.WriteBack(victim, glc)
		}
		w.CacheEvent(CacheEvent{Kind: CacheEvict, Addr: old.Tag, Set: s, Way: victim % w.Cache.Ways, Dirty: old.dirty, GLC: glc})
	}
	u := w.bumpUse()
	l := &w.Cache.Lines[victim]
	if w.JOn {
		w.J.c = append(w.J.c, cEnt{idx: int32(victim), old: *l})
	}
	l.Tag, l.Valid, l.dirty, l.vol, l.Use = tag, true, false, vol, u
	readLine(w.M.Mem, tag, pg, &l.data)
	if m := w.M; len(m.Filled) < len(w.Cache.Lines) {
		m.Filled = append(m.Filled, int32(victim))
	} else {
		m.ManyFill = true
	}
	return victim
}

// LoadLine makes the line holding addr present for a load and returns its
// index and whether the access hit. GLC loads use the miss-evict policy: the
// line is fetched again from memory (after writing back dirty data).
func (w *Wave) LoadLine(addr uint64, glc bool) (int, bool) {
	i := w.Lookup(addr)
	switch {
	case i >= 0 && !glc:
		w.touch(i)
		w.CacheEvent(CacheEvent{Kind: CacheHit, Addr: addr &^ (LineBytes - 1), Set: i / w.Cache.Ways, Way: i % w.Cache.Ways})
		return i, true
	case i >= 0:
		w.WriteBack(i, true)
		l := w.Cache.Lines[i]
		w.M.Mem.ReadRaw(l.Tag, l.data[:])
		w.SetLine(i, l)
		w.touch(i)
		w.CacheEvent(CacheEvent{Kind: CacheMiss, Addr: l.Tag, Set: i / w.Cache.Ways, Way: i % w.Cache.Ways, GLC: true})
		return i, false
	}
	i = w.fill(addr, glc)
	w.CacheEvent(CacheEvent{Kind: CacheMiss, Addr: addr &^ (LineBytes - 1), Set: i / w.Cache.Ways, Way: i % w.Cache.Ways, GLC: glc})
	return i, false
}

func (w *Wave) LineDword(i int, addr uint64) uint32 {
	off := addr & (LineBytes - 1)
	d := w.Cache.Lines[i].data[off : off+4]
	return uint32(d[0]) | uint32(d[1])<<8 | uint32(d[2])<<16 | uint32(d[3])<<24
}

// StoreLine prepares the line holding addr for a store and returns its index
// (-1 for a GLC store to an absent line). GLC=0 stores write-combine: the
// line is allocated (filled on a miss) and becomes dirty. GLC=1 stores write
// through to memory and update a present line without dirtying it.
func (w *Wave) StoreLine(addr uint64, glc bool) (int, bool) {
	i := w.Lookup(addr)
	hit := i >= 0
	if glc {
		return i, hit
	}
	if i < 0 {
		i = w.fill(addr, false)
		w.CacheEvent(CacheEvent{Kind: CacheMiss, Addr: addr &^ (LineBytes - 1), Set: i / w.Cache.Ways, Way: i % w.Cache.Ways})
	} else {
		w.CacheEvent(CacheEvent{Kind: CacheHit, Addr: addr &^ (LineBytes - 1), Set: i / w.Cache.Ways, Way: i % w.Cache.Ways})
	}
	w.touch(i)
	return i, hit
}

// StoreDword writes v at addr into line i (from storeLine).
func (w *Wave) StoreDword(i int, addr uint64, v uint32, glc bool) {
	var b [4]byte
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	if glc {
		w.MemWrite(addr, b[:], 0)
	}
	if i < 0 {
		return
	}
	l := w.Cache.Lines[i]
	copy(l.data[addr&(LineBytes-1):], b[:])
	if !glc {
		l.dirty = true
	}
	w.SetLine(i, l)
}

// Invalidate drops lines (all, or only volatile ones). Dirty data in a
// dropped line is lost, as on hardware; programs write back first.
func (w *Wave) Invalidate(volOnly bool) {
	for i := range w.Cache.Lines {
		l := w.Cache.Lines[i]
		if !l.Valid || volOnly && !l.vol {
			continue
		}
		w.CacheEvent(CacheEvent{Kind: CacheInvalidate, Addr: l.Tag, Set: i / w.Cache.Ways, Way: i % w.Cache.Ways, Dirty: l.dirty})
		l.Valid, l.dirty = false, false
		w.SetLine(i, l)
	}
}

// WriteBackAll writes back dirty lines (all, or only volatile ones).
func (w *Wave) WriteBackAll(volOnly bool) {
	for i := range w.Cache.Lines {
		l := &w.Cache.Lines[i]
		if l.Valid && l.dirty && (!volOnly || l.vol) {
			w.WriteBack(i, false)
		}
	}
}

// Discard drops the line holding addr without writing it back.
func (w *Wave) Discard(addr uint64) {
	i := w.Lookup(addr)
	if i < 0 {
		return
	}
	l := w.Cache.Lines[i]
	w.CacheEvent(CacheEvent{Kind: CacheDiscard, Addr: l.Tag, Set: i / w.Cache.Ways, Way: i % w.Cache.Ways, Dirty: l.dirty})
	l.Valid, l.dirty = false, false
	w.SetLine(i, l)
}

// MemStore is memWrite for a store of mapped memory: unjournaled, one
// that lies in a page is copied straight into it.
func (w *Wave) MemStore(addr uint64, p []byte, why uint8) {
	if !w.JOn {
		if off := addr & (PageSize - 1); int(off)+len(p) <= PageSize {
			w.M.Mem.copyIn(w.M.Mem.Page(addr>>PageBits, true), off, p)
			return
		}
	}
	w.MemWrite(addr, p, why)
}

// MemWrite writes memory, journaling the old bytes. why: 0 store, 1 atomic,
// 2 write-back.
func (w *Wave) MemWrite(addr uint64, p []byte, why uint8) {
	if w.JOn {
		var e mEnt
		e.Addr, e.N, e.Why = addr, uint8(len(p)), why
		w.M.Mem.ReadRaw(addr, e.Old[:len(p)])
		copy(e.New[:], p)
		w.J.M = append(w.J.M, e)
	}
	w.M.Mem.WriteRaw(addr, p)
}

func (w *Wave) CacheSnapshot() []CacheLine {
	out := make([]CacheLine, 0, len(w.Cache.Lines))
	for i := range w.Cache.Lines {
		l := &w.Cache.Lines[i]
		s := i / w.Cache.Ways
		age := 0
		for k := 0; k < w.Cache.Ways; k++ {
			o := &w.Cache.Lines[s*w.Cache.Ways+k]
			if o.Valid && o.Use > l.Use {
				age++
			}
		}
		c := CacheLine{Set: s, Way: i % w.Cache.Ways, Addr: l.Tag, Valid: l.Valid, Dirty: l.dirty,
			Volatile: l.vol, Age: age, LastUse: l.Use, Data: l.data}
		w.lineDiff(&c)
		out = append(out, c)
	}
	return out
}

// SloadMemo is what execSLoad found for one instruction: with SBASE
// holding base in mem, its access at addr lies in one allocation (for
// good: allocations never go away) and one cache line, whose volatility
// (that of the allocation holding the line's address) is vol, which way
// held last, and the line's page of mem once it exists (a page, once
// made, stays). A grid worker's waves read the same kernel arguments with
// the same instructions, so the next wave finds it here. (It says nothing
// about the line's data: other waves may have stored to it since.)
type SloadMemo struct {
	In   *Instr
	Mem  *Memory
	Base uint64
	Addr uint64
	Way  int
	Vol  bool
	Pg   *[PageSize]byte
}

// readLine reads the scalar-cache line at tag (line-aligned, so within one
// page) from mem into dst: a fixed-size copy from page pg of mem holding
// it (nil: looked up), with the same per-dword atomic loads as copyOut in
// a grid worker's view (other workers may be storing to the page).
// Unwritten pages read as zero.
func readLine(mem *Memory, tag uint64, pg *[PageSize]byte, dst *[LineBytes]byte) {
	if pg == nil {
		pg = mem.Page(tag>>PageBits, false)
	}
	if pg == nil {
		*dst = [LineBytes]byte{}
		return
	}
	off := tag & (PageSize - 1)
	if mem.local == nil || !HostLE {
		line := [LineBytes]byte(pg[off:]) // through a local: moves, no memmove call
		*dst = line
		return
	}
	src := (*[LineBytes / 4]uint32)(unsafe.Pointer(&pg[off]))
	for k := range src {
		binary.LittleEndian.PutUint32(dst[4*k:], atomic.LoadUint32(&src[k]))
	}
}

package core

import (
	"encoding/binary"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"sort"
	"sync"
	"sync/atomic"
)

const PageBits = 12
const PageSize = 1 << PageBits

// Allocation is a named, mapped range of the address space.
type Allocation struct {
	Name string
	Addr uint64
	Size uint64
	// Volatile marks memory whose scalar-cache lines are volatile: they are
	// the ones s_dcache_inv_vol and s_dcache_wb_vol act on.
	Volatile bool
}

// End is the first address after the allocation.
func (a Allocation) End() uint64 { return a.Addr + a.Size }

// Memory is a sparse, paged 64-bit address space made of named allocations.
// Bytes outside every allocation are unmapped: accessing them is a fault.
// Pages are allocated lazily; unwritten mapped memory reads as zero.
//
// A Memory is for one goroutine. A grid run gives each worker a view
// (groupView) that shares the page table — safe for concurrent use, see
// pageTable — and has its own LDS window; Map and Alloc are not called
// while views are in use.
type Memory struct {
	Allocs []Allocation // sorted by Addr, non-overlapping
	Pt     *pageTable
	Next   uint64 // next address Alloc hands out

	// local, in a worker's view, holds the pages of the LDS window
	// [SharedApertureBase, +64 KiB): each concurrent work-group has its own.
	local *[ldsPages]*[PageSize]byte

	pc [1 << pageCacheBits]pageCacheEnt // direct-mapped page cache (per view), by pcSlot

	wlog *PageLog // marks written pages while a Machine records (memory_cow.go)
	// gen counts the changes of wlog: page pointers cached across
	// accesses (opCache) are dropped when it moves, so that the first
	// write after recording starts is marked.
	Gen uint32
}

const pageCacheBits = 4

// PcSlot returns page pn's slot in the page cache: a Fibonacci hash of pn,
// so that pages a power of two apart (the same page of buffers 32 MiB
// apart) do not all fall in one slot, as they would indexed by pn's low
// bits.
func PcSlot(pn uint64) uint64 { return pn * 0x9E3779B97F4A7C15 >> (64 - pageCacheBits) }

type pageCacheEnt struct {
	pn uint64
	pg *[PageSize]byte
}

const ldsPages = 1 << 16 / PageSize

// NewMemory returns an empty address space. Alloc hands out addresses from
// 0x1_0000_0000 upward.
func NewMemory() *Memory {
	return &Memory{Pt: newPageTable(), Next: 1 << 32}
}

// GroupView returns a view of m for one grid worker: the same allocations
// and pages, a private LDS window, and its own page cache.
func (m *Memory) GroupView() *Memory {
	return &Memory{Allocs: m.Allocs, Pt: m.Pt, Next: m.Next, local: new([ldsPages]*[PageSize]byte)}
}

// LockAtomic serialises a read-modify-write of memory against every other
// view's (atomics from concurrently running work-groups).
func (m *Memory) LockAtomic()   { m.Pt.atom.Lock() }
func (m *Memory) UnlockAtomic() { m.Pt.atom.Unlock() }

// pageTable maps page numbers to pages for every view of a Memory. Reads of
// pages that exist take no lock: the directory (pageDir) is published
// through an atomic pointer, and its chunk slots and each chunk's entries
// are atomic pointers. Creating a chunk or a page takes mu.
type pageTable struct {
	mu   sync.Mutex
	Dir  atomic.Pointer[pageDir]
	atom sync.Mutex // serialises atomics (lockAtomic)
}

const ChunkBits = 8 // 256 pages (1 MiB) per chunk

type pageChunk [1 << ChunkBits]atomic.Pointer[[PageSize]byte]

// pageDir finds a page's chunk: by index in dense, the span of chunks that
// Alloc's allocations cover (they follow one another upward), else in
// sparse (code segments, the LDS window). sparse is copied on write; dense
// is reallocated only by reserve, which Map calls while no view is in use.
type pageDir struct {
	lo     uint64 // chunk number of dense[0]
	Dense  []atomic.Pointer[pageChunk]
	sparse map[uint64]*pageChunk
}

// MaxDense bounds the dense span (in chunks, 64 GiB of address space):
// beyond it, chunks go to the map.
const MaxDense = 1 << 16

// chunk returns chunk k, or nil.
func (d *pageDir) chunk(k uint64) *pageChunk {
	if i := k - d.lo; i < uint64(len(d.Dense)) {
		return d.Dense[i].Load()
	}
	return d.sparse[k]
}

func newPageTable() *pageTable {
	pt := &pageTable{}
	pt.Dir.Store(&pageDir{sparse: map[uint64]*pageChunk{}})
	return pt
}

// Get returns page pn, creating it when create is set (else nil if absent).
func (pt *pageTable) Get(pn uint64, create bool) *[PageSize]byte {
	if c := pt.Dir.Load().chunk(pn >> ChunkBits); c != nil {
		if p := c[pn&(1<<ChunkBits-1)].Load(); p != nil || !create {
			return p
		}
	} else if !create {
		return nil
	}
	pt.mu.Lock()
	defer pt.mu.Unlock()
	e := pt.entry(pn)
	p := e.Load()
	if p == nil {
		p = new([PageSize]byte)
		e.Store(p)
	}
	return p
}

// entry returns page pn's slot, creating its chunk if need be. pt.mu is
// held.
func (pt *pageTable) entry(pn uint64) *atomic.Pointer[[PageSize]byte] {
	d := pt.Dir.Load()
	k := pn >> ChunkBits
	c := d.chunk(k)
	if c == nil {
		c = new(pageChunk)
		if i := k - d.lo; i < uint64(len(d.Dense)) {
			d.Dense[i].Store(c)
		} else {
			nd := &pageDir{lo: d.lo, Dense: d.Dense, sparse: maps.Clone(d.sparse)}
			nd.sparse[k] = c
			pt.Dir.Store(nd)
		}
	}
	return &c[pn&(1<<ChunkBits-1)]
}

// reserve widens the dense span to cover the chunks of [addr, end), unless
// the span would exceed maxDense chunks; chunks that exist move from the
// map. Not for use while other goroutines access the table.
func (pt *pageTable) reserve(addr, end uint64) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	d := pt.Dir.Load()
	lo, hi := addr>>(PageBits+ChunkBits), (end-1)>>(PageBits+ChunkBits)+1
	if len(d.Dense) > 0 {
		lo, hi = min(lo, d.lo), max(hi, d.lo+uint64(len(d.Dense)))
	}
	if hi-lo > MaxDense {
		return
	}
	nd := &pageDir{lo: lo, Dense: make([]atomic.Pointer[pageChunk], hi-lo), sparse: map[uint64]*pageChunk{}}
	for i := range d.Dense {
		nd.Dense[d.lo-lo+uint64(i)].Store(d.Dense[i].Load())
	}
	for k, c := range d.sparse {
		if i := k - lo; i < hi-lo {
			nd.Dense[i].Store(c)
		} else {
			nd.sparse[k] = c
		}
	}
	pt.Dir.Store(nd)
}

// Map maps [addr, addr+size) under name. It fails on an empty or
// overlapping range or one that wraps the address space.
func (m *Memory) Map(name string, addr, size uint64, volatile bool) error {
	if size == 0 || addr+size < addr {
		return fmt.Errorf("emu: map %q: bad range 0x%x+0x%x", name, addr, size)
	}
	i := sort.Search(len(m.Allocs), func(i int) bool { return m.Allocs[i].Addr >= addr })
	if i > 0 && m.Allocs[i-1].End() > addr || i < len(m.Allocs) && m.Allocs[i].Addr < addr+size {
		return fmt.Errorf("emu: map %q: 0x%x+0x%x overlaps an allocation", name, addr, size)
	}
	m.Allocs = append(m.Allocs, Allocation{})
	copy(m.Allocs[i+1:], m.Allocs[i:])
	m.Allocs[i] = Allocation{Name: name, Addr: addr, Size: size, Volatile: volatile}
	return nil
}

// Alloc maps size bytes under name at the next free address aligned to
// align (a power of two; 0 means 256) and returns the address.
func (m *Memory) Alloc(name string, size, align uint64) (uint64, error) {
	if align == 0 {
		align = 256
	}
	if align&(align-1) != 0 {
		return 0, fmt.Errorf("emu: alloc %q: alignment %d is not a power of two", name, align)
	}
	addr := (m.Next + align - 1) &^ (align - 1)
	for _, a := range m.Allocs {
		if a.End() > addr && a.Addr < addr+size {
			addr = (a.End() + align - 1) &^ (align - 1)
		}
	}
	if err := m.Map(name, addr, size, false); err != nil {
		return 0, err
	}
	m.Pt.reserve(addr, addr+size)
	m.Next = addr + size
	return addr, nil
}

// Allocations lists the mapped ranges in address order.
func (m *Memory) Allocations() []Allocation { return append([]Allocation(nil), m.Allocs...) }

// Lookup returns the allocation holding addr.
func (m *Memory) Lookup(addr uint64) (Allocation, bool) {
	// A binary search for the first allocation that ends after addr,
	// written out: sort.Search's closure does not inline, and a wave's
	// scalar loads look up the kernarg and the dispatch packet in turn.
	lo, hi := 0, len(m.Allocs)
	for lo < hi {
		if mid := int(uint(lo+hi) >> 1); m.Allocs[mid].End() > addr {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	if lo < len(m.Allocs) && m.Allocs[lo].Addr <= addr {
		return m.Allocs[lo], true
	}
	return Allocation{}, false
}

// Mapped reports whether every byte of [addr, addr+n) is mapped, and if not
// the first unmapped address. A range that runs past 2^64 is not mapped:
// no allocation holds the byte at 2^64-1 (Map refuses ranges that wrap),
// so the scan stops there at the latest.
func (m *Memory) Mapped(addr uint64, n int) (bool, uint64) {
	if n <= 0 {
		return true, 0
	}
	last, carry := bits.Add64(addr, uint64(n-1), 0)
	if carry != 0 {
		last = math.MaxUint64
	}
	for a := addr; ; {
		al, ok := m.Lookup(a)
		if !ok {
			return false, a
		}
		if a = al.End(); last < a {
			return true, 0
		}
	}
}

// Tracking reports whether a recording marks this memory's written pages
// (its page log): a page pointer cached for stores would skip the mark.
func (m *Memory) Tracking() bool { return m.wlog != nil }

func (m *Memory) Page(pn uint64, create bool) *[PageSize]byte {
	if create && m.wlog != nil {
		m.wlog.mark(m, pn)
	}
	c := &m.pc[PcSlot(pn)]
	if c.pg != nil && c.pn == pn {
		return c.pg
	}
	var p *[PageSize]byte
	if k := pn - SharedApertureBase>>PageBits; m.local != nil && k < ldsPages {
		p = m.local[k]
		if p == nil {
			if !create {
				return nil
			}
			p = new([PageSize]byte)
			m.local[k] = p
		}
	} else if p = m.Pt.Get(pn, create); p == nil {
		return nil
	}
	c.pn, c.pg = pn, p
	return p
}

// Read fills p from addr. It fails, reading nothing, if any byte is
// unmapped.
func (m *Memory) Read(addr uint64, p []byte) error {
	if err := m.checkMapped(addr, len(p), false); err != nil {
		return err
	}
	m.ReadRaw(addr, p)
	return nil
}

// ReadRaw reads without checking the mapping; unmapped bytes read as zero.
func (m *Memory) ReadRaw(addr uint64, p []byte) {
	for len(p) > 0 {
		off := addr & (PageSize - 1)
		n := min(len(p), int(PageSize-off))
		if pg := m.Page(addr>>PageBits, false); pg != nil {
			if &pg[off] != &p[0] { // else p is the page (Adopt)
				m.copyOut(p[:n], pg, off)
			}
		} else {
			clear(p[:n])
		}
		p, addr = p[n:], addr+uint64(n)
	}
}

// Write stores p at addr. It fails, writing nothing, if any byte is
// unmapped.
func (m *Memory) Write(addr uint64, p []byte) error {
	if err := m.checkMapped(addr, len(p), true); err != nil {
		return err
	}
	m.WriteRaw(addr, p)
	return nil
}

// checkMapped returns the fault of an access of n bytes at addr if any of
// them is unmapped.
func (m *Memory) checkMapped(addr uint64, n int, write bool) error {
	if ok, bad := m.Mapped(addr, n); !ok {
		return &Fault{PC: 0, Lane: -1, Addr: bad, Size: n, Write: write, Reason: "unmapped"}
	}
	return nil
}

// WriteRaw writes bytes that are mapped; bytes outside every allocation are
// dropped (cache line write-backs may cover them).
func (m *Memory) WriteRaw(addr uint64, p []byte) {
	for i := 0; i < len(p); {
		a := addr + uint64(i)
		off := a & (PageSize - 1)
		n := min(len(p)-i, int(PageSize-off))
		if ok, _ := m.Mapped(a, n); ok {
			m.copyIn(m.Page(a>>PageBits, true), off, p[i:i+n])
		} else {
			for k := 0; k < n; k++ {
				if ok, _ := m.Mapped(a+uint64(k), 1); ok {
					m.Page((a+uint64(k))>>PageBits, true)[(a+uint64(k))&(PageSize-1)] = p[i+k]
				}
			}
		}
		i += n
	}
}

// Zero makes [addr, addr+n), all of it mapped, read as zero: it clears
// the pages that exist, with plain stores, and creates none. Only for
// memory no other goroutine accesses meanwhile (a worker's LDS window).
func (m *Memory) Zero(addr uint64, n int) {
	for n > 0 {
		off := addr & (PageSize - 1)
		c := min(n, int(PageSize-off))
		if pg := m.Page(addr>>PageBits, false); pg != nil {
			clear(pg[off : off+uint64(c)])
		}
		addr, n = addr+uint64(c), n-c
	}
}

// ReadU32 reads a little-endian dword.
func (m *Memory) ReadU32(addr uint64) (uint32, error) {
	var b [4]byte
	if err := m.Read(addr, b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b[:]), nil
}

// WriteU32 writes a little-endian dword.
func (m *Memory) WriteU32(addr uint64, v uint32) error {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], v)
	return m.Write(addr, b[:])
}

// ReadU64 reads a little-endian qword.
func (m *Memory) ReadU64(addr uint64) (uint64, error) {
	var b [8]byte
	if err := m.Read(addr, b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]), nil
}

// WriteU64 writes a little-endian qword.
func (m *Memory) WriteU64(addr uint64, v uint64) error {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	return m.Write(addr, b[:])
}

// The flat address space's apertures: the high dword of their bases is what
// src_shared_base and src_private_base read on GFX9 (apertureValue) and what
// amd_queue_t carries for GFX8. Each aperture spans 4 GiB.
const (
	SharedApertureBase  uint64 = 0x1_0000 << 32
	PrivateApertureBase uint64 = 0x2_0000 << 32
	ApertureSize        uint64 = 1 << 32
)

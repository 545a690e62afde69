package core

import (
	"sync/atomic"
	"unsafe"
)

// Adopt stores p at addr like Write, but the pages that p covers whole are
// not copied: they become p's own bytes (a slice converts to an array
// pointer without copying), so that the memory and p share them from then
// on. The caller gives p, writable memory, up to the memory; reading the
// range back into p (Read) copies only the pages that were not adopted. A
// grid run adopts its input buffers this way, neither copying them nor
// holding them twice.
//
// Pages that exist already, and the partial pages at either end of p, are
// copied, as are pages whose bytes are not dword-aligned in p (the shared
// memory's atomic accesses need aligned words). It fails, storing nothing,
// if any byte is unmapped.
func (m *Memory) Adopt(addr uint64, p []byte) error {
	if err := m.checkMapped(addr, len(p), true); err != nil {
		return err
	}
	for len(p) > 0 {
		n := min(int(PageSize-addr&(PageSize-1)), len(p))
		if n < PageSize || !m.adoptPage(addr, p[:n]) {
			m.WriteRaw(addr, p[:n])
		}
		addr, p = addr+uint64(n), p[n:]
	}
	return nil
}

// adoptPage makes pg, a page-aligned page of p, the page at addr unless
// that page exists or pg is not dword-aligned, and faults pg in for
// writing (prefault).
func (m *Memory) adoptPage(addr uint64, pg []byte) bool {
	if m.local != nil && addr>>PageBits-SharedApertureBase>>PageBits < ldsPages ||
		uintptr(unsafe.Pointer(&pg[0]))&3 != 0 {
		return false
	}
	if !m.Pt.adopt(addr>>PageBits, (*[PageSize]byte)(pg)) {
		return false
	}
	prefault(pg)
	return true
}

// prefault has the host map page pg writable now, keeping its bytes. The
// pages of a fresh buffer (a zero fill) are mapped on first access; a
// first read (a nil check will do) maps the shared zero page, and the
// first write must then copy it and flush the TLB of every CPU the process
// runs on, in the middle of the run, once per page. An atomic add of zero
// is a write that changes nothing. (Faulting a fresh buffer in with one
// madvise(MADV_POPULATE_WRITE) was no faster.)
func prefault(pg []byte) {
	atomic.AddUint32((*uint32)(unsafe.Pointer(&pg[0])), 0)
}

// adopt installs p as page pn unless the page exists.
func (pt *pageTable) adopt(pn uint64, p *[PageSize]byte) bool {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	e := pt.entry(pn)
	if e.Load() != nil {
		return false
	}
	e.Store(p)
	return true
}

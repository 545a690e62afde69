package emu

import "unsafe"

// opCache is what an operation's whole-wave path last touched in a
// Memory: an allocation and a page, and the shape that moved the wave.
// Allocations and pages never go away, and a worker's waves share its
// operations (and one Memory view), so the next wave, whose addresses
// usually follow, finds them here.
type opCache struct {
	mem    *Memory
	lo, hi uint64 // the allocation
	pn     uint64
	pg     *[pageSize]byte
	gen    uint32 // mem.gen when pg was cached
	shape  uint8  // the shape that took the last wave (shapeRun at first)
	probe  uint8  // waves that started past shapeRun, counted for fastWave's look back
	quick  bool   // the last wave was a run quickRun may take the next one of (vmem_run.go)
}

// covers reports whether [lo, end) lies in one allocation of mem, caching
// it.
func (c *opCache) covers(mem *Memory, lo, end uint64) bool {
	if c.mem == mem && lo >= c.lo && end <= c.hi && lo <= end {
		return true
	}
	a, ok := mem.Lookup(lo)
	if !ok || end > a.End() || end < lo {
		return false
	}
	*c = opCache{mem: mem, lo: a.Addr, hi: a.End(), pn: ^uint64(0), shape: c.shape, probe: c.probe, quick: c.quick}
	return true
}

// page returns page pn of the Memory covers last accepted: created for a
// store, zeroPage for a load of one never written (not cached: a store
// may create it).
func (c *opCache) page(pn uint64, store bool) *[pageSize]byte {
	if pn == c.pn && c.gen == c.mem.gen {
		return c.pg
	}
	pg := c.mem.page(pn, store)
	if pg == nil {
		return &zeroPage
	}
	c.pn, c.pg, c.gen = pn, pg, c.mem.gen
	return pg
}

// inApertures reports whether [lo, end) meets the LDS or private aperture.
func inApertures(lo, end uint64) bool {
	return lo < SharedApertureBase+apertureSize && end > SharedApertureBase ||
		lo < PrivateApertureBase+apertureSize && end > PrivateApertureBase
}

// onePage points ptr at the lanes' bytes, all in the page of lo.
func (c *opCache) onePage(ad []uint64, lo uint64, store bool, ptr *lanePtrs) {
	pa, ps := unsafe.Pointer(c.page(lo>>pageBits, store)), lo&^(pageSize-1)
	p := ptr[:len(ad)]
	for l, a := range ad {
		p[l] = unsafe.Add(pa, a-ps)
	}
}

// pointLanes points ptr at each lane's bytes in its page, looking a page
// up only where the lanes move to another. It reports false if an access
// crosses a page.
func (c *opCache) pointLanes(ad []uint64, size uint64, store bool, ptr *lanePtrs) bool {
	pn, pg := ^uint64(0), unsafe.Pointer(nil)
	p := ptr[:len(ad)]
	for l, a := range ad {
		po := a & (pageSize - 1)
		if po+size > pageSize {
			return false
		}
		if a>>pageBits != pn {
			pn = a >> pageBits
			pg = unsafe.Pointer(c.page(pn, store))
		}
		p[l] = unsafe.Add(pg, po)
	}
	return true
}

// loadPage reads each lane's dwords into dst from page pg, whose first
// byte is at ps.
func loadPage(dst [][64]uint32, pg unsafe.Pointer, ps uint64, ad []uint64) {
	for k := range dst {
		d, o := dst[k][:len(ad)], uint64(4*k)-ps
		for l, a := range ad {
			d[l] = *(*uint32)(unsafe.Add(pg, a+o))
		}
	}
}

// storePage writes the lanes' dwords from the registers src, lane after
// lane, into page pg, whose first byte is at ps; unless full, only exec's
// lanes.
func storePage(pg unsafe.Pointer, ps uint64, ad []uint64, src [][64]uint32, exec uint64, full bool) {
	if full && len(src) == 4 {
		s := (*[4][64]uint32)(src)
		for l, a := range ad {
			storeQuad(unsafe.Add(pg, a-ps), s, l)
		}
		return
	}
	if full {
		for l, a := range ad {
			p := unsafe.Add(pg, a-ps)
			for k := range src {
				*(*uint32)(unsafe.Add(p, 4*k)) = src[k][l]
			}
		}
		return
	}
	for ; exec != 0; exec &= exec - 1 {
		l := tz(exec) & 63
		p := unsafe.Add(pg, ad[l]-ps)
		for k := range src {
			*(*uint32)(unsafe.Add(p, 4*k)) = src[k][l]
		}
	}
}

// loadPages reads each lane's dword into dst, looking a page up only where
// the lanes move to another.
func (c *opCache) loadPages(dst *[64]uint32, ad []uint64) {
	pn, pg := ^uint64(0), unsafe.Pointer(nil)
	d := dst[:len(ad)]
	for l, a := range ad {
		if a>>pageBits != pn {
			pn = a >> pageBits
			pg = unsafe.Pointer(c.page(pn, false))
		}
		d[l] = *(*uint32)(unsafe.Add(pg, a&(pageSize-1)))
	}
}

// storePages writes each lane's dword from src, lane after lane (unless
// full, only exec's lanes), looking a page up only where the lanes move to
// another.
func (c *opCache) storePages(ad []uint64, src *[64]uint32, exec uint64, full bool) {
	pn, pg := ^uint64(0), unsafe.Pointer(nil)
	if full {
		s := src[:len(ad)]
		for l, a := range ad {
			if a>>pageBits != pn {
				pn = a >> pageBits
				pg = unsafe.Pointer(c.page(pn, true))
			}
			*(*uint32)(unsafe.Add(pg, a&(pageSize-1))) = s[l]
		}
		return
	}
	for ; exec != 0; exec &= exec - 1 {
		l := tz(exec) & 63
		a := ad[l]
		if a>>pageBits != pn {
			pn = a >> pageBits
			pg = unsafe.Pointer(c.page(pn, true))
		}
		*(*uint32)(unsafe.Add(pg, a&(pageSize-1))) = src[l]
	}
}

package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"unsafe"
)

// Covers reports whether [lo, end) lies in one allocation of mem, caching
// it.
func Covers(c *ref.OpCache, mem *core.Memory, lo, end uint64) bool {
	if c.Mem == mem && lo >= c.Lo && end <= c.Hi && lo <= end {
		return true
	}
	a, ok := mem.Lookup(lo)
	if !ok || end > a.End() || end < lo {
		return false
	}
	*c = ref.OpCache{Mem: mem, Lo: a.Addr, Hi: a.End(), Pn: ^uint64(0), Shape: c.Shape, Probe: c.Probe, Quick: c.Quick}
	return true
}

// Page returns page pn of the Memory covers last accepted: created for a
// store, zeroPage for a load of one never written (not cached: a store
// may create it).
func Page(c *ref.OpCache, pn uint64, store bool) *[core.PageSize]byte {
	if pn == c.Pn && c.Gen == c.Mem.Gen {
		return c.Pg
	}
	pg := c.Mem.Page(pn, store)
	if pg == nil {
		return &zeroPage
	}
	c.Pn, c.Pg, c.Gen = pn, pg, c.Mem.Gen
	return pg
}

// inApertures reports whether [lo, end) meets the LDS or private aperture.
func inApertures(lo, end uint64) bool {
	return lo < core.SharedApertureBase+core.ApertureSize && end > core.SharedApertureBase ||
		lo < core.PrivateApertureBase+core.ApertureSize && end > core.PrivateApertureBase
}

// cacheOnePage points ptr at the lanes' bytes, all in the page of lo.
func cacheOnePage(c *ref.OpCache, ad []uint64, lo uint64, store bool, ptr *lanePtrs) {
	pa, ps := unsafe.Pointer(Page(c, lo>>core.PageBits, store)), lo&^(core.PageSize-1)
	p := ptr[:len(ad)]
	for l, a := range ad {
		p[l] = unsafe.Add(pa, a-ps)
	}
}

// pointLanes points ptr at each lane's bytes in its page, looking a page
// up only where the lanes move to another. It reports false if an access
// crosses a page.
func pointLanes(c *ref.OpCache, ad []uint64, size uint64, store bool, ptr *lanePtrs) bool {
	pn, pg := ^uint64(0), unsafe.Pointer(nil)
	p := ptr[:len(ad)]
	for l, a := range ad {
		po := a & (core.PageSize - 1)
		if po+size > core.PageSize {
			return false
		}
		if a>>core.PageBits != pn {
			pn = a >> core.PageBits
			pg = unsafe.Pointer(Page(c, pn, store))
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
		l := core.Tz(exec) & 63
		p := unsafe.Add(pg, ad[l]-ps)
		for k := range src {
			*(*uint32)(unsafe.Add(p, 4*k)) = src[k][l]
		}
	}
}

// loadPages reads each lane's dword into dst. A lane's page comes from
// lp when the lane read that page last time, else from the op's cache or
// memory (and is kept in lp unless it does not exist yet: it reads as
// zeroPage until a store creates it).
func loadPages(c *ref.OpCache, lp *ref.LanePages, dst *[64]uint32, ad []uint64) {
	if lp.Mem != c.Mem || lp.Gen != c.Mem.Gen {
		*lp = ref.LanePages{Mem: c.Mem, Gen: c.Mem.Gen}
	}
	d := dst[:len(ad)]
	for l, a := range ad {
		pn, pg := a>>core.PageBits, lp.Pg[l&63]
		if pg == nil || lp.Pn[l&63] != pn {
			if pg = Page(c, pn, false); pg != &zeroPage {
				lp.Pn[l&63], lp.Pg[l&63] = pn, pg
			}
		}
		d[l] = *(*uint32)(unsafe.Add(unsafe.Pointer(pg), a&(core.PageSize-1)))
	}
}

// storePages writes each lane's dword from src, lane after lane (unless
// full, only exec's lanes). While no recording tracks the memory's pages,
// a lane's page comes from lp as in loadPages; otherwise every page is
// looked up (the lookup marks it for the page log), once per run of lanes
// in one page.
func storePages(c *ref.OpCache, lp *ref.LanePages, ad []uint64, src *[64]uint32, exec uint64, full bool) {
	if full {
		exec = ^uint64(0) >> (64 - len(ad))
	}
	if c.Mem.Tracking() {
		pn, pg := ^uint64(0), unsafe.Pointer(nil)
		for ; exec != 0; exec &= exec - 1 {
			l := core.Tz(exec) & 63
			a := ad[l]
			if a>>core.PageBits != pn {
				pn = a >> core.PageBits
				pg = unsafe.Pointer(Page(c, pn, true))
			}
			*(*uint32)(unsafe.Add(pg, a&(core.PageSize-1))) = src[l]
		}
		return
	}
	if lp.Mem != c.Mem || lp.Gen != c.Mem.Gen {
		*lp = ref.LanePages{Mem: c.Mem, Gen: c.Mem.Gen}
	}
	for ; exec != 0; exec &= exec - 1 {
		l := core.Tz(exec) & 63
		a := ad[l]
		pn, pg := a>>core.PageBits, lp.Pg[l]
		if pg == nil || lp.Pn[l] != pn {
			pg = Page(c, pn, true)
			lp.Pn[l], lp.Pg[l] = pn, pg
		}
		*(*uint32)(unsafe.Add(unsafe.Pointer(pg), a&(core.PageSize-1))) = src[l]
	}
}

package emu

// The whole-wave path of vector memory: a load or store of one of
// fastRun's shapes (GLOBAL, FLAT, SCRATCH, the private segment V#) that no
// lane can fail — every active lane's access aligned, in one page and
// inside one mapped allocation, checked once from the lowest and highest
// address (and outside the apertures for FLAT, inside the V#'s range for
// MUBUF) — moves its lanes in loops with no per-lane checks. Inactive
// lanes point at the unit's sink, so the loops run all 64 lanes without
// branches: a load's inactive lanes read junk into result slots Complete
// never writes back (it writes under EXEC), a store's write the sink.
// Stores go lane after lane, so overlapping lanes leave what the general
// path leaves. Moves are plain loads and stores of the access's width
// (memory_shared.go: why that is sound for pages other workers share).

import "unsafe"

// zeroPage stands for pages never written: they read as zero.
var zeroPage [pageSize]byte

// lanePtrs is where each lane's access starts.
type lanePtrs [64]unsafe.Pointer

// fastWave runs a load or store of a fastRun shape as a whole wave (base
// and limit are fastRun's). It reports false, having moved nothing, when
// some active lane could not take fastRun's single-page step: its access
// unaligned, crossing a page, outside the allocation that holds the lowest
// address, in an aperture (FLAT) or past the private V#'s range.
func (u *vmemUnit) fastWave(w *Wave, o *vmOp, exec uint64, c *memCtx, spec int, base, limit uint64) bool {
	if exec == 0 {
		return true // nothing to move (and no page to create)
	}
	size := uint64(c.size)
	if size < 4 || size == 4 && c.ndw == 1 {
		if a0, step, ok := laneRun(w, o, spec, base, limit, size); ok && u.moveRun(w, o, exec, c, spec, base, limit, a0, step) {
			return true
		}
	}
	var ad [64]uint64
	waveAddrs(w, o, spec, base, limit, &ad)
	fits := func(lo, hi, or uint64) bool { return waveFits(w, o, spec, base, limit, size, lo, hi, or) }
	lo, hi, or, ok := strideSpan(&ad)
	if !ok || !fits(lo, hi, or) {
		if lo, hi, or = laneSpan(&ad, exec); !fits(lo, hi, or) {
			return false
		}
	}
	end := hi + size
	store := o.kind == vmStore
	var ptr lanePtrs
	if lo>>pageBits == (end-1)>>pageBits {
		o.last.onePage(&ad, lo, exec, store, unsafe.Pointer(&u.sink), &ptr)
	} else if !o.last.pointLanes(&ad, exec, size, store, unsafe.Pointer(&u.sink), &ptr) {
		return false
	}
	if store {
		storeWave(w, o, c.size, &ptr)
	} else {
		loadWave(o, c, &ptr)
	}
	return true
}

// waveFits reports whether accesses of size bytes at lo…hi (the last
// one's start), their addresses ORed in or, are aligned, inside the
// allocation o.last covers (cached), outside the apertures (FLAT) and
// inside the private V#'s range.
func waveFits(w *Wave, o *vmOp, spec int, base, limit, size, lo, hi, or uint64) bool {
	end := hi + size
	return end >= hi && (size < 4 || or&3 == 0) && o.last.covers(w.m.Mem, lo, end) &&
		(spec != specFlat || !inApertures(lo, end)) && (spec != specPrivate || lo >= base && hi-base < limit)
}

// zeroLanes stands for an absent vaddr.
var zeroLanes [64]uint32

// vaddrLanes returns the lanes' vaddr (the low dwords of 64-bit ones).
func vaddrLanes(w *Wave, o *vmOp, spec int) *[64]uint32 {
	if o.vaddr >= 0 && (spec != specPrivate || o.offen) {
		return &w.v[o.vaddr]
	}
	return &zeroLanes
}

// waveAddrs computes every lane's address, active or not, as fastRun does
// (fastOK keeps vaddr's registers in range).
func waveAddrs(w *Wave, o *vmOp, spec int, base, limit uint64, ad *[64]uint64) {
	off := uint64(o.offset)
	v0 := vaddrLanes(w, o, spec)
	switch spec {
	case specGlobalS:
		base += off
		for l, x := range v0 {
			ad[l] = base + uint64(x)
		}
	case specScratch: // limit: the saddr value
		p0 := uint32(limit) + uint32(off)
		for l, x := range v0 {
			p := p0 + x
			ad[l] = base + uint64(p&3) + 4*uint64(l) + 256*uint64(p>>2)
		}
	case specPrivate:
		for l, x := range v0 {
			aoff := uint32(off) + x
			ad[l] = base + uint64(aoff&3+uint32(l)<<2+aoff>>2<<8)
		}
	default:
		v1 := &w.v[o.vaddr+1]
		for l, x := range v0 {
			ad[l] = uint64(x) | uint64(v1[l])<<32 + off
		}
	}
}

// strideSpan is laneSpan's cheaper first try for the usual shape
// (consecutive elements, a uniform private offset): when every lane's
// address, active or not, is ad[0] + lane·step, it returns their span and
// ad[0] | step for the alignment check. The step is at most 4 GiB either
// way and the progression must not wrap around the address space, so
// every lane lies between the first and the last.
func strideSpan(ad *[64]uint64) (lo, hi, or uint64, ok bool) {
	step := ad[1] - ad[0]
	a, x := ad[0], uint64(0)
	for _, b := range ad {
		x |= a ^ b
		a += step
	}
	lo, hi = min(ad[0], ad[63]), max(ad[0], ad[63])
	mag := min(step, -step)
	return lo, hi, ad[0] | step, x == 0 && mag <= 1<<32 && hi-lo == 63*mag
}

// laneSpan returns the lowest and highest address of the active lanes and
// the OR of them all (its low bits are the alignment check).
func laneSpan(ad *[64]uint64, exec uint64) (lo, hi, or uint64) {
	lo = ^uint64(0)
	if exec == ^uint64(0) {
		for _, a := range ad {
			lo, hi, or = min(lo, a), max(hi, a), or|a
		}
		return lo, hi, or
	}
	for m := exec; m != 0; m &= m - 1 {
		a := ad[tz(m)&63]
		lo, hi, or = min(lo, a), max(hi, a), or|a
	}
	return lo, hi, or
}

// opCache is what an operation's whole-wave path last touched in a
// Memory: an allocation and a page. Allocations and pages never go away,
// and a worker's waves share its operations (and one Memory view), so the
// next wave, whose addresses usually follow, finds them here.
type opCache struct {
	mem    *Memory
	lo, hi uint64 // the allocation
	pn     uint64
	pg     *[pageSize]byte
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
	*c = opCache{mem: mem, lo: a.Addr, hi: a.End(), pn: ^uint64(0)}
	return true
}

// page returns page pn of the Memory covers last accepted: created for a
// store, zeroPage for a load of one never written (not cached: a store
// may create it).
func (c *opCache) page(pn uint64, store bool) *[pageSize]byte {
	if pn == c.pn {
		return c.pg
	}
	pg := c.mem.page(pn, store)
	if pg == nil {
		return &zeroPage
	}
	c.pn, c.pg = pn, pg
	return pg
}

// inApertures reports whether [lo, end) meets the LDS or private aperture.
func inApertures(lo, end uint64) bool {
	return lo < SharedApertureBase+apertureSize && end > SharedApertureBase ||
		lo < PrivateApertureBase+apertureSize && end > PrivateApertureBase
}

// onePage sets ptr when every active lane is in the page of lo: inactive
// lanes point at the sink (first in the page like the others: their
// addresses may be anything).
func (c *opCache) onePage(ad *[64]uint64, lo, exec uint64, store bool, sink unsafe.Pointer, ptr *lanePtrs) {
	pa, ps := unsafe.Pointer(c.page(lo>>pageBits, store)), lo&^(pageSize-1)
	for l, a := range ad {
		ptr[l] = unsafe.Add(pa, (a-ps)&(pageSize-1))
	}
	for m := ^exec; m != 0; m &= m - 1 {
		ptr[tz(m)&63] = sink
	}
}

// pointLanes sets ptr: each active lane's bytes in its page, each inactive
// lane's the sink. It reports false if an access crosses a page.
func (c *opCache) pointLanes(ad *[64]uint64, exec, size uint64, store bool, sink unsafe.Pointer, ptr *lanePtrs) bool {
	for l, a := range ad {
		if exec>>l&1 == 0 {
			ptr[l] = sink
			continue
		}
		po := a & (pageSize - 1)
		if po+size > pageSize {
			return false
		}
		ptr[l] = unsafe.Pointer(&c.page(a>>pageBits, store)[po])
	}
	return true
}

// loadWave reads every lane into the load's result: a byte or short
// zero- or sign-extended, or each dword.
func loadWave(o *vmOp, c *memCtx, ptr *lanePtrs) {
	d := &c.res.data
	switch {
	case c.size == 1 && o.signed:
		loadLanes[int8](&d[0], ptr, 0)
	case c.size == 1:
		loadLanes[uint8](&d[0], ptr, 0)
	case c.size == 2 && o.signed:
		loadLanes[int16](&d[0], ptr, 0)
	case c.size == 2:
		loadLanes[uint16](&d[0], ptr, 0)
	default:
		for k := range min(c.ndw, 4) {
			loadLanes[uint32](&d[k], ptr, uintptr(4*k))
		}
	}
}

// loadLanes reads a T at off from each lane's pointer, extended to 32 bits
// (signed types sign-extend).
func loadLanes[T int8 | uint8 | int16 | uint16 | uint32](dst *[64]uint32, ptr *lanePtrs, off uintptr) {
	for l, p := range ptr {
		dst[l] = uint32(*(*T)(unsafe.Add(p, off)))
	}
}

// storeWave writes every lane's data: the low (or, for _d16_hi, high)
// byte or short of vdata, or size/4 dwords from vdata up, lane after lane
// as the general path does (overlapping lanes: the highest wins).
func storeWave(w *Wave, o *vmOp, size int, ptr *lanePtrs) {
	src := &w.v[o.vdata]
	shift := uint(0)
	if o.d16hi {
		shift = 16
	}
	switch size {
	case 1:
		storeLanes[uint8](ptr, src, shift)
	case 2:
		storeLanes[uint16](ptr, src, shift)
	case 4:
		storeLanes[uint32](ptr, src, 0)
	default:
		storeDwords(ptr, w.v[o.vdata:o.vdata+size/4])
	}
}

// storeLanes writes each lane's src shifted right by shift, as a T.
func storeLanes[T uint8 | uint16 | uint32](ptr *lanePtrs, src *[64]uint32, shift uint) {
	for l, p := range ptr {
		*(*T)(p) = T(src[l] >> shift)
	}
}

// storeDwords writes each lane's dwords from the registers src.
func storeDwords(ptr *lanePtrs, src [][64]uint32) {
	for l, p := range ptr {
		for k := range src {
			*(*uint32)(unsafe.Add(p, 4*k)) = src[k][l]
		}
	}
}

package emu

// The whole-wave path of vector memory: a GLOBAL or FLAT load or store
// that no lane can fail — every active lane's access aligned, in one page
// and inside one mapped allocation, checked once from the lowest and
// highest address (and, for FLAT, outside the apertures) — moves its lanes
// in loops with no per-lane checks. Inactive lanes point at the unit's
// sink, so the loops run all 64 lanes without branches: a load's
// inactive lanes read junk into result slots Complete never writes back
// (it writes under EXEC), a store's write the sink.

import "unsafe"

// zeroPage stands for pages never written: they read as zero.
var zeroPage [pageSize]byte

// lanePtrs is where each lane's access starts.
type lanePtrs [64]unsafe.Pointer

// fastWave runs a load or store of fastRun's specGlobal, specGlobalS or
// specFlat shape as a whole wave. It reports false, having moved nothing,
// when some active lane could not take fastRun's single-page step: its
// access unaligned, crossing a page, outside the allocation that holds the
// lowest address, or in an aperture.
func (u *vmemUnit) fastWave(w *Wave, o *vmOp, exec uint64, c *memCtx, spec int, base uint64) bool {
	var ad [64]uint64
	lo, hi, or := waveAddrs(w, o, spec, base, &ad)
	if exec != ^uint64(0) {
		lo, hi, or = laneSpan(&ad, exec)
	}
	size := uint64(c.size)
	end := hi + size
	if end < hi || size >= 4 && or&3 != 0 || !u.covers(w.m.Mem, lo, end) ||
		spec == specFlat && inApertures(lo, end) {
		return false
	}
	store := o.kind == vmStore
	var ptr lanePtrs
	if exec == ^uint64(0) && lo>>pageBits == (end-1)>>pageBits {
		onePage(w.m.Mem, &ad, lo, store, &ptr)
	} else if !u.pointLanes(w.m.Mem, &ad, exec, size, store, &ptr) {
		return false
	}
	if store {
		storeWave(w, o, c.size, &ptr)
	} else {
		loadWave(o, c, &ptr)
	}
	return true
}

// waveAddrs computes every lane's address, active or not (fastOK keeps
// vaddr's registers in range), and returns laneSpan's figures for all 64.
func waveAddrs(w *Wave, o *vmOp, spec int, base uint64, ad *[64]uint64) (lo, hi, or uint64) {
	off := uint64(o.offset)
	v0 := &w.v[o.vaddr]
	lo = ^uint64(0)
	if spec == specGlobalS {
		base += off
		for l, x := range v0 {
			a := base + uint64(x)
			ad[l], lo, hi, or = a, min(lo, a), max(hi, a), or|a
		}
		return lo, hi, or
	}
	v1 := &w.v[o.vaddr+1]
	for l, x := range v0 {
		a := uint64(x) | uint64(v1[l])<<32 + off
		ad[l], lo, hi, or = a, min(lo, a), max(hi, a), or|a
	}
	return lo, hi, or
}

// laneSpan returns the lowest and highest address of the active lanes and
// the OR of them all (its low bits are the alignment check).
func laneSpan(ad *[64]uint64, exec uint64) (lo, hi, or uint64) {
	lo = ^uint64(0)
	for m := exec; m != 0; m &= m - 1 {
		a := ad[tz(m)&63]
		lo, hi, or = min(lo, a), max(hi, a), or|a
	}
	return lo, hi, or
}

// covers reports whether [lo, end) lies in one allocation, caching it.
func (u *vmemUnit) covers(mem *Memory, lo, end uint64) bool {
	if lo >= u.mapLo && end <= u.mapHi && lo <= end {
		return true
	}
	a, ok := mem.Lookup(lo)
	if !ok || end > a.End() || end < lo {
		return false
	}
	u.mapLo, u.mapHi = a.Addr, a.End()
	return true
}

// inApertures reports whether [lo, end) meets the LDS or private aperture.
func inApertures(lo, end uint64) bool {
	return lo < SharedApertureBase+apertureSize && end > SharedApertureBase ||
		lo < PrivateApertureBase+apertureSize && end > PrivateApertureBase
}

// onePage sets ptr when every lane is active and in the page of lo.
func onePage(mem *Memory, ad *[64]uint64, lo uint64, store bool, ptr *lanePtrs) {
	pg := mem.page(lo>>pageBits, store)
	if pg == nil {
		pg = &zeroPage
	}
	pa, ps := unsafe.Pointer(pg), lo&^(pageSize-1)
	for l, a := range ad {
		ptr[l] = unsafe.Add(pa, a-ps)
	}
}

// pointLanes sets ptr: each active lane's bytes in its page (a store
// creates the page, a load of a never-written one reads zeroPage), each
// inactive lane's the sink. It reports false if an access crosses a page.
func (u *vmemUnit) pointLanes(mem *Memory, ad *[64]uint64, exec, size uint64, store bool, ptr *lanePtrs) bool {
	sink := unsafe.Pointer(&u.sink)
	pn, pg := ^uint64(0), (*[pageSize]byte)(nil)
	for l, a := range ad {
		if exec>>l&1 == 0 {
			ptr[l] = sink
			continue
		}
		po := a & (pageSize - 1)
		if po+size > pageSize {
			return false
		}
		if p := a >> pageBits; p != pn {
			pn, pg = p, mem.page(p, store)
			if pg == nil {
				pg = &zeroPage
			}
		}
		ptr[l] = unsafe.Pointer(&pg[po])
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

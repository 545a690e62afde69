package emu

// The whole-wave path's commonest shapes, found from vaddr in one pass
// without computing each lane's address: consecutive elements (a
// work-item's own element of an array; a private or scratch access at a
// uniform offset, which the swizzle spreads 4 bytes a lane) and one
// element for all lanes (a uniform pointer). When the run lies in one page
// of the operation's allocation the lanes move as a block: dwords each one
// plain 32-bit load or store (memory_shared.go), bytes and shorts through
// pointers stepped from the run's start, with no per-lane address, span
// or page work.

import (
	"math"
	"math/bits"
	"unsafe"
)

// laneRun reports whether every lane's address, active or not, is a0 +
// step·lane with step 0, size (GLOBAL, FLAT) or 4 (SCRATCH and private,
// whatever the size), and returns a0 and step. base and limit are
// fastWave's; size is the element's, 1, 2 or 4 bytes.
func laneRun(w *Wave, o *vmOp, spec int, base, limit, size uint64) (a0, step uint64, ok bool) {
	v0 := vaddrLanes(w, o, spec)
	x := v0[0]
	off := uint32(o.offset)
	if spec == specScratch || spec == specPrivate { // lane l at 4·l from a uniform offset
		if !uniform(v0) {
			return 0, 0, false
		}
		if p := uint32(limit) + off + x; spec == specScratch {
			return base + uint64(p&3) + 256*uint64(p>>2), 4, true
		}
		t := (off+x)&3 + (off+x)>>2<<8 // waveAddrs' 32-bit private offset of lane 0
		return base + uint64(t), 4, t <= math.MaxUint32-63*4
	}
	step = size
	if uniform(v0) {
		step = 0
	} else if x > math.MaxUint32-63*uint32(size) || !consecutive(v0, uint32(size)) {
		return 0, 0, false
	}
	if spec == specGlobalS {
		return base + uint64(off) + uint64(x), step, true
	}
	v1 := &w.v[o.vaddr+1]
	return (uint64(x) | uint64(v1[0])<<32) + uint64(off), step, uniform(v1)
}

// uniform reports whether every lane of v holds v[0].
func uniform(v *[64]uint32) bool {
	if v == &zeroLanes {
		return true // no vaddr: the commonest -O0 stack slot
	}
	if v[63] != v[0] {
		return false // the usual way to fail, found at once
	}
	d := uint32(0)
	for _, y := range v {
		d |= y ^ v[0]
	}
	return d == 0
}

// consecutive reports whether lane l of v holds v[0] + step·l.
func consecutive(v *[64]uint32, step uint32) bool {
	if v[63] != v[0]+63*step {
		return false // a 2-D work-group's rows, scattered lanes: found at once
	}
	d, x := uint32(0), v[0]
	for _, y := range v {
		d |= y ^ x
		x += step
	}
	return d == 0
}

// moveRun moves the elements at a0 + step·lane of the active lanes when
// all 64 lie in one page of an allocation and pass fastWave's checks; it
// reports false, having moved nothing, otherwise.
func (u *vmemUnit) moveRun(w *Wave, o *vmOp, exec uint64, c *memCtx, spec int, base, limit, a0, step uint64) bool {
	size := uint64(c.size)
	hi := a0 + 63*step
	end := hi + size
	if end < a0 || a0>>pageBits != (end-1)>>pageBits || !waveFits(w, o, spec, base, limit, size, a0, hi, a0) {
		return false
	}
	store := o.kind == vmStore
	if size < 4 {
		u.moveNarrow(w, o, exec, c, unsafe.Pointer(&o.last.page(a0>>pageBits, store)[a0&(pageSize-1)]), uintptr(step))
		return true
	}
	pg := (*[pageSize / 4]uint32)(unsafe.Pointer(o.last.page(a0>>pageBits, store)))
	i := a0 & (pageSize - 1) / 4
	switch {
	case store && step == 0:
		pg[i] = w.v[o.vdata][63-bits.LeadingZeros64(exec)] // lane after lane: the highest wins
	case store && exec == ^uint64(0):
		copyDwords((*[64]uint32)(pg[i:i+64]), &w.v[o.vdata])
	case store:
		run, src := (*[64]uint32)(pg[i:i+64]), &w.v[o.vdata]
		for m := exec; m != 0; m &= m - 1 {
			l := tz(m) & 63
			run[l] = src[l]
		}
	case step == 0:
		x, dst := pg[i], &c.res.data[0]
		for l := range dst {
			dst[l] = x
		}
	default:
		copyDwords(&c.res.data[0], (*[64]uint32)(pg[i:i+64]))
	}
	return true
}

// copyDwords copies src to dst a dword at a time (never memmove: see
// memory_shared.go).
func copyDwords(dst, src *[64]uint32) {
	for l, x := range src {
		dst[l] = x
	}
}

// moveNarrow moves a run of bytes or shorts from p, step bytes a lane, as
// fastWave's lane loops do: each lane's pointer stepped from p (a store's
// inactive lanes pointed at the sink), so the extension, the _d16_hi half
// and the lane order are theirs.
func (u *vmemUnit) moveNarrow(w *Wave, o *vmOp, exec uint64, c *memCtx, p unsafe.Pointer, step uintptr) {
	var ptr lanePtrs
	for l := range ptr {
		ptr[l] = unsafe.Add(p, step*uintptr(l))
	}
	if o.kind != vmStore {
		loadWave(o, c, &ptr)
		return
	}
	for m := ^exec; m != 0; m &= m - 1 {
		ptr[tz(m)&63] = unsafe.Pointer(&u.sink)
	}
	storeWave(w, o, c.size, &ptr)
}

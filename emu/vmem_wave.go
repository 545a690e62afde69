package emu

// The whole-wave path of vector memory: a load or store of one of
// fastRun's shapes (GLOBAL, FLAT, SCRATCH, the private segment V#) that no
// lane can fail — every active lane's access aligned, in one page and
// inside one mapped allocation, checked once from the lowest and highest
// address (and outside the apertures for FLAT, inside the V#'s range for
// MUBUF) — moves its lanes in loops with no per-lane checks. The loops run
// lanes 0 up to the highest active one without branches: an inactive lane
// among them takes the lowest active lane's address, so a load's inactive
// lanes read real bytes into result slots Complete never writes back (it
// writes under EXEC), and a store's point at the unit's sink. Stores go
// lane after lane, so overlapping lanes leave what the general path
// leaves. Moves are plain loads and stores of the access's width
// (memory_shared.go: why that is sound for pages other workers share).

import (
	"math/bits"
	"unsafe"

	"github.com/wavedbg/wavedbg/isa"
)

// zeroPage stands for pages never written: they read as zero.
var zeroPage [pageSize]byte

// lanePtrs is where each lane's access starts.
type lanePtrs [64]unsafe.Pointer

// The whole-wave shapes fastWave tries, in this order: a run (laneRun),
// rows (laneRows), a table (loadTable) and any lanes (loadCached, then
// laneWave), which takes every wave the others take. An operation
// remembers the shape that took its last wave (opCache.shape) and the
// next wave, almost always of that shape too, starts there, skipping the
// shapes that failed; every 16th wave of a shape other than the first
// starts from the first, so a wave unlike the rest costs little for long.
// Every shape that succeeds moves the same bytes, so where fastWave
// starts changes nothing but the cost.
const (
	shapeRun uint8 = iota
	shapeRows
	shapeTable
	shapeLanes
)

// fastWave runs a load or store of a fastRun shape as a whole wave (base
// and limit are fastRun's), trying the shapes from the one the operation
// remembers. It reports false, having moved nothing, when some active
// lane could not take fastRun's single-page step: its access unaligned,
// crossing a page, outside the allocation that holds the lowest address,
// in an aperture (FLAT) or past the private V#'s range.
func (u *vmemUnit) fastWave(w *Wave, o *vmOp, exec uint64, c *memCtx, spec int, base, limit uint64) bool {
	if exec == 0 {
		return true // nothing to move (and no page to create)
	}
	from := o.last.shape
	if from != shapeRun {
		if o.last.probe++; o.last.probe%16 == 0 {
			from = shapeRun
		}
	}
	size := uint64(c.size)
	n := bits.Len64(exec)
	if size < 4 && c.ndw == 1 || size >= 4 && c.ndw == c.size/4 {
		if from <= shapeRun {
			if a0, step, ok := laneRun(w, o, spec, base, limit, size, n); ok && u.moveRun(w, o, exec, c, spec, base, limit, a0, step, n) {
				o.last.shape, o.last.quick = shapeRun, spec == specGlobal && step == size && size <= 4
				return true
			}
		}
		if from <= shapeRows {
			var rs laneRowSet
			if step, ok := laneRows(w, o, spec, base, size, n, &rs); ok {
				u.moveRows(w, o, exec, c, &rs, step, n)
				o.last.shape, o.last.quick = shapeRows, false
				return true
			}
		}
		if from <= shapeTable && o.kind == vmLoad && u.loadTable(w, o, c, spec, base, limit, n) {
			o.last.shape, o.last.quick = shapeTable, false
			return true
		}
	}
	if exec == ^uint64(0)>>(64-n) && size == 4 && o.kind == vmLoad && (spec == specGlobal || spec == specFlat) &&
		loadCached(w, o, spec, &c.res.data[0], n) || u.laneWave(w, o, exec, c, spec, base, limit, n) {
		o.last.shape, o.last.quick = shapeLanes, false
		return true
	}
	return false
}

// laneWave is fastWave for any lanes, n of them from 0 holding the active
// ones: only lanes 0 up to the highest active one are looked at (a
// work-group of 16 items fills a quarter of the wave), and an inactive
// lane among them takes the address of the lowest active one, so the
// span, page and move loops run without masks.
func (u *vmemUnit) laneWave(w *Wave, o *vmOp, exec uint64, c *memCtx, spec int, base, limit uint64, n int) bool {
	size := uint64(c.size)
	holes := ^exec & (^uint64(0) >> (64 - n))
	ad := &u.addrs
	lanes := ad[:n]
	lo, or := waveAddrs(w, o, spec, base, limit, lanes)
	if holes != 0 {
		a := ad[tz(exec)&63]
		for m := holes; m != 0; m &= m - 1 {
			ad[tz(m)&63] = a
		}
		lo, or = laneBits(lanes)
	}
	// The AND and OR of the addresses bound them, in the page they all
	// share if they share one: the lanes' span is needed only when those
	// bounds do not fit.
	hi := or
	if !waveFits(w, o, spec, base, limit, size, lo, hi, or) {
		if lo, hi = laneSpan(lanes); !waveFits(w, o, spec, base, limit, size, lo, hi, or) {
			return false
		}
	}
	store := o.kind == vmStore
	onePage := lo>>pageBits == (hi+size-1)>>pageBits
	if onePage && size >= 4 {
		pg, ps := unsafe.Pointer(o.last.page(lo>>pageBits, store)), lo&^(pageSize-1)
		if store {
			storePage(pg, ps, lanes, w.v[o.vdata:o.vdata+c.size/4], exec, holes == 0)
		} else {
			loadPage(c.res.data[:min(c.ndw, 4)], pg, ps, lanes)
		}
		return true
	}
	if size == 4 { // aligned dwords: none crosses a page
		if store {
			o.last.storePages(lanes, &w.v[o.vdata], exec, holes == 0)
		} else {
			o.last.loadPages(&c.res.data[0], lanes)
		}
		return true
	}
	var ptr lanePtrs
	if onePage {
		o.last.onePage(lanes, lo, store, &ptr)
	} else if !o.last.pointLanes(lanes, size, store, &ptr) {
		return false
	}
	if store {
		for m := holes; m != 0; m &= m - 1 {
			ptr[tz(m)&63] = unsafe.Pointer(&u.sink)
		}
		storeWave(w, o, c.size, ptr[:n])
	} else {
		loadWave(o, c, ptr[:n])
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

// waveAddrs computes the address of lanes 0 to len(ad)-1, active or not,
// as fastRun does (fastOK keeps vaddr's registers in range), and returns
// laneBits' figures for them. It stays a call of its own: inlined into
// fastWave (the profile inlines it), its loops spill to the stack every
// lane.
//
//go:noinline
func waveAddrs(w *Wave, o *vmOp, spec int, base, limit uint64, ad []uint64) (and, or uint64) {
	off := uint64(o.offset)
	v0 := vaddrLanes(w, o, spec)[:len(ad)]
	and = ^uint64(0)
	switch spec {
	case specGlobalS:
		base += off
		for l, x := range v0 {
			a := base + uint64(x)
			ad[l], and, or = a, and&a, or|a
		}
	case specScratch: // limit: the saddr value
		p0 := uint32(limit) + uint32(off)
		for l, x := range v0 {
			p := p0 + x
			a := base + uint64(p&3) + 4*uint64(l) + 256*uint64(p>>2)
			ad[l], and, or = a, and&a, or|a
		}
	case specPrivate:
		for l, x := range v0 {
			aoff := uint32(off) + x
			a := base + uint64(aoff&3+uint32(l)<<2+aoff>>2<<8)
			ad[l], and, or = a, and&a, or|a
		}
	default:
		v1 := w.v[o.vaddr+1][:len(ad)]
		for l, x := range v0 {
			a := uint64(x) | uint64(v1[l])<<32 + off
			ad[l], and, or = a, and&a, or|a
		}
	}
	return and, or
}

// loadCached is fastWave's dword load of 64-bit addresses with every lane
// active when the lanes read the page o.last found last (a small
// work-group's lanes usually do): it reads each lane's dword from that
// page as it computes the address, then checks that the addresses' AND
// and OR lie in that page and pass waveFits. When they do not, it reports
// false and what it read means nothing: fastWave's other paths write
// every lane again, and fastMem clears the result. It stays a call of its
// own for the reason waveAddrs does.
//
//go:noinline
func loadCached(w *Wave, o *vmOp, spec int, dst *[64]uint32, n int) bool {
	pg, pn := unsafe.Pointer(o.last.pg), o.last.pn
	off := uint64(o.offset)
	v0, v1, d := w.v[o.vaddr][:n], w.v[o.vaddr+1][:n], dst[:n]
	if o.last.mem != w.m.Mem || pg == nil || (uint64(v0[0])|uint64(v1[0])<<32+off)>>pageBits != pn {
		return false // lane 0 is elsewhere: the usual way to fail, found at once
	}
	and, or := ^uint64(0), uint64(0)
	for l, x := range v0 {
		a := uint64(x) | uint64(v1[l])<<32 + off
		and, or = and&a, or|a
		d[l] = *(*uint32)(unsafe.Add(pg, a&(pageSize-1)))
	}
	return and>>pageBits == pn && or>>pageBits == pn && waveFits(w, o, spec, 0, 0, 4, and, or, or)
}

// laneBits returns the AND and the OR of the addresses: bounds of their
// span (and, within a page they all share, in that page), the OR's low
// bits the alignment check.
func laneBits(ad []uint64) (and, or uint64) {
	and = ^uint64(0)
	for _, a := range ad {
		and, or = and&a, or|a
	}
	return and, or
}

// laneSpan returns the lowest and highest of the addresses.
func laneSpan(ad []uint64) (lo, hi uint64) {
	lo = ^uint64(0)
	for _, a := range ad {
		lo, hi = min(lo, a), max(hi, a)
	}
	return lo, hi
}

// storeQuad writes lane l's dwordx4 from the registers s at p: four
// stores without a loop.
func storeQuad(p unsafe.Pointer, s *[4][64]uint32, l int) {
	q, l := (*[4]uint32)(p), l&63
	q[0], q[1], q[2], q[3] = s[0][l], s[1][l], s[2][l], s[3][l]
}

// loadWave reads every lane into the load's result: a byte or short
// zero- or sign-extended, or each dword.
func loadWave(o *vmOp, c *memCtx, ptr []unsafe.Pointer) {
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
func loadLanes[T int8 | uint8 | int16 | uint16 | uint32](dst *[64]uint32, ptr []unsafe.Pointer, off uintptr) {
	d := dst[:len(ptr)]
	for l, p := range ptr {
		d[l] = uint32(*(*T)(unsafe.Add(p, off)))
	}
}

// storeWave writes every lane's data: the low (or, for _d16_hi, high)
// byte or short of vdata, or size/4 dwords from vdata up, lane after lane
// as the general path does (overlapping lanes: the highest wins).
func storeWave(w *Wave, o *vmOp, size int, ptr []unsafe.Pointer) {
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
	default:
		storeDwords(ptr, w.v[o.vdata:o.vdata+size/4])
	}
}

// storeLanes writes each lane's src shifted right by shift, as a T.
func storeLanes[T uint8 | uint16](ptr []unsafe.Pointer, src *[64]uint32, shift uint) {
	s := src[:len(ptr)]
	for l, p := range ptr {
		*(*T)(p) = T(s[l] >> shift)
	}
}

// storeDwords writes each lane's dwords from the registers src.
func storeDwords(ptr []unsafe.Pointer, src [][64]uint32) {
	if len(src) == 4 {
		s := (*[4][64]uint32)(src)
		for l, p := range ptr {
			storeQuad(p, s, l)
		}
		return
	}
	for l, p := range ptr {
		for k := range src {
			*(*uint32)(unsafe.Add(p, 4*k)) = src[k][l]
		}
	}
}

// waveSpec returns the whole-wave shape (specGlobal, specGlobalS or
// specFlat) of a GLOBAL or FLAT load or store the fast path takes, or 0.
func waveSpec(o *vmOp) int8 {
	if !hostLE || o.fam != famFlat || !fastOK(o) || o.kind == vmStore && o.vdata+(o.size+3)/4-1 > 255 {
		return 0
	}
	switch {
	case o.seg == isa.SegGlobal && o.saddr >= 0:
		return specGlobalS
	case o.seg == isa.SegGlobal:
		return specGlobal
	case o.seg == isa.SegFlat:
		return specFlat
	}
	return 0
}

// execWave is execMem's fast form for an operation with a whole-wave
// shape (o.wspec): it issues the operation as execMem does
// and tries fastWave before the rest of fastMem. A load's result is
// cleared only for fastMem: fastWave writes every lane Complete reads.
func (u *vmemUnit) execWave(w *Wave, o *vmOp) error {
	exec := w.exec()
	lat := uint64(w.m.Config.Latency.VectorMem)
	c := memCtx{size: o.size, ndw: (o.size + 3) / 4}
	d16 := uint8(0)
	if o.d16 {
		c.ndw, d16 = 1, 1
		if o.d16hi {
			d16 = 2
		}
	}
	if o.kind == vmLoad {
		c.res = u.reserve(w.IssueVector(isa.CntVM, 1, lat), o.vdst, c.ndw, exec, d16)
	} else {
		w.IssueVector(isa.CntVM, 1, lat)
	}
	if o.seg == isa.SegFlat {
		w.IssueVector(isa.CntLGKM, 1, lat)
	}
	base := uint64(0)
	if o.wspec == specGlobalS {
		base = w.rs64(o.saddr)
	}
	if !w.m.Mem.atomicWords() && u.fastWave(w, o, exec, &c, int(o.wspec), base, 0) {
		return nil // it wrote lanes 0 up to the highest active one
	}
	if c.res != nil {
		clear(c.res.data[:c.ndw]) // fastWave moved nothing
	}
	return u.fastMem(w, o, exec, &c)
}

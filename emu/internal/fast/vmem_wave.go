package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
	"math/bits"
	"unsafe"
)

// zeroPage stands for pages never written: they read as zero.
var zeroPage [core.PageSize]byte

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
	ShapeLanes
)

// fastWave runs a load or store of a fastRun shape as a whole wave (base
// and limit are fastRun's), trying the shapes from the one the operation
// remembers. It reports false, having moved nothing, when some active
// lane could not take fastRun's single-page step: its access unaligned,
// crossing a page, outside the allocation that holds the lowest address,
// in an aperture (FLAT) or past the private V#'s range.
func fastWave(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, exec uint64, c *ref.MemCtx, spec int, base, limit uint64) bool {
	if exec == 0 {
		return true // nothing to move (and no page to create)
	}
	from := o.Last.Shape
	if from != shapeRun {
		if o.Last.Probe++; o.Last.Probe%16 == 0 {
			from = shapeRun
		}
	}
	size := uint64(c.Size)
	n := bits.Len64(exec)
	if size < 4 && c.Ndw == 1 || size >= 4 && c.Ndw == c.Size/4 {
		if from <= shapeRun {
			if a0, step, ok := laneRun(w, o, spec, base, limit, size, n); ok && moveRun(u, w, o, exec, c, spec, base, limit, a0, step, n) {
				o.Last.Shape, o.Last.Quick = shapeRun, spec == specGlobal && step == size && size <= 4
				return true
			}
		}
		if from <= shapeRows {
			var rs laneRowSet
			if step, ok := laneRows(w, o, spec, base, size, n, &rs); ok {
				moveRows(u, w, o, exec, c, &rs, step, n)
				o.Last.Shape, o.Last.Quick = shapeRows, false
				return true
			}
		}
		if from <= shapeTable && o.Kind == ref.VmLoad && loadTable(u, w, o, c, spec, base, limit, n) {
			o.Last.Shape, o.Last.Quick = shapeTable, false
			return true
		}
	}
	if exec == ^uint64(0)>>(64-n) && size == 4 && o.Kind == ref.VmLoad && (spec == specGlobal || spec == specFlat) &&
		loadCached(w, o, spec, &c.Res.Data[0], n) || laneWave(u, w, o, exec, c, spec, base, limit, n) {
		o.Last.Shape, o.Last.Quick = ShapeLanes, false
		return true
	}
	return false
}

// laneWave is fastWave for any lanes, n of them from 0 holding the active
// ones: only lanes 0 up to the highest active one are looked at (a
// work-group of 16 items fills a quarter of the wave), and an inactive
// lane among them takes the address of the lowest active one, so the
// span, page and move loops run without masks.
func laneWave(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, exec uint64, c *ref.MemCtx, spec int, base, limit uint64, n int) bool {
	size := uint64(c.Size)
	holes := ^exec & (^uint64(0) >> (64 - n))
	ad := &u.Addrs
	lanes := ad[:n]
	lo, or := waveAddrs(w, o, spec, base, limit, lanes)
	if holes != 0 {
		a := ad[core.Tz(exec)&63]
		for m := holes; m != 0; m &= m - 1 {
			ad[core.Tz(m)&63] = a
		}
		lo, or = LaneBits(lanes)
	}
	// The AND and OR of the addresses bound them, in the page they all
	// share if they share one: the lanes' span is needed only when those
	// bounds do not fit.
	hi := or
	if !waveFits(w, o, spec, base, limit, size, lo, hi, or) {
		if lo, hi = LaneSpan(lanes); !waveFits(w, o, spec, base, limit, size, lo, hi, or) {
			return false
		}
	}
	store := o.Kind == ref.VmStore
	onePage := lo>>core.PageBits == (hi+size-1)>>core.PageBits
	if onePage && size >= 4 {
		pg, ps := unsafe.Pointer(Page(&o.Last, lo>>core.PageBits, store)), lo&^(core.PageSize-1)
		if store {
			storePage(pg, ps, lanes, w.V[o.Vdata:o.Vdata+c.Size/4], exec, holes == 0)
		} else {
			loadPage(c.Res.Data[:min(c.Ndw, 4)], pg, ps, lanes)
		}
		return true
	}
	if size == 4 { // aligned dwords: none crosses a page
		if store {
			storePages(&o.Last, &u.LanePg, lanes, &w.V[o.Vdata], exec, holes == 0)
		} else {
			loadPages(&o.Last, &u.LanePg, &c.Res.Data[0], lanes)
		}
		return true
	}
	var ptr lanePtrs
	if onePage {
		cacheOnePage(&o.Last, lanes, lo, store, &ptr)
	} else if !pointLanes(&o.Last, lanes, size, store, &ptr) {
		return false
	}
	if store {
		for m := holes; m != 0; m &= m - 1 {
			ptr[core.Tz(m)&63] = unsafe.Pointer(&u.Sink)
		}
		storeWave(w, o, c.Size, ptr[:n])
	} else {
		loadWave(o, c, ptr[:n])
	}
	return true
}

// waveFits reports whether accesses of size bytes at lo…hi (the last
// one's start), their addresses ORed in or, are aligned, inside the
// allocation o.last covers (cached), outside the apertures (FLAT) and
// inside the private V#'s range.
func waveFits(w *core.Wave, o *ref.VmOp, spec int, base, limit, size, lo, hi, or uint64) bool {
	end := hi + size
	return end >= hi && (size < 4 || or&3 == 0) && Covers(&o.Last, w.M.Mem, lo, end) &&
		(spec != specFlat || !inApertures(lo, end)) && (spec != specPrivate || lo >= base && hi-base < limit)
}

// zeroLanes stands for an absent vaddr.
var zeroLanes [64]uint32

// vaddrLanes returns the lanes' vaddr (the low dwords of 64-bit ones).
func vaddrLanes(w *core.Wave, o *ref.VmOp, spec int) *[64]uint32 {
	if o.Vaddr >= 0 && (spec != specPrivate || o.Offen) {
		return &w.V[o.Vaddr]
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
func waveAddrs(w *core.Wave, o *ref.VmOp, spec int, base, limit uint64, ad []uint64) (and, or uint64) {
	off := uint64(o.Offset)
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
		v1 := w.V[o.Vaddr+1][:len(ad)]
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
func loadCached(w *core.Wave, o *ref.VmOp, spec int, dst *[64]uint32, n int) bool {
	pg, pn := unsafe.Pointer(o.Last.Pg), o.Last.Pn
	off := uint64(o.Offset)
	v0, v1, d := w.V[o.Vaddr][:n], w.V[o.Vaddr+1][:n], dst[:n]
	if o.Last.Mem != w.M.Mem || pg == nil || (uint64(v0[0])|uint64(v1[0])<<32+off)>>core.PageBits != pn {
		return false // lane 0 is elsewhere: the usual way to fail, found at once
	}
	and, or := ^uint64(0), uint64(0)
	for l, x := range v0 {
		a := uint64(x) | uint64(v1[l])<<32 + off
		and, or = and&a, or|a
		d[l] = *(*uint32)(unsafe.Add(pg, a&(core.PageSize-1)))
	}
	return and>>core.PageBits == pn && or>>core.PageBits == pn && waveFits(w, o, spec, 0, 0, 4, and, or, or)
}

// LaneBits returns the AND and the OR of the addresses: bounds of their
// span (and, within a page they all share, in that page), the OR's low
// bits the alignment check.
func LaneBits(ad []uint64) (and, or uint64) {
	and = ^uint64(0)
	for _, a := range ad {
		and, or = and&a, or|a
	}
	return and, or
}

// LaneSpan returns the lowest and highest of the addresses.
func LaneSpan(ad []uint64) (lo, hi uint64) {
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
func loadWave(o *ref.VmOp, c *ref.MemCtx, ptr []unsafe.Pointer) {
	d := &c.Res.Data
	switch {
	case c.Size == 1 && o.Signed:
		loadLanes[int8](&d[0], ptr, 0)
	case c.Size == 1:
		loadLanes[uint8](&d[0], ptr, 0)
	case c.Size == 2 && o.Signed:
		loadLanes[int16](&d[0], ptr, 0)
	case c.Size == 2:
		loadLanes[uint16](&d[0], ptr, 0)
	default:
		for k := range min(c.Ndw, 4) {
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
func storeWave(w *core.Wave, o *ref.VmOp, size int, ptr []unsafe.Pointer) {
	src := &w.V[o.Vdata]
	shift := uint(0)
	if o.D16hi {
		shift = 16
	}
	switch size {
	case 1:
		storeLanes[uint8](ptr, src, shift)
	case 2:
		storeLanes[uint16](ptr, src, shift)
	default:
		storeDwords(ptr, w.V[o.Vdata:o.Vdata+size/4])
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

// WaveSpec returns the whole-wave shape (specGlobal, specGlobalS or
// specFlat) of a GLOBAL or FLAT load or store the fast path takes, or 0.
func WaveSpec(o *ref.VmOp) int8 {
	if !core.HostLE || o.Fam != ref.FamFlat || !FastOK(o) || o.Kind == ref.VmStore && o.Vdata+(o.Size+3)/4-1 > 255 {
		return 0
	}
	switch {
	case o.Seg == isa.SegGlobal && o.Saddr >= 0:
		return specGlobalS
	case o.Seg == isa.SegGlobal:
		return specGlobal
	case o.Seg == isa.SegFlat:
		return specFlat
	}
	return 0
}

// execWave is execMem's fast form for an operation with a whole-wave
// shape (o.wspec): it issues the operation as execMem does
// and tries fastWave before the rest of fastMem. A load's result is
// cleared only for fastMem: fastWave writes every lane Complete reads.
func execWave(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp) error {
	exec := w.Exec()
	lat := uint64(w.M.Config.Latency.VectorMem)
	c := ref.MemCtx{Size: o.Size, Ndw: (o.Size + 3) / 4}
	d16 := uint8(0)
	if o.D16 {
		c.Ndw, d16 = 1, 1
		if o.D16hi {
			d16 = 2
		}
	}
	if o.Kind == ref.VmLoad {
		c.Res = u.Reserve(ref.IssueVector(w, isa.CntVM, 1, lat), o.Vdst, c.Ndw, exec, d16)
	} else {
		ref.IssueVector(w, isa.CntVM, 1, lat)
	}
	if o.Seg == isa.SegFlat {
		ref.IssueVector(w, isa.CntLGKM, 1, lat)
	}
	base := uint64(0)
	if o.Wspec == specGlobalS {
		base = w.Rs64(o.Saddr)
	}
	if !w.M.Mem.AtomicWords() && fastWave(u, w, o, exec, &c, int(o.Wspec), base, 0) {
		return nil // it wrote lanes 0 up to the highest active one
	}
	if c.Res != nil {
		clear(c.Res.Data[:c.Ndw]) // fastWave moved nothing
	}
	return fastMem(u, w, o, exec, &c)
}

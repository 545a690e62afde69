package emu

// The whole-wave path's commonest shapes, found from vaddr in one pass
// without computing each lane's address: elements a constant step apart
// (a work-item's own element of an array, or its field of an array of
// structs — float_alu's out[16*i+k] dwordx4 stores; a private or scratch
// access at a uniform offset, which the swizzle spreads 4 bytes a lane)
// and one element for all lanes (a uniform pointer). A run that meets one
// page or two moves as a block in each — dwords each one plain 32-bit
// load or store (memory_shared.go), a dwordx4 lane's four together, bytes
// and shorts stepped from the block's start — with no per-lane address,
// span or page work.

import (
	"math"
	"math/bits"
	"unsafe"

	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/isa"
)

// laneRun reports whether the address of every lane from 0 to n-1, active
// or not, is a0 + step·lane with step 0, at least size (GLOBAL, FLAT:
// lanes that do not overlap) or 4 (SCRATCH and private, whatever the
// size), and returns a0 and step. base
// and limit are fastWave's; size is the element's: 1, 2 or 4 bytes, or 8,
// 12 or 16 for GLOBAL and FLAT.
func laneRun(w *Wave, o *vmOp, spec int, base, limit, size uint64, n int) (a0, step uint64, ok bool) {
	v0 := vaddrLanes(w, o, spec)[:n]
	x := v0[0]
	// A private offset is 32 bits; a 64-bit address adds o.offset sign-extended.
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
	step = 0
	if !uniform(v0) {
		step = uint64(v0[1] - x) // n > 1; size, or more for a field of an array of structs
		if step < size || uint64(x)+uint64(n-1)*step > math.MaxUint32 {
			return 0, 0, false
		}
		if spec != specGlobalS {
			v1 := w.v[o.vaddr+1][:n]
			return (uint64(x) | uint64(v1[0])<<32) + uint64(o.offset), step, consecutiveHi(v0, v1, uint32(step))
		}
		if !consecutive(v0, uint32(step)) {
			return 0, 0, false
		}
	}
	if spec == specGlobalS {
		return base + uint64(o.offset) + uint64(x), step, true
	}
	v1 := w.v[o.vaddr+1][:n]
	return (uint64(x) | uint64(v1[0])<<32) + uint64(o.offset), step, uniform(v1)
}

// consecutiveHi reports consecutive(lo, step) && uniform(hi) (lo and hi
// of one length, lo's last lane not wrapping) — the low and high dwords
// of 64-bit addresses: a whole wave's by the vector check (with SIMD),
// else four lanes a step.
func consecutiveHi(lo, hi []uint32, step uint32) bool {
	n := len(lo)
	x, y := lo[0], hi[0]
	if lo[n-1] != x+uint32(n-1)*step || hi[n-1] != y {
		return false // a 2-D work-group's rows, scattered lanes: found at once
	}
	if n == 64 && simd.SIMD { // the pair loop below beats Progressions' Go version
		return simd.Progressions((*[64]uint32)(lo), (*[64]uint32)(hi), step, 0)
	}
	pl, ph := lanePairs(lo), lanePairs(hi)
	if pl == nil || ph == nil {
		return consecutive(lo, step) && uniform(hi)
	}
	ph = ph[:len(pl)]
	// lane pairs (l, l+1) and (l+2, l+3) a step, then an odd pair left
	e, inc := uint64(x)|uint64(x+step)<<32, uint64(2*step)|uint64(2*step)<<32
	h, d := uint64(y)|uint64(y)<<32, uint64(0)
	if len(pl) == 32 { // a whole wave: fixed lengths, no bounds checks
		a, b := (*[32]uint64)(pl), (*[32]uint64)(ph)
		for i := 0; i < 32; i += 2 {
			d |= (a[i] ^ e) | (a[i+1] ^ (e + inc)) | (b[i] ^ h) | (b[i+1] ^ h)
			e += 2 * inc
		}
		return d == 0
	}
	i := 0
	for ; i+2 <= len(pl); i += 2 {
		d |= (pl[i] ^ e) | (pl[i+1] ^ (e + inc)) | (ph[i] ^ h) | (ph[i+1] ^ h)
		e += 2 * inc
	}
	if i < len(pl) {
		d |= (pl[i] ^ e) | (ph[i] ^ h)
	}
	return d == 0
}

// uniform reports whether every lane of v holds v[0].
func uniform(v []uint32) bool {
	if &v[0] == &zeroLanes[0] {
		return true // no vaddr: the commonest -O0 stack slot
	}
	x := v[0]
	if v[len(v)-1] != x {
		return false // the usual way to fail, found at once
	}
	if len(v) == 64 && simd.SIMD {
		return consecutiveWave(v, 0)
	}
	if p := lanePairs(v); p != nil { // an odd last lane is checked above
		x2, d := uint64(x)|uint64(x)<<32, uint64(0)
		for _, y := range p {
			d |= y ^ x2
		}
		return d == 0
	}
	d := uint32(0)
	for _, y := range v {
		d |= y ^ x
	}
	return d == 0
}

// consecutive reports whether lane l of v holds v[0] + step·l.
func consecutive(v []uint32, step uint32) bool {
	x := v[0]
	if v[len(v)-1] != x+uint32(len(v)-1)*step {
		return false // a 2-D work-group's rows, scattered lanes: found at once
	}
	if len(v) == 64 && simd.SIMD {
		return consecutiveWave(v, step)
	}
	if p := lanePairs(v); p != nil && uint64(x)+uint64(len(v)-1)*uint64(step) <= math.MaxUint32 {
		// no lane wraps: both halves of a pair step without carries
		e, inc, d := uint64(x)|uint64(x+step)<<32, uint64(2*step)|uint64(2*step)<<32, uint64(0)
		for _, y := range p {
			d |= y ^ e
			e += inc
		}
		return d == 0
	}
	d := uint32(0)
	for _, y := range v {
		d |= y ^ x
		x += step
	}
	return d == 0
}

// consecutiveWave reports consecutive(v, step) for a whole wave's v by the
// vector check (wrapping runs too), which the pair loops beat without SIMD.
func consecutiveWave(v []uint32, step uint32) bool {
	r := (*[64]uint32)(v)
	return simd.Progressions(r, r, step, step)
}

// lanePairs returns v's lanes two at a time, the lower in the low half
// (an odd last lane left out), or nil where that reading is not a plain
// aligned load.
func lanePairs(v []uint32) []uint64 {
	p := unsafe.Pointer(&v[0])
	if !hostLE || uintptr(p)&7 != 0 || len(v) < 2 {
		return nil
	}
	return unsafe.Slice((*uint64)(p), len(v)/2)
}

// moveRun moves the elements at a0 + step·lane of the active lanes (n
// lanes from 0 hold them all) when they pass fastWave's checks and no
// element crosses a page; it reports false, having moved nothing,
// otherwise, or when the run meets more than two pages (steps over 64
// bytes can): the lanes in each page move as a block.
func (u *vmemUnit) moveRun(w *Wave, o *vmOp, exec uint64, c *memCtx, spec int, base, limit, a0, step uint64, n int) bool {
	size := uint64(c.size)
	hi := a0 + uint64(n-1)*step
	end := hi + size
	if end < a0 || !waveFits(w, o, spec, base, limit, size, a0, hi, a0|step) {
		return false
	}
	m := n // lanes in a0's page
	if p0 := a0 >> pageBits; p0 != (end-1)>>pageBits {
		next := (p0 + 1) << pageBits
		if step == 0 {
			return false // the one element crosses
		}
		m = int((next - a0 + step - 1) / step)
		if a0+uint64(m-1)*step+size > next || hi>>pageBits != p0+1 {
			return false
		}
	}
	if o.kind == vmStore && step == 0 { // lane after lane: the highest wins
		u.storeOne(w, o, c.size, a0, 63-bits.LeadingZeros64(exec))
		return true
	}
	u.moveBlock(w, o, exec, c, a0, step, 0, m)
	if m < n {
		u.moveBlock(w, o, exec, c, a0+uint64(m)*step, step, m, n)
	}
	return true
}

// storeOne writes lane's data at a, in one page.
func (u *vmemUnit) storeOne(w *Wave, o *vmOp, size int, a uint64, lane int) {
	p := unsafe.Pointer(&o.last.page(a>>pageBits, true)[a&(pageSize-1)])
	x := w.v[o.vdata][lane] >> d16Shift(o)
	switch size {
	case 1:
		*(*uint8)(p) = uint8(x)
	case 2:
		*(*uint16)(p) = uint16(x)
	default:
		for k := range size / 4 {
			storeWord(unsafe.Add(p, 4*k), w.v[o.vdata+k][lane])
		}
	}
}

// d16Shift is where a byte or short store's data sits in its register.
func d16Shift(o *vmOp) uint {
	if o.d16hi {
		return 16
	}
	return 0
}

// moveBlock moves lanes l0 to l1-1 of a run, step bytes a lane from a,
// all in a's page.
func (u *vmemUnit) moveBlock(w *Wave, o *vmOp, exec uint64, c *memCtx, a, step uint64, l0, l1 int) {
	if c.size >= 4 {
		u.moveDwords(w, o, exec, c, a, step, l0, l1)
		return
	}
	store := o.kind == vmStore
	mask := exec >> (uint(l0) & 63) & (^uint64(0) >> (uint(64-(l1-l0)) & 63)) // l1-l0 ≥ 1
	if store && mask == 0 {
		return // no page for a store with nothing to write
	}
	size := uint64(c.size)
	b := o.last.page(a>>pageBits, store)[a&(pageSize-1):]
	p, st := unsafe.Pointer(&b[0]), uintptr(step)
	switch {
	case store && c.size == 1:
		storeRun[uint8](p, st, w.v[o.vdata][l0:l1], d16Shift(o), mask)
	case store:
		storeRun[uint16](p, st, w.v[o.vdata][l0:l1], d16Shift(o), mask)
	}
	if store {
		return
	}
	d := c.res.data[0][l0:l1]
	if step == size {
		switch {
		case c.size == 1 && o.signed:
			loadBytes(d, b, true)
		case c.size == 1:
			loadBytes(d, b, false)
		default:
			loadShorts(d, b, o.signed)
		}
		return
	}
	switch {
	case c.size == 1 && o.signed:
		loadRun[int8](d, p, st)
	case c.size == 1:
		loadRun[uint8](d, p, st)
	case o.signed:
		loadRun[int16](d, p, st)
	default:
		loadRun[uint16](d, p, st)
	}
}

// quickRun is execWave for a wave of a GLOBAL byte, short or dword
// operation of 64-bit addresses whose last wave was a run of its elements
// (opCache.quick) when this one is such a run too, with lanes 0 to n-1
// holding the active ones (n ≥ 2; every one of them for a store), in one
// page: it checks the lanes as laneRun and moveRun do and, having issued
// the operation as execWave does, moves them as moveBlock does, with none
// of fastWave's set-up. It reports false, having done nothing, for any
// other wave.
func (u *vmemUnit) quickRun(w *Wave, o *vmOp) bool {
	exec := w.exec()
	n := bits.Len64(exec)
	store := o.kind == vmStore
	if n < 2 || store && exec&(exec+1) != 0 || o.wspec != specGlobal || o.size > 4 {
		return false
	}
	size := uint64(o.size)
	step := size
	r0, r1 := &w.v[o.vaddr&255], &w.v[(o.vaddr+1)&255]
	x, y := r0[0], r1[0]
	if uint64(x)+uint64(n-1)*step > math.MaxUint32 {
		return false
	}
	if n == 64 && simd.SIMD { // a whole wave: consecutiveHi's vector check without its call
		if r0[63] != x+63*uint32(step) || r1[63] != y || !simd.Progressions(r0, r1, uint32(step), 0) {
			return false
		}
	} else if !consecutiveHi(r0[:n], r1[:n], uint32(step)) {
		return false
	}
	a0 := (uint64(x) | uint64(y)<<32) + uint64(o.offset)
	hi := a0 + uint64(n-1)*step
	end := hi + size
	c := &o.last
	if end < a0 || end < hi || size == 4 && a0&3 != 0 || a0>>pageBits != (end-1)>>pageBits ||
		!(c.mem == w.m.Mem && a0 >= c.lo && end <= c.hi) && !c.covers(w.m.Mem, a0, end) || w.m.Mem.atomicWords() {
		return false
	}
	id := w.IssueVector(isa.CntVM, 1, uint64(w.m.Config.Latency.VectorMem))
	pg := c.page(a0>>pageBits, store)
	p := unsafe.Add(unsafe.Pointer(pg), a0&(pageSize-1))
	if store {
		src, shift := w.v[o.vdata&255][:n], d16Shift(o)
		switch size {
		case 1:
			storeBytes(p, src, shift)
		case 2:
			storeShorts(p, src, shift)
		default:
			copyDwords(unsafe.Slice((*uint32)(p), n), src)
		}
		return true
	}
	d16 := uint8(0)
	if o.d16 {
		d16 = 1
		if o.d16hi {
			d16 = 2
		}
	}
	d := u.reserve(id, o.vdst, 1, exec, d16).data[0][:n]
	switch b := unsafe.Slice((*byte)(p), n*int(size)); size {
	case 1:
		loadBytes(d, b, o.signed)
	case 2:
		loadShorts(d, b, o.signed)
	default:
		copyDwords(d, unsafe.Slice((*uint32)(p), n))
	}
	return true
}

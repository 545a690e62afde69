package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
	"math"
	"math/bits"
	"unsafe"
)

// laneRun reports whether the address of every lane from 0 to n-1, active
// or not, is a0 + step·lane with step 0, at least size (GLOBAL, FLAT:
// lanes that do not overlap) or 4 (SCRATCH and private, whatever the
// size), and returns a0 and step. base
// and limit are fastWave's; size is the element's: 1, 2 or 4 bytes, or 8,
// 12 or 16 for GLOBAL and FLAT.
func laneRun(w *core.Wave, o *ref.VmOp, spec int, base, limit, size uint64, n int) (a0, step uint64, ok bool) {
	v0 := vaddrLanes(w, o, spec)[:n]
	x := v0[0]
	// A private offset is 32 bits; a 64-bit address adds o.offset sign-extended.
	off := uint32(o.Offset)
	if spec == specScratch || spec == specPrivate { // lane l at 4·l from a uniform offset
		if !Uniform(v0) {
			return 0, 0, false
		}
		if p := uint32(limit) + off + x; spec == specScratch {
			return base + uint64(p&3) + 256*uint64(p>>2), 4, true
		}
		t := (off+x)&3 + (off+x)>>2<<8 // waveAddrs' 32-bit private offset of lane 0
		return base + uint64(t), 4, t <= math.MaxUint32-63*4
	}
	step = 0
	if !Uniform(v0) {
		step = uint64(v0[1] - x) // n > 1; size, or more for a field of an array of structs
		if step < size || uint64(x)+uint64(n-1)*step > math.MaxUint32 {
			return 0, 0, false
		}
		if spec != specGlobalS {
			v1 := w.V[o.Vaddr+1][:n]
			return (uint64(x) | uint64(v1[0])<<32) + uint64(o.Offset), step, ConsecutiveHi(v0, v1, uint32(step))
		}
		if !Consecutive(v0, uint32(step)) {
			return 0, 0, false
		}
	}
	if spec == specGlobalS {
		return base + uint64(o.Offset) + uint64(x), step, true
	}
	v1 := w.V[o.Vaddr+1][:n]
	return (uint64(x) | uint64(v1[0])<<32) + uint64(o.Offset), step, Uniform(v1)
}

// ConsecutiveHi reports consecutive(lo, step) && uniform(hi) (lo and hi
// of one length, lo's last lane not wrapping) — the low and high dwords
// of 64-bit addresses: a whole wave's by the vector check (with SIMD),
// else four lanes a step.
func ConsecutiveHi(lo, hi []uint32, step uint32) bool {
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
		return Consecutive(lo, step) && Uniform(hi)
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

// Uniform reports whether every lane of v holds v[0].
func Uniform(v []uint32) bool {
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

// Consecutive reports whether lane l of v holds v[0] + step·l.
func Consecutive(v []uint32, step uint32) bool {
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
	if !core.HostLE || uintptr(p)&7 != 0 || len(v) < 2 {
		return nil
	}
	return unsafe.Slice((*uint64)(p), len(v)/2)
}

// moveRun moves the elements at a0 + step·lane of the active lanes (n
// lanes from 0 hold them all) when they pass fastWave's checks and no
// element crosses a page; it reports false, having moved nothing,
// otherwise, or when the run meets more than two pages (steps over 64
// bytes can): the lanes in each page move as a block.
func moveRun(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, exec uint64, c *ref.MemCtx, spec int, base, limit, a0, step uint64, n int) bool {
	size := uint64(c.Size)
	hi := a0 + uint64(n-1)*step
	end := hi + size
	if end < a0 || !waveFits(w, o, spec, base, limit, size, a0, hi, a0|step) {
		return false
	}
	m := n // lanes in a0's page
	if p0 := a0 >> core.PageBits; p0 != (end-1)>>core.PageBits {
		next := (p0 + 1) << core.PageBits
		if step == 0 {
			return false // the one element crosses
		}
		m = int((next - a0 + step - 1) / step)
		if a0+uint64(m-1)*step+size > next || hi>>core.PageBits != p0+1 {
			return false
		}
	}
	if o.Kind == ref.VmStore && step == 0 { // lane after lane: the highest wins
		storeOne(u, w, o, c.Size, a0, 63-bits.LeadingZeros64(exec))
		return true
	}
	moveBlock(u, w, o, exec, c, a0, step, 0, m)
	if m < n {
		moveBlock(u, w, o, exec, c, a0+uint64(m)*step, step, m, n)
	}
	return true
}

// storeOne writes lane's data at a, in one page.
func storeOne(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, size int, a uint64, lane int) {
	p := unsafe.Pointer(&Page(&o.Last, a>>core.PageBits, true)[a&(core.PageSize-1)])
	x := w.V[o.Vdata][lane] >> d16Shift(o)
	switch size {
	case 1:
		*(*uint8)(p) = uint8(x)
	case 2:
		*(*uint16)(p) = uint16(x)
	default:
		for k := range size / 4 {
			core.StoreWord(unsafe.Add(p, 4*k), w.V[o.Vdata+k][lane])
		}
	}
}

// d16Shift is where a byte or short store's data sits in its register.
func d16Shift(o *ref.VmOp) uint {
	if o.D16hi {
		return 16
	}
	return 0
}

// moveBlock moves lanes l0 to l1-1 of a run, step bytes a lane from a,
// all in a's page.
func moveBlock(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, exec uint64, c *ref.MemCtx, a, step uint64, l0, l1 int) {
	if c.Size >= 4 {
		moveDwords(u, w, o, exec, c, a, step, l0, l1)
		return
	}
	store := o.Kind == ref.VmStore
	mask := exec >> (uint(l0) & 63) & (^uint64(0) >> (uint(64-(l1-l0)) & 63)) // l1-l0 ≥ 1
	if store && mask == 0 {
		return // no page for a store with nothing to write
	}
	size := uint64(c.Size)
	b := Page(&o.Last, a>>core.PageBits, store)[a&(core.PageSize-1):]
	p, st := unsafe.Pointer(&b[0]), uintptr(step)
	switch {
	case store && c.Size == 1:
		storeRun[uint8](p, st, w.V[o.Vdata][l0:l1], d16Shift(o), mask)
	case store:
		storeRun[uint16](p, st, w.V[o.Vdata][l0:l1], d16Shift(o), mask)
	}
	if store {
		return
	}
	d := c.Res.Data[0][l0:l1]
	if step == size {
		switch {
		case c.Size == 1 && o.Signed:
			LoadBytes(d, b, true)
		case c.Size == 1:
			LoadBytes(d, b, false)
		default:
			LoadShorts(d, b, o.Signed)
		}
		return
	}
	switch {
	case c.Size == 1 && o.Signed:
		loadRun[int8](d, p, st)
	case c.Size == 1:
		loadRun[uint8](d, p, st)
	case o.Signed:
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
func quickRun(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp) bool {
	exec := w.Exec()
	n := bits.Len64(exec)
	store := o.Kind == ref.VmStore
	if n < 2 || store && exec&(exec+1) != 0 || o.Wspec != specGlobal || o.Size > 4 {
		return false
	}
	size := uint64(o.Size)
	step := size
	r0, r1 := &w.V[o.Vaddr&255], &w.V[(o.Vaddr+1)&255]
	x, y := r0[0], r1[0]
	if uint64(x)+uint64(n-1)*step > math.MaxUint32 {
		return false
	}
	if n == 64 && simd.SIMD { // a whole wave: consecutiveHi's vector check without its call
		if r0[63] != x+63*uint32(step) || r1[63] != y || !simd.Progressions(r0, r1, uint32(step), 0) {
			return false
		}
	} else if !ConsecutiveHi(r0[:n], r1[:n], uint32(step)) {
		return false
	}
	a0 := (uint64(x) | uint64(y)<<32) + uint64(o.Offset)
	hi := a0 + uint64(n-1)*step
	end := hi + size
	c := &o.Last
	if end < a0 || end < hi || size == 4 && a0&3 != 0 || a0>>core.PageBits != (end-1)>>core.PageBits ||
		!(c.Mem == w.M.Mem && a0 >= c.Lo && end <= c.Hi) && !Covers(c, w.M.Mem, a0, end) || w.M.Mem.AtomicWords() {
		return false
	}
	id := ref.IssueVector(w, isa.CntVM, 1, uint64(w.M.Config.Latency.VectorMem))
	pg := Page(c, a0>>core.PageBits, store)
	p := unsafe.Add(unsafe.Pointer(pg), a0&(core.PageSize-1))
	if store {
		src, shift := w.V[o.Vdata&255][:n], d16Shift(o)
		switch size {
		case 1:
			StoreBytes(p, src, shift)
		case 2:
			StoreShorts(p, src, shift)
		default:
			copyDwords(unsafe.Slice((*uint32)(p), n), src)
		}
		return true
	}
	d16 := uint8(0)
	if o.D16 {
		d16 = 1
		if o.D16hi {
			d16 = 2
		}
	}
	d := u.Reserve(id, o.Vdst, 1, exec, d16).Data[0][:n]
	switch b := unsafe.Slice((*byte)(p), n*int(size)); size {
	case 1:
		LoadBytes(d, b, o.Signed)
	case 2:
		LoadShorts(d, b, o.Signed)
	default:
		copyDwords(d, unsafe.Slice((*uint32)(p), n))
	}
	return true
}

package emu

// The DS fast path: ds_read/ds_write of every size (b8…b128, u8/i8/u16/i16,
// d16 forms, read2/write2 and their st64 forms, addtid) and the one-address
// 32- and 64-bit LDS atomics, in the fast form of DS instructions
// (execVMEMFast: unjournaled steps, as in grid runs). It computes each
// lane's address inline and reads and writes the LDS window's pages
// directly — no per-lane closures, no byte buffers for whole dwords, no
// journal — and falls back to the general path of ds_exec.go for everything else (src2, wrxchg2,
// condxchg, append/consume, permutes, swizzle, GDS). Results are the
// general path's exactly: the same range checks (the work-group's LDS size,
// and M0 on GFX8), the same lane order, the same counters and latency;
// TestDSFastMatchesGeneral compares the two on random operations. Bank
// conflicts are only noted in step records, so the fast path does not count
// them. An access that straddles two pages goes through Memory like the
// general path.

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/wavedbg/wavedbg/isa"
)

// ldsPager reads and writes the LDS window of one wave's memory for one
// instruction, remembering the last page it used: LDS addresses
// [lo, lo+n4+3) are in that page and in range.
type ldsPager struct {
	u   *vmemUnit
	w   *Wave
	lim uint32 // first out-of-range LDS address
	lo  uint32 // LDS address of pg
	n4  uint32 // dwords at lo…lo+n4-1 are in pg and in range
	n8  uint32 // 8-byte accesses at lo…lo+n8-1 are in pg and in range
	k   uint32 // LDS page number of pg
	pg  *[pageSize]byte
}

func (p *ldsPager) page(k uint32, create bool) *[pageSize]byte {
	if p.pg != nil && p.k == k {
		return p.pg
	}
	pg := p.w.m.Mem.page(SharedApertureBase>>pageBits+uint64(k), create)
	if pg != nil {
		p.k, p.pg, p.lo = k, pg, k<<pageBits
		p.n4, p.n8 = 0, 0
		span := min(uint64(p.lo)+pageSize, uint64(p.lim)) - min(uint64(p.lo), uint64(p.lim))
		if span >= 4 {
			p.n4 = uint32(span) - 3
		}
		if span >= 8 {
			p.n8 = uint32(span) - 7
		}
	}
	return pg
}

// window returns lo, n4 and the page pg points to, for loops that keep
// them in registers (a slow access may move the window).
func (p *ldsPager) window() (lo, n4 uint32, pg unsafe.Pointer) {
	return p.lo, p.n4, unsafe.Pointer(p.pg)
}

// in reports whether [a, a+n) is in range.
func (p *ldsPager) in(a, n uint32) bool { return uint64(a)+uint64(n) <= uint64(p.lim) }

// load32Slow returns the dword at a (0 when out of range); the loops
// read an in-range dword of the page last used inline.
func (p *ldsPager) load32Slow(a uint32) uint32 {
	if !p.in(a, 4) {
		return 0
	}
	off := a & (pageSize - 1)
	if off > pageSize-4 {
		var b [4]byte
		p.u.ldsRead(p.w, a, b[:], p.lim)
		return binary.LittleEndian.Uint32(b[:])
	}
	if pg := p.page(a>>pageBits, false); pg != nil {
		return binary.LittleEndian.Uint32(pg[off:])
	}
	return 0
}

// store32Slow writes the dword v at a (dropped when out of range); the
// loops write an in-range dword of the page last used inline.
func (p *ldsPager) store32Slow(a, v uint32) {
	if !p.in(a, 4) {
		return
	}
	off := a & (pageSize - 1)
	if off > pageSize-4 {
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], v)
		p.u.ldsWrite(p.w, a, b[:], p.lim, 0)
		return
	}
	binary.LittleEndian.PutUint32(p.page(a>>pageBits, true)[off:], v)
}

// load fills b from a (zeros when out of range).
func (p *ldsPager) load(a uint32, b []byte) {
	n := uint32(len(b))
	if !p.in(a, n) {
		clear(b)
		return
	}
	off := a & (pageSize - 1)
	if off+n > pageSize {
		p.u.ldsRead(p.w, a, b, p.lim)
		return
	}
	if pg := p.page(a>>pageBits, false); pg != nil {
		copy(b, pg[off:])
	} else {
		clear(b)
	}
}

// store writes b at a (dropped when out of range).
func (p *ldsPager) store(a uint32, b []byte, why uint8) {
	n := uint32(len(b))
	if !p.in(a, n) {
		return
	}
	off := a & (pageSize - 1)
	if off+n > pageSize {
		p.u.ldsWrite(p.w, a, b, p.lim, why)
		return
	}
	copy(p.page(a>>pageBits, true)[off:], b)
}

// dsFastOK reports whether the fast path handles o.
func dsFastOK(o *vmOp) bool {
	d := &o.ds
	switch d.kind {
	case dsRead, dsWrite:
		return !d.src2
	case dsAtomic:
		return !d.src2 && !d.two && d.data0 >= 0 && o.atom != atCondXchg32 && (o.size == 4 || o.size == 8)
	}
	return false
}

// execDSFast executes o when the fast path handles it and reports whether
// it did; it does nothing otherwise.
func (u *vmemUnit) execDSFast(w *Wave, o *vmOp, exec uint64, lim uint32, lat uint64) bool {
	if !dsFastOK(o) {
		return false
	}
	switch o.ds.kind {
	case dsRead:
		u.dsFastRead(w, o, exec, lim, lat)
	case dsWrite:
		u.dsFastWrite(w, o, exec, lim, lat)
	default:
		u.dsFastAtomic(w, o, exec, lim, lat)
	}
	return true
}

// dsFastRead is execDS's dsRead case.
func (u *vmemUnit) dsFastRead(w *Wave, o *vmOp, exec uint64, lim uint32, lat uint64) {
	d := &o.ds
	ndw := (o.size + 3) / 4
	if d.two {
		ndw = 2 * o.size / 4
	}
	d16 := uint8(0)
	if o.d16 {
		ndw, d16 = 1, 1
		if o.d16hi {
			d16 = 2
		}
	}
	id := w.IssueVector(isa.CntLGKM, 1, lat)
	res := u.result(id, o.vdst, ndw, exec, d16)
	p := ldsPager{u: u, w: w, lim: lim}
	if d.addtid {
		base := w.s[codeM0]&0xffff + uint32(o.offset)
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			a := base + 4*uint32(lane)
			if x := a - p.lo; x < p.n4 {
				res.data[0][lane] = binary.LittleEndian.Uint32(p.pg[x:])
			} else {
				res.data[0][lane] = p.load32Slow(a)
			}
		}
		return
	}
	va := &w.v[o.vaddr]
	switch {
	case o.size == 4 && !d.two && !o.d16:
		off := uint32(o.offset)
		r := &res.data[0]
		if hostLE && exec&(exec+1) == 0 { // a prefix of the lanes (a whole wave): no mask walk
			lo, n4, pg := p.window()
			for l, a := range va[:bits.Len64(exec)] {
				a += off
				if x := a - lo; x < n4 {
					r[l] = *(*uint32)(unsafe.Add(pg, x))
				} else {
					r[l] = p.load32Slow(a)
					lo, n4, pg = p.window()
				}
			}
			break
		}
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			a := va[lane] + off
			if x := a - p.lo; x < p.n4 {
				r[lane] = binary.LittleEndian.Uint32(p.pg[x:])
			} else {
				r[lane] = p.load32Slow(a)
			}
		}
	case o.size == 4 && d.two:
		o0, o1 := d.off0*d.stride, d.off1*d.stride
		r0, r1 := &res.data[0], &res.data[1]
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			a := va[lane]
			a0, a1 := a+o0, a+o1
			if x := a0 - p.lo; x < p.n4 {
				r0[lane] = binary.LittleEndian.Uint32(p.pg[x:])
			} else {
				r0[lane] = p.load32Slow(a0)
			}
			if x := a1 - p.lo; x < p.n4 {
				r1[lane] = binary.LittleEndian.Uint32(p.pg[x:])
			} else {
				r1[lane] = p.load32Slow(a1)
			}
		}
	case o.size < 4 && !d.two:
		off, n, sh := uint32(o.offset), uint32(o.size), 32-8*uint32(o.size)
		r := &res.data[0]
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			a := va[lane] + off
			var b [2]byte
			if y := a - p.lo; y < p.n4 {
				b[0], b[1] = p.pg[y], p.pg[y+1]
			} else {
				p.load(a, b[:n])
			}
			x := uint32(b[0])
			if n == 2 {
				x |= uint32(b[1]) << 8
			}
			if o.signed {
				x = uint32(int32(x<<sh) >> sh)
			}
			r[lane] = x
		}
	case o.size == 8:
		offs := [2]uint32{uint32(o.offset), 0}
		parts := 1
		if d.two {
			offs = [2]uint32{d.off0 * d.stride, d.off1 * d.stride}
			parts = 2
		}
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			for k := 0; k < parts; k++ {
				a := va[lane] + offs[k]
				var x uint64
				if y := a - p.lo; y < p.n8 {
					x = binary.LittleEndian.Uint64(p.pg[y:])
				} else {
					var b [8]byte
					p.load(a, b[:])
					x = binary.LittleEndian.Uint64(b[:])
				}
				res.data[2*k][lane], res.data[2*k+1][lane] = uint32(x), uint32(x>>32)
			}
		}
	default:
		parts := 1
		if d.two {
			parts = 2
		}
		offs := [2]uint32{uint32(o.offset), 0}
		if d.two {
			offs = [2]uint32{d.off0 * d.stride, d.off1 * d.stride}
		}
		n := o.size
		var buf [16]byte
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			for k := 0; k < parts; k++ {
				p.load(va[lane]+offs[k], buf[k*n:k*n+n])
			}
			if n < 4 && !d.two {
				x := uint32(buf[0])
				if n == 2 {
					x |= uint32(buf[1]) << 8
				}
				if o.signed {
					x = uint32(int32(x<<(32-8*n)) >> (32 - 8*n))
				}
				res.data[0][lane] = x
				continue
			}
			for k := 0; k < ndw; k++ {
				res.data[k][lane] = binary.LittleEndian.Uint32(buf[4*k:])
			}
		}
	}
}

// dsFastWrite is execDS's dsWrite case.
func (u *vmemUnit) dsFastWrite(w *Wave, o *vmOp, exec uint64, lim uint32, lat uint64) {
	d := &o.ds
	w.IssueVector(isa.CntLGKM, 1, lat)
	p := ldsPager{u: u, w: w, lim: lim}
	dv := &w.v[d.data0]
	if d.addtid {
		base := w.s[codeM0]&0xffff + uint32(o.offset)
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			a := base + 4*uint32(lane)
			if x := a - p.lo; x < p.n4 {
				binary.LittleEndian.PutUint32(p.pg[x:], dv[lane])
			} else {
				p.store32Slow(a, dv[lane])
			}
		}
		return
	}
	va := &w.v[o.vaddr]
	switch {
	case o.size == 4 && !d.two && !o.d16hi:
		off := uint32(o.offset)
		if hostLE && exec&(exec+1) == 0 { // a prefix of the lanes: no mask walk
			lo, n4, pg := p.window()
			for l, a := range va[:bits.Len64(exec)] {
				a += off
				if x := a - lo; x < n4 {
					*(*uint32)(unsafe.Add(pg, x)) = dv[l]
				} else {
					p.store32Slow(a, dv[l])
					lo, n4, pg = p.window()
				}
			}
			break
		}
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			a := va[lane] + off
			if x := a - p.lo; x < p.n4 {
				binary.LittleEndian.PutUint32(p.pg[x:], dv[lane])
			} else {
				p.store32Slow(a, dv[lane])
			}
		}
	case o.size == 4 && d.two:
		o0, o1 := d.off0*d.stride, d.off1*d.stride
		dv1 := &w.v[d.data1]
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			a := va[lane]
			a0, a1 := a+o0, a+o1
			if x := a0 - p.lo; x < p.n4 {
				binary.LittleEndian.PutUint32(p.pg[x:], dv[lane])
			} else {
				p.store32Slow(a0, dv[lane])
			}
			if x := a1 - p.lo; x < p.n4 {
				binary.LittleEndian.PutUint32(p.pg[x:], dv1[lane])
			} else {
				p.store32Slow(a1, dv1[lane])
			}
		}
	case o.size < 4 && !d.two:
		off, n := uint32(o.offset), uint32(o.size)
		var sh uint32
		if o.d16hi {
			sh = 16
		}
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			a := va[lane] + off
			v := dv[lane] >> sh
			if y := a - p.lo; y < p.n4 {
				p.pg[y] = byte(v)
				if n == 2 {
					p.pg[y+1] = byte(v >> 8)
				}
			} else {
				b := [2]byte{byte(v), byte(v >> 8)}
				p.store(a, b[:n], 0)
			}
		}
	case o.size == 8:
		offs := [2]uint32{uint32(o.offset), 0}
		parts := 1
		if d.two {
			offs = [2]uint32{d.off0 * d.stride, d.off1 * d.stride}
			parts = 2
		}
		srcs := [2]int{d.data0, d.data1}
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			for k := 0; k < parts; k++ {
				a := va[lane] + offs[k]
				x := uint64(w.v[srcs[k]][lane]) | uint64(w.v[srcs[k]+1][lane])<<32
				if y := a - p.lo; y < p.n8 {
					binary.LittleEndian.PutUint64(p.pg[y:], x)
				} else {
					var b [8]byte
					binary.LittleEndian.PutUint64(b[:], x)
					p.store(a, b[:], 0)
				}
			}
		}
	default:
		parts := 1
		if d.two {
			parts = 2
		}
		offs := [2]uint32{uint32(o.offset), 0}
		if d.two {
			offs = [2]uint32{d.off0 * d.stride, d.off1 * d.stride}
		}
		srcs := [2]int{d.data0, d.data1}
		ndw := (o.size + 3) / 4
		var b [16]byte
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			for k := 0; k < parts; k++ {
				src := srcs[k]
				for i := 0; i < ndw; i++ {
					binary.LittleEndian.PutUint32(b[4*i:], w.v[src+i][lane])
				}
				if o.d16hi {
					binary.LittleEndian.PutUint32(b[:], w.v[src][lane]>>16)
				}
				p.store(va[lane]+offs[k], b[:o.size], 0)
			}
		}
	}
}

// dsFastAtomic is execDS's dsAtomic case for one-address 32- and 64-bit
// atomics (not src2, wrxchg2 or condxchg).
func (u *vmemUnit) dsFastAtomic(w *Wave, o *vmOp, exec uint64, lim uint32, lat uint64) {
	d := &o.ds
	var res *vmResult
	id := w.IssueVector(isa.CntLGKM, 1, lat)
	if o.ret {
		res = u.result(id, o.vdst, o.size/4, exec, 0)
	}
	p := ldsPager{u: u, w: w, lim: lim}
	va := &w.v[o.vaddr]
	off := uint32(o.offset)
	if o.size == 4 {
		dv := &w.v[d.data0]
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			a := va[lane] + off
			var old uint32
			if x := a - p.lo; x < p.n4 {
				old = binary.LittleEndian.Uint32(p.pg[x:])
				nv := old + dv[lane]
				if o.atom != atAdd {
					nv = u.atom32(w, o, lane, old, dv[lane])
				}
				binary.LittleEndian.PutUint32(p.pg[x:], nv)
			} else if p.in(a, 4) {
				if pa := a & (pageSize - 1); pa <= pageSize-4 {
					pg := p.page(a>>pageBits, true)
					old = binary.LittleEndian.Uint32(pg[pa:])
					binary.LittleEndian.PutUint32(pg[pa:], u.atom32(w, o, lane, old, dv[lane]))
				} else {
					var b [4]byte
					p.u.ldsRead(w, a, b[:], lim)
					old = binary.LittleEndian.Uint32(b[:])
					binary.LittleEndian.PutUint32(b[:], u.atom32(w, o, lane, old, dv[lane]))
					u.ldsWrite(w, a, b[:], lim, 1)
				}
			}
			if res != nil {
				res.data[0][lane] = old
			}
		}
		return
	}
	for m := exec; m != 0; m &= m - 1 {
		lane := bits.TrailingZeros64(m)
		a := va[lane] + off
		var b [8]byte
		p.load(a, b[:])
		old := binary.LittleEndian.Uint64(b[:])
		if p.in(a, 8) {
			binary.LittleEndian.PutUint64(b[:], u.dsAtomic(w, o, lane, old, u.dsData(w, d.data0, lane, 8)))
			p.store(a, b[:], 1)
		}
		if res != nil {
			res.data[0][lane] = uint32(old)
			res.data[1][lane] = uint32(old >> 32)
		}
	}
}

// atom32 is dsAtomic for 32-bit data, the common operations inline.
func (u *vmemUnit) atom32(w *Wave, o *vmOp, lane int, old, src uint32) uint32 {
	switch o.atom {
	case atAdd:
		return old + src
	case atSub:
		return old - src
	case atAnd:
		return old & src
	case atOr:
		return old | src
	case atXor:
		return old ^ src
	case atUMin:
		return min(old, src)
	case atUMax:
		return max(old, src)
	case atSwap:
		return src
	}
	return uint32(u.dsAtomic(w, o, lane, uint64(old), uint64(src)))
}

package fast

import (
	"encoding/binary"
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
	"math/bits"
	"unsafe"
)

// ldsPager reads and writes the LDS window of one wave's memory for one
// instruction, remembering the last page it used: LDS addresses
// [lo, lo+n4+3) are in that page and in range.
type ldsPager struct {
	u   *ref.VMemUnit
	w   *core.Wave
	lim uint32 // first out-of-range LDS address
	lo  uint32 // LDS address of pg
	n4  uint32 // dwords at lo…lo+n4-1 are in pg and in range
	n8  uint32 // 8-byte accesses at lo…lo+n8-1 are in pg and in range
	k   uint32 // LDS page number of pg
	pg  *[core.PageSize]byte
}

func (p *ldsPager) page(k uint32, create bool) *[core.PageSize]byte {
	if p.pg != nil && p.k == k {
		return p.pg
	}
	pg := p.w.M.Mem.Page(core.SharedApertureBase>>core.PageBits+uint64(k), create)
	if pg != nil {
		p.k, p.pg, p.lo = k, pg, k<<core.PageBits
		p.n4, p.n8 = 0, 0
		span := min(uint64(p.lo)+core.PageSize, uint64(p.lim)) - min(uint64(p.lo), uint64(p.lim))
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
	off := a & (core.PageSize - 1)
	if off > core.PageSize-4 {
		var b [4]byte
		p.u.LdsRead(p.w, a, b[:], p.lim)
		return binary.LittleEndian.Uint32(b[:])
	}
	if pg := p.page(a>>core.PageBits, false); pg != nil {
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
	off := a & (core.PageSize - 1)
	if off > core.PageSize-4 {
		var b [4]byte
		binary.LittleEndian.PutUint32(b[:], v)
		p.u.LdsWrite(p.w, a, b[:], p.lim, 0)
		return
	}
	binary.LittleEndian.PutUint32(p.page(a>>core.PageBits, true)[off:], v)
}

// load fills b from a (zeros when out of range).
func (p *ldsPager) load(a uint32, b []byte) {
	n := uint32(len(b))
	if !p.in(a, n) {
		clear(b)
		return
	}
	off := a & (core.PageSize - 1)
	if off+n > core.PageSize {
		p.u.LdsRead(p.w, a, b, p.lim)
		return
	}
	if pg := p.page(a>>core.PageBits, false); pg != nil {
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
	off := a & (core.PageSize - 1)
	if off+n > core.PageSize {
		p.u.LdsWrite(p.w, a, b, p.lim, why)
		return
	}
	copy(p.page(a>>core.PageBits, true)[off:], b)
}

// DsFastOK reports whether the fast path handles o.
func DsFastOK(o *ref.VmOp) bool {
	d := &o.Ds
	switch d.Kind {
	case ref.DsRead, ref.DsWrite:
		return !d.Src2
	case ref.DsAtomic:
		return !d.Src2 && !d.Two && d.Data0 >= 0 && o.Atom != ref.AtCondXchg32 && (o.Size == 4 || o.Size == 8)
	}
	return false
}

// execDSFast executes o when the fast path handles it and reports whether
// it did; it does nothing otherwise.
func execDSFast(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, exec uint64, lim uint32, lat uint64) bool {
	if !DsFastOK(o) {
		return false
	}
	switch o.Ds.Kind {
	case ref.DsRead:
		dsFastRead(u, w, o, exec, lim, lat)
	case ref.DsWrite:
		dsFastWrite(u, w, o, exec, lim, lat)
	default:
		dsFastAtomic(u, w, o, exec, lim, lat)
	}
	return true
}

// dsFastRead is execDS's dsRead case.
func dsFastRead(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, exec uint64, lim uint32, lat uint64) {
	d := &o.Ds
	ndw := (o.Size + 3) / 4
	if d.Two {
		ndw = 2 * o.Size / 4
	}
	d16 := uint8(0)
	if o.D16 {
		ndw, d16 = 1, 1
		if o.D16hi {
			d16 = 2
		}
	}
	id := ref.IssueVector(w, isa.CntLGKM, 1, lat)
	res := u.Result(id, o.Vdst, ndw, exec, d16)
	p := ldsPager{u: u, w: w, lim: lim}
	if d.Addtid {
		base := w.S[core.CodeM0]&0xffff + uint32(o.Offset)
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			a := base + 4*uint32(lane)
			if x := a - p.lo; x < p.n4 {
				res.Data[0][lane] = binary.LittleEndian.Uint32(p.pg[x:])
			} else {
				res.Data[0][lane] = p.load32Slow(a)
			}
		}
		return
	}
	va := &w.V[o.Vaddr]
	switch {
	case o.Size == 4 && !d.Two && !o.D16:
		off := uint32(o.Offset)
		r := &res.Data[0]
		if core.HostLE && exec&(exec+1) == 0 { // a prefix of the lanes (a whole wave): no mask walk
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
	case o.Size == 4 && d.Two:
		o0, o1 := d.Off0*d.Stride, d.Off1*d.Stride
		r0, r1 := &res.Data[0], &res.Data[1]
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
	case o.Size < 4 && !d.Two:
		off, n, sh := uint32(o.Offset), uint32(o.Size), 32-8*uint32(o.Size)
		r := &res.Data[0]
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
			if o.Signed {
				x = uint32(int32(x<<sh) >> sh)
			}
			r[lane] = x
		}
	case o.Size == 8:
		offs := [2]uint32{uint32(o.Offset), 0}
		parts := 1
		if d.Two {
			offs = [2]uint32{d.Off0 * d.Stride, d.Off1 * d.Stride}
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
				res.Data[2*k][lane], res.Data[2*k+1][lane] = uint32(x), uint32(x>>32)
			}
		}
	default:
		parts := 1
		if d.Two {
			parts = 2
		}
		offs := [2]uint32{uint32(o.Offset), 0}
		if d.Two {
			offs = [2]uint32{d.Off0 * d.Stride, d.Off1 * d.Stride}
		}
		n := o.Size
		var buf [16]byte
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			for k := 0; k < parts; k++ {
				p.load(va[lane]+offs[k], buf[k*n:k*n+n])
			}
			if n < 4 && !d.Two {
				x := uint32(buf[0])
				if n == 2 {
					x |= uint32(buf[1]) << 8
				}
				if o.Signed {
					x = uint32(int32(x<<(32-8*n)) >> (32 - 8*n))
				}
				res.Data[0][lane] = x
				continue
			}
			for k := 0; k < ndw; k++ {
				res.Data[k][lane] = binary.LittleEndian.Uint32(buf[4*k:])
			}
		}
	}
}

// dsFastWrite is execDS's dsWrite case.
func dsFastWrite(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, exec uint64, lim uint32, lat uint64) {
	d := &o.Ds
	ref.IssueVector(w, isa.CntLGKM, 1, lat)
	p := ldsPager{u: u, w: w, lim: lim}
	dv := &w.V[d.Data0]
	if d.Addtid {
		base := w.S[core.CodeM0]&0xffff + uint32(o.Offset)
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
	va := &w.V[o.Vaddr]
	switch {
	case o.Size == 4 && !d.Two && !o.D16hi:
		off := uint32(o.Offset)
		if core.HostLE && exec&(exec+1) == 0 { // a prefix of the lanes: no mask walk
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
	case o.Size == 4 && d.Two:
		o0, o1 := d.Off0*d.Stride, d.Off1*d.Stride
		dv1 := &w.V[d.Data1]
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
	case o.Size < 4 && !d.Two:
		off, n := uint32(o.Offset), uint32(o.Size)
		var sh uint32
		if o.D16hi {
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
	case o.Size == 8:
		offs := [2]uint32{uint32(o.Offset), 0}
		parts := 1
		if d.Two {
			offs = [2]uint32{d.Off0 * d.Stride, d.Off1 * d.Stride}
			parts = 2
		}
		srcs := [2]int{d.Data0, d.Data1}
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			for k := 0; k < parts; k++ {
				a := va[lane] + offs[k]
				x := uint64(w.V[srcs[k]][lane]) | uint64(w.V[srcs[k]+1][lane])<<32
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
		if d.Two {
			parts = 2
		}
		offs := [2]uint32{uint32(o.Offset), 0}
		if d.Two {
			offs = [2]uint32{d.Off0 * d.Stride, d.Off1 * d.Stride}
		}
		srcs := [2]int{d.Data0, d.Data1}
		ndw := (o.Size + 3) / 4
		var b [16]byte
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			for k := 0; k < parts; k++ {
				src := srcs[k]
				for i := 0; i < ndw; i++ {
					binary.LittleEndian.PutUint32(b[4*i:], w.V[src+i][lane])
				}
				if o.D16hi {
					binary.LittleEndian.PutUint32(b[:], w.V[src][lane]>>16)
				}
				p.store(va[lane]+offs[k], b[:o.Size], 0)
			}
		}
	}
}

// dsFastAtomic is execDS's dsAtomic case for one-address 32- and 64-bit
// atomics (not src2, wrxchg2 or condxchg).
func dsFastAtomic(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, exec uint64, lim uint32, lat uint64) {
	d := &o.Ds
	var res *ref.VmResult
	id := ref.IssueVector(w, isa.CntLGKM, 1, lat)
	if o.Ret {
		res = u.Result(id, o.Vdst, o.Size/4, exec, 0)
	}
	p := ldsPager{u: u, w: w, lim: lim}
	va := &w.V[o.Vaddr]
	off := uint32(o.Offset)
	if o.Size == 4 {
		dv := &w.V[d.Data0]
		for m := exec; m != 0; m &= m - 1 {
			lane := bits.TrailingZeros64(m)
			a := va[lane] + off
			var old uint32
			if x := a - p.lo; x < p.n4 {
				old = binary.LittleEndian.Uint32(p.pg[x:])
				nv := old + dv[lane]
				if o.Atom != ref.AtAdd {
					nv = atom32(u, w, o, lane, old, dv[lane])
				}
				binary.LittleEndian.PutUint32(p.pg[x:], nv)
			} else if p.in(a, 4) {
				if pa := a & (core.PageSize - 1); pa <= core.PageSize-4 {
					pg := p.page(a>>core.PageBits, true)
					old = binary.LittleEndian.Uint32(pg[pa:])
					binary.LittleEndian.PutUint32(pg[pa:], atom32(u, w, o, lane, old, dv[lane]))
				} else {
					var b [4]byte
					p.u.LdsRead(w, a, b[:], lim)
					old = binary.LittleEndian.Uint32(b[:])
					binary.LittleEndian.PutUint32(b[:], atom32(u, w, o, lane, old, dv[lane]))
					u.LdsWrite(w, a, b[:], lim, 1)
				}
			}
			if res != nil {
				res.Data[0][lane] = old
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
			binary.LittleEndian.PutUint64(b[:], u.DsAtomic(w, o, lane, old, u.DsData(w, d.Data0, lane, 8)))
			p.store(a, b[:], 1)
		}
		if res != nil {
			res.Data[0][lane] = uint32(old)
			res.Data[1][lane] = uint32(old >> 32)
		}
	}
}

// atom32 is dsAtomic for 32-bit data, the common operations inline.
func atom32(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, lane int, old, src uint32) uint32 {
	switch o.Atom {
	case ref.AtAdd:
		return old + src
	case ref.AtSub:
		return old - src
	case ref.AtAnd:
		return old & src
	case ref.AtOr:
		return old | src
	case ref.AtXor:
		return old ^ src
	case ref.AtUMin:
		return min(old, src)
	case ref.AtUMax:
		return max(old, src)
	case ref.AtSwap:
		return src
	}
	return uint32(u.DsAtomic(w, o, lane, uint64(old), uint64(src)))
}

package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
	"math"
	"math/bits"
	"unsafe"
)

// Address modes of the fast path.
const (
	fmGlobal  = iota // GLOBAL with a 64-bit vaddr
	fmGlobalS        // GLOBAL with saddr: SGPR pair + 32-bit vaddr
	fmFlat           // FLAT: 64-bit vaddr, global unless in an aperture
	fmScratch        // SCRATCH: private offset, dwords interleaved by lane
	fmBufLin         // MUBUF, unswizzled V#
	fmBufSwz         // MUBUF, swizzled V#
)

// FastOK reports whether o can take the fast path.
func FastOK(o *ref.VmOp) bool {
	if o.Kind != ref.VmLoad && o.Kind != ref.VmStore || o.Format || o.Lds || o.Tfe {
		return false
	}
	switch o.Size {
	case 1, 2, 4, 8, 12, 16:
	default:
		return false
	}
	if o.D16hi && o.Size > 2 {
		return false
	}
	if o.Kind == ref.VmStore && (o.Vdata < 0 || o.Vdata > 255) {
		return false
	}
	switch o.Fam {
	case ref.FamFlat:
		switch o.Seg {
		case isa.SegGlobal:
			return o.Vaddr >= 0 && o.Vaddr <= 255-1 || o.Saddr >= 0 && o.Vaddr >= 0
		case isa.SegScratch:
			return true
		case isa.SegFlat:
			return o.Vaddr >= 0 && o.Vaddr <= 255-1
		}
		return false
	case ref.FamMUBUF:
		return true
	}
	return false
}

// fastPage is the page the fast path last used.
type fastPage struct {
	pn uint64
	pg *[core.PageSize]byte
}

// fastMem runs the lanes of a load or store that fastOK accepts; c is
// execMem's per-instruction state (the result is already reserved).
func fastMem(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, exec uint64, c *ref.MemCtx) error {
	mem := w.M.Mem
	store := o.Kind == ref.VmStore
	size := c.Size
	nch := (size + 3) / 4 // 4-byte chunks per lane
	off := uint64(o.Offset)

	var mode int
	var base uint64 // fmGlobalS: saddr; fmScratch: the wave's scratch; buffers: V# base + SOFFSET
	var sp uint32   // fmScratch: saddr
	rs := &c.Rsrc
	var limit uint64  // stride-0 buffers: BUFOFFSET bound
	var esh, ish uint // swizzle shifts
	idxChk := o.Idxen || rs.AddTid
	switch o.Fam {
	case ref.FamFlat:
		switch o.Seg {
		case isa.SegGlobal:
			mode = fmGlobal
			if o.Saddr >= 0 {
				mode = fmGlobalS
				base = w.Rs64(o.Saddr)
			}
		case isa.SegScratch:
			mode = fmScratch
			base = u.ScratchAddr(w, 0, 0)
			if o.Saddr >= 0 {
				sp = w.Rs(o.Saddr)
			}
		default:
			mode = fmFlat
		}
	default:
		mode = fmBufLin
		if rs.Swizzle {
			mode = fmBufSwz
			esh, ish = uint(bits.TrailingZeros32(rs.ElemSize)), uint(bits.TrailingZeros32(rs.IdxStride))
		}
		base = rs.Base + uint64(c.Soff)
		limit = uint64(rs.NumRecords) - min(uint64(c.Soff), uint64(rs.NumRecords))
	}

	// The commonest shapes first: GLOBAL, and the private segment V#'s
	// one-dword accesses (spills, -O0 stack frames).
	if core.HostLE && (o.Kind == ref.VmLoad || o.Vdata+nch-1 <= 255) {
		spec := 0
		switch {
		case mode == fmGlobal:
			spec = specGlobal
		case mode == fmGlobalS:
			spec = specGlobalS
		case mode == fmFlat:
			spec = specFlat
		case mode == fmScratch && nch <= 1:
			spec = specScratch
		case mode == fmBufSwz && nch == 1 && rs.ElemSize == 4 && rs.IdxStride == 64 && rs.Stride == 0 &&
			rs.AddTid && !o.Idxen && (!o.Offen || o.Vaddr >= 0):
			spec = specPrivate
		}
		if spec == specScratch {
			limit = uint64(sp)
		}
		if spec != 0 {
			// the whole-wave path moves plain words: not for the race detector's views
			if !mem.AtomicWords() && fastWave(u, w, o, exec, c, spec, base, limit) {
				return nil
			}
			if exec = fastRun(u, w, o, exec, c, spec, base, limit); exec == 0 {
				return nil
			}
		}
	}

	size64 := uint64(size)
	span := uint32(4 * (nch - 1)) // from the first dword to the last
	pc := fastPage{pn: ^uint64(0)}
	res := c.Res
	for m := exec; m != 0; m &= m - 1 {
		lane := core.Tz(m)
		var vals [4]uint32
		if store {
			for k := 0; k < nch && o.Vdata+k <= 255; k++ {
				vals[k] = w.V[o.Vdata+k][lane]
			}
			if o.D16hi {
				vals[0] >>= 16
			}
		}
		// The lane's first address (global modes) or private offset
		// (scratch), or its AINDEX and AOFFSET (buffers); ca is the whole
		// access's address when its bytes are contiguous and in range.
		var a, ca uint64
		var index, aoff uint32
		contig := true
		switch mode {
		case fmGlobal:
			a = uint64(w.V[o.Vaddr][lane]) | uint64(w.V[o.Vaddr+1][lane])<<32 + off
			ca = a
		case fmGlobalS:
			a = base + uint64(w.V[o.Vaddr][lane]) + off
			ca = a
		case fmFlat:
			a = uint64(w.V[o.Vaddr][lane]) | uint64(w.V[o.Vaddr+1][lane])<<32 + off
			if a-core.SharedApertureBase < core.ApertureSize || a-core.PrivateApertureBase < core.ApertureSize {
				goto slow
			}
			ca = a
		case fmScratch:
			p := sp
			if o.Vaddr >= 0 {
				p += w.V[o.Vaddr][lane]
			}
			p += uint32(o.Offset)
			a = uint64(p)
			ca, contig = base+uint64(p&3)+4*uint64(lane)+256*uint64(p>>2), nch == 1
		case fmBufLin:
			index, aoff = rs.IndexOffset(w, o, lane)
			bo := index*rs.Stride + aoff
			contig = bo <= math.MaxUint32-span && (rs.Stride == 0 && uint64(bo+span) < limit ||
				rs.Stride != 0 && index < rs.NumRecords && (!idxChk || aoff <= math.MaxUint32-span && aoff+span < rs.Stride))
			ca = base + uint64(bo)
		default:
			index, aoff = rs.IndexOffset(w, o, lane)
			es, is := rs.ElemSize, rs.IdxStride
			bo := aoff&(es-1) + (index&(is-1))<<esh + ((index>>ish)*rs.Stride+(aoff>>esh)<<esh)<<ish
			contig = nch == 1 && (rs.Stride == 0 && uint64(bo) < limit ||
				rs.Stride != 0 && index < rs.NumRecords && (!idxChk || aoff < rs.Stride))
			ca = base + uint64(bo)
		}
		// The common case: all of it in one page of the cached allocation,
		// dword-aligned unless narrower.
		if end := ca + size64; contig && core.HostLE && ca >= u.MapLo && end <= u.MapHi && end >= ca &&
			ca&(core.PageSize-1)+size64 <= core.PageSize && (size < 4 || ca&3 == 0) {
			if pn := ca >> core.PageBits; pn != pc.pn {
				pc.pn, pc.pg = pn, mem.Page(pn, store)
			}
			pg, po := pc.pg, ca&(core.PageSize-1)
			if store {
				p := unsafe.Pointer(&pg[po])
				switch {
				case size == 1:
					pg[po] = byte(vals[0])
				case size == 2:
					*(*uint16)(p) = uint16(vals[0])
				default:
					for k := 0; k < nch; k++ {
						core.StoreWord(unsafe.Add(p, 4*k), vals[k])
					}
				}
				continue
			}
			if pg != nil {
				p := unsafe.Pointer(&pg[po])
				switch size {
				case 1:
					vals[0] = uint32(pg[po])
				case 2:
					vals[0] = uint32(*(*uint16)(p))
				default:
					for k := 0; k < nch; k++ {
						vals[k] = core.LoadWord(unsafe.Add(p, 4*k))
					}
				}
			}
			if size < 4 && o.Signed {
				vals[0] = uint32(int32(vals[0]<<(32-8*size)) >> (32 - 8*size))
			}
			for k := 0; k < c.Ndw && k < 4; k++ {
				res.Data[k][lane] = vals[k]
			}
			continue
		}
		for k := 0; k < nch; k++ {
			n := min(4, size-4*k)
			var ad uint64
			switch mode {
			case fmScratch:
				p := uint32(a) + uint32(4*k)
				ad = base + uint64(p&3) + 4*uint64(lane) + 256*uint64(p>>2)
			case fmBufLin, fmBufSwz:
				ao := aoff + uint32(4*k)
				var bo uint32
				if mode == fmBufLin {
					bo = index*rs.Stride + ao
				} else {
					es, is := rs.ElemSize, rs.IdxStride
					bo = ao&(es-1) + (index&(is-1))<<esh + ((index>>ish)*rs.Stride+(ao>>esh)<<esh)<<ish
				}
				if rs.Stride == 0 {
					if uint64(bo) >= limit {
						continue // out of range: reads 0, writes dropped
					}
				} else if index >= rs.NumRecords || idxChk && ao >= rs.Stride {
					continue
				}
				ad = base + uint64(bo)
			default:
				ad = a + uint64(4*k)
			}
			end := ad + uint64(n)
			if ad < u.MapLo || end > u.MapHi || end < ad {
				if ok, _ := u.Mapped(mem, ad, n); !ok {
					goto slow // faults
				}
			}
			po := ad & (core.PageSize - 1)
			if po+uint64(n) > core.PageSize {
				goto slow
			}
			if pn := ad >> core.PageBits; pn != pc.pn {
				pc.pn, pc.pg = pn, mem.Page(pn, store)
			}
			pg := pc.pg
			if store {
				x := vals[k]
				switch {
				case n == 4 && po&3 == 0 && core.HostLE:
					core.StoreWord(unsafe.Pointer(&pg[po]), x)
				default:
					for i := 0; i < n; i++ {
						pg[po+uint64(i)] = byte(x >> (8 * i))
					}
				}
				continue
			}
			if pg == nil {
				continue // never written: zero
			}
			var x uint32
			switch {
			case n == 4 && po&3 == 0 && core.HostLE:
				x = core.LoadWord(unsafe.Pointer(&pg[po]))
			default:
				for i := 0; i < n; i++ {
					x |= uint32(pg[po+uint64(i)]) << (8 * i)
				}
			}
			vals[k] = x
		}
		if !store {
			if size < 4 && o.Signed {
				vals[0] = uint32(int32(vals[0]<<(32-8*size)) >> (32 - 8*size))
			}
			for k := 0; k < c.Ndw && k < 4; k++ {
				res.Data[k][lane] = vals[k]
			}
		}
		continue
	slow:
		if err := u.LaneMem(w, o, lane, c); err != nil {
			return err
		}
		pc = fastPage{pn: ^uint64(0)} // the general path may have created pages
	}
	return nil
}

// Shapes fastRun handles.
const (
	specGlobal  = 1 + iota // GLOBAL, 64-bit vaddr
	specGlobalS            // GLOBAL, saddr + 32-bit vaddr
	specFlat               // FLAT outside the LDS and private apertures
	specScratch            // SCRATCH, one dword or less
	specPrivate            // MUBUF through the private segment V#: swizzled, 4-byte elements, index stride 64, ADD_TID, STRIDE 0, one dword or less
)

// fastRun is fastMem's loop for the shapes above: lane by lane, while each
// lane's access is in range, in one page of a mapped allocation and
// dword-aligned unless narrower. It returns the lanes left from the first
// one it cannot finish (0 when done), for fastMem's general loop. base is
// the saddr (specGlobalS), the scratch base (specScratch) or V# base +
// SOFFSET (specPrivate); limit is SCRATCH's saddr value or the private
// V#'s BUFOFFSET bound.
func fastRun(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, exec uint64, c *ref.MemCtx, spec int, base, limit uint64) uint64 {
	mem := w.M.Mem
	store := o.Kind == ref.VmStore
	size := uint64(c.Size)
	nch := c.Size / 4
	ndw := min(c.Ndw, 4)
	align := uint64(3)
	if size < 4 {
		align = 0
	}
	off := uint64(o.Offset)
	var v0, v1 *[64]uint32
	if o.Vaddr >= 0 {
		v0 = &w.V[o.Vaddr]
		if spec == specGlobal || spec == specFlat {
			v1 = &w.V[o.Vaddr+1]
		}
	}
	var src [4]*[64]uint32
	if store {
		for k := 0; k < max(nch, 1); k++ {
			src[k] = &w.V[o.Vdata+k]
		}
	}
	shift := uint(0)
	if o.D16hi {
		shift = 16
	}
	var sign uint
	if o.Signed && size < 4 {
		sign = uint(32 - 8*size)
	}
	lo, hi := u.MapLo, u.MapHi
	pn, pg := ^uint64(0), (*[core.PageSize]byte)(nil)
	res := c.Res
	for m := exec; m != 0; m &= m - 1 {
		lane := core.Tz(m) & 63
		var a uint64
		switch spec {
		case specGlobal:
			a = uint64(v0[lane]) | uint64(v1[lane])<<32 + off
		case specGlobalS:
			a = base + uint64(v0[lane]) + off
		case specFlat:
			a = uint64(v0[lane]) | uint64(v1[lane])<<32 + off
			if a-core.SharedApertureBase < core.ApertureSize || a-core.PrivateApertureBase < core.ApertureSize {
				return m
			}
		case specScratch:
			p := uint32(limit)
			if v0 != nil {
				p += v0[lane]
			}
			p += uint32(off)
			a = base + uint64(p&3) + 4*uint64(lane) + 256*uint64(p>>2)
		default:
			aoff := uint32(off)
			if o.Offen {
				aoff += v0[lane]
			}
			bo := aoff&3 + uint32(lane)<<2 + aoff>>2<<8
			if uint64(bo) >= limit {
				return m
			}
			a = base + uint64(bo)
		}
		end := a + size
		if a < lo || end > hi || end < a {
			if ok, _ := u.Mapped(mem, a, int(size)); !ok || a < u.MapLo || end > u.MapHi {
				return m
			}
			lo, hi = u.MapLo, u.MapHi
		}
		po := a & (core.PageSize - 1)
		if a&align != 0 || po+size > core.PageSize {
			return m
		}
		if p := a >> core.PageBits; p != pn {
			pn, pg = p, mem.Page(p, store)
		}
		if store {
			p := unsafe.Pointer(&pg[po])
			switch {
			case size == 1:
				pg[po] = byte(src[0][lane] >> shift)
			case size == 2:
				*(*uint16)(p) = uint16(src[0][lane] >> shift)
			default:
				for k := 0; k < nch; k++ {
					core.StoreWord(unsafe.Add(p, 4*k), src[k][lane])
				}
			}
			continue
		}
		var vals [4]uint32
		if pg != nil {
			p := unsafe.Pointer(&pg[po])
			switch size {
			case 1:
				vals[0] = uint32(pg[po])
			case 2:
				vals[0] = uint32(*(*uint16)(p))
			default:
				for k := 0; k < nch; k++ {
					vals[k] = core.LoadWord(unsafe.Add(p, 4*k))
				}
			}
		}
		if sign != 0 {
			vals[0] = uint32(int32(vals[0]<<sign) >> sign)
		}
		for k := 0; k < ndw; k++ {
			res.Data[k][lane] = vals[k]
		}
	}
	return 0
}

// FastAtomicOK reports whether o is a GLOBAL or FLAT atomic fastAtomic
// can run.
func FastAtomicOK(o *ref.VmOp) bool {
	return core.HostLE && o.Kind == ref.VmAtomic && o.Fam == ref.FamFlat && (o.Size == 4 || o.Size == 8) &&
		o.Vaddr >= 0 && o.Vdata >= 0 && (o.Seg == isa.SegGlobal && o.Saddr >= 0 || o.Vaddr <= 254) &&
		(o.Seg == isa.SegGlobal || o.Seg == isa.SegFlat)
}

// fastAtomic runs the lanes of a GLOBAL or FLAT atomic under one hold of
// the atomics lock, while each lane's word is dword-aligned in one page of
// a mapped allocation (and, for FLAT, outside the apertures). It returns
// the lanes left from the first one it cannot finish, for the general
// path.
func fastAtomic(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, exec uint64, res *ref.VmResult) uint64 {
	mem := w.M.Mem
	size := uint64(o.Size)
	wide := o.Size == 8
	off := uint64(o.Offset)
	var base uint64
	v0 := &w.V[o.Vaddr]
	var v1 *[64]uint32
	saddr := o.Seg == isa.SegGlobal && o.Saddr >= 0
	if saddr {
		base = w.Rs64(o.Saddr)
	} else {
		v1 = &w.V[o.Vaddr+1]
	}
	lo, hi := u.MapLo, u.MapHi
	pn, pg := ^uint64(0), (*[core.PageSize]byte)(nil)
	mem.LockAtomic() // other work-groups may run concurrently
	defer mem.UnlockAtomic()
	for m := exec; m != 0; m &= m - 1 {
		lane := core.Tz(m) & 63
		var a uint64
		if saddr {
			a = base + uint64(v0[lane]) + off
		} else {
			a = uint64(v0[lane]) | uint64(v1[lane])<<32 + off
			if o.Seg == isa.SegFlat && (a-core.SharedApertureBase < core.ApertureSize || a-core.PrivateApertureBase < core.ApertureSize) {
				return m
			}
		}
		end := a + size
		if a < lo || end > hi || end < a {
			if ok, _ := u.Mapped(mem, a, int(size)); !ok || a < u.MapLo || end > u.MapHi {
				return m
			}
			lo, hi = u.MapLo, u.MapHi
		}
		po := a & (core.PageSize - 1)
		if a&3 != 0 || po+size > core.PageSize {
			return m
		}
		if p := a >> core.PageBits; p != pn {
			pn, pg = p, mem.Page(p, true)
		}
		p := unsafe.Pointer(&pg[po])
		old := uint64(core.LoadWord(p))
		if wide {
			old |= uint64(core.LoadWord(unsafe.Add(p, 4))) << 32
		}
		src, cmp := u.AtomicData(w, o, lane)
		nv := ref.AtomicApply(o.Atom, old, src, cmp, wide)
		core.StoreWord(p, uint32(nv))
		if wide {
			core.StoreWord(unsafe.Add(p, 4), uint32(nv>>32))
		}
		if res != nil {
			res.Data[0][lane] = uint32(old)
			if wide {
				res.Data[1][lane] = uint32(old >> 32)
			}
		}
	}
	return 0
}

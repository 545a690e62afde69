package emu

// The fast path of vector memory: plain loads and stores (no format
// conversion, LDS-direct or TFE) of FLAT/GLOBAL/SCRATCH and MUBUF when the
// step is not recorded. Per lane it computes each dword's address inline,
// checks it against the allocation the unit last found mapped, and moves
// the bytes straight between the page and the registers, reusing the page
// while consecutive accesses stay in it. A lane it cannot finish that way —
// a flat address in the LDS or private aperture, an access crossing a page
// or leaving the cached allocation and not mapped — runs the general path
// (laneMem) from its start, which gives the same bytes and the same fault:
// a store's dwords already written are written again with the same values.
// Before any of that, the commonest shapes try the whole-wave path
// (vmem_wave.go), which checks the wave once and moves it with no
// per-lane checks.

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/wavedbg/wavedbg/isa"
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

// fastOK reports whether o can take the fast path.
func fastOK(o *vmOp) bool {
	if o.kind != vmLoad && o.kind != vmStore || o.format || o.lds || o.tfe {
		return false
	}
	switch o.size {
	case 1, 2, 4, 8, 12, 16:
	default:
		return false
	}
	if o.d16hi && o.size > 2 {
		return false
	}
	if o.kind == vmStore && (o.vdata < 0 || o.vdata > 255) {
		return false
	}
	switch o.fam {
	case famFlat:
		switch o.seg {
		case isa.SegGlobal:
			return o.vaddr >= 0 && o.vaddr <= 255-1 || o.saddr >= 0 && o.vaddr >= 0
		case isa.SegScratch:
			return true
		case isa.SegFlat:
			return o.vaddr >= 0 && o.vaddr <= 255-1
		}
		return false
	case famMUBUF:
		return true
	}
	return false
}

// fastPage is the page the fast path last used.
type fastPage struct {
	pn uint64
	pg *[pageSize]byte
}

// fastMem runs the lanes of a load or store that fastOK accepts; c is
// execMem's per-instruction state (the result is already reserved).
func (u *vmemUnit) fastMem(w *Wave, o *vmOp, exec uint64, c *memCtx) error {
	mem := w.m.Mem
	store := o.kind == vmStore
	size := c.size
	nch := (size + 3) / 4 // 4-byte chunks per lane
	off := uint64(o.offset)

	var mode int
	var base uint64 // fmGlobalS: saddr; fmScratch: the wave's scratch; buffers: V# base + SOFFSET
	var sp uint32   // fmScratch: saddr
	rs := &c.rsrc
	var limit uint64  // stride-0 buffers: BUFOFFSET bound
	var esh, ish uint // swizzle shifts
	idxChk := o.idxen || rs.addTid
	switch o.fam {
	case famFlat:
		switch o.seg {
		case isa.SegGlobal:
			mode = fmGlobal
			if o.saddr >= 0 {
				mode = fmGlobalS
				base = w.rs64(o.saddr)
			}
		case isa.SegScratch:
			mode = fmScratch
			base = u.scratchAddr(w, 0, 0)
			if o.saddr >= 0 {
				sp = w.rs(o.saddr)
			}
		default:
			mode = fmFlat
		}
	default:
		mode = fmBufLin
		if rs.swizzle {
			mode = fmBufSwz
			esh, ish = uint(bits.TrailingZeros32(rs.elemSize)), uint(bits.TrailingZeros32(rs.idxStride))
		}
		base = rs.base + uint64(c.soff)
		limit = uint64(rs.numRecords) - min(uint64(c.soff), uint64(rs.numRecords))
	}

	// The commonest shapes first: GLOBAL, and the private segment V#'s
	// one-dword accesses (spills, -O0 stack frames).
	if hostLE && (o.kind == vmLoad || o.vdata+nch-1 <= 255) {
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
		case mode == fmBufSwz && nch == 1 && rs.elemSize == 4 && rs.idxStride == 64 && rs.stride == 0 &&
			rs.addTid && !o.idxen && (!o.offen || o.vaddr >= 0):
			spec = specPrivate
		}
		if spec == specScratch {
			limit = uint64(sp)
		}
		if spec != 0 {
			// the whole-wave path moves plain words: not for the race detector's views
			if !mem.atomicWords() && u.fastWave(w, o, exec, c, spec, base, limit) {
				return nil
			}
			if exec = u.fastRun(w, o, exec, c, spec, base, limit); exec == 0 {
				return nil
			}
		}
	}

	size64 := uint64(size)
	span := uint32(4 * (nch - 1)) // from the first dword to the last
	pc := fastPage{pn: ^uint64(0)}
	res := c.res
	for m := exec; m != 0; m &= m - 1 {
		lane := tz(m)
		var vals [4]uint32
		if store {
			for k := 0; k < nch && o.vdata+k <= 255; k++ {
				vals[k] = w.v[o.vdata+k][lane]
			}
			if o.d16hi {
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
			a = uint64(w.v[o.vaddr][lane]) | uint64(w.v[o.vaddr+1][lane])<<32 + off
			ca = a
		case fmGlobalS:
			a = base + uint64(w.v[o.vaddr][lane]) + off
			ca = a
		case fmFlat:
			a = uint64(w.v[o.vaddr][lane]) | uint64(w.v[o.vaddr+1][lane])<<32 + off
			if a-SharedApertureBase < apertureSize || a-PrivateApertureBase < apertureSize {
				goto slow
			}
			ca = a
		case fmScratch:
			p := sp
			if o.vaddr >= 0 {
				p += w.v[o.vaddr][lane]
			}
			p += uint32(o.offset)
			a = uint64(p)
			ca, contig = base+uint64(p&3)+4*uint64(lane)+256*uint64(p>>2), nch == 1
		case fmBufLin:
			index, aoff = rs.indexOffset(w, o, lane)
			bo := index*rs.stride + aoff
			contig = bo <= math.MaxUint32-span && (rs.stride == 0 && uint64(bo+span) < limit ||
				rs.stride != 0 && index < rs.numRecords && (!idxChk || aoff <= math.MaxUint32-span && aoff+span < rs.stride))
			ca = base + uint64(bo)
		default:
			index, aoff = rs.indexOffset(w, o, lane)
			es, is := rs.elemSize, rs.idxStride
			bo := aoff&(es-1) + (index&(is-1))<<esh + ((index>>ish)*rs.stride+(aoff>>esh)<<esh)<<ish
			contig = nch == 1 && (rs.stride == 0 && uint64(bo) < limit ||
				rs.stride != 0 && index < rs.numRecords && (!idxChk || aoff < rs.stride))
			ca = base + uint64(bo)
		}
		// The common case: all of it in one page of the cached allocation,
		// dword-aligned unless narrower.
		if end := ca + size64; contig && hostLE && ca >= u.mapLo && end <= u.mapHi && end >= ca &&
			ca&(pageSize-1)+size64 <= pageSize && (size < 4 || ca&3 == 0) {
			if pn := ca >> pageBits; pn != pc.pn {
				pc.pn, pc.pg = pn, mem.page(pn, store)
			}
			pg, po := pc.pg, ca&(pageSize-1)
			if store {
				p := unsafe.Pointer(&pg[po])
				switch {
				case size == 1:
					pg[po] = byte(vals[0])
				case size == 2:
					*(*uint16)(p) = uint16(vals[0])
				default:
					for k := 0; k < nch; k++ {
						storeWord(unsafe.Add(p, 4*k), vals[k])
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
						vals[k] = loadWord(unsafe.Add(p, 4*k))
					}
				}
			}
			if size < 4 && o.signed {
				vals[0] = uint32(int32(vals[0]<<(32-8*size)) >> (32 - 8*size))
			}
			for k := 0; k < c.ndw && k < 4; k++ {
				res.data[k][lane] = vals[k]
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
					bo = index*rs.stride + ao
				} else {
					es, is := rs.elemSize, rs.idxStride
					bo = ao&(es-1) + (index&(is-1))<<esh + ((index>>ish)*rs.stride+(ao>>esh)<<esh)<<ish
				}
				if rs.stride == 0 {
					if uint64(bo) >= limit {
						continue // out of range: reads 0, writes dropped
					}
				} else if index >= rs.numRecords || idxChk && ao >= rs.stride {
					continue
				}
				ad = base + uint64(bo)
			default:
				ad = a + uint64(4*k)
			}
			end := ad + uint64(n)
			if ad < u.mapLo || end > u.mapHi || end < ad {
				if ok, _ := u.mapped(mem, ad, n); !ok {
					goto slow // faults
				}
			}
			po := ad & (pageSize - 1)
			if po+uint64(n) > pageSize {
				goto slow
			}
			if pn := ad >> pageBits; pn != pc.pn {
				pc.pn, pc.pg = pn, mem.page(pn, store)
			}
			pg := pc.pg
			if store {
				x := vals[k]
				switch {
				case n == 4 && po&3 == 0 && hostLE:
					storeWord(unsafe.Pointer(&pg[po]), x)
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
			case n == 4 && po&3 == 0 && hostLE:
				x = loadWord(unsafe.Pointer(&pg[po]))
			default:
				for i := 0; i < n; i++ {
					x |= uint32(pg[po+uint64(i)]) << (8 * i)
				}
			}
			vals[k] = x
		}
		if !store {
			if size < 4 && o.signed {
				vals[0] = uint32(int32(vals[0]<<(32-8*size)) >> (32 - 8*size))
			}
			for k := 0; k < c.ndw && k < 4; k++ {
				res.data[k][lane] = vals[k]
			}
		}
		continue
	slow:
		if err := u.laneMem(w, o, lane, c); err != nil {
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
func (u *vmemUnit) fastRun(w *Wave, o *vmOp, exec uint64, c *memCtx, spec int, base, limit uint64) uint64 {
	mem := w.m.Mem
	store := o.kind == vmStore
	size := uint64(c.size)
	nch := c.size / 4
	ndw := min(c.ndw, 4)
	align := uint64(3)
	if size < 4 {
		align = 0
	}
	off := uint64(o.offset)
	var v0, v1 *[64]uint32
	if o.vaddr >= 0 {
		v0 = &w.v[o.vaddr]
		if spec == specGlobal || spec == specFlat {
			v1 = &w.v[o.vaddr+1]
		}
	}
	var src [4]*[64]uint32
	if store {
		for k := 0; k < max(nch, 1); k++ {
			src[k] = &w.v[o.vdata+k]
		}
	}
	shift := uint(0)
	if o.d16hi {
		shift = 16
	}
	var sign uint
	if o.signed && size < 4 {
		sign = uint(32 - 8*size)
	}
	lo, hi := u.mapLo, u.mapHi
	pn, pg := ^uint64(0), (*[pageSize]byte)(nil)
	res := c.res
	for m := exec; m != 0; m &= m - 1 {
		lane := tz(m) & 63
		var a uint64
		switch spec {
		case specGlobal:
			a = uint64(v0[lane]) | uint64(v1[lane])<<32 + off
		case specGlobalS:
			a = base + uint64(v0[lane]) + off
		case specFlat:
			a = uint64(v0[lane]) | uint64(v1[lane])<<32 + off
			if a-SharedApertureBase < apertureSize || a-PrivateApertureBase < apertureSize {
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
			if o.offen {
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
			if ok, _ := u.mapped(mem, a, int(size)); !ok || a < u.mapLo || end > u.mapHi {
				return m
			}
			lo, hi = u.mapLo, u.mapHi
		}
		po := a & (pageSize - 1)
		if a&align != 0 || po+size > pageSize {
			return m
		}
		if p := a >> pageBits; p != pn {
			pn, pg = p, mem.page(p, store)
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
					storeWord(unsafe.Add(p, 4*k), src[k][lane])
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
					vals[k] = loadWord(unsafe.Add(p, 4*k))
				}
			}
		}
		if sign != 0 {
			vals[0] = uint32(int32(vals[0]<<sign) >> sign)
		}
		for k := 0; k < ndw; k++ {
			res.data[k][lane] = vals[k]
		}
	}
	return 0
}

// fastAtomicOK reports whether o is a GLOBAL or FLAT atomic fastAtomic
// can run.
func fastAtomicOK(o *vmOp) bool {
	return hostLE && o.kind == vmAtomic && o.fam == famFlat && (o.size == 4 || o.size == 8) &&
		o.vaddr >= 0 && o.vdata >= 0 && (o.seg == isa.SegGlobal && o.saddr >= 0 || o.vaddr <= 254) &&
		(o.seg == isa.SegGlobal || o.seg == isa.SegFlat)
}

// fastAtomic runs the lanes of a GLOBAL or FLAT atomic under one hold of
// the atomics lock, while each lane's word is dword-aligned in one page of
// a mapped allocation (and, for FLAT, outside the apertures). It returns
// the lanes left from the first one it cannot finish, for the general
// path.
func (u *vmemUnit) fastAtomic(w *Wave, o *vmOp, exec uint64, res *vmResult) uint64 {
	mem := w.m.Mem
	size := uint64(o.size)
	wide := o.size == 8
	off := uint64(o.offset)
	var base uint64
	v0 := &w.v[o.vaddr]
	var v1 *[64]uint32
	saddr := o.seg == isa.SegGlobal && o.saddr >= 0
	if saddr {
		base = w.rs64(o.saddr)
	} else {
		v1 = &w.v[o.vaddr+1]
	}
	lo, hi := u.mapLo, u.mapHi
	pn, pg := ^uint64(0), (*[pageSize]byte)(nil)
	mem.lockAtomic() // other work-groups may run concurrently
	defer mem.unlockAtomic()
	for m := exec; m != 0; m &= m - 1 {
		lane := tz(m) & 63
		var a uint64
		if saddr {
			a = base + uint64(v0[lane]) + off
		} else {
			a = uint64(v0[lane]) | uint64(v1[lane])<<32 + off
			if o.seg == isa.SegFlat && (a-SharedApertureBase < apertureSize || a-PrivateApertureBase < apertureSize) {
				return m
			}
		}
		end := a + size
		if a < lo || end > hi || end < a {
			if ok, _ := u.mapped(mem, a, int(size)); !ok || a < u.mapLo || end > u.mapHi {
				return m
			}
			lo, hi = u.mapLo, u.mapHi
		}
		po := a & (pageSize - 1)
		if a&3 != 0 || po+size > pageSize {
			return m
		}
		if p := a >> pageBits; p != pn {
			pn, pg = p, mem.page(p, true)
		}
		p := unsafe.Pointer(&pg[po])
		old := uint64(loadWord(p))
		if wide {
			old |= uint64(loadWord(unsafe.Add(p, 4))) << 32
		}
		src, cmp := u.atomicData(w, o, lane)
		nv := atomicApply(o.atom, old, src, cmp, wide)
		storeWord(p, uint32(nv))
		if wide {
			storeWord(unsafe.Add(p, 4), uint32(nv>>32))
		}
		if res != nil {
			res.data[0][lane] = uint32(old)
			if wide {
				res.data[1][lane] = uint32(old >> 32)
			}
		}
	}
	return 0
}

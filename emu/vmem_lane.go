package emu

import "encoding/binary"

// laneLoc is one lane's decoded access: where its element lies.
type laneLoc struct {
	access
	index, aoff uint32 // buffer AINDEX and AOFFSET
}

// locate decodes lane's access for a FLAT, MUBUF or MTBUF operation.
func (u *vmemUnit) locate(w *Wave, o *vmOp, lane int, c *memCtx) laneLoc {
	if o.fam == famFlat {
		return laneLoc{access: u.flatAccess(w, o, lane)}
	}
	var l laneLoc
	l.index, l.aoff = c.rsrc.indexOffset(w, o, lane)
	return l
}

// at returns the address of byte off of a lane's element (scratch
// interleaves dwords, swizzled buffers place each element separately) and
// the rule that drops it, or InRange.
func (u *vmemUnit) at(w *Wave, o *vmOp, l *laneLoc, lane, off int, c *memCtx) (uint64, Rule) {
	switch {
	case o.fam != famFlat:
		ao := l.aoff + uint32(off)
		return c.rsrc.base + uint64(c.soff) + uint64(c.rsrc.bufOffset(l.index, ao)), c.rsrc.rule(o, l.index, ao, c.soff)
	case l.lds:
		p := l.addr + uint64(off)
		if p < uint64(u.lds.size) {
			return SharedApertureBase + p, InRange
		}
		return SharedApertureBase + p, OutLDS
	case l.scratch:
		return u.scratchAddr(w, uint32(l.addr)+uint32(off), lane), InRange
	}
	return l.addr + uint64(off), InRange
}

// laneRecord is what a step records of a lane's access: its first address,
// whether its first dword is in range, and whether every dword performed
// is mapped (scratch and swizzled buffers place dwords apart, so
// [first, first+size) is not the access). why is the first dword's rule.
func (u *vmemUnit) laneRecord(w *Wave, o *vmOp, l *laneLoc, lane int, c *memCtx) (la LaneAddr, why Rule) {
	first, why := u.at(w, o, l, lane, 0, c)
	mapped := true
	for off := 0; off < c.size && mapped; off += 4 {
		if ad, r := u.at(w, o, l, lane, off, c); r == InRange {
			mapped, _ = w.m.Mem.Mapped(ad, min(4, c.size-off))
		}
	}
	return LaneAddr{Lane: lane, Addr: first, Size: c.size, InRange: why == InRange, Mapped: mapped}, why
}

// laneMem runs one lane of execMem: the general path, for every kind of
// access.
func (u *vmemUnit) laneMem(w *Wave, o *vmOp, lane int, c *memCtx) error {
	size, ndw, res := c.size, c.ndw, c.res
	var buf [16]byte
	a := u.locate(w, o, lane, c)
	w.vmemLaneAddr(u, o, &a, lane, c)
	switch o.kind {
	case vmLoad:
		for off := 0; off < size; off += 4 {
			ad, r := u.at(w, o, &a, lane, off, c)
			n := min(4, size-off)
			if r != InRange {
				continue // out of range: reads 0
			}
			if ok, bad := u.mapped(w.m.Mem, ad, n); !ok {
				return u.fault(w, lane, bad, n, false)
			}
			w.m.Mem.readRaw(ad, buf[off:off+n])
		}
		var vals [4]uint32
		switch {
		case o.format:
			var sel []uint8
			if c.sel {
				sel = c.rsrc.dstSel[:]
			}
			f := formatLoad(buf[:size], c.df, c.nf, sel)
			if o.d16 {
				for c2 := 0; c2 < o.comps; c2++ {
					h := f[c2] & 0xffff
					if isFloatNF(c.nf) {
						h = uint32(f32ToHalf(f32(f[c2])))
					}
					vals[c2/2] |= h << (16 * uint(c2%2))
				}
			} else {
				copy(vals[:], f[:o.comps])
			}
		case size < 4:
			x := uint32(buf[0])
			if size == 2 {
				x |= uint32(buf[1]) << 8
			}
			if o.signed {
				x = uint32(int32(x<<(32-8*size)) >> (32 - 8*size))
			}
			vals[0] = x
		default:
			for k := 0; k < ndw && k < 4; k++ {
				vals[k] = binary.LittleEndian.Uint32(buf[4*k:])
			}
		}
		if o.lds {
			// LDS-direct: the dword goes to LDS (dropped out of range).
			var b [4]byte
			binary.LittleEndian.PutUint32(b[:], vals[0])
			u.ldsWrite(w, ldsDirectAddr(w, lane), b[:], u.lds.size, 0)
			return nil
		}
		for k := 0; k < ndw && k < 4; k++ {
			res.data[k][lane] = vals[k]
		}
	case vmStore:
		var vals [4]uint32
		if o.lds {
			// buffer_store_lds_dword: the dword comes from LDS (0 out of range).
			var b [4]byte
			u.ldsRead(w, ldsDirectAddr(w, lane), b[:], u.lds.size)
			vals[0] = binary.LittleEndian.Uint32(b[:])
		} else {
			for k := 0; k < 4 && o.vdata+k <= 255; k++ {
				vals[k] = w.v[o.vdata+k][lane]
			}
		}
		if o.d16hi {
			vals[0] >>= 16 // the 16-bit datum is the register's high half
		}
		switch {
		case o.format:
			if o.d16 {
				var full [4]uint32
				for c2 := 0; c2 < o.comps; c2++ {
					h := vals[c2/2] >> (16 * uint(c2%2)) & 0xffff
					if isFloatNF(c.nf) {
						h = f32bits(halfToF32(uint16(h)))
					}
					full[c2] = h
				}
				vals = full
			}
			formatStore(vals, c.df, c.nf, buf[:size])
		default:
			for k := 0; k < 4; k++ {
				binary.LittleEndian.PutUint32(buf[4*k:], vals[k])
			}
		}
		for off := 0; off < size; off += 4 {
			ad, r := u.at(w, o, &a, lane, off, c)
			n := min(4, size-off)
			if r != InRange {
				continue // out of range: dropped
			}
			if mapped, bad := u.mapped(w.m.Mem, ad, n); !mapped {
				return u.fault(w, lane, bad, n, true)
			}
			u.write(w, ad, buf[off:off+n], 0)
		}
	case vmAtomic:
		ad, r := u.at(w, o, &a, lane, 0, c)
		if r != InRange {
			return nil
		}
		if mapped, bad := u.mapped(w.m.Mem, ad, size); !mapped {
			return u.fault(w, lane, bad, size, true)
		}
		var old uint64
		var b [8]byte
		w.m.Mem.lockAtomic() // other work-groups may run concurrently
		w.m.Mem.readRaw(ad, b[:size])
		old = binary.LittleEndian.Uint64(b[:])
		src, cmp := u.atomicData(w, o, lane)
		nv := atomicApply(o.atom, old, src, cmp, size == 8)
		binary.LittleEndian.PutUint64(b[:], nv)
		u.write(w, ad, b[:size], 1)
		w.m.Mem.unlockAtomic()
		if res != nil {
			res.data[0][lane] = uint32(old)
			if size == 8 {
				res.data[1][lane] = uint32(old >> 32)
			}
		}
	}
	return nil
}

// ldsDirectAddr is lane's LDS address in an LDS-direct access (a buffer
// load with lds, buffer_store_lds_dword): M0[15:0] + 4 × lane
// (Vega ISA §8.1.9 Memory Buffer Load to LDS); the instruction's offset and
// SOFFSET address memory only.
func ldsDirectAddr(w *Wave, lane int) uint32 {
	return w.s[codeM0]&0xffff + 4*uint32(lane)
}

package emu

import "encoding/binary"

// laneMem runs one lane of execMem: the general path, for every kind of
// access.
func (u *vmemUnit) laneMem(w *Wave, o *vmOp, lane int, c *memCtx) error {
	rsrc, soff, size, ndw, res := &c.rsrc, c.soff, c.size, c.ndw, c.res
	var buf [16]byte
	a := u.laneAccess(w, o, lane, rsrc, soff)
	var bIndex, bOff uint32 // buffer AINDEX and AOFFSET, once per lane
	if o.fam != famFlat && !a.lds && !a.scratch {
		bIndex, bOff = rsrc.indexOffset(w, o, lane)
	}
	// Resolve each dword's address (scratch interleaves dwords).
	addrOf := func(off int) (uint64, bool) {
		switch {
		case a.lds:
			p := a.addr + uint64(off)
			return SharedApertureBase + p, p < uint64(u.lds.size)
		case a.scratch:
			return u.scratchAddr(w, uint32(a.addr)+uint32(off), lane), true
		case o.fam != famFlat: // byte off of the element: swizzled buffers place each one separately
			ao := bOff + uint32(off)
			return rsrc.base + uint64(soff) + uint64(rsrc.bufOffset(bIndex, ao)), rsrc.check(o, bIndex, ao, soff)
		}
		return a.addr + uint64(off), a.inRange
	}
	first, inr := addrOf(0)
	if w.jOn {
		// Mapped: every dword performed is (scratch and swizzled buffers
		// place dwords apart, so [first, first+size) is not the access).
		mapped := true
		for off := 0; off < size && mapped; off += 4 {
			if ad, ok := addrOf(off); ok {
				mapped, _ = w.m.Mem.Mapped(ad, min(4, size-off))
			}
		}
		w.laneAddr(LaneAddr{Lane: lane, Addr: first, Size: size, InRange: inr, Mapped: mapped})
		u.lines.add(first, size)
	}
	switch o.kind {
	case vmLoad:
		for off := 0; off < size; off += 4 {
			ad, ok := addrOf(off)
			n := min(4, size-off)
			if !ok {
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
			f := formatLoad(buf[:size], c.df, c.nf, c.sel)
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
			ad, ok := addrOf(off)
			n := min(4, size-off)
			if !ok {
				continue // out of range: dropped
			}
			if mapped, bad := u.mapped(w.m.Mem, ad, n); !mapped {
				return u.fault(w, lane, bad, n, true)
			}
			u.write(w, ad, buf[off:off+n], 0)
		}
	case vmAtomic:
		ad, ok := addrOf(0)
		if !ok {
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

package ref

import (
	"encoding/binary"
	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// laneLoc is one lane's decoded access: where its element lies.
type laneLoc struct {
	access
	index, aoff uint32 // buffer AINDEX and AOFFSET
}

// locate decodes lane's access for a FLAT, MUBUF or MTBUF operation.
func (u *VMemUnit) locate(w *core.Wave, o *VmOp, lane int, c *MemCtx) laneLoc {
	if o.Fam == FamFlat {
		return laneLoc{access: u.flatAccess(w, o, lane)}
	}
	var l laneLoc
	l.index, l.aoff = c.Rsrc.IndexOffset(w, o, lane)
	return l
}

// at returns the address of byte off of a lane's element (scratch
// interleaves dwords, swizzled buffers place each element separately) and
// the rule that drops it, or InRange.
func (u *VMemUnit) at(w *core.Wave, o *VmOp, l *laneLoc, lane, off int, c *MemCtx) (uint64, Rule) {
	switch {
	case o.Fam != FamFlat:
		ao := l.aoff + uint32(off)
		return c.Rsrc.Base + uint64(c.Soff) + uint64(c.Rsrc.BufOffset(l.index, ao)), c.Rsrc.rule(o, l.index, ao, c.Soff)
	case l.lds:
		p := l.addr + uint64(off)
		if p < uint64(u.Lds.size) {
			return core.SharedApertureBase + p, InRange
		}
		return core.SharedApertureBase + p, OutLDS
	case l.scratch:
		return u.ScratchAddr(w, uint32(l.addr)+uint32(off), lane), InRange
	}
	return l.addr + uint64(off), InRange
}

// laneRecord is what a step records of a lane's access: its first address,
// whether its first dword is in range, and whether every dword performed
// is mapped (scratch and swizzled buffers place dwords apart, so
// [first, first+size) is not the access). why is the first dword's rule.
func (u *VMemUnit) laneRecord(w *core.Wave, o *VmOp, l *laneLoc, lane int, c *MemCtx) (la core.LaneAddr, why Rule) {
	first, why := u.at(w, o, l, lane, 0, c)
	mapped := true
	for off := 0; off < c.Size && mapped; off += 4 {
		if ad, r := u.at(w, o, l, lane, off, c); r == InRange {
			mapped, _ = w.M.Mem.Mapped(ad, min(4, c.Size-off))
		}
	}
	return core.LaneAddr{Lane: lane, Addr: first, Size: c.Size, InRange: why == InRange, Mapped: mapped}, why
}

// LaneMem runs one lane of execMem: the general path, for every kind of
// access.
func (u *VMemUnit) LaneMem(w *core.Wave, o *VmOp, lane int, c *MemCtx) error {
	size, ndw, res := c.Size, c.Ndw, c.Res
	var buf [16]byte
	a := u.locate(w, o, lane, c)
	vmemLaneAddr(w, u, o, &a, lane, c)
	switch o.Kind {
	case VmLoad:
		for off := 0; off < size; off += 4 {
			ad, r := u.at(w, o, &a, lane, off, c)
			n := min(4, size-off)
			if r != InRange {
				continue // out of range: reads 0
			}
			if ok, bad := u.Mapped(w.M.Mem, ad, n); !ok {
				return u.fault(w, lane, bad, n, false)
			}
			w.M.Mem.ReadRaw(ad, buf[off:off+n])
		}
		var vals [4]uint32
		switch {
		case o.Format:
			var sel []uint8
			if c.sel {
				sel = c.Rsrc.dstSel[:]
			}
			f := FormatLoad(buf[:size], c.df, c.nf, sel)
			if o.D16 {
				for c2 := 0; c2 < o.Comps; c2++ {
					h := f[c2] & 0xffff
					if isFloatNF(c.nf) {
						h = uint32(F32ToHalf(core.F32(f[c2])))
					}
					vals[c2/2] |= h << (16 * uint(c2%2))
				}
			} else {
				copy(vals[:], f[:o.Comps])
			}
		case size < 4:
			x := uint32(buf[0])
			if size == 2 {
				x |= uint32(buf[1]) << 8
			}
			if o.Signed {
				x = uint32(int32(x<<(32-8*size)) >> (32 - 8*size))
			}
			vals[0] = x
		default:
			for k := 0; k < ndw && k < 4; k++ {
				vals[k] = binary.LittleEndian.Uint32(buf[4*k:])
			}
		}
		if o.Lds {
			// LDS-direct: the dword goes to LDS (dropped out of range).
			var b [4]byte
			binary.LittleEndian.PutUint32(b[:], vals[0])
			u.LdsWrite(w, ldsDirectAddr(w, lane), b[:], u.Lds.size, 0)
			return nil
		}
		for k := 0; k < ndw && k < 4; k++ {
			res.Data[k][lane] = vals[k]
		}
	case VmStore:
		var vals [4]uint32
		if o.Lds {
			// buffer_store_lds_dword: the dword comes from LDS (0 out of range).
			var b [4]byte
			u.LdsRead(w, ldsDirectAddr(w, lane), b[:], u.Lds.size)
			vals[0] = binary.LittleEndian.Uint32(b[:])
		} else {
			for k := 0; k < 4 && o.Vdata+k <= 255; k++ {
				vals[k] = w.V[o.Vdata+k][lane]
			}
		}
		if o.D16hi {
			vals[0] >>= 16 // the 16-bit datum is the register's high half
		}
		switch {
		case o.Format:
			if o.D16 {
				var full [4]uint32
				for c2 := 0; c2 < o.Comps; c2++ {
					h := vals[c2/2] >> (16 * uint(c2%2)) & 0xffff
					if isFloatNF(c.nf) {
						h = core.F32bits(HalfToF32(uint16(h)))
					}
					full[c2] = h
				}
				vals = full
			}
			FormatStore(vals, c.df, c.nf, buf[:size])
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
			if mapped, bad := u.Mapped(w.M.Mem, ad, n); !mapped {
				return u.fault(w, lane, bad, n, true)
			}
			u.write(w, ad, buf[off:off+n], 0)
		}
	case VmAtomic:
		ad, r := u.at(w, o, &a, lane, 0, c)
		if r != InRange {
			return nil
		}
		if mapped, bad := u.Mapped(w.M.Mem, ad, size); !mapped {
			return u.fault(w, lane, bad, size, true)
		}
		var old uint64
		var b [8]byte
		w.M.Mem.LockAtomic() // other work-groups may run concurrently
		w.M.Mem.ReadRaw(ad, b[:size])
		old = binary.LittleEndian.Uint64(b[:])
		src, cmp := u.AtomicData(w, o, lane)
		nv := AtomicApply(o.Atom, old, src, cmp, size == 8)
		binary.LittleEndian.PutUint64(b[:], nv)
		u.write(w, ad, b[:size], 1)
		w.M.Mem.UnlockAtomic()
		if res != nil {
			res.Data[0][lane] = uint32(old)
			if size == 8 {
				res.Data[1][lane] = uint32(old >> 32)
			}
		}
	}
	return nil
}

// ldsDirectAddr is lane's LDS address in an LDS-direct access (a buffer
// load with lds, buffer_store_lds_dword): M0[15:0] + 4 × lane
// (Vega ISA §8.1.9 Memory Buffer Load to LDS); the instruction's offset and
// SOFFSET address memory only.
func ldsDirectAddr(w *core.Wave, lane int) uint32 {
	return w.S[core.CodeM0]&0xffff + 4*uint32(lane)
}

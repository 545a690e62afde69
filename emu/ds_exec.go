package emu

// DS: LDS reads, writes (read2/write2 and their st64 forms), atomics with
// and without return, append/consume, permute/bpermute and swizzle. LDS is
// the work-group's window of Memory at SharedApertureBase. Accesses beyond
// the work-group's LDS size read 0 and drop writes; on GFX8 an address at
// or above M0 is out of range as well (the M0 range check). GDS and GWS
// operations stop the wave with a named error. When nothing is journaled
// the common forms take the fast path of ds_fast.go. Every DS step notes its
// bank-conflict cycles: 32 banks of 4 bytes, one half-wave (32 lanes) per
// cycle; lanes reading the same dword share it.

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/wavedbg/wavedbg/isa"
)

// ErrGDS is the error of GDS and GWS operations, which the emulator does not
// model.
var ErrGDS = fmt.Errorf("GDS/GWS operations are not supported (no global data share)")

// ldsLimit returns the first out-of-range LDS address for the wave.
func (u *vmemUnit) ldsLimit(w *Wave) uint32 {
	lim := u.lds.size
	if w.target == isa.GFX8 {
		lim = min(lim, w.s[codeM0])
	}
	return lim
}

// ldsFits reports whether n bytes at LDS address a lie below lim.
func ldsFits(a uint32, n int, lim uint32) bool { return uint64(a)+uint64(n) <= uint64(lim) }

// dsAddr is lane's LDS address for part k (0, or 1 for the second address
// of read2, write2 and wrxchg2) of a DS operation.
func dsAddr(w *Wave, o *vmOp, lane, k int) uint32 {
	d := &o.ds
	if d.addtid {
		return w.s[codeM0]&0xffff + uint32(o.offset) + 4*uint32(lane)
	}
	a := w.v[o.vaddr][lane]
	if d.src2 {
		return a // the offset field is the stride to the source
	}
	if d.two {
		off := d.off0
		if k == 1 {
			off = d.off1
		}
		return a + off*d.stride
	}
	return a + uint32(o.offset)
}

// dsCountAddr is ds_append's and ds_consume's LDS address: M0[15:0] + offset.
func dsCountAddr(w *Wave, o *vmOp) uint32 { return w.s[codeM0]&0xffff + uint32(o.offset) }

// ldsRead reads n bytes at LDS address a (0 when out of range).
func (u *vmemUnit) ldsRead(w *Wave, a uint32, p []byte, lim uint32) bool {
	if !ldsFits(a, len(p), lim) {
		clear(p)
		return false
	}
	w.m.Mem.readRaw(SharedApertureBase+uint64(a), p)
	return true
}

// ldsWrite writes p at LDS address a (dropped when out of range).
func (u *vmemUnit) ldsWrite(w *Wave, a uint32, p []byte, lim uint32, why uint8) bool {
	if !ldsFits(a, len(p), lim) {
		return false
	}
	u.write(w, SharedApertureBase+uint64(a), p, why)
	return true
}

// execDS executes one DS instruction.
func (u *vmemUnit) execDS(w *Wave, o *vmOp) error {
	d := &o.ds
	if o.gds || d.kind == dsGWS {
		return &ExecError{PC: w.curPC(), Op: o.name, Msg: ErrGDS.Error()}
	}
	exec := w.exec()
	lim := u.ldsLimit(w)
	lat := u.cfg.LDSLatency
	if d.kind == dsNop {
		return nil
	}
	var banks bankCounter
	note := func(lane int, a uint32, size int, ok bool) { w.ldsLaneAddr(&banks, lane, a, size, ok) }
	switch d.kind {
	case dsRead:
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
		var buf [16]byte
		for m := exec; m != 0; m &= m - 1 {
			lane := tz(m)
			parts := 1
			if d.two {
				parts = 2
			}
			for k := 0; k < parts; k++ {
				a := dsAddr(w, o, lane, k)
				b := buf[k*o.size : k*o.size+o.size]
				ok := u.ldsRead(w, a, b, lim)
				note(lane, a, o.size, ok)
			}
			switch {
			case o.size < 4 && !d.two:
				x := uint32(buf[0])
				if o.size == 2 {
					x |= uint32(buf[1]) << 8
				}
				if o.signed {
					x = uint32(int32(x<<(32-8*o.size)) >> (32 - 8*o.size))
				}
				res.data[0][lane] = x
			default:
				for k := 0; k < ndw; k++ {
					res.data[k][lane] = binary.LittleEndian.Uint32(buf[4*k:])
				}
			}
		}
	case dsWrite:
		w.IssueVector(isa.CntLGKM, 1, lat)
		for m := exec; m != 0; m &= m - 1 {
			lane := tz(m)
			parts := 1
			if d.two {
				parts = 2
			}
			for k := 0; k < parts; k++ {
				src := d.data0
				if k == 1 {
					src = d.data1
				}
				var b [16]byte
				for i := 0; i < (o.size+3)/4; i++ {
					binary.LittleEndian.PutUint32(b[4*i:], w.v[src+i][lane])
				}
				p := b[:o.size]
				if o.d16hi {
					binary.LittleEndian.PutUint32(b[:], w.v[src][lane]>>16)
				}
				a := dsAddr(w, o, lane, k)
				ok := u.ldsWrite(w, a, p, lim, 0)
				note(lane, a, o.size, ok)
			}
		}
	case dsAtomic:
		var res *vmResult
		id := w.IssueVector(isa.CntLGKM, 1, lat)
		if o.ret {
			n := o.size / 4
			if d.two {
				n *= 2
			}
			res = u.result(id, o.vdst, n, exec, 0)
		}
		for m := exec; m != 0; m &= m - 1 {
			lane := tz(m)
			if o.atom == atCondXchg32 {
				u.condXchg32(w, o, lane, lim, res, note)
				continue
			}
			parts := 1
			if d.two {
				parts = 2
			}
			for k := 0; k < parts; k++ {
				a := dsAddr(w, o, lane, k)
				var b [8]byte
				ok := u.ldsRead(w, a, b[:o.size], lim)
				note(lane, a, o.size, ok)
				old := binary.LittleEndian.Uint64(b[:])
				var src uint64
				switch {
				case d.src2:
					var sb [8]byte
					sa := src2Addr(a, uint32(o.offset), o.size)
					sok := u.ldsRead(w, sa, sb[:o.size], lim)
					note(lane, sa, o.size, sok)
					src = binary.LittleEndian.Uint64(sb[:])
				case d.two && k == 1:
					src = u.dsData(w, d.data1, lane, o.size)
				default:
					src = u.dsData(w, d.data0, lane, o.size)
				}
				nv := u.dsAtomic(w, o, lane, old, src)
				if ok {
					binary.LittleEndian.PutUint64(b[:], nv)
					u.ldsWrite(w, a, b[:o.size], lim, 1)
				}
				if res != nil {
					res.data[k*o.size/4][lane] = uint32(old)
					if o.size == 8 {
						res.data[k*2+1][lane] = uint32(old >> 32)
					}
				}
			}
		}
	case dsAppend, dsConsume:
		id := w.IssueVector(isa.CntLGKM, 1, lat)
		res := u.result(id, o.vdst, 1, exec, 0)
		a := dsCountAddr(w, o)
		var b [4]byte
		ok := u.ldsRead(w, a, b[:], lim)
		old := binary.LittleEndian.Uint32(b[:])
		n := uint32(bits.OnesCount64(exec))
		nv := old + n
		if d.kind == dsConsume {
			nv = old - n
		}
		if ok {
			binary.LittleEndian.PutUint32(b[:], nv)
			u.ldsWrite(w, a, b[:], lim, 1)
		}
		w.laneAddr(LaneAddr{Lane: -1, Addr: SharedApertureBase + uint64(a), Size: 4, InRange: ok, Mapped: true})
		for m := exec; m != 0; m &= m - 1 {
			res.data[0][tz(m)] = old
		}
	case dsPermute, dsBPermute:
		id := w.IssueVector(isa.CntLGKM, 1, lat)
		res := u.result(id, o.vdst, 1, exec, 0)
		src := w.v[d.data0]
		if d.kind == dsBPermute {
			for m := exec; m != 0; m &= m - 1 {
				lane := tz(m)
				from := (w.v[o.vaddr][lane] + uint32(o.offset)) >> 2 & 63
				res.data[0][lane] = src[from]
			}
		} else {
			for m := exec; m != 0; m &= m - 1 {
				lane := tz(m)
				to := (w.v[o.vaddr][lane] + uint32(o.offset)) >> 2 & 63
				res.data[0][to] = src[lane]
			}
		}
	case dsSwizzle:
		id := w.IssueVector(isa.CntLGKM, 1, lat)
		res := u.result(id, o.vdst, 1, exec, 0)
		src := w.v[o.vaddr] // ds_swizzle swizzles its ADDR operand's values
		p := d.swizzleP
		for m := exec; m != 0; m &= m - 1 {
			lane := tz(m)
			var from int
			if p&0x8000 != 0 { // quad permute mode
				from = lane&^3 | int(p>>(2*uint(lane&3))&3)
			} else { // bit-mask mode within 32-lane groups
				and, or, xor := int(p&0x1f), int(p>>5&0x1f), int(p>>10&0x1f)
				from = lane&^31 | (lane&31&and | or) ^ xor
			}
			res.data[0][lane] = src[from]
		}
	}
	w.noteBankConflicts(&banks)
	return nil
}

func (u *vmemUnit) dsData(w *Wave, r, lane, size int) uint64 {
	if r < 0 {
		return 0
	}
	v := uint64(w.v[r][lane])
	if size == 8 {
		v |= uint64(w.v[r+1][lane]) << 32
	}
	return v
}

// src2Addr is the source address of a ds_*_src2_* operation at address a
// with 16-bit offset field off (Vega ISA, DS_ADD_SRC2_U32: B = A +
// 4×(offset1[7] ? {A[31], A[31:17]} : {offset1[6], offset1[6:0], offset0}),
// ×8 for 64-bit data): a signed 16-bit element stride taken from the
// address's high bits or from the offset's low 15 bits.
func src2Addr(a, off uint32, size int) uint32 {
	var s int16
	if off&0x8000 != 0 {
		s = int16(a>>31<<15 | a>>17&0x7fff)
	} else {
		s = int16(off<<1) >> 1
	}
	return a + uint32(int32(s)*int32(size))
}

// dsAtomic computes a DS atomic's new value.
func (u *vmemUnit) dsAtomic(w *Wave, o *vmOp, lane int, old, src uint64) uint64 {
	wide := o.size == 8
	d1 := u.dsData(w, o.ds.data1, lane, o.size)
	switch o.atom {
	case atMskor:
		return old&^src | d1
	case atCmpSt:
		if old == src {
			return d1
		}
		return old
	case atCmpStF, atFMin, atFMax, atFAdd:
		if wide {
			a, b := math.Float64frombits(old), math.Float64frombits(src)
			switch o.atom {
			case atCmpStF:
				if a == b {
					return d1
				}
				return old
			case atFMin:
				return math.Float64bits(math.Min(a, b))
			case atFMax:
				return math.Float64bits(math.Max(a, b))
			}
			return math.Float64bits(a + b)
		}
		a, b := math.Float32frombits(uint32(old)), math.Float32frombits(uint32(src))
		switch o.atom {
		case atCmpStF:
			if a == b {
				return d1
			}
			return old
		case atFMin:
			return uint64(math.Float32bits(float32(math.Min(float64(a), float64(b)))))
		case atFMax:
			return uint64(math.Float32bits(float32(math.Max(float64(a), float64(b)))))
		}
		return uint64(math.Float32bits(a + b))
	case atWrXchg2:
		return src
	case atWrap: // ds_wrap_rtn_b32 (32-bit, unsigned compare)
		if old >= src {
			return old - src
		}
		return (old + d1) & 0xffffffff
	}
	return atomicApply(o.atom, old, src, 0, wide)
}

// bankCounter counts LDS bank conflicts: per half-wave, the largest number
// of distinct dwords any one of the 32 banks must serve, less one. It keeps
// the dwords in fixed arrays (a lane adds at most two addresses), so
// counting allocates nothing.
type bankCounter struct {
	dw [2][128]uint32
	n  [2]int
}

func (b *bankCounter) add(lane int, addr uint32) {
	h := lane >> 5 & 1
	if b.n[h] < len(b.dw[h]) {
		b.dw[h][b.n[h]] = addr >> 2
		b.n[h]++
	}
}

func (b *bankCounter) conflicts() int {
	total := 0
	for h := range b.dw {
		s := b.dw[h][:b.n[h]]
		slices.Sort(s)
		var per [32]int
		worst := 0
		for i, x := range s {
			if i > 0 && x == s[i-1] {
				continue // lanes reading the same dword share it
			}
			per[x&31]++
			worst = max(worst, per[x&31])
		}
		if worst > 1 {
			total += worst - 1
		}
	}
	return total
}

// BankConflicts returns the extra LDS cycles a DS access pattern costs:
// addrs[lane] is each active lane's byte address (lanes absent from active
// are skipped).
func BankConflicts(addrs [64]uint32, active uint64) int {
	var b bankCounter
	for m := active; m != 0; m &= m - 1 {
		l := tz(m)
		b.add(l, addrs[l])
	}
	return b.conflicts()
}

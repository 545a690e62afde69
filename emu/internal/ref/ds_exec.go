package ref

import (
	"encoding/binary"
	"fmt"
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
	"math"
	"math/bits"
	"slices"
)

// ErrGDS is the error of GDS and GWS operations, which the emulator does not
// model.
var ErrGDS = fmt.Errorf("GDS/GWS operations are not supported (no global data share)")

// LdsLimit returns the first out-of-range LDS address for the wave.
func (u *VMemUnit) LdsLimit(w *core.Wave) uint32 {
	lim := u.Lds.size
	if w.Target == isa.GFX8 {
		lim = min(lim, w.S[core.CodeM0])
	}
	return lim
}

// ldsFits reports whether n bytes at LDS address a lie below lim.
func ldsFits(a uint32, n int, lim uint32) bool { return uint64(a)+uint64(n) <= uint64(lim) }

// dsAddr is lane's LDS address for part k (0, or 1 for the second address
// of read2, write2 and wrxchg2) of a DS operation.
func dsAddr(w *core.Wave, o *VmOp, lane, k int) uint32 {
	d := &o.Ds
	if d.Addtid {
		return w.S[core.CodeM0]&0xffff + uint32(o.Offset) + 4*uint32(lane)
	}
	a := w.V[o.Vaddr][lane]
	if d.Src2 {
		return a // the offset field is the stride to the source
	}
	if d.Two {
		off := d.Off0
		if k == 1 {
			off = d.Off1
		}
		return a + off*d.Stride
	}
	return a + uint32(o.Offset)
}

// dsCountAddr is ds_append's and ds_consume's LDS address: M0[15:0] + offset.
func dsCountAddr(w *core.Wave, o *VmOp) uint32 { return w.S[core.CodeM0]&0xffff + uint32(o.Offset) }

// LdsRead reads n bytes at LDS address a (0 when out of range).
func (u *VMemUnit) LdsRead(w *core.Wave, a uint32, p []byte, lim uint32) bool {
	if !ldsFits(a, len(p), lim) {
		clear(p)
		return false
	}
	w.M.Mem.ReadRaw(core.SharedApertureBase+uint64(a), p)
	return true
}

// LdsWrite writes p at LDS address a (dropped when out of range).
func (u *VMemUnit) LdsWrite(w *core.Wave, a uint32, p []byte, lim uint32, why uint8) bool {
	if !ldsFits(a, len(p), lim) {
		return false
	}
	u.write(w, core.SharedApertureBase+uint64(a), p, why)
	return true
}

// ExecDS executes one DS instruction.
func (u *VMemUnit) ExecDS(w *core.Wave, o *VmOp) error {
	d := &o.Ds
	if o.Gds || d.Kind == DsGWS {
		return &core.ExecError{PC: w.CurPC(), Op: o.Name, Msg: ErrGDS.Error()}
	}
	exec := w.Exec()
	lim := u.LdsLimit(w)
	lat := u.Cfg.LDSLatency
	if d.Kind == DsNop {
		return nil
	}
	var banks BankCounter
	note := func(lane int, a uint32, size int, ok bool) { ldsLaneAddr(w, &banks, lane, a, size, ok) }
	switch d.Kind {
	case DsRead:
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
		id := IssueVector(w, isa.CntLGKM, 1, lat)
		res := u.Result(id, o.Vdst, ndw, exec, d16)
		var buf [16]byte
		for m := exec; m != 0; m &= m - 1 {
			lane := core.Tz(m)
			parts := 1
			if d.Two {
				parts = 2
			}
			for k := 0; k < parts; k++ {
				a := dsAddr(w, o, lane, k)
				b := buf[k*o.Size : k*o.Size+o.Size]
				ok := u.LdsRead(w, a, b, lim)
				note(lane, a, o.Size, ok)
			}
			switch {
			case o.Size < 4 && !d.Two:
				x := uint32(buf[0])
				if o.Size == 2 {
					x |= uint32(buf[1]) << 8
				}
				if o.Signed {
					x = uint32(int32(x<<(32-8*o.Size)) >> (32 - 8*o.Size))
				}
				res.Data[0][lane] = x
			default:
				for k := 0; k < ndw; k++ {
					res.Data[k][lane] = binary.LittleEndian.Uint32(buf[4*k:])
				}
			}
		}
	case DsWrite:
		IssueVector(w, isa.CntLGKM, 1, lat)
		for m := exec; m != 0; m &= m - 1 {
			lane := core.Tz(m)
			parts := 1
			if d.Two {
				parts = 2
			}
			for k := 0; k < parts; k++ {
				src := d.Data0
				if k == 1 {
					src = d.Data1
				}
				var b [16]byte
				for i := 0; i < (o.Size+3)/4; i++ {
					binary.LittleEndian.PutUint32(b[4*i:], w.V[src+i][lane])
				}
				p := b[:o.Size]
				if o.D16hi {
					binary.LittleEndian.PutUint32(b[:], w.V[src][lane]>>16)
				}
				a := dsAddr(w, o, lane, k)
				ok := u.LdsWrite(w, a, p, lim, 0)
				note(lane, a, o.Size, ok)
			}
		}
	case DsAtomic:
		var res *VmResult
		id := IssueVector(w, isa.CntLGKM, 1, lat)
		if o.Ret {
			n := o.Size / 4
			if d.Two {
				n *= 2
			}
			res = u.Result(id, o.Vdst, n, exec, 0)
		}
		for m := exec; m != 0; m &= m - 1 {
			lane := core.Tz(m)
			if o.Atom == AtCondXchg32 {
				u.condXchg32(w, o, lane, lim, res, note)
				continue
			}
			parts := 1
			if d.Two {
				parts = 2
			}
			for k := 0; k < parts; k++ {
				a := dsAddr(w, o, lane, k)
				var b [8]byte
				ok := u.LdsRead(w, a, b[:o.Size], lim)
				note(lane, a, o.Size, ok)
				old := binary.LittleEndian.Uint64(b[:])
				var src uint64
				switch {
				case d.Src2:
					var sb [8]byte
					sa := Src2Addr(a, uint32(o.Offset), o.Size)
					sok := u.LdsRead(w, sa, sb[:o.Size], lim)
					note(lane, sa, o.Size, sok)
					src = binary.LittleEndian.Uint64(sb[:])
				case d.Two && k == 1:
					src = u.DsData(w, d.Data1, lane, o.Size)
				default:
					src = u.DsData(w, d.Data0, lane, o.Size)
				}
				nv := u.DsAtomic(w, o, lane, old, src)
				if ok {
					binary.LittleEndian.PutUint64(b[:], nv)
					u.LdsWrite(w, a, b[:o.Size], lim, 1)
				}
				if res != nil {
					res.Data[k*o.Size/4][lane] = uint32(old)
					if o.Size == 8 {
						res.Data[k*2+1][lane] = uint32(old >> 32)
					}
				}
			}
		}
	case dsAppend, dsConsume:
		id := IssueVector(w, isa.CntLGKM, 1, lat)
		res := u.Result(id, o.Vdst, 1, exec, 0)
		a := dsCountAddr(w, o)
		var b [4]byte
		ok := u.LdsRead(w, a, b[:], lim)
		old := binary.LittleEndian.Uint32(b[:])
		n := uint32(bits.OnesCount64(exec))
		nv := old + n
		if d.Kind == dsConsume {
			nv = old - n
		}
		if ok {
			binary.LittleEndian.PutUint32(b[:], nv)
			u.LdsWrite(w, a, b[:], lim, 1)
		}
		w.LaneAddr(core.LaneAddr{Lane: -1, Addr: core.SharedApertureBase + uint64(a), Size: 4, InRange: ok, Mapped: true})
		for m := exec; m != 0; m &= m - 1 {
			res.Data[0][core.Tz(m)] = old
		}
	case dsPermute, dsBPermute:
		id := IssueVector(w, isa.CntLGKM, 1, lat)
		res := u.Result(id, o.Vdst, 1, exec, 0)
		src := w.V[d.Data0]
		if d.Kind == dsBPermute {
			for m := exec; m != 0; m &= m - 1 {
				lane := core.Tz(m)
				from := (w.V[o.Vaddr][lane] + uint32(o.Offset)) >> 2 & 63
				res.Data[0][lane] = src[from]
			}
		} else {
			for m := exec; m != 0; m &= m - 1 {
				lane := core.Tz(m)
				to := (w.V[o.Vaddr][lane] + uint32(o.Offset)) >> 2 & 63
				res.Data[0][to] = src[lane]
			}
		}
	case dsSwizzle:
		id := IssueVector(w, isa.CntLGKM, 1, lat)
		res := u.Result(id, o.Vdst, 1, exec, 0)
		src := w.V[o.Vaddr] // ds_swizzle swizzles its ADDR operand's values
		p := d.SwizzleP
		for m := exec; m != 0; m &= m - 1 {
			lane := core.Tz(m)
			var from int
			if p&0x8000 != 0 { // quad permute mode
				from = lane&^3 | int(p>>(2*uint(lane&3))&3)
			} else { // bit-mask mode within 32-lane groups
				and, or, xor := int(p&0x1f), int(p>>5&0x1f), int(p>>10&0x1f)
				from = lane&^31 | (lane&31&and | or) ^ xor
			}
			res.Data[0][lane] = src[from]
		}
	}
	noteBankConflicts(w, &banks)
	return nil
}

func (u *VMemUnit) DsData(w *core.Wave, r, lane, size int) uint64 {
	if r < 0 {
		return 0
	}
	v := uint64(w.V[r][lane])
	if size == 8 {
		v |= uint64(w.V[r+1][lane]) << 32
	}
	return v
}

// Src2Addr is the source address of a ds_*_src2_* operation at address a
// with 16-bit offset field off (Vega ISA, DS_ADD_SRC2_U32: B = A +
// 4×(offset1[7] ? {A[31], A[31:17]} : {offset1[6], offset1[6:0], offset0}),
// ×8 for 64-bit data): a signed 16-bit element stride taken from the
// address's high bits or from the offset's low 15 bits.
func Src2Addr(a, off uint32, size int) uint32 {
	var s int16
	if off&0x8000 != 0 {
		s = int16(a>>31<<15 | a>>17&0x7fff)
	} else {
		s = int16(off<<1) >> 1
	}
	return a + uint32(int32(s)*int32(size))
}

// DsAtomic computes a DS atomic's new value.
func (u *VMemUnit) DsAtomic(w *core.Wave, o *VmOp, lane int, old, src uint64) uint64 {
	wide := o.Size == 8
	d1 := u.DsData(w, o.Ds.Data1, lane, o.Size)
	switch o.Atom {
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
			switch o.Atom {
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
		switch o.Atom {
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
	return AtomicApply(o.Atom, old, src, 0, wide)
}

// BankCounter counts LDS bank conflicts: per half-wave, the largest number
// of distinct dwords any one of the 32 banks must serve, less one. It keeps
// the dwords in fixed arrays (a lane adds at most two addresses), so
// counting allocates nothing.
type BankCounter struct {
	dw [2][128]uint32
	n  [2]int
}

func (b *BankCounter) Add(lane int, addr uint32) {
	h := lane >> 5 & 1
	if b.n[h] < len(b.dw[h]) {
		b.dw[h][b.n[h]] = addr >> 2
		b.n[h]++
	}
}

func (b *BankCounter) Conflicts() int {
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
	var b BankCounter
	for m := active; m != 0; m &= m - 1 {
		l := core.Tz(m)
		b.Add(l, addrs[l])
	}
	return b.Conflicts()
}

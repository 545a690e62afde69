package core

import (
	"encoding/binary"
	"github.com/wavedbg/wavedbg/isa"
	"math/bits"
	"unsafe"
)

// history keeps one compact delta per step: old values of the scalar slots,
// per-lane XOR deltas of the VGPRs (varint-coded, so unchanged and nearby
// values cost a byte), old memory bytes, old cache lines and in-flight list
// changes. Undoing applies them in reverse.
//
// The deltas live in one ring of bytes that never grows past limit: each
// entry is framed by its length (4 bytes before and after, so that it can
// be found from either end), and when the next one does not fit, the
// oldest entries are dropped. The ring, plus the scratch of the largest
// single step, is all the history holds, so its live heap stays within
// limit whatever the length of the run.
type history struct {
	Limit int64
	Ring  []byte // grows by doubling up to limit
	head  int    // offset of the oldest entry
	used  int    // bytes of ring in use, from head (wrapping)
	n     int    // entries

	buf []byte // the step being encoded, or the one being decoded

	// decode scratch
	ds []sEnt
	dv []histV
	dm []mEnt
	dc []cEnt
	do []opEnt
}

// frame is the bytes framing each entry: its length before and after.
const frame = 8

// minRing is the ring's first size.
const minRing = 64 << 10

type histV struct {
	reg  int
	mask uint64
	x    [64]uint32
}

func (h *history) Len() int { return h.n }

// Bytes returns the memory the history holds: the ring and its scratch.
func (h *history) Bytes() int64 { return int64(cap(h.Ring)) + h.scratch() }

// scratch returns the bytes of the encode and decode buffers, which grow
// to the largest single step.
func (h *history) scratch() int64 {
	return int64(cap(h.buf)) + int64(cap(h.ds))*int64(unsafe.Sizeof(sEnt{})) +
		int64(cap(h.dv))*int64(unsafe.Sizeof(histV{})) + int64(cap(h.dm))*int64(unsafe.Sizeof(mEnt{})) +
		int64(cap(h.dc))*int64(unsafe.Sizeof(cEnt{})) + int64(cap(h.do))*int64(unsafe.Sizeof(opEnt{}))
}

// RingMax is the most the ring may hold: the limit less the scratch.
func (h *history) RingMax() int64 { return h.Limit - h.scratch() }

func (h *history) Clear() { h.head, h.used, h.n = 0, 0, 0 }

func (h *history) uv(v uint64)  { h.buf = binary.AppendUvarint(h.buf, v) }
func (h *history) u32(v uint32) { h.buf = binary.LittleEndian.AppendUint32(h.buf, v) }
func (h *history) u64(v uint64) { h.buf = binary.LittleEndian.AppendUint64(h.buf, v) }

// at returns the ring offset off bytes past o.
func (h *history) at(o, off int) int {
	o += off
	if o >= len(h.Ring) {
		o -= len(h.Ring)
	}
	return o
}

// put copies p into the ring at o, wrapping at its end.
func (h *history) put(o int, p []byte) {
	k := copy(h.Ring[o:], p)
	copy(h.Ring, p[k:])
}

// get copies len(p) bytes of the ring at o into p, wrapping at its end.
func (h *history) get(o int, p []byte) {
	k := copy(p, h.Ring[o:])
	copy(p[k:], h.Ring[:len(p)-k])
}

func (h *history) len32(o int) int {
	var b [4]byte
	h.get(o, b[:])
	return int(binary.LittleEndian.Uint32(b[:]))
}

// dropOldest forgets the oldest entry.
func (h *history) dropOldest() {
	sz := h.len32(h.head) + frame
	h.head = h.at(h.head, sz)
	h.used -= sz
	h.n--
}

// commit stores the encoded step in h.buf as the newest entry, dropping
// the oldest ones (or growing the ring, up to limit) until it fits. A step
// larger than the whole limit cannot be kept: the history is cleared.
func (h *history) commit() {
	sz := len(h.buf) + frame
	if int64(sz) > h.RingMax() {
		h.Clear()
		return
	}
	if int64(len(h.Ring)) > h.RingMax() { // the scratch grew: give back room
		h.resize(int(h.RingMax()))
	}
	for h.used+sz > len(h.Ring) {
		if int64(len(h.Ring)) < h.RingMax() {
			h.grow(sz)
			continue
		}
		h.dropOldest()
	}
	var l [4]byte
	binary.LittleEndian.PutUint32(l[:], uint32(len(h.buf)))
	o := h.at(h.head, h.used)
	h.put(o, l[:])
	h.put(h.at(o, 4), h.buf)
	h.put(h.at(o, 4+len(h.buf)), l[:])
	h.used += sz
	h.n++
}

// grow doubles the ring (at least enough for sz more bytes, at most
// ringMax).
func (h *history) grow(sz int) {
	h.resize(int(min(int64(max(2*len(h.Ring), minRing, h.used+sz)), h.RingMax())))
}

// resize moves the ring to one of n bytes, its entries in order from
// offset 0, dropping the oldest ones that do not fit.
func (h *history) resize(n int) {
	for h.used > n {
		h.dropOldest()
	}
	r := make([]byte, n)
	if h.used > 0 {
		h.get(h.head, r[:h.used])
	}
	h.Ring, h.head = r, 0
}

// Push encodes the journal of the step just executed.
func (h *history) Push(w *Wave) {
	j := &w.J
	h.buf = h.buf[:0]
	h.uv(uint64(len(j.S)))
	h.uv(uint64(len(j.V)))
	h.uv(uint64(len(j.M)))
	h.uv(uint64(len(j.c)))
	h.uv(uint64(len(j.Ops)))
	for _, e := range j.S {
		h.uv(uint64(e.Idx))
		h.u32(e.Old)
	}
	for i := range j.V {
		e := &j.V[i]
		h.uv(uint64(e.Reg))
		h.u64(e.Mask)
		// XOR against the value right after this write: the next write's
		// old value for the lane, else the current register.
		covered := uint64(0)
		var after [64]uint32
		for k := i + 1; k < len(j.V); k++ {
			if o := &j.V[k]; o.Reg == e.Reg {
				for m := e.Mask & o.Mask &^ covered; m != 0; m &= m - 1 {
					l := bits.TrailingZeros64(m)
					after[l] = o.Old[l]
				}
				covered |= e.Mask & o.Mask
			}
		}
		for m := e.Mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			a := after[l]
			if covered&(1<<uint(l)) == 0 {
				a = w.V[e.Reg][l]
			}
			h.uv(uint64(a ^ e.Old[l]))
		}
	}
	for i := range j.M {
		e := &j.M[i]
		h.uv(e.Addr)
		h.buf = append(h.buf, e.N)
		h.buf = append(h.buf, e.Old[:e.N]...)
	}
	for i := range j.c {
		e := &j.c[i]
		h.uv(uint64(e.idx))
		h.putLine(&e.old)
	}
	for i := range j.Ops {
		e := &j.Ops[i]
		if e.Issued {
			h.buf = append(h.buf, 1)
		} else {
			h.buf = append(h.buf, 0)
		}
		h.uv(uint64(e.pos))
		h.putOp(&e.Op)
	}
	h.commit()
}

func (h *history) putLine(l *CachedLine) {
	h.u64(l.Tag)
	var f byte
	if l.Valid {
		f |= 1
	}
	if l.dirty {
		f |= 2
	}
	if l.vol {
		f |= 4
	}
	h.buf = append(h.buf, f)
	h.uv(l.Use)
	h.buf = append(h.buf, l.data[:]...)
}

func (h *history) putOp(p *PendingOp) {
	h.uv(p.Id)
	h.uv(uint64(p.Pc))
	h.buf = append(h.buf, byte(p.Cnt), p.Inc, p.N)
	if p.Vec {
		h.buf = append(h.buf, 1)
	} else {
		h.buf = append(h.buf, 0)
	}
	h.uv(p.Issue)
	h.uv(p.Done)
	h.uv(uint64(p.Dst))
	h.uv(uint64(p.Skip))
	for k := 0; k < int(p.N); k++ {
		h.u32(p.Data[k])
	}
}

type reader struct {
	b []byte
	i int
}

func (r *reader) uv() uint64 {
	v, n := binary.Uvarint(r.b[r.i:])
	r.i += n
	return v
}
func (r *reader) u32() uint32 { v := binary.LittleEndian.Uint32(r.b[r.i:]); r.i += 4; return v }
func (r *reader) u64() uint64 { v := binary.LittleEndian.Uint64(r.b[r.i:]); r.i += 8; return v }
func (r *reader) byte1() byte { v := r.b[r.i]; r.i++; return v }

// Pop undoes the newest step on w.
func (h *history) Pop(w *Wave) bool {
	if h.n == 0 {
		return false
	}
	end := h.at(h.head, h.used)
	n := h.len32(h.at(end, len(h.Ring)-4))
	start := h.at(end, len(h.Ring)-n-frame)
	if cap(h.buf) < n {
		h.buf = make([]byte, n)
	}
	h.buf = h.buf[:n]
	h.get(h.at(start, 4), h.buf)
	r := reader{b: h.buf}
	ns, nv, nm, nc, nops := int(r.uv()), int(r.uv()), int(r.uv()), int(r.uv()), int(r.uv())
	h.ds, h.dv, h.dm, h.dc, h.do = h.ds[:0], h.dv[:0], h.dm[:0], h.dc[:0], h.do[:0]
	for i := 0; i < ns; i++ {
		idx := r.uv()
		h.ds = append(h.ds, sEnt{Idx: uint16(idx), Old: r.u32()})
	}
	for i := 0; i < nv; i++ {
		var e histV
		e.reg = int(r.uv())
		e.mask = r.u64()
		for m := e.mask; m != 0; m &= m - 1 {
			e.x[bits.TrailingZeros64(m)] = uint32(r.uv())
		}
		h.dv = append(h.dv, e)
	}
	for i := 0; i < nm; i++ {
		var e mEnt
		e.Addr = r.uv()
		e.N = r.byte1()
		copy(e.Old[:], r.b[r.i:r.i+int(e.N)])
		r.i += int(e.N)
		h.dm = append(h.dm, e)
	}
	for i := 0; i < nc; i++ {
		var e cEnt
		e.idx = int32(r.uv())
		e.old.Tag = r.u64()
		f := r.byte1()
		e.old.Valid, e.old.dirty, e.old.vol = f&1 != 0, f&2 != 0, f&4 != 0
		e.old.Use = r.uv()
		copy(e.old.data[:], r.b[r.i:r.i+LineBytes])
		r.i += LineBytes
		h.dc = append(h.dc, e)
	}
	for i := 0; i < nops; i++ {
		var e opEnt
		e.Issued = r.byte1() == 1
		e.pos = int(r.uv())
		p := &e.Op
		p.Id = r.uv()
		p.Pc = int(r.uv())
		cnt, inc, n, vec := r.byte1(), r.byte1(), r.byte1(), r.byte1()
		p.Cnt, p.Inc, p.N, p.Vec = isa.Counters(cnt), inc, n, vec == 1
		p.Issue = r.uv()
		p.Done = r.uv()
		p.Dst = uint16(r.uv())
		p.Skip = uint16(r.uv())
		for k := 0; k < int(p.N); k++ {
			p.Data[k] = r.u32()
		}
		h.do = append(h.do, e)
	}
	for i := len(h.ds) - 1; i >= 0; i-- {
		w.S[h.ds[i].Idx] = h.ds[i].Old
	}
	for i := len(h.dv) - 1; i >= 0; i-- {
		e := &h.dv[i]
		for m := e.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			w.V[e.reg][l] ^= e.x[l]
		}
	}
	for i := len(h.dm) - 1; i >= 0; i-- {
		e := &h.dm[i]
		w.M.Mem.WriteRaw(e.Addr, e.Old[:e.N])
	}
	for i := len(h.dc) - 1; i >= 0; i-- {
		w.Cache.Lines[h.dc[i].idx] = h.dc[i].old
	}
	for i := len(h.do) - 1; i >= 0; i-- {
		e := &h.do[i]
		if e.Issued {
			w.Pend = append(w.Pend[:e.pos], w.Pend[e.pos+1:]...)
		} else {
			w.Pend = append(w.Pend, PendingOp{})
			copy(w.Pend[e.pos+1:], w.Pend[e.pos:])
			w.Pend[e.pos] = e.Op
		}
	}
	h.used -= n + frame
	h.n--
	return true
}

package emu

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/wavedbg/wavedbg/isa"
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
	limit int64
	ring  []byte // grows by doubling up to limit
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

func (h *history) len() int { return h.n }

// bytes returns the memory the history holds: the ring and its scratch.
func (h *history) bytes() int64 { return int64(cap(h.ring)) + h.scratch() }

// scratch returns the bytes of the encode and decode buffers, which grow
// to the largest single step.
func (h *history) scratch() int64 {
	return int64(cap(h.buf)) + int64(cap(h.ds))*int64(unsafe.Sizeof(sEnt{})) +
		int64(cap(h.dv))*int64(unsafe.Sizeof(histV{})) + int64(cap(h.dm))*int64(unsafe.Sizeof(mEnt{})) +
		int64(cap(h.dc))*int64(unsafe.Sizeof(cEnt{})) + int64(cap(h.do))*int64(unsafe.Sizeof(opEnt{}))
}

// ringMax is the most the ring may hold: the limit less the scratch.
func (h *history) ringMax() int64 { return h.limit - h.scratch() }

func (h *history) clear() { h.head, h.used, h.n = 0, 0, 0 }

func (h *history) uv(v uint64)  { h.buf = binary.AppendUvarint(h.buf, v) }
func (h *history) u32(v uint32) { h.buf = binary.LittleEndian.AppendUint32(h.buf, v) }
func (h *history) u64(v uint64) { h.buf = binary.LittleEndian.AppendUint64(h.buf, v) }

// at returns the ring offset off bytes past o.
func (h *history) at(o, off int) int {
	o += off
	if o >= len(h.ring) {
		o -= len(h.ring)
	}
	return o
}

// put copies p into the ring at o, wrapping at its end.
func (h *history) put(o int, p []byte) {
	k := copy(h.ring[o:], p)
	copy(h.ring, p[k:])
}

// get copies len(p) bytes of the ring at o into p, wrapping at its end.
func (h *history) get(o int, p []byte) {
	k := copy(p, h.ring[o:])
	copy(p[k:], h.ring[:len(p)-k])
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
	if int64(sz) > h.ringMax() {
		h.clear()
		return
	}
	if int64(len(h.ring)) > h.ringMax() { // the scratch grew: give back room
		h.resize(int(h.ringMax()))
	}
	for h.used+sz > len(h.ring) {
		if int64(len(h.ring)) < h.ringMax() {
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
	h.resize(int(min(int64(max(2*len(h.ring), minRing, h.used+sz)), h.ringMax())))
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
	h.ring, h.head = r, 0
}

// push encodes the journal of the step just executed.
func (h *history) push(w *Wave) {
	j := &w.j
	h.buf = h.buf[:0]
	h.uv(uint64(len(j.s)))
	h.uv(uint64(len(j.v)))
	h.uv(uint64(len(j.m)))
	h.uv(uint64(len(j.c)))
	h.uv(uint64(len(j.ops)))
	for _, e := range j.s {
		h.uv(uint64(e.idx))
		h.u32(e.old)
	}
	for i := range j.v {
		e := &j.v[i]
		h.uv(uint64(e.reg))
		h.u64(e.mask)
		// XOR against the value right after this write: the next write's
		// old value for the lane, else the current register.
		covered := uint64(0)
		var after [64]uint32
		for k := i + 1; k < len(j.v); k++ {
			if o := &j.v[k]; o.reg == e.reg {
				for m := e.mask & o.mask &^ covered; m != 0; m &= m - 1 {
					l := bits.TrailingZeros64(m)
					after[l] = o.old[l]
				}
				covered |= e.mask & o.mask
			}
		}
		for m := e.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			a := after[l]
			if covered&(1<<uint(l)) == 0 {
				a = w.v[e.reg][l]
			}
			h.uv(uint64(a ^ e.old[l]))
		}
	}
	for i := range j.m {
		e := &j.m[i]
		h.uv(e.addr)
		h.buf = append(h.buf, e.n)
		h.buf = append(h.buf, e.old[:e.n]...)
	}
	for i := range j.c {
		e := &j.c[i]
		h.uv(uint64(e.idx))
		h.putLine(&e.old)
	}
	for i := range j.ops {
		e := &j.ops[i]
		if e.issued {
			h.buf = append(h.buf, 1)
		} else {
			h.buf = append(h.buf, 0)
		}
		h.uv(uint64(e.pos))
		h.putOp(&e.op)
	}
	h.commit()
}

func (h *history) putLine(l *cacheLine) {
	h.u64(l.tag)
	var f byte
	if l.valid {
		f |= 1
	}
	if l.dirty {
		f |= 2
	}
	if l.vol {
		f |= 4
	}
	h.buf = append(h.buf, f)
	h.uv(l.use)
	h.buf = append(h.buf, l.data[:]...)
}

func (h *history) putOp(p *pendingOp) {
	h.uv(p.id)
	h.uv(uint64(p.pc))
	h.buf = append(h.buf, byte(p.cnt), p.inc, p.n)
	if p.vec {
		h.buf = append(h.buf, 1)
	} else {
		h.buf = append(h.buf, 0)
	}
	h.uv(p.issue)
	h.uv(p.done)
	h.uv(uint64(p.dst))
	h.uv(uint64(p.skip))
	for k := 0; k < int(p.n); k++ {
		h.u32(p.data[k])
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

// pop undoes the newest step on w.
func (h *history) pop(w *Wave) bool {
	if h.n == 0 {
		return false
	}
	end := h.at(h.head, h.used)
	n := h.len32(h.at(end, len(h.ring)-4))
	start := h.at(end, len(h.ring)-n-frame)
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
		h.ds = append(h.ds, sEnt{idx: uint16(idx), old: r.u32()})
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
		e.addr = r.uv()
		e.n = r.byte1()
		copy(e.old[:], r.b[r.i:r.i+int(e.n)])
		r.i += int(e.n)
		h.dm = append(h.dm, e)
	}
	for i := 0; i < nc; i++ {
		var e cEnt
		e.idx = int32(r.uv())
		e.old.tag = r.u64()
		f := r.byte1()
		e.old.valid, e.old.dirty, e.old.vol = f&1 != 0, f&2 != 0, f&4 != 0
		e.old.use = r.uv()
		copy(e.old.data[:], r.b[r.i:r.i+lineBytes])
		r.i += lineBytes
		h.dc = append(h.dc, e)
	}
	for i := 0; i < nops; i++ {
		var e opEnt
		e.issued = r.byte1() == 1
		e.pos = int(r.uv())
		p := &e.op
		p.id = r.uv()
		p.pc = int(r.uv())
		cnt, inc, n, vec := r.byte1(), r.byte1(), r.byte1(), r.byte1()
		p.cnt, p.inc, p.n, p.vec = isa.Counters(cnt), inc, n, vec == 1
		p.issue = r.uv()
		p.done = r.uv()
		p.dst = uint16(r.uv())
		p.skip = uint16(r.uv())
		for k := 0; k < int(p.n); k++ {
			p.data[k] = r.u32()
		}
		h.do = append(h.do, e)
	}
	for i := len(h.ds) - 1; i >= 0; i-- {
		w.s[h.ds[i].idx] = h.ds[i].old
	}
	for i := len(h.dv) - 1; i >= 0; i-- {
		e := &h.dv[i]
		for m := e.mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			w.v[e.reg][l] ^= e.x[l]
		}
	}
	for i := len(h.dm) - 1; i >= 0; i-- {
		e := &h.dm[i]
		w.m.Mem.writeRaw(e.addr, e.old[:e.n])
	}
	for i := len(h.dc) - 1; i >= 0; i-- {
		w.cache.lines[h.dc[i].idx] = h.dc[i].old
	}
	for i := len(h.do) - 1; i >= 0; i-- {
		e := &h.do[i]
		if e.issued {
			w.pend = append(w.pend[:e.pos], w.pend[e.pos+1:]...)
		} else {
			w.pend = append(w.pend, pendingOp{})
			copy(w.pend[e.pos+1:], w.pend[e.pos:])
			w.pend[e.pos] = e.op
		}
	}
	h.used -= n + frame
	h.n--
	return true
}

package emu

// A 2-D or 3-D work-group's wave holds several rows of work-items: its
// lanes are rows of r consecutive elements (r the work-group's width),
// each row from its own start (the pitch apart, or anywhere). Such a wave
// is a few of vmem_run.go's runs side by side: checked once as a whole
// (one allocation, alignment) and moved a row, or a row's part in each of
// two pages, at a time, with no per-lane address, span or page work.

import "math"

// Rows are at least minRowLanes lanes (a 16-wide work-group's), so a
// wave has at most maxRows. Shorter rows cost more a lane than fastWave's
// lane loops (measured: struct_arg's table[i & 7], rows of eight).
const (
	minRowLanes = 16
	maxRows     = 64 / minRowLanes
)

// laneRowSet is a wave's rows: row k holds lanes k·r to min(k·r+r, n)-1,
// its first element at a[k], m[k] of its lanes in a[k]'s page (the rest
// in the next one).
type laneRowSet struct {
	n, r int
	a    [maxRows]uint64
	m    [maxRows]uint8
}

// laneRows reports whether the lanes 0 to n-1 of a GLOBAL, GLOBAL-saddr
// or FLAT access (spec; base is fastWave's) are rows of r lanes, r at
// least minRowLanes and less than n (laneRun takes one row), the last row
// maybe shorter, each row's elements step (at least size) bytes apart
// without wrapping vaddr's low dword, the high dwords uniform; and the
// whole wave passes waveFits and no row meets more than two pages nor has
// an element crossing one. It fills rs.
func laneRows(w *Wave, o *vmOp, spec int, base, size uint64, n int, rs *laneRowSet) (step uint64, ok bool) {
	if n <= minRowLanes || spec != specGlobal && spec != specGlobalS && spec != specFlat {
		return 0, false
	}
	v0 := vaddrLanes(w, o, spec)[:n]
	x := v0[0]
	st := v0[1] - x
	step = uint64(st)
	if step < size {
		return 0, false
	}
	r := 2
	for r < n && v0[r] == x+uint32(r)*st {
		r++
	}
	if r == n || r < minRowLanes || uint64(x)+uint64(r-1)*step > math.MaxUint32 {
		return 0, false
	}
	hi32, off := uint64(0), uint64(o.offset)
	if spec == specGlobalS {
		off += base
	} else {
		v1 := w.v[o.vaddr+1][:n]
		if !uniform(v1) {
			return 0, false
		}
		hi32 = uint64(v1[0]) << 32
	}
	rs.n, rs.r = (n+r-1)/r, r
	lo, top, or := ^uint64(0), uint64(0), step
	for k := range rs.n {
		row := v0[k*r : min(k*r+r, n)]
		y := row[0]
		if k > 0 && (uint64(y)+uint64(len(row)-1)*step > math.MaxUint32 || !consecutive(row, st)) {
			return 0, false
		}
		a := (uint64(y) | hi32) + off
		rs.a[k] = a
		lo, top, or = min(lo, a), max(top, a+uint64(len(row)-1)*step), or|a
	}
	if top+size < top || !waveFits(w, o, spec, base, 0, size, lo, top, or) {
		return 0, false
	}
	for k := range rs.n {
		m, ok := runSplit(rs.a[k], step, size, min(r, n-k*r))
		if !ok {
			return 0, false
		}
		rs.m[k] = uint8(m)
	}
	return step, true
}

// runSplit returns how many of the n elements of size bytes at a, step
// bytes apart (step > 0), lie in a's page; it reports false if the run
// meets more than two pages or an element crosses one.
func runSplit(a, step, size uint64, n int) (int, bool) {
	hi := a + uint64(n-1)*step
	p0 := a >> pageBits
	if p0 == (hi+size-1)>>pageBits {
		return n, true
	}
	next := (p0 + 1) << pageBits
	m := int((next - a + step - 1) / step)
	return m, a+uint64(m-1)*step+size <= next && hi>>pageBits == p0+1
}

// moveRows moves the active lanes of rs, row after row (lane order, as
// the general path stores).
func (u *vmemUnit) moveRows(w *Wave, o *vmOp, exec uint64, c *memCtx, rs *laneRowSet, step uint64, n int) {
	for k := range rs.n {
		l0, l1 := k*rs.r, min(k*rs.r+rs.r, n)
		a, m := rs.a[k], int(rs.m[k])
		u.moveBlock(w, o, exec, c, a, step, l0, l0+m)
		if l0+m < l1 {
			u.moveBlock(w, o, exec, c, a+uint64(m)*step, step, l0+m, l1)
		}
	}
}

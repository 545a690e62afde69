package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"math"
	"math/bits"
)

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
func laneRows(w *core.Wave, o *ref.VmOp, spec int, base, size uint64, n int, rs *laneRowSet) (step uint64, ok bool) {
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
	// rowsStep checks every lane below: this only finds r, from the
	// shortest row taken up
	r := minRowLanes
	if v0[r-1] != x+uint32(r-1)*st {
		return 0, false
	}
	for r < n && v0[r] == x+uint32(r)*st {
		r++
	}
	if r == n || r < minRowLanes || uint64(x)+uint64(r-1)*step > math.MaxUint32 {
		return 0, false
	}
	var v1 []uint32 // the high dwords (none for GLOBAL-saddr)
	hi32, off := uint64(0), uint64(o.Offset)
	if spec == specGlobalS {
		off += base
	} else {
		v1 = w.V[o.Vaddr+1][:n]
		hi32 = uint64(v1[0]) << 32
	}
	rs.n, rs.r = (n+r-1)/r, r
	lo, top, or := ^uint64(0), uint64(0), step
	for k := range rs.n {
		y, m := v0[k*r], min(r, n-k*r)
		if uint64(y)+uint64(m-1)*step > math.MaxUint32 {
			return 0, false
		}
		a := (uint64(y) | hi32) + off
		rs.a[k] = a
		lo, top, or = min(lo, a), max(top, a+uint64(m-1)*step), or|a
	}
	if !RowsStep(v0, v1, r, st) {
		return 0, false
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

// RowsStep reports whether lo holds rows of r lanes (the last one maybe
// shorter), each stepping by st from its first lane without wrapping (the
// caller checks that), and hi, unless nil, is uniform (uniform's check) —
// reading lo's lanes two at a time when r and len(lo) are even.
func RowsStep(lo, hi []uint32, r int, st uint32) bool {
	if hi != nil && !Uniform(hi) {
		return false
	}
	n := len(lo)
	pl := lanePairs(lo)
	if pl == nil || (r|n)&1 != 0 {
		for k := 0; k < n; k += r {
			if !Consecutive(lo[k:min(k+r, n)], st) {
				return false
			}
		}
		return true
	}
	// a pair of a row holds y+st·j and y+st·(j+1); no carry crosses
	// into the high half since no lane wraps
	inc, d := uint64(2*st)|uint64(2*st)<<32, uint64(0)
	for k := 0; k < len(pl); k += r / 2 {
		y := lo[2*k]
		d |= stepsFrom(pl[k:min(k+r/2, len(pl))], uint64(y)|uint64(y+st)<<32, inc)
	}
	return d == 0
}

// stepsFrom returns the OR of p[i] ^ (e + i·inc) over p: zero when each
// p[i] is e + i·inc.
func stepsFrom(p []uint64, e, inc uint64) (d uint64) {
	if len(p) == minRowLanes/2 { // a 16-lane row: unrolled, no bounds checks
		q, i2, i4 := (*[minRowLanes / 2]uint64)(p), 2*inc, 4*inc
		f := e + i4
		return (q[0] ^ e) | (q[1] ^ (e + inc)) | (q[2] ^ (e + i2)) | (q[3] ^ (e + i2 + inc)) |
			(q[4] ^ f) | (q[5] ^ (f + inc)) | (q[6] ^ (f + i2)) | (q[7] ^ (f + i2 + inc))
	}
	i := 1
	for ; i < len(p); i += 2 {
		d |= (p[i-1] ^ e) | (p[i] ^ (e + inc))
		e += 2 * inc
	}
	if i == len(p) {
		d |= p[i-1] ^ e
	}
	return d
}

// runSplit returns how many of the n elements of size bytes at a, step
// bytes apart (step > 0), lie in a's page; it reports false if the run
// meets more than two pages or an element crosses one.
func runSplit(a, step, size uint64, n int) (int, bool) {
	hi := a + uint64(n-1)*step
	p0 := a >> core.PageBits
	if p0 == (hi+size-1)>>core.PageBits {
		return n, true
	}
	next := (p0 + 1) << core.PageBits
	m := int((next - a + step - 1) / step)
	return m, a+uint64(m-1)*step+size <= next && hi>>core.PageBits == p0+1
}

// moveRows moves the active lanes of rs, row after row (lane order, as
// the general path stores). A row of consecutive dwords in one page (a
// load's, or a store's with every lane active) is one copy.
func moveRows(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, exec uint64, c *ref.MemCtx, rs *laneRowSet, step uint64, n int) {
	store := o.Kind == ref.VmStore
	for k := range rs.n {
		l0, l1 := k*rs.r, min(k*rs.r+rs.r, n)
		a, m := rs.a[k], int(rs.m[k])
		if rm := ^uint64(0) >> (64 - uint(m)); step == 4 && c.Size == 4 && l0+m == l1 && (!store || exec>>uint(l0)&rm == rm) {
			run := dwords(&o.Last, a, uint64(m), store)
			if store {
				copyDwords(run, w.V[o.Vdata][l0:l1])
			} else {
				copyDwords(c.Res.Data[0][l0:l1], run)
			}
			continue
		}
		moveBlock(u, w, o, exec, c, a, step, l0, l0+m)
		if l0+m < l1 {
			moveBlock(u, w, o, exec, c, a+uint64(m)*step, step, l0+m, l1)
		}
	}
}

// TablePeriod returns p when lanes 0 to len(lo)-1 repeat the first p, p
// a power of two from 2 to 32 less than len(lo) (a load of table[i & 7]),
// and hi, unless nil, repeats likewise; else 0.
func TablePeriod(lo, hi []uint32) int {
	n, x := len(lo), lo[0]
	if n < 3 {
		return 0 // no period below n
	}
	// every period divides the longest one possible, q, so lane n-1
	// repeats lane (n-1) mod q: the usual way to fail, found at once
	if q := min(32, 1<<(bits.Len(uint(n-1))-1)); lo[n-1] != lo[(n-1)&(q-1)] {
		return 0
	}
	p := 2
	for p < n && p <= 32 && lo[p] != x {
		p *= 2
	}
	if p >= n || p > 32 || !Periodic(lo, p) || hi != nil && !Periodic(hi, p) {
		return 0
	}
	return p
}

// Periodic reports whether v[l] == v[l-p] for every l from p on (p even),
// reading lanes two at a time where it can.
func Periodic(v []uint32, p int) bool {
	n := len(v)
	if v[n-1] != v[n-1-p] {
		return false // the usual way to fail, found at once
	}
	pv, d := lanePairs(v), uint64(0)
	if pv == nil {
		for l := p; l < n; l++ {
			d |= uint64(v[l] ^ v[l-p])
		}
		return d == 0
	}
	// an odd last lane is checked above
	for i, q := range pv[p/2:] {
		d |= q ^ pv[i]
	}
	return d == 0
}

// loadTable loads lanes 0 to n-1 of a GLOBAL, GLOBAL-saddr or FLAT load
// whose lanes repeat the addresses of the first p (tablePeriod), which
// are a run moveRun takes: it moves those p lanes and copies their data to
// the others. It reports false, having moved nothing, otherwise.
func loadTable(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, c *ref.MemCtx, spec int, base, limit uint64, n int) bool {
	if spec != specGlobal && spec != specGlobalS && spec != specFlat {
		return false
	}
	var hi []uint32
	if spec != specGlobalS {
		hi = w.V[o.Vaddr+1][:n]
	}
	p := TablePeriod(vaddrLanes(w, o, spec)[:n], hi)
	if p == 0 {
		return false
	}
	size := uint64(c.Size)
	a0, step, ok := laneRun(w, o, spec, base, limit, size, p)
	if !ok || !moveRun(u, w, o, ^uint64(0), c, spec, base, limit, a0, step, p) {
		return false
	}
	for k := range min(c.Ndw, 4) {
		d := c.Res.Data[k][:n]
		for m := p; m < n; m *= 2 { // the lanes so far, doubled (registers, not shared memory: copy is fine)
			copy(d[m:], d[:m])
		}
	}
	return true
}

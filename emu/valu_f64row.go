package emu

import (
	"math"

	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
)

// f64 row kernels: each f64 operation's lane loop is a small function of
// its own over whole registers (the arithmetic ones in package lanes, with
// AVX2 versions). An f64 register is its two rows (f64Regs: the lanes' low
// dwords, then their high dwords), which VGPR pairs, prefilled constants
// and the fast paths' scratch rows all are, so an operand is one pointer.
// A uniform source (an SGPR pair or a constant) is a float64 read once.
// The loops flush no denormals (flushRowsF64 does that after them when
// MODE asks).

// f64Regs is an f64 register: the low dwords of the lanes, then the high
// ones.
type f64Regs [2][64]uint32

// bits is lane l of p.
func (p *f64Regs) bits(l int) uint64 { return uint64(p[0][l]) | uint64(p[1][l])<<32 }

// at is lane l of p as a float64 (written out rather than through bits
// and f64: each inlined call leaves a NOP in the loops).
func (p *f64Regs) at(l int) float64 {
	return math.Float64frombits(uint64(p[0][l]) | uint64(p[1][l])<<32)
}

// set writes u to lane l of p.
func (p *f64Regs) set(l int, u uint64) { p[0][l], p[1][l] = uint32(u), uint32(u>>32) }

// regsF64 is VGPR pair r as an f64 register.
func (w *Wave) regsF64(r int) *f64Regs { return (*f64Regs)(w.v[r : r+2]) }

// rows is p as package lanes' f64 register (imported as simd: package
// emu has a function lanes).
func (p *f64Regs) rows() *simd.F64 { return (*simd.F64)(p) }

// The arithmetic of the rows is package lanes' (AVX2 where there is
// some): a lane whose result is a NaN is left unwritten and noted in a
// mask; those lanes' sources are then still intact (the destination may
// be a source) and are quieted after the loop as the lane functions do.

// addRowsF64 is v_add_f64 (addF64 rounding to nearest even).
func addRowsF64(d, a, b *f64Regs, n int) {
	nm := simd.AddF64(d.rows(), a.rows(), b.rows(), n)
	d.setNaNs(nm, func(l int) uint64 { return quiet64(math.NaN(), a.bits(l), b.bits(l)) })
}

// addRowsF64U is addRowsF64 with a uniform b.
func addRowsF64U(d, a *f64Regs, y float64, n int) {
	nm := simd.AddF64U(d.rows(), a.rows(), y, n)
	d.setNaNs(nm, func(l int) uint64 { return quiet64(math.NaN(), a.bits(l), f64bits(y)) })
}

// mulRowsF64 is v_mul_f64 (mulF64 rounding to nearest even).
func mulRowsF64(d, a, b *f64Regs, n int) {
	nm := simd.MulF64(d.rows(), a.rows(), b.rows(), n)
	d.setNaNs(nm, func(l int) uint64 { return quiet64(math.NaN(), a.bits(l), b.bits(l)) })
}

// mulRowsF64U is mulRowsF64 with a uniform b.
func mulRowsF64U(d, a *f64Regs, y float64, n int) {
	nm := simd.MulF64U(d.rows(), a.rows(), y, n)
	d.setNaNs(nm, func(l int) uint64 { return quiet64(math.NaN(), a.bits(l), f64bits(y)) })
}

// quietFma64 is a NaN fma of x, y and z as fmaF64 returns it: the first
// NaN source quieted, else the default NaN.
func quietFma64(x, y, z uint64) uint64 { return quiet64(math.NaN(), x, orNaN64(y, z)) }

// The fma rows take a's neg as a sign mask an (0 or 1<<63) to flip (a
// compiler's fma of -a is common: Newton-Raphson steps).

// fmaRowsF64 is v_fma_f64 (fmaF64 rounding to nearest even).
func fmaRowsF64(d, a, b, c *f64Regs, an uint64, n int) {
	nm := simd.FmaF64(d.rows(), a.rows(), b.rows(), c.rows(), an, n)
	d.setNaNs(nm, func(l int) uint64 { return quietFma64(a.bits(l)^an, b.bits(l), c.bits(l)) })
}

// fmaRowsF64UB is fmaRowsF64 with a uniform b.
func fmaRowsF64UB(d, a *f64Regs, y float64, c *f64Regs, an uint64, n int) {
	nm := simd.FmaF64UB(d.rows(), a.rows(), y, c.rows(), an, n)
	d.setNaNs(nm, func(l int) uint64 { return quietFma64(a.bits(l)^an, f64bits(y), c.bits(l)) })
}

// fmaRowsF64UC is fmaRowsF64 with a uniform c.
func fmaRowsF64UC(d, a, b *f64Regs, z float64, an uint64, n int) {
	nm := simd.FmaF64UC(d.rows(), a.rows(), b.rows(), z, an, n)
	d.setNaNs(nm, func(l int) uint64 { return quietFma64(a.bits(l)^an, b.bits(l), f64bits(z)) })
}

// quietUnary64 is a NaN result of an f64 unary operation of x as fu64
// returns it.
func quietUnary64(x uint64) uint64 {
	if x&^(1<<63) > 0x7ff0000000000000 {
		return x | 1<<51
	}
	return 0x7ff8000000000000
}

// rcpRowsF64 is v_rcp_f64.
func rcpRowsF64(d, a *f64Regs, n int) {
	quietUnaryRowsF64(d, a, simd.RcpF64(d.rows(), a.rows(), n))
}

// rsqRowsF64 is v_rsq_f64 (rsqrt).
func rsqRowsF64(d, a *f64Regs, n int) {
	quietUnaryRowsF64(d, a, simd.RsqF64(d.rows(), a.rows(), n))
}

// sqrtRowsF64 is v_sqrt_f64.
func sqrtRowsF64(d, a *f64Regs, n int) {
	quietUnaryRowsF64(d, a, simd.SqrtF64(d.rows(), a.rows(), n))
}

// unaryRowsF64 is an f64 unary operation f (fu64's lane function).
func unaryRowsF64(f func(float64) float64, d, a *f64Regs, n int) {
	var nm uint64
	for l := range d[0][:n] {
		s := f(a.at(l))
		if s != s {
			nm |= 1 << l
			continue
		}
		d.set(l, math.Float64bits(s))
	}
	quietUnaryRowsF64(d, a, nm)
}

// setNaNs writes nan(l) to each lane l of d in nm: the NaN results the
// row loops leave to a pass of their own.
func (d *f64Regs) setNaNs(nm uint64, nan func(l int) uint64) {
	for ; nm != 0; nm &= nm - 1 {
		l := tz(nm)
		d.set(l, nan(l))
	}
}

// quietUnaryRowsF64 writes the NaN results of an f64 unary operation of
// a to the lanes of d in nm.
func quietUnaryRowsF64(d, a *f64Regs, nm uint64) {
	d.setNaNs(nm, func(l int) uint64 { return quietUnary64(a.bits(l)) })
}

// flushRowsF64 flushes lanes 0 to n-1 of d that hold a denormal to zero
// (flush64), keeping their signs.
func flushRowsF64(d *f64Regs, n int) {
	for l := range d[1][:n] {
		if d[1][l]&0x7ff00000 == 0 {
			d[0][l], d[1][l] = 0, d[1][l]&(1<<31)
		}
	}
}

// srcRegsF64 returns f64 source k as a register: the VGPR pair, the
// prefilled constant or buf filled with the uniform value, with abs, neg
// and input flushing applied (vfetch's order) in buf when any applies.
func (w *Wave) srcRegsF64(in *instr, k int, din bool, buf *f64Regs) *f64Regs {
	o := &in.src[k]
	if o.kind == okV && !o.abs && !o.neg && din {
		return w.regsF64(int(o.reg))
	}
	am, nm := signMasks(o)
	return w.srcModF64(in, k, din, am, nm, buf)
}

// srcNegF64 is srcRegsF64 for a kernel that flips signs itself: a source
// with neg alone (input denormals kept) comes unmodified, with the sign
// mask 1<<63 to flip.
func (w *Wave) srcNegF64(in *instr, k int, din bool, buf *f64Regs) (*f64Regs, uint64) {
	if o := &in.src[k]; o.neg && !o.abs && din {
		if o.kind == okV { // the common case without a call
			return w.regsF64(int(o.reg)), 1 << 63
		}
		return w.srcModF64(in, k, din, 0, 0, buf), 1 << 63
	}
	return w.srcRegsF64(in, k, din, buf), 0
}

// srcModF64 is srcRegsF64 with the high dword's abs and neg masks given.
func (w *Wave) srcModF64(in *instr, k int, din bool, am, nm uint32, buf *f64Regs) *f64Regs {
	o := &in.src[k]
	var p *f64Regs
	switch {
	case o.kind == okV:
		p = w.regsF64(int(o.reg))
	case o.kind == okConst && in.cf != nil:
		p = (*f64Regs)(in.cf[2*k : 2*k+2])
	default:
		x := w.sv64(o)
		fill(&buf[0], uint32(x))
		fill(&buf[1], uint32(x>>32))
		p = buf
	}
	if am|nm == 0 && din {
		return p
	}
	if din { // only the high dwords (the signs) change
		simd.SignsF64(buf.rows(), p.rows(), am, nm)
		return buf
	}
	for l := range buf[0] {
		x, y := p[0][l], p[1][l]&^am^nm
		if y&0x7ff00000 == 0 {
			x, y = 0, y&0x80000000
		}
		buf[0][l], buf[1][l] = x, y
	}
	return buf
}

// signMasks returns the masks of an f64 source's high dword that abs
// clears and neg flips.
func signMasks(o *operand) (am, nm uint32) {
	if o.abs {
		am = 1 << 31
	}
	if o.neg {
		nm = 1 << 31
	}
	return am, nm
}

// uniformF64 returns f64 source k as one float64 when it is uniform (an
// SGPR pair or a constant), with abs, neg and input flushing applied.
func (w *Wave) uniformF64(in *instr, k int, din bool) (float64, bool) {
	if o := &in.src[k]; o.kind != okV {
		return w.scalarF64(o, din), true
	}
	return 0, false
}

// scalarF64 is a uniform f64 source with abs, neg and input flushing
// applied.
func (w *Wave) scalarF64(o *operand, din bool) float64 {
	u := w.sv64(o)
	if o.abs {
		u &^= 1 << 63
	}
	if o.neg {
		u ^= 1 << 63
	}
	return f64(flush64(u, din))
}

// dstRegsF64 is dstLanes for the pair r, r+1: the pair itself when lanes
// 0 to liveLanes(mask)-1 are exactly the EXEC lanes and whole quads
// (package lanes' rows write whole quads), else scratch. A full wave,
// the common case, inlines into the callers; to fit
// the inlining budget the other cases go out of line (dstPartF64) and the
// pair is written out rather than regsF64.
func (w *Wave) dstRegsF64(r int, mask uint64, scratch *f64Regs) *f64Regs {
	if mask != ^uint64(0) {
		return w.dstPartF64(r, mask, scratch)
	}
	return (*f64Regs)(w.v[r : r+2])
}

// dstPartF64 is dstRegsF64 for a partial EXEC mask.
func (w *Wave) dstPartF64(r int, mask uint64, scratch *f64Regs) *f64Regs {
	n := liveLanes(mask)
	if mask == 0 || mask != lowLanes(n) || n%4 != 0 {
		return scratch
	}
	return w.regsF64(r)
}

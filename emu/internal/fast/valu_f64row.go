package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"math"
)

// f64 row kernels: each f64 operation's lane loop is a small function of
// its own over whole registers (the arithmetic ones in package lanes, with
// AVX2 versions). An f64 register is its two rows (f64Regs: the lanes' low
// dwords, then their high dwords), which VGPR pairs, prefilled constants
// and the fast paths' scratch rows all are, so an operand is one pointer.
// A uniform source (an SGPR pair or a constant) is a float64 read once.
// The loops flush no denormals (flushRowsF64 does that after them when
// MODE asks).

// F64Regs is an f64 register: the low dwords of the lanes, then the high
// ones.
type F64Regs [2][64]uint32

// Bits is lane l of p.
func (p *F64Regs) Bits(l int) uint64 { return uint64(p[0][l]) | uint64(p[1][l])<<32 }

// at is lane l of p as a float64 (written out rather than through bits
// and f64: each inlined call leaves a NOP in the loops).
func (p *F64Regs) at(l int) float64 {
	return math.Float64frombits(uint64(p[0][l]) | uint64(p[1][l])<<32)
}

// Set writes u to lane l of p.
func (p *F64Regs) Set(l int, u uint64) { p[0][l], p[1][l] = uint32(u), uint32(u>>32) }

// regsF64 is VGPR pair r as an f64 register.
func regsF64(w *core.Wave, r int) *F64Regs { return (*F64Regs)(w.V[r : r+2]) }

// rows is p as package lanes' f64 register (imported as simd: package
// emu has a function lanes).
func (p *F64Regs) rows() *simd.F64 { return (*simd.F64)(p) }

// The arithmetic of the rows is package lanes' (AVX2 where there is
// some): a lane whose result is a NaN is left unwritten and noted in a
// mask; those lanes' sources are then still intact (the destination may
// be a source) and are quieted after the loop as the lane functions do.

// addRowsF64 is v_add_f64 (addF64 rounding to nearest even).
func addRowsF64(d, a, b *F64Regs, n int) {
	nm := simd.AddF64(d.rows(), a.rows(), b.rows(), n)
	d.setNaNs(nm, func(l int) uint64 { return core.Quiet64(math.NaN(), a.Bits(l), b.Bits(l)) })
}

// addRowsF64U is addRowsF64 with a uniform b.
func addRowsF64U(d, a *F64Regs, y float64, n int) {
	nm := simd.AddF64U(d.rows(), a.rows(), y, n)
	d.setNaNs(nm, func(l int) uint64 { return core.Quiet64(math.NaN(), a.Bits(l), core.F64bits(y)) })
}

// mulRowsF64 is v_mul_f64 (mulF64 rounding to nearest even).
func mulRowsF64(d, a, b *F64Regs, n int) {
	nm := simd.MulF64(d.rows(), a.rows(), b.rows(), n)
	d.setNaNs(nm, func(l int) uint64 { return core.Quiet64(math.NaN(), a.Bits(l), b.Bits(l)) })
}

// mulRowsF64U is mulRowsF64 with a uniform b.
func mulRowsF64U(d, a *F64Regs, y float64, n int) {
	nm := simd.MulF64U(d.rows(), a.rows(), y, n)
	d.setNaNs(nm, func(l int) uint64 { return core.Quiet64(math.NaN(), a.Bits(l), core.F64bits(y)) })
}

// quietFma64 is a NaN fma of x, y and z as fmaF64 returns it: the first
// NaN source quieted, else the default NaN.
func quietFma64(x, y, z uint64) uint64 { return core.Quiet64(math.NaN(), x, core.OrNaN64(y, z)) }

// The fma rows take a's neg as a sign mask an (0 or 1<<63) to flip (a
// compiler's fma of -a is common: Newton-Raphson steps).

// fmaRowsF64 is v_fma_f64 (fmaF64 rounding to nearest even).
func fmaRowsF64(d, a, b, c *F64Regs, an uint64, n int) {
	nm := simd.FmaF64(d.rows(), a.rows(), b.rows(), c.rows(), an, n)
	d.setNaNs(nm, func(l int) uint64 { return quietFma64(a.Bits(l)^an, b.Bits(l), c.Bits(l)) })
}

// fmaRowsF64UB is fmaRowsF64 with a uniform b.
func fmaRowsF64UB(d, a *F64Regs, y float64, c *F64Regs, an uint64, n int) {
	nm := simd.FmaF64UB(d.rows(), a.rows(), y, c.rows(), an, n)
	d.setNaNs(nm, func(l int) uint64 { return quietFma64(a.Bits(l)^an, core.F64bits(y), c.Bits(l)) })
}

// fmaRowsF64UC is fmaRowsF64 with a uniform c.
func fmaRowsF64UC(d, a, b *F64Regs, z float64, an uint64, n int) {
	nm := simd.FmaF64UC(d.rows(), a.rows(), b.rows(), z, an, n)
	d.setNaNs(nm, func(l int) uint64 { return quietFma64(a.Bits(l)^an, b.Bits(l), core.F64bits(z)) })
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
func rcpRowsF64(d, a *F64Regs, n int) {
	quietUnaryRowsF64(d, a, simd.RcpF64(d.rows(), a.rows(), n))
}

// rsqRowsF64 is v_rsq_f64 (rsqrt).
func rsqRowsF64(d, a *F64Regs, n int) {
	quietUnaryRowsF64(d, a, simd.RsqF64(d.rows(), a.rows(), n))
}

// sqrtRowsF64 is v_sqrt_f64.
func sqrtRowsF64(d, a *F64Regs, n int) {
	quietUnaryRowsF64(d, a, simd.SqrtF64(d.rows(), a.rows(), n))
}

// unaryRowsF64 is an f64 unary operation f (fu64's lane function).
func unaryRowsF64(f func(float64) float64, d, a *F64Regs, n int) {
	var nm uint64
	for l := range d[0][:n] {
		s := f(a.at(l))
		if s != s {
			nm |= 1 << l
			continue
		}
		d.Set(l, math.Float64bits(s))
	}
	quietUnaryRowsF64(d, a, nm)
}

// setNaNs writes nan(l) to each lane l of d in nm: the NaN results the
// row loops leave to a pass of their own.
func (d *F64Regs) setNaNs(nm uint64, nan func(l int) uint64) {
	for ; nm != 0; nm &= nm - 1 {
		l := core.Tz(nm)
		d.Set(l, nan(l))
	}
}

// quietUnaryRowsF64 writes the NaN results of an f64 unary operation of
// a to the lanes of d in nm.
func quietUnaryRowsF64(d, a *F64Regs, nm uint64) {
	d.setNaNs(nm, func(l int) uint64 { return quietUnary64(a.Bits(l)) })
}

// flushRowsF64 flushes lanes 0 to n-1 of d that hold a denormal to zero
// (flush64), keeping their signs.
func flushRowsF64(d *F64Regs, n int) {
	for l := range d[1][:n] {
		if d[1][l]&0x7ff00000 == 0 {
			d[0][l], d[1][l] = 0, d[1][l]&(1<<31)
		}
	}
}

// srcRegsF64 returns f64 source k as a register: the VGPR pair, the
// prefilled constant or buf filled with the uniform value, with abs, neg
// and input flushing applied (vfetch's order) in buf when any applies.
func srcRegsF64(w *core.Wave, in *core.Instr, k int, din bool, buf *F64Regs) *F64Regs {
	o := &in.Src[k]
	if o.Kind == core.OkV && !o.Abs && !o.Neg && din {
		return regsF64(w, int(o.Reg))
	}
	am, nm := signMasks(o)
	return srcModF64(w, in, k, din, am, nm, buf)
}

// srcNegF64 is srcRegsF64 for a kernel that flips signs itself: a source
// with neg alone (input denormals kept) comes unmodified, with the sign
// mask 1<<63 to flip.
func srcNegF64(w *core.Wave, in *core.Instr, k int, din bool, buf *F64Regs) (*F64Regs, uint64) {
	if o := &in.Src[k]; o.Neg && !o.Abs && din {
		if o.Kind == core.OkV { // the common case without a call
			return regsF64(w, int(o.Reg)), 1 << 63
		}
		return srcModF64(w, in, k, din, 0, 0, buf), 1 << 63
	}
	return srcRegsF64(w, in, k, din, buf), 0
}

// srcModF64 is srcRegsF64 with the high dword's abs and neg masks given.
func srcModF64(w *core.Wave, in *core.Instr, k int, din bool, am, nm uint32, buf *F64Regs) *F64Regs {
	o := &in.Src[k]
	var p *F64Regs
	switch {
	case o.Kind == core.OkV:
		p = regsF64(w, int(o.Reg))
	case o.Kind == core.OkConst && in.Cf != nil:
		p = (*F64Regs)(in.Cf[2*k : 2*k+2])
	default:
		x := w.Sv64(o)
		Fill(&buf[0], uint32(x))
		Fill(&buf[1], uint32(x>>32))
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
func signMasks(o *core.Operand) (am, nm uint32) {
	if o.Abs {
		am = 1 << 31
	}
	if o.Neg {
		nm = 1 << 31
	}
	return am, nm
}

// uniformF64 returns f64 source k as one float64 when it is uniform (an
// SGPR pair or a constant), with abs, neg and input flushing applied.
func uniformF64(w *core.Wave, in *core.Instr, k int, din bool) (float64, bool) {
	if o := &in.Src[k]; o.Kind != core.OkV {
		return scalarF64(w, o, din), true
	}
	return 0, false
}

// scalarF64 is a uniform f64 source with abs, neg and input flushing
// applied.
func scalarF64(w *core.Wave, o *core.Operand, din bool) float64 {
	u := w.Sv64(o)
	if o.Abs {
		u &^= 1 << 63
	}
	if o.Neg {
		u ^= 1 << 63
	}
	return core.F64(flush64(u, din))
}

// dstRegsF64 is dstLanes for the pair r, r+1: the pair itself when lanes
// 0 to liveLanes(mask)-1 are exactly the EXEC lanes and whole quads
// (package lanes' rows write whole quads), else scratch. A full wave,
// the common case, inlines into the callers; to fit
// the inlining budget the other cases go out of line (dstPartF64) and the
// pair is written out rather than regsF64.
func dstRegsF64(w *core.Wave, r int, mask uint64, scratch *F64Regs) *F64Regs {
	if mask != ^uint64(0) {
		return dstPartF64(w, r, mask, scratch)
	}
	return (*F64Regs)(w.V[r : r+2])
}

// dstPartF64 is dstRegsF64 for a partial EXEC mask.
func dstPartF64(w *core.Wave, r int, mask uint64, scratch *F64Regs) *F64Regs {
	n := core.LiveLanes(mask)
	if mask == 0 || mask != LowLanes(n) || n%4 != 0 {
		return scratch
	}
	return regsF64(w, r)
}

package emu

import (
	"math"
	"unsafe"

	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/isa"
)

// Fast kernels: whole-register loops for the common VALU operations when
// the instruction has no SDWA, DPP, modifiers or 64-bit operands and (for
// floats) MODE rounds to nearest even. They compute lanes 0 to e.live-1,
// and may compute the rest of the quad of lanes holding lane e.live-1
// (the commonest integer kernels run a quad a step); the write keeps only
// the EXEC lanes. Results equal the lane functions'.

type kernel func(e *fenv, d, a, b, c *[64]uint32)

var kernels = map[string]kernel{
	"v_add_f32":    kAddF32,
	"v_sub_f32":    kSubF32,
	"v_subrev_f32": func(e *fenv, d, a, b, c *[64]uint32) { kSubF32(e, d, b, a, c) },
	"v_mul_f32":    kMulF32,
	"v_fma_f32":    kFmaF32,
	"v_mac_f32":    kMadF32,
	"v_mad_f32":    kMadF32,
	"v_madmk_f32":  kMadF32,
	"v_madak_f32":  kMadF32,
	"v_mov_b32": func(e *fenv, d, a, b, c *[64]uint32) {
		copy(d[:e.live], a[:e.live])
	},
	"v_add_u32":    func(e *fenv, d, a, b, c *[64]uint32) { simd.Add32(d, a, b, e.live) },
	"v_sub_u32":    func(e *fenv, d, a, b, c *[64]uint32) { simd.Sub32(d, a, b, e.live) },
	"v_subrev_u32": func(e *fenv, d, a, b, c *[64]uint32) { simd.Sub32(d, b, a, e.live) },
	"v_and_b32": func(e *fenv, d, a, b, c *[64]uint32) {
		pa := pairs(a)[:nquads(e.live)]
		pd, pb := pairs(d)[:len(pa)], pairs(b)[:len(pa)]
		for i := range pa {
			x, y := &pa[i], &pb[i]
			pd[i] = [2]uint64{x[0] & y[0], x[1] & y[1]}
		}
	},
	"v_or_b32": func(e *fenv, d, a, b, c *[64]uint32) {
		pa := pairs(a)[:nquads(e.live)]
		pd, pb := pairs(d)[:len(pa)], pairs(b)[:len(pa)]
		for i := range pa {
			x, y := &pa[i], &pb[i]
			pd[i] = [2]uint64{x[0] | y[0], x[1] | y[1]}
		}
	},
	"v_xor_b32": func(e *fenv, d, a, b, c *[64]uint32) {
		pa := pairs(a)[:nquads(e.live)]
		pd, pb := pairs(d)[:len(pa)], pairs(b)[:len(pa)]
		for i := range pa {
			x, y := &pa[i], &pb[i]
			pd[i] = [2]uint64{x[0] ^ y[0], x[1] ^ y[1]}
		}
	},
	"v_lshlrev_b32": func(e *fenv, d, a, b, c *[64]uint32) {
		dd, aa, bb := lanes(e, d, a, b)
		for l := range dd {
			dd[l] = bb[l] << (aa[l] & 31)
		}
	},
	"v_lshrrev_b32": func(e *fenv, d, a, b, c *[64]uint32) {
		dd, aa, bb := lanes(e, d, a, b)
		for l := range dd {
			dd[l] = bb[l] >> (aa[l] & 31)
		}
	},
	"v_ashrrev_i32": func(e *fenv, d, a, b, c *[64]uint32) {
		dd, aa, bb := lanes(e, d, a, b)
		for l := range dd {
			dd[l] = uint32(int32(bb[l]) >> (aa[l] & 31))
		}
	},
	"v_mul_u32_u24": func(e *fenv, d, a, b, c *[64]uint32) { simd.MulU24(d, a, b, e.live) },
	"v_mad_u32_u24": func(e *fenv, d, a, b, c *[64]uint32) {
		qa := quads(a)[:nquads(e.live)]
		qd, qb, qc := quads(d)[:len(qa)], quads(b)[:len(qa)], quads(c)[:len(qa)]
		const m = 0xffffff
		for i := range qa {
			x, y, z := &qa[i], &qb[i], &qc[i]
			qd[i] = [4]uint32{(x[0]&m)*(y[0]&m) + z[0], (x[1]&m)*(y[1]&m) + z[1], (x[2]&m)*(y[2]&m) + z[2], (x[3]&m)*(y[3]&m) + z[3]}
		}
	},
	"v_lshl_add_u32": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d[:e.live] {
			d[l] = a[l]<<(b[l]&31) + c[l]
		}
	},
	"v_cvt_f32_i32": func(e *fenv, d, a, b, c *[64]uint32) { simd.F32FromI32(d, a, e.live) },
	"v_cvt_f32_u32": func(e *fenv, d, a, b, c *[64]uint32) { simd.F32FromU32(d, a, e.live) },
	"v_mul_lo_u32":  func(e *fenv, d, a, b, c *[64]uint32) { simd.MulLo(d, a, b, e.live) },
	"v_add3_u32":    func(e *fenv, d, a, b, c *[64]uint32) { simd.Add3(d, a, b, c, e.live) },
}

// lanes returns lanes 0 to e.live-1 of d, a and b, as slices of one
// length: indexing them in a loop over d needs no bounds check (nor the
// nil checks of the arrays).
func lanes(e *fenv, d, a, b *[64]uint32) ([]uint32, []uint32, []uint32) {
	n := e.live
	return d[:n], a[:n], b[:n]
}

// flushIn zeroes a denormal f32 input (keeping its sign) unless kept.
func flushIn(u uint32, keep bool) uint32 {
	if !keep && u&0x7f800000 == 0 {
		return u & 0x80000000
	}
	return u
}

func flushOut(u uint32, keep bool) uint32 {
	if !keep && u&0x7f800000 == 0 {
		return u & 0x80000000
	}
	return u
}

// The f32 kernels run package lanes' rows (valu_simd_f32.go; AVX2 where
// the host has it), which leave NaN lanes to the lane rules: for the
// usual MODE, denormals kept both ways, the plain rows, else the flushing
// ones.

func kAddF32(e *fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		addRowF32(d, a, b, n)
		return
	}
	addFlushF32(e, d, a, b, e.live)
}

func kSubF32(e *fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		subRowF32(d, a, b, n)
		return
	}
	subFlushF32(e, d, a, b, e.live)
}

func kMulF32(e *fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		mulRowF32(d, a, b, n)
		return
	}
	mulFlushF32(e, d, a, b, e.live)
}

func kMadF32(e *fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		madRowF32(d, a, b, c, n)
		return
	}
	madFlushF32(e, d, a, b, c, e.live)
}

// madNaN32 is v_mad_f32 of x, y and z (sources flushed as MODE says) for
// a lane whose result is a NaN: flushing the product cannot change which
// NaN that is.
func madNaN32(x, y, z uint32) uint32 {
	p := float32(f32(x) * f32(y))
	pu := f32bits(p)
	if p != p {
		pu = quiet32(p, x, y)
	}
	r := f32(pu) + f32(z)
	return quiet32(r, pu, z)
}

func kFmaF32(e *fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		if simd.FMA {
			fmaRowF32(e, d, a, b, c, n)
			return
		}
		d, a, b := asFloats(d)[:n], asFloats(a)[:n], asFloats(b)[:n]
		c := asFloats(c)[:n]
		for l := range d {
			s := float64(a[l])*float64(b[l]) + float64(c[l])
			r := float32(s)
			if !fmaExact(s) {
				r = f32(uint32(fmaF32(e, uint64(f32bits(a[l])), uint64(f32bits(b[l])), uint64(f32bits(c[l])))))
			}
			d[l] = r
		}
		return
	}
	fmaFlushF32(e, d, a, b, c, e.live)
}

// fmaExact reports whether s, an f32 fma computed in float64, rounds to
// the correctly rounded f32 result: a finite number, not a tie for f32
// (double rounding) and normal in f32.
func fmaExact(s float64) bool {
	b := math.Float64bits(s)
	return b>>52&0x7ff-897 < 0x7ff-897 && b&0x1fffffff != 0x10000000 // 2^-126 ≤ |s| < ∞, not a tie
}

// keepLanes reports whether MODE keeps f32 denormals, in and out, and
// returns the lanes a kernel computes. The kernels then slice their rows
// to n lanes themselves, so the compiler sees one length and drops the
// bounds checks.
func keepLanes(e *fenv) (n int, ok bool) { return e.live, e.din && e.dout }

// asFloats is a register's lanes as float32s (bits unchanged): fma's Go
// loop (a host without FMA3) loads, computes and stores them in the float
// registers.
func asFloats(r *[64]uint32) *[64]float32 { return (*[64]float32)(unsafe.Pointer(r)) }

// fastEligible reports whether an instruction can use its kernel.
func fastEligible(in *instr, inst *isa.Inst) bool {
	return in.def != nil && in.def.k != nil && kernelEligible(in, inst)
}

// kernelEligible reports whether an instruction's operands suit a
// whole-register kernel.
func kernelEligible(in *instr, inst *isa.Inst) bool {
	if in.def == nil || in.def.v == nil {
		return false
	}
	v := in.def.v
	if inst.Variant == isa.VariantSDWA || inst.Variant == isa.VariantDPP || inst.Mods.Clamp || inst.Mods.Omod != 0 {
		return false
	}
	if v.dstW != 1 || v.cin || v.cout || in.dst[0].kind != okV {
		return false
	}
	for k := 0; k < int(v.nsrc); k++ {
		if v.srcW[k] != 1 {
			return false
		}
		o := &in.src[k]
		if v.mac && k == 2 {
			continue
		}
		if k >= int(in.nsrc) || o.sext {
			return false
		}
		// abs and neg: only on f32 sources (execFast applies them)
		if (o.neg || o.abs) && (v.ft != 32 || v.isrc>>uint(k)&1 != 0) {
			return false
		}
	}
	return true
}

// src32 returns source k as a register of lanes: the VGPR itself, the
// instruction's prefilled constant, or buf filled with a uniform value.
func (w *Wave) src32(in *instr, k int, buf *[64]uint32) *[64]uint32 {
	if k == 2 && in.def.v.mac { // (VOPC has no vop: k < 2)
		return &w.v[uint8(in.dst[0].reg)] // (a VGPR: kernelEligible, laneEligible)
	}
	if o := &in.src[k]; o.kind == okV {
		return &w.v[uint8(o.reg)]
	}
	return w.srcLanes(in, k, buf, 64)
}

// srcLanes is src32 for a kernel that reads lanes 0 to n-1 (and the rest
// of their block of eight), and for a source other than a v_mac's
// accumulator: a uniform value fills only those blocks, a quarter of the
// work for a 16-lane wave.
func (w *Wave) srcLanes(in *instr, k int, buf *[64]uint32, n int) *[64]uint32 {
	switch o := &in.src[k]; {
	case o.kind == okV:
		return &w.v[uint8(o.reg)]
	case o.kind == okConst && in.cf != nil:
		return &in.cf[2*k]
	default:
		return fillLanes(buf, w.scalarIn(o), n)
	}
}

// scalarIn is sv, reading an SGPR directly (a fast form's step is not
// journaled: there is no hazard to record).
func (w *Wave) scalarIn(o *operand) uint32 {
	if o.kind == okS {
		return w.s[o.reg]
	}
	return w.sv(o)
}

// srcMod is srcLanes with an f32 source's abs and neg applied (in buf),
// in one call.
func (w *Wave) srcMod(in *instr, k int, buf *[64]uint32, n int) *[64]uint32 {
	o := &in.src[k]
	var src *[64]uint32
	switch {
	case o.kind == okV:
		src = &w.v[uint8(o.reg)]
	case o.kind == okConst && in.cf != nil:
		src = &in.cf[2*k]
	default:
		src = fillLanes(buf, w.scalarIn(o), n)
	}
	if !o.abs && !o.neg {
		return src
	}
	var am, nm uint32
	if o.abs {
		am = 1 << 31
	}
	if o.neg {
		nm = 1 << 31
	}
	for l := range buf[:blockLanes(n)] {
		buf[l] = src[l]&^am ^ nm
	}
	return buf
}

// prefill gives a fast-path instruction its constant sources as whole
// registers (rows 2k and 2k+1: the low and high dwords of source k), so
// src32 and src64 need not fill them on every execution. Kernels only read
// their sources, so waves running the program concurrently share them.
func prefill(in *instr) {
	for k := 0; k < 3 && k < int(in.nsrc); k++ {
		if o := &in.src[k]; o.kind == okConst {
			if in.cf == nil {
				in.cf = new([6][64]uint32)
			}
			fill(&in.cf[2*k], uint32(o.val))
			fill(&in.cf[2*k+1], uint32(o.val>>32))
		}
	}
}

// execFast runs a kernel.
func execFast(w *Wave, in *instr) error { return runKernel(w, in, in.k) }

// execFastV runs the kernel of an instruction whose sources have no
// modifiers and are all VGPRs but maybe the first two (plainVSources):
// the commonest forms, VOP2's included (an SGPR or constant first
// source), run as runKernel without the per-source dispatch.
func execFastV(w *Wave, in *instr) error {
	v := in.def.v
	e := w.kernelEnv(in)
	if e == nil {
		return execVOP(w, in)
	}
	t := &w.tmp
	mask := w.exec()
	n := liveLanes(mask)
	var a, b *[64]uint32
	if o := &in.src[0]; o.kind == okV {
		a = &w.v[uint8(o.reg)]
	} else {
		a = w.srcLanes(in, 0, &t[0], n)
	}
	switch o := &in.src[1]; {
	case v.nsrc < 2:
		b = &t[1]
	case o.kind == okV:
		b = &w.v[uint8(o.reg)]
	default:
		b = w.srcLanes(in, 1, &t[1], n)
	}
	c := &t[2]
	switch {
	case v.nsrc > 2 && v.mac: // the accumulator is D
		c = &w.v[uint8(in.dst[0].reg)]
	case v.nsrc > 2:
		c = &w.v[uint8(in.src[2].reg)]
	}
	r := int(in.dst[0].reg)
	e.live = n
	d := w.dstQuads(r, mask, &t[3])
	in.k(e, d, a, b, c)
	w.dstPut(r, mask, d)
	return nil
}

// execMovFast is v_mov_b32 without modifiers. An SGPR or constant source is a uniform value stored straight into the EXEC
// lanes (no row to fill and copy); other cases are execMovRow, out of line
// so that this path makes no call but fillMasked's.
func execMovFast(w *Wave, in *instr) error {
	o := &in.src[0]
	if w.gprIdx() || o.kind != okS && o.kind != okConst {
		return execMovRow(w, in)
	}
	x := uint32(o.val)
	if o.kind == okS {
		x = w.s[o.reg]
	}
	fillMasked(&w.v[uint8(in.dst[0].reg)], x, w.exec())
	return nil
}

// fillMasked sets the lanes of dst in mask to x: a prefix of lanes (a
// 16-lane wave's EXEC, a full one) a block of eight lanes a step, as
// fillLanes does, other masks lane by lane.
func fillMasked(dst *[64]uint32, x uint32, mask uint64) {
	if mask&(mask+1) != 0 {
		for m := mask; m != 0; m &= m - 1 {
			dst[tz(m)] = x
		}
		return
	}
	n := liveLanes(mask)
	v := uint64(x) | uint64(x)<<32
	b := asBlocks(dst)[:n>>3]
	for i := range b {
		b[i] = [4]uint64{v, v, v, v}
	}
	for l := n &^ 7; l < n; l++ {
		dst[l] = x
	}
}

// asBlocks views a register as 8 blocks of eight lanes, as four uint64s
// each; registers are 8-byte aligned (see pairs).
func asBlocks(r *[64]uint32) *[8][4]uint64 { return (*[8][4]uint64)(unsafe.Pointer(r)) }

// plainVSources reports whether every source of an instruction its kernel
// reads is without modifiers and, but for the first two, a VGPR.
func plainVSources(in *instr) bool {
	v := in.def.v
	for k := range int(v.nsrc) {
		if v.mac && k == 2 {
			break
		}
		if o := &in.src[k]; o.kind != okV && k > 1 || o.abs || o.neg || o.sext {
			return false
		}
	}
	return true
}

// kernelEnv returns the float environment the kernel of in runs in, or
// nil when the instruction must take execVOP instead: GPR indexing is on,
// or MODE rounds other than to nearest even. It inlines: an integer kernel's
// test is a few loads, floatEnv takes the rest.
func (w *Wave) kernelEnv(in *instr) *fenv {
	if w.s[slotMode]&modeGPRIdxEn|uint32(in.kft) == 0 {
		return &w.fe // integer kernels do not read it
	}
	return w.floatEnv(in.kft)
}

// floatEnv is kernelEnv for a kernel of float type ft (0: an integer
// one, here with GPR indexing on).
func (w *Wave) floatEnv(ft uint8) *fenv {
	if w.gprIdx() {
		return nil
	}
	if e := w.fenvCached(ft, w.s[slotMode]); e.rm == rmNearest {
		return e
	}
	return nil
}

// runKernel runs kernel k of an instruction fastEligible accepts.
func runKernel(w *Wave, in *instr, k kernel) error {
	v := in.def.v
	e := w.kernelEnv(in)
	if e == nil {
		return execVOP(w, in)
	}
	t := &w.tmp
	mask := w.exec()
	n := liveLanes(mask)
	a := w.srcMod(in, 0, &t[0], n)
	b, c := &t[1], &t[2]
	if v.nsrc > 1 {
		b = w.srcMod(in, 1, &t[1], n)
	}
	switch {
	case v.nsrc > 2 && v.mac: // the accumulator is D (a VGPR: kernelEligible)
		c = &w.v[uint8(in.dst[0].reg)]
	case v.nsrc > 2:
		c = w.srcMod(in, 2, &t[2], n)
	}
	r := int(in.dst[0].reg)
	e.live = n
	d := w.dstQuads(r, mask, &t[3])
	k(e, d, a, b, c)
	w.dstPut(r, mask, d)
	return nil
}

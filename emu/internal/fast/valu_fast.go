package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
	"math"
	"unsafe"
)

var Kernels = map[string]core.Kernel{
	"v_add_f32":    kAddF32,
	"v_sub_f32":    kSubF32,
	"v_subrev_f32": func(e *core.Fenv, d, a, b, c *[64]uint32) { kSubF32(e, d, b, a, c) },
	"v_mul_f32":    kMulF32,
	"v_fma_f32":    kFmaF32,
	"v_mac_f32":    kMadF32,
	"v_mad_f32":    kMadF32,
	"v_madmk_f32":  kMadF32,
	"v_madak_f32":  kMadF32,
	"v_mov_b32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
		copy(d[:e.Live], a[:e.Live])
	},
	"v_add_u32":    func(e *core.Fenv, d, a, b, c *[64]uint32) { simd.Add32(d, a, b, e.Live) },
	"v_sub_u32":    func(e *core.Fenv, d, a, b, c *[64]uint32) { simd.Sub32(d, a, b, e.Live) },
	"v_subrev_u32": func(e *core.Fenv, d, a, b, c *[64]uint32) { simd.Sub32(d, b, a, e.Live) },
	"v_and_b32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
		pa := pairs(a)[:core.Nquads(e.Live)]
		pd, pb := pairs(d)[:len(pa)], pairs(b)[:len(pa)]
		for i := range pa {
			x, y := &pa[i], &pb[i]
			pd[i] = [2]uint64{x[0] & y[0], x[1] & y[1]}
		}
	},
	"v_or_b32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
		pa := pairs(a)[:core.Nquads(e.Live)]
		pd, pb := pairs(d)[:len(pa)], pairs(b)[:len(pa)]
		for i := range pa {
			x, y := &pa[i], &pb[i]
			pd[i] = [2]uint64{x[0] | y[0], x[1] | y[1]}
		}
	},
	"v_xor_b32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
		pa := pairs(a)[:core.Nquads(e.Live)]
		pd, pb := pairs(d)[:len(pa)], pairs(b)[:len(pa)]
		for i := range pa {
			x, y := &pa[i], &pb[i]
			pd[i] = [2]uint64{x[0] ^ y[0], x[1] ^ y[1]}
		}
	},
	"v_lshlrev_b32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
		dd, aa, bb := lanes(e, d, a, b)
		for l := range dd {
			dd[l] = bb[l] << (aa[l] & 31)
		}
	},
	"v_lshrrev_b32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
		dd, aa, bb := lanes(e, d, a, b)
		for l := range dd {
			dd[l] = bb[l] >> (aa[l] & 31)
		}
	},
	"v_ashrrev_i32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
		dd, aa, bb := lanes(e, d, a, b)
		for l := range dd {
			dd[l] = uint32(int32(bb[l]) >> (aa[l] & 31))
		}
	},
	"v_mul_u32_u24": func(e *core.Fenv, d, a, b, c *[64]uint32) { simd.MulU24(d, a, b, e.Live) },
	"v_mad_u32_u24": func(e *core.Fenv, d, a, b, c *[64]uint32) {
		qa := quads(a)[:core.Nquads(e.Live)]
		qd, qb, qc := quads(d)[:len(qa)], quads(b)[:len(qa)], quads(c)[:len(qa)]
		const m = 0xffffff
		for i := range qa {
			x, y, z := &qa[i], &qb[i], &qc[i]
			qd[i] = [4]uint32{(x[0]&m)*(y[0]&m) + z[0], (x[1]&m)*(y[1]&m) + z[1], (x[2]&m)*(y[2]&m) + z[2], (x[3]&m)*(y[3]&m) + z[3]}
		}
	},
	"v_lshl_add_u32": func(e *core.Fenv, d, a, b, c *[64]uint32) {
		for l := range d[:e.Live] {
			d[l] = a[l]<<(b[l]&31) + c[l]
		}
	},
	"v_cvt_f32_i32": func(e *core.Fenv, d, a, b, c *[64]uint32) { simd.F32FromI32(d, a, e.Live) },
	"v_cvt_f32_u32": func(e *core.Fenv, d, a, b, c *[64]uint32) { simd.F32FromU32(d, a, e.Live) },
	"v_mul_lo_u32":  func(e *core.Fenv, d, a, b, c *[64]uint32) { simd.MulLo(d, a, b, e.Live) },
	"v_add3_u32":    func(e *core.Fenv, d, a, b, c *[64]uint32) { simd.Add3(d, a, b, c, e.Live) },
}

// lanes returns lanes 0 to e.live-1 of d, a and b, as slices of one
// length: indexing them in a loop over d needs no bounds check (nor the
// nil checks of the arrays).
func lanes(e *core.Fenv, d, a, b *[64]uint32) ([]uint32, []uint32, []uint32) {
	n := e.Live
	return d[:n], a[:n], b[:n]
}

// The f32 kernels run package lanes' rows (valu_simd_f32.go; AVX2 where
// the host has it), which leave NaN lanes to the lane rules: for the
// usual MODE, denormals kept both ways, the plain rows, else the flushing
// ones.

func kAddF32(e *core.Fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		addRowF32(d, a, b, n)
		return
	}
	addFlushF32(e, d, a, b, e.Live)
}

func kSubF32(e *core.Fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		subRowF32(d, a, b, n)
		return
	}
	subFlushF32(e, d, a, b, e.Live)
}

func kMulF32(e *core.Fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		mulRowF32(d, a, b, n)
		return
	}
	mulFlushF32(e, d, a, b, e.Live)
}

func kMadF32(e *core.Fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		madRowF32(d, a, b, c, n)
		return
	}
	madFlushF32(e, d, a, b, c, e.Live)
}

// madNaN32 is v_mad_f32 of x, y and z (sources flushed as MODE says) for
// a lane whose result is a NaN: flushing the product cannot change which
// NaN that is.
func madNaN32(x, y, z uint32) uint32 {
	p := float32(core.F32(x) * core.F32(y))
	pu := core.F32bits(p)
	if p != p {
		pu = core.Quiet32(p, x, y)
	}
	r := core.F32(pu) + core.F32(z)
	return core.Quiet32(r, pu, z)
}

func kFmaF32(e *core.Fenv, d, a, b, c *[64]uint32) {
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
				r = core.F32(uint32(ref.FmaF32(e, uint64(core.F32bits(a[l])), uint64(core.F32bits(b[l])), uint64(core.F32bits(c[l])))))
			}
			d[l] = r
		}
		return
	}
	fmaFlushF32(e, d, a, b, c, e.Live)
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
func keepLanes(e *core.Fenv) (n int, ok bool) { return e.Live, e.Din && e.Dout }

// asFloats is a register's lanes as float32s (bits unchanged): fma's Go
// loop (a host without FMA3) loads, computes and stores them in the float
// registers.
func asFloats(r *[64]uint32) *[64]float32 { return (*[64]float32)(unsafe.Pointer(r)) }

// fastEligible reports whether an instruction can use its kernel.
func fastEligible(in *core.Instr, inst *isa.Inst) bool {
	return in.Def != nil && in.Def.K != nil && kernelEligible(in, inst)
}

// kernelEligible reports whether an instruction's operands suit a
// whole-register kernel.
func kernelEligible(in *core.Instr, inst *isa.Inst) bool {
	if in.Def == nil || in.Def.V == nil {
		return false
	}
	v := in.Def.V
	if inst.Variant == isa.VariantSDWA || inst.Variant == isa.VariantDPP || inst.Mods.Clamp || inst.Mods.Omod != 0 {
		return false
	}
	if v.DstW != 1 || v.Cin || v.Cout || in.Dst[0].Kind != core.OkV {
		return false
	}
	for k := 0; k < int(v.Nsrc); k++ {
		if v.SrcW[k] != 1 {
			return false
		}
		o := &in.Src[k]
		if v.Mac && k == 2 {
			continue
		}
		if k >= int(in.Nsrc) || o.Sext {
			return false
		}
		// abs and neg: only on f32 sources (execFast applies them)
		if (o.Neg || o.Abs) && (v.Ft != 32 || v.Isrc>>uint(k)&1 != 0) {
			return false
		}
	}
	return true
}

// src32 returns source k as a register of lanes: the VGPR itself, the
// instruction's prefilled constant, or buf filled with a uniform value.
func src32(w *core.Wave, in *core.Instr, k int, buf *[64]uint32) *[64]uint32 {
	if k == 2 && in.Def.V.Mac { // (VOPC has no vop: k < 2)
		return &w.V[uint8(in.Dst[0].Reg)] // (a VGPR: kernelEligible, laneEligible)
	}
	if o := &in.Src[k]; o.Kind == core.OkV {
		return &w.V[uint8(o.Reg)]
	}
	return srcLanes(w, in, k, buf, 64)
}

// srcLanes is src32 for a kernel that reads lanes 0 to n-1 (and the rest
// of their block of eight), and for a source other than a v_mac's
// accumulator: a uniform value fills only those blocks, a quarter of the
// work for a 16-lane wave.
func srcLanes(w *core.Wave, in *core.Instr, k int, buf *[64]uint32, n int) *[64]uint32 {
	switch o := &in.Src[k]; {
	case o.Kind == core.OkV:
		return &w.V[uint8(o.Reg)]
	case o.Kind == core.OkConst && in.Cf != nil:
		return &in.Cf[2*k]
	default:
		return fillLanes(buf, scalarIn(w, o), n)
	}
}

// scalarIn is sv, reading an SGPR directly (a fast form's step is not
// journaled: there is no hazard to record).
func scalarIn(w *core.Wave, o *core.Operand) uint32 {
	if o.Kind == core.OkS {
		return w.S[o.Reg]
	}
	return w.Sv(o)
}

// srcMod is srcLanes with an f32 source's abs and neg applied (in buf),
// in one call.
func srcMod(w *core.Wave, in *core.Instr, k int, buf *[64]uint32, n int) *[64]uint32 {
	o := &in.Src[k]
	var src *[64]uint32
	switch {
	case o.Kind == core.OkV:
		src = &w.V[uint8(o.Reg)]
	case o.Kind == core.OkConst && in.Cf != nil:
		src = &in.Cf[2*k]
	default:
		src = fillLanes(buf, scalarIn(w, o), n)
	}
	if !o.Abs && !o.Neg {
		return src
	}
	var am, nm uint32
	if o.Abs {
		am = 1 << 31
	}
	if o.Neg {
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
func prefill(in *core.Instr) {
	for k := 0; k < 3 && k < int(in.Nsrc); k++ {
		if o := &in.Src[k]; o.Kind == core.OkConst {
			if in.Cf == nil {
				in.Cf = new([6][64]uint32)
			}
			Fill(&in.Cf[2*k], uint32(o.Val))
			Fill(&in.Cf[2*k+1], uint32(o.Val>>32))
		}
	}
}

// execFast runs a kernel.
func execFast(w *core.Wave, in *core.Instr) error { return runKernel(w, in, in.K) }

// execFastV runs the kernel of an instruction whose sources have no
// modifiers and are all VGPRs but maybe the first two (plainVSources):
// the commonest forms, VOP2's included (an SGPR or constant first
// source), run as runKernel without the per-source dispatch.
func execFastV(w *core.Wave, in *core.Instr) error {
	v := in.Def.V
	e := KernelEnv(w, in)
	if e == nil {
		return ref.ExecVOP(w, in)
	}
	t := &w.Tmp
	mask := w.Exec()
	n := core.LiveLanes(mask)
	var a, b *[64]uint32
	if o := &in.Src[0]; o.Kind == core.OkV {
		a = &w.V[uint8(o.Reg)]
	} else {
		a = srcLanes(w, in, 0, &t[0], n)
	}
	switch o := &in.Src[1]; {
	case v.Nsrc < 2:
		b = &t[1]
	case o.Kind == core.OkV:
		b = &w.V[uint8(o.Reg)]
	default:
		b = srcLanes(w, in, 1, &t[1], n)
	}
	c := &t[2]
	switch {
	case v.Nsrc > 2 && v.Mac: // the accumulator is D
		c = &w.V[uint8(in.Dst[0].Reg)]
	case v.Nsrc > 2:
		c = &w.V[uint8(in.Src[2].Reg)]
	}
	r := int(in.Dst[0].Reg)
	e.Live = n
	d := dstQuads(w, r, mask, &t[3])
	in.K(e, d, a, b, c)
	dstPut(w, r, mask, d)
	return nil
}

// ExecMovFast is v_mov_b32 without modifiers. An SGPR or constant source is a uniform value stored straight into the EXEC
// lanes (no row to fill and copy); other cases are execMovRow, out of line
// so that this path makes no call but fillMasked's.
func ExecMovFast(w *core.Wave, in *core.Instr) error {
	o := &in.Src[0]
	if gprIdx(w) || o.Kind != core.OkS && o.Kind != core.OkConst {
		return execMovRow(w, in)
	}
	x := uint32(o.Val)
	if o.Kind == core.OkS {
		x = w.S[o.Reg]
	}
	fillMasked(&w.V[uint8(in.Dst[0].Reg)], x, w.Exec())
	return nil
}

// fillMasked sets the lanes of dst in mask to x: a prefix of lanes (a
// 16-lane wave's EXEC, a full one) a block of eight lanes a step, as
// fillLanes does, other masks lane by lane.
func fillMasked(dst *[64]uint32, x uint32, mask uint64) {
	if mask&(mask+1) != 0 {
		for m := mask; m != 0; m &= m - 1 {
			dst[core.Tz(m)] = x
		}
		return
	}
	n := core.LiveLanes(mask)
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
func plainVSources(in *core.Instr) bool {
	v := in.Def.V
	for k := range int(v.Nsrc) {
		if v.Mac && k == 2 {
			break
		}
		if o := &in.Src[k]; o.Kind != core.OkV && k > 1 || o.Abs || o.Neg || o.Sext {
			return false
		}
	}
	return true
}

// KernelEnv returns the float environment the kernel of in runs in, or
// nil when the instruction must take execVOP instead: GPR indexing is on,
// or MODE rounds other than to nearest even. It inlines: an integer kernel's
// test is a few loads, floatEnv takes the rest.
func KernelEnv(w *core.Wave, in *core.Instr) *core.Fenv {
	if w.S[core.SlotMode]&core.ModeGPRIdxEn|uint32(in.Kft) == 0 {
		return &w.Fe // integer kernels do not read it
	}
	return floatEnv(w, in.Kft)
}

// floatEnv is kernelEnv for a kernel of float type ft (0: an integer
// one, here with GPR indexing on).
func floatEnv(w *core.Wave, ft uint8) *core.Fenv {
	if gprIdx(w) {
		return nil
	}
	if e := ref.FenvCached(w, ft, w.S[core.SlotMode]); e.Rm == core.RmNearest {
		return e
	}
	return nil
}

// runKernel runs kernel k of an instruction fastEligible accepts.
func runKernel(w *core.Wave, in *core.Instr, k core.Kernel) error {
	v := in.Def.V
	e := KernelEnv(w, in)
	if e == nil {
		return ref.ExecVOP(w, in)
	}
	t := &w.Tmp
	mask := w.Exec()
	n := core.LiveLanes(mask)
	a := srcMod(w, in, 0, &t[0], n)
	b, c := &t[1], &t[2]
	if v.Nsrc > 1 {
		b = srcMod(w, in, 1, &t[1], n)
	}
	switch {
	case v.Nsrc > 2 && v.Mac: // the accumulator is D (a VGPR: kernelEligible)
		c = &w.V[uint8(in.Dst[0].Reg)]
	case v.Nsrc > 2:
		c = srcMod(w, in, 2, &t[2], n)
	}
	r := int(in.Dst[0].Reg)
	e.Live = n
	d := dstQuads(w, r, mask, &t[3])
	k(e, d, a, b, c)
	dstPut(w, r, mask, d)
	return nil
}

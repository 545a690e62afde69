package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// Whole-register f64 operations (MODE rounding to nearest even: the lane
// functions' result is then the correctly rounded Go operation; the row
// kernels are in valu_f64row.go and valu_f64div.go) and exact bit-level
// f16 ⇄ f32 conversions. Source modifiers and MODE's denormal flushing
// are applied as vfetch and post do.

const (
	kF64Add = iota
	kF64Mul
	kF64Fma
	kF64Rcp
	kF64Rsq
	kF64Sqrt
	kF64DivScale // valu_f64div.go
	kF64DivFixup
	kF64DivFmas
	kF64Ldexp
	kF64CvtI32 // f64 to i32
	kF64CvtU32
	kF64FromI32 // i32 to f64
	kF64FromU32
	kF64Round                 // + the rounding direction (roundRowsF64)
	kF64Unary = kF64Round + 4 // + the index in f64Unary
)

var kernelsF64 = map[string]int{
	"v_add_f64": kF64Add, "v_mul_f64": kF64Mul, "v_fma_f64": kF64Fma,
	"v_rcp_f64": kF64Rcp, "v_rsq_f64": kF64Rsq, "v_sqrt_f64": kF64Sqrt,
	"v_div_scale_f64": kF64DivScale, "v_div_fixup_f64": kF64DivFixup, "v_div_fmas_f64": kF64DivFmas,
	"v_ldexp_f64": kF64Ldexp, "v_cvt_i32_f64": kF64CvtI32, "v_cvt_u32_f64": kF64CvtU32,
	"v_cvt_f64_i32": kF64FromI32, "v_cvt_f64_u32": kF64FromU32,
}

// f64Unary holds the functions of the f64 unary operations (fu64's lane
// functions).
var f64Unary []func(float64) float64

func addF64Unary(name string, f func(float64) float64) {
	if _, ok := kernelsF64[name]; ok { // a kernel of its own (valu_ff.go's rounding ones whichever init runs first)
		return
	}
	kernelsF64[name] = kF64Unary + len(f64Unary)
	f64Unary = append(f64Unary, f)
}

// f64Eligible: no SDWA, DPP, clamp or omod; whole VGPR pairs.
func f64Eligible(in *core.Instr, inst *isa.Inst) bool {
	if !plainVOP(inst) || in.Dst[0].Kind != core.OkV || in.Dst[0].Reg >= 255 || int(in.Nsrc) < int(in.Def.V.Nsrc) {
		return false
	}
	for k := 0; k < int(in.Def.V.Nsrc); k++ {
		if o := &in.Src[k]; o.Sext || o.Kind == core.OkV && o.Reg >= 255 {
			return false
		}
	}
	return true
}

// flush64 zeroes a denormal f64 (keeping its sign) unless kept.
func flush64(u uint64, keep bool) uint64 {
	if !keep && u&0x7ff0000000000000 == 0 {
		return u & (1 << 63)
	}
	return u
}

// ExecF64Fast runs an f64 operation's row kernel (in.sub, a kF64 kind).
func ExecF64Fast(w *core.Wave, in *core.Instr) error {
	m := w.S[core.SlotMode]
	if gprIdx(w) || m>>2&3 != core.RmNearest {
		return ref.ExecVOP(w, in)
	}
	din, dout := m>>6&1 != 0, m>>7&1 != 0
	t := &w.Tmp
	mask := w.Exec()
	r, n := int(in.Dst[0].Reg), core.LiveLanes(mask)
	switch in.Sub {
	case kF64DivScale, kF64DivFixup, kF64DivFmas:
		return execF64Div(w, in, din, dout)
	case kF64Ldexp, kF64CvtI32, kF64CvtU32, kF64FromI32, kF64FromU32:
		return execF64Int(w, in, din, dout)
	case kF64Add, kF64Mul:
		a := srcRegsF64(w, in, 0, din, (*F64Regs)(t[0:2]))
		y, uni := uniformF64(w, in, 1, din)
		var b *F64Regs
		if !uni {
			b = srcRegsF64(w, in, 1, din, (*F64Regs)(t[2:4]))
		}
		d := dstRegsF64(w, r, mask, (*F64Regs)(t[4:6]))
		switch {
		case in.Sub == kF64Add && uni:
			addRowsF64U(d, a, y, n)
		case in.Sub == kF64Add:
			addRowsF64(d, a, b, n)
		case uni:
			mulRowsF64U(d, a, y, n)
		default:
			mulRowsF64(d, a, b, n)
		}
		return putRegsF64(w, r, mask, d, n, dout)
	case kF64Fma:
		a, an := srcNegF64(w, in, 0, din, (*F64Regs)(t[0:2]))
		y, ub := uniformF64(w, in, 1, din)
		z, uc := uniformF64(w, in, 2, din)
		b, c := (*F64Regs)(t[2:4]), (*F64Regs)(t[6:8])
		switch {
		case uc:
			b = srcRegsF64(w, in, 1, din, b)
		case ub:
			c = srcRegsF64(w, in, 2, din, c)
		default:
			b, c = srcRegsF64(w, in, 1, din, b), srcRegsF64(w, in, 2, din, c)
		}
		d := dstRegsF64(w, r, mask, (*F64Regs)(t[4:6]))
		switch {
		case uc:
			fmaRowsF64UC(d, a, b, z, an, n)
		case ub:
			fmaRowsF64UB(d, a, y, c, an, n)
		default:
			fmaRowsF64(d, a, b, c, an, n)
		}
		return putRegsF64(w, r, mask, d, n, dout)
	}
	a := srcRegsF64(w, in, 0, din, (*F64Regs)(t[0:2]))
	d := dstRegsF64(w, r, mask, (*F64Regs)(t[4:6]))
	switch in.Sub {
	case kF64Round + RdTrunc, kF64Round + RdFloor, kF64Round + RdCeil, kF64Round + RdNearest:
		RoundRowsF64(int(in.Sub-kF64Round), d, a, n)
	case kF64Rcp:
		rcpRowsF64(d, a, n)
	case kF64Rsq:
		rsqRowsF64(d, a, n)
	case kF64Sqrt:
		sqrtRowsF64(d, a, n)
	default:
		unaryRowsF64(f64Unary[in.Sub-kF64Unary], d, a, n)
	}
	return putRegsF64(w, r, mask, d, n, dout)
}

// putRegsF64 flushes output denormals unless dout keeps them and writes
// the EXEC lanes of d (from dstRegsF64) to the pair r, r+1.
func putRegsF64(w *core.Wave, r int, mask uint64, d *F64Regs, n int, dout bool) error {
	if !dout {
		flushRowsF64(d, n)
	}
	if &d[0] != &w.V[r] {
		w.Wv(r, mask, &d[0])
		w.Wv(r+1, mask, &d[1])
	}
	return nil
}

var kernelsCvt = map[string]core.ExecFn{"v_cvt_f16_f32": execCvtF16F32, "v_cvt_f32_f16": execCvtF32F16}

// cvtEligible: no SDWA, DPP, clamp or omod and a VGPR destination.
func cvtEligible(in *core.Instr, inst *isa.Inst) bool {
	return plainVOP(inst) && in.Dst[0].Kind == core.OkV && in.Nsrc >= 1 && !in.Src[0].Sext
}

// execCvtF16F32 is v_cvt_f16_f32 rounding to nearest even (the f16 MODE
// field): input denormals follow the f32 field, output ones the f16 field.
func execCvtF16F32(w *core.Wave, in *core.Instr) error {
	m := w.S[core.SlotMode]
	if gprIdx(w) || m>>2&3 != core.RmNearest {
		return ref.ExecVOP(w, in)
	}
	t := &w.Tmp
	a := srcF32(w, in, 0, m>>4&1 != 0, &t[0])
	mask := w.Exec()
	r := int(in.Dst[0].Reg)
	d := dstQuads(w, r, mask, &t[3])
	simd.F16FromF32(d, a, core.LiveLanes(mask), f16Flush(m>>7&1 != 0))
	dstPut(w, r, mask, d)
	return nil
}

// execCvtF32F16 is v_cvt_f32_f16 (exact): input denormals follow the f16
// MODE field (every f16 is a normal f32 or zero, so the f32 field's output
// flushing has nothing to do).
func execCvtF32F16(w *core.Wave, in *core.Instr) error {
	if gprIdx(w) {
		return ref.ExecVOP(w, in)
	}
	o := &in.Src[0]
	var am, nm uint32
	if o.Abs {
		am = 0x8000
	}
	if o.Neg {
		nm = 0x8000
	}
	t := &w.Tmp
	a := src32(w, in, 0, &t[0])
	mask := w.Exec()
	r := int(in.Dst[0].Reg)
	d := dstQuads(w, r, mask, &t[3])
	simd.F32FromF16(d, a, core.LiveLanes(mask), am, nm, f16Flush(w.S[core.SlotMode]>>6&1 != 0))
	dstPut(w, r, mask, d)
	return nil
}

// f16Flush is the lanes rows' flush word for f16 denormals: 0 keeps
// them, 0x7fff flushes them to a signed zero.
func f16Flush(keep bool) uint32 {
	if keep {
		return 0
	}
	return 0x7fff
}

// F32ToF16RNE narrows f32 bits to f16 rounding to nearest even, as
// f64ToF16 does (lanes.F16FromF32Bits, the Go definition of the
// v_cvt_f16_f32 row; TestF16BitConversions holds the two together).
func F32ToF16RNE(u uint32) uint16 { return simd.F16FromF32Bits(u) }

// F16ToF32Bits widens f16 bits exactly as v_cvt_f32_f16's lane function
// does (lanes.F32FromF16Bits, the Go definition of its row).
func F16ToF32Bits(h uint16) uint32 { return simd.F32FromF16Bits(h) }

// kFu32 is the kernel of an f32 unary operation computed through float64
// (fu32's lane function, rounding to nearest even).
func kFu32(f func(x float64) float64) core.Kernel {
	return func(e *core.Fenv, d, a, b, c *[64]uint32) {
		for l := range d[:e.Live] {
			x := ref.FlushIn(a[l], e.Din)
			xf := float64(core.F32(x))
			r := f(xf)
			var u uint32
			switch {
			case r == r:
				u = core.F32bits(float32(r))
			case xf != xf:
				u = x | 0x400000
			default:
				u = 0x7fc00000
			}
			d[l] = ref.FlushOut(u, e.Dout)
		}
	}
}

// kRcpF32 is kFu32(recip) with the division inline (1/x is NaN only for
// a NaN x).
func kRcpF32(e *core.Fenv, d, a, b, c *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		rcpRowF32(d, a, n)
		return
	}
	rcpFlushF32(e, d, a, e.Live)
}

func init() {
	Kernels["v_min_f32"] = func(e *core.Fenv, d, a, b, c *[64]uint32) {
		if n, ok := keepLanes(e); ok {
			minRowF32(e, d, a, b, n)
			return
		}
		for l := range d[:e.Live] {
			x, y := ref.FlushIn(a[l], e.Din), ref.FlushIn(b[l], e.Din)
			u := minNum32(x, y)
			if max(x&0x7fffffff, y&0x7fffffff) > 0x7f800000 {
				u = uint32(ref.MinF32(e, uint64(x), uint64(y)))
			}
			d[l] = ref.FlushOut(u, e.Dout)
		}
	}
	Kernels["v_max_f32"] = func(e *core.Fenv, d, a, b, c *[64]uint32) {
		if a == b { // v_max_f32 v, x, x: the compilers' canonicalize
			canonF32(e, d, a)
			return
		}
		if n, ok := keepLanes(e); ok {
			maxRowF32(e, d, a, b, n)
			return
		}
		for l := range d[:e.Live] {
			x, y := ref.FlushIn(a[l], e.Din), ref.FlushIn(b[l], e.Din)
			u := maxNum32(x, y)
			if max(x&0x7fffffff, y&0x7fffffff) > 0x7f800000 {
				u = uint32(ref.MaxF32(e, uint64(x), uint64(y)))
			}
			d[l] = ref.FlushOut(u, e.Dout)
		}
	}
	Kernels["v_cvt_u32_f32"] = func(e *core.Fenv, d, a, b, c *[64]uint32) {
		if e.Din {
			u32RowF32(d, a, e.Live)
			return
		}
		for l := range d[:e.Live] {
			d[l] = uint32(ref.CvtF32ToU32(float64(core.F32(ref.FlushIn(a[l], e.Din)))))
		}
	}
	Kernels["v_cvt_i32_f32"] = func(e *core.Fenv, d, a, b, c *[64]uint32) {
		if e.Din {
			i32RowF32(d, a, e.Live)
			return
		}
		for l := range d[:e.Live] {
			d[l] = uint32(ref.CvtF32ToI32(float64(core.F32(ref.FlushIn(a[l], e.Din)))))
		}
	}
}

// canonF32 is v_max_f32 d, x, x: x itself (flushed as MODE says) but for
// a NaN, which maxF32 quiets.
func canonF32(e *core.Fenv, d, a *[64]uint32) {
	if n, ok := keepLanes(e); ok {
		maxRowF32(e, d, a, a, n)
		return
	}
	din, dout := e.Din, e.Dout
	d2 := d[:e.Live]
	a2 := a[:len(d2)]
	for l := range d2 {
		x := ref.FlushIn(a2[l], din)
		u := x
		if x&0x7fffffff > 0x7f800000 {
			u = uint32(ref.MaxF32(e, uint64(x), uint64(x)))
		}
		d2[l] = ref.FlushOut(u, dout)
	}
}

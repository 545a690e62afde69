package emu

// Parameter interpolation: v_interp_p1_f32, v_interp_p2_f32 and
// v_interp_mov_f32 (VINTRP, and their VOP3 forms) and the 16-bit VOP3
// opcodes v_interp_p1ll_f16, v_interp_p1lv_f16, v_interp_p2_f16 and (GFX9)
// v_interp_p2_legacy_f16, which is GFX8's v_interp_p2_f16 opcode.
//
// The parameters P0, P10 and P20 of attribute attr, channel attrchan are
// read from the wave's LDS. M0[15:0] is lds_param_offset and M0[30:16] is
// new_prim_mask: bit i set means quad i+1 starts a new primitive (quad 0
// always does), so quad q interpolates primitive popcount(mask & (1<<q - 1)).
// The manuals leave the layout below lds_param_offset to the hardware; the
// emulator's layout (RATIONALE.md, "Interpolation") is
//
//	lds_param_offset + prim*interpPrimStride + attr*48 + k*16 + attrchan*4
//
// with k = 0 for P0, 1 for P10 and 2 for P20: one 48-byte record of three
// xyzw vectors per attribute, 64 attributes per primitive. The 16-bit
// opcodes read the low (high bit clear) or high half of that dword.

import (
	"encoding/binary"
	"math"
	"math/bits"

	"github.com/wavedbg/wavedbg/isa"
)

const (
	ipP1F32 = iota
	ipP2F32
	ipMovF32
	ipP1LLF16
	ipP1LVF16
	ipP2F16
)

// interpPrimStride is the size of one primitive's parameters in LDS.
const interpPrimStride = 64 * 48

func init() {
	def("v_interp_p1_f32", execInterp, ipP1F32, 1, tyF32, cVALU).exact = "exact (P10*I rounded, then + P0: not fused; LDS layout per RATIONALE.md)"
	def("v_interp_p2_f32", execInterp, ipP2F32, 1, tyF32, cVALU).exact = "exact (P20*J rounded, then + D: not fused; LDS layout per RATIONALE.md)"
	def("v_interp_mov_f32", execInterp, ipMovF32, 1, tyF32, cVALU).exact = "exact (LDS layout per RATIONALE.md)"
	def("v_interp_p1ll_f16", execInterp, ipP1LLF16, 1, tyF32, cVALU).exact = "exact (one rounding to f32: the manual does not say fused or not; LDS layout per RATIONALE.md)"
	def("v_interp_p1lv_f16", execInterp, ipP1LVF16, 1, tyF32, cVALU).exact = "exact (one rounding to f32: the manual does not say fused or not; LDS layout per RATIONALE.md)"
	def("v_interp_p2_f16", execInterp, ipP2F16, 1, tyF32, cVALU).exact = "exact (one rounding to f16: the manual does not say fused or not; LDS layout per RATIONALE.md)"
	def("v_interp_p2_legacy_f16", execInterp, ipP2F16, 1, tyF32, cVALU).exact = "exact (one rounding to f16: the manual does not say fused or not; LDS layout per RATIONALE.md)"
}

// interpArgs locates an interp instruction's operands.
type interpArgs struct {
	ij, p0 *operand // the I/J coordinate; v_interp_p1lv_f16's P0, the f16 opcodes' P1 sum
	param  int      // v_interp_mov_f32: 0 P10, 1 P20, 2 P0
	attr   int
	chan_  int
	high   bool
}

func interpOperands(in *instr) (interpArgs, bool) {
	a := interpArgs{param: -1}
	if in.in == nil || in.ndst < 1 || in.dst[0].kind != okV {
		return a, false
	}
	m := &in.in.Mods
	a.attr, a.chan_ = int(m.Attr), int(m.AttrChan)
	a.high = in.in.Enc == isa.EncVOP3 && m.OpSel&8 != 0
	nd, ns := 0, 0
	for k := range in.in.Args {
		o := &in.in.Args[k]
		if o.Kind == isa.KindLabel {
			continue
		}
		if o.Kind != isa.KindImm && nd < int(in.ndst) {
			nd++
			continue
		}
		if ns >= int(in.nsrc) {
			return a, false
		}
		src := &in.src[ns]
		ns++
		switch o.Field {
		case isa.FieldVSRC, isa.FieldSRC1:
			a.ij = src
		case isa.FieldSRC2:
			a.p0 = src
		case isa.FieldPARAM:
			a.param = int(o.Imm)
		}
	}
	switch in.sub {
	case ipMovF32:
		return a, a.param >= 0
	case ipP1LVF16, ipP2F16:
		return a, a.ij != nil && a.p0 != nil
	}
	return a, a.ij != nil
}

// interpLDS returns the wave's LDS unit, or nil.
func interpLDS(w *Wave) *vmemUnit {
	if u, ok := w.m.VectorMemory.(*vmemUnit); ok && u != nil && u.lds != nil {
		return u
	}
	return nil
}

// interpSrc reads a 32-bit source of lane l with its VOP3 abs/neg applied
// to bit 31 of an f32, or with f16 set, to the f16 in its low half (high
// half when high is set).
func (w *Wave) interpSrc(o *operand, l int, f16, high bool) uint32 {
	var u uint32
	if o.kind == okV {
		u = w.v[o.reg][l]
	} else {
		u = w.sv(o)
	}
	sign := uint32(1) << 31
	if f16 {
		if high {
			u >>= 16
		}
		u &= 0xffff
		sign = 1 << 15
	}
	if o.abs {
		u &^= sign
	}
	if o.neg {
		u ^= sign
	}
	return u
}

// execInterp executes the interpolation opcodes (GCN3 ISA manual, "Parameter
// Interpolation" in the Data Share chapter and the VINTRP/VOP3 opcode
// tables; Vega ISA manual, same sections, for the 16-bit opcodes):
//
//	v_interp_p1_f32:   D = P10 * I + P0
//	v_interp_p2_f32:   D = P20 * J + D
//	v_interp_mov_f32:  D = {P10, P20, P0}[param]
//	v_interp_p1ll_f16: D.f32 = P10.f16 * I.f32 + P0.f16
//	v_interp_p1lv_f16: D.f32 = P10.f16 * I.f32 + S2.f16 (P0 from a VGPR)
//	v_interp_p2_f16:   D.f16 = P20.f16 * J.f32 + S2.f32
func execInterp(w *Wave, in *instr) error {
	a, ok := interpOperands(in)
	if !ok {
		return execBadOperands(w, in)
	}
	if a.param > 2 {
		return &ExecError{PC: in.pc, Op: in.name, Msg: "interpolation parameter 3 is undefined (p10, p20 and p0 only)"}
	}
	u := interpLDS(w)
	if u == nil {
		return &ExecError{PC: in.pc, Op: in.name, Msg: "parameter interpolation reads LDS: the machine has no LDS (no emulator vector memory unit)"}
	}
	m0 := w.rs(codeM0)
	base, prims := m0&0xffff, m0>>16&0x7fff
	var mods isa.Modifiers
	if in.in.Enc == isa.EncVOP3 {
		mods = in.in.Mods
	}
	e32 := *w.fenvFor(32)
	e16 := *w.fenvFor(16)
	mask := w.exec()
	dst := int(in.dst[0].reg)
	var res [64]uint32
	var rec [12]byte
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := tz(mm)
		q := uint(l >> 2)
		prim := uint32(bits.OnesCount32(prims & (1<<q - 1)))
		addr := base + prim*interpPrimStride + uint32(a.attr)*48 + uint32(a.chan_)*4
		// P0, P10 and P20 (out-of-range LDS reads as 0, as DS reads do)
		var p [3]uint32
		for k := range p {
			u.ldsRead(w, addr+uint32(k)*16, rec[:4], u.lds.size)
			p[k] = binary.LittleEndian.Uint32(rec[:4])
		}
		half := func(v uint32) uint32 {
			if a.high {
				return v >> 16
			}
			return v & 0xffff
		}
		var r uint32
		switch in.sub {
		case ipP1F32, ipP2F32:
			s := flushIn(w.interpSrc(a.ij, l, false, false), e32.din)
			var pk, c uint32
			if in.sub == ipP1F32 {
				pk, c = p[1], p[0]
			} else {
				pk, c = p[2], w.v[dst][l]
			}
			pk, c = flushIn(pk, e32.din), flushIn(c, e32.din)
			r = uint32(madF32(&e32, uint64(pk), uint64(s), uint64(c)))
			r = uint32(post(&e32, uint64(r), 32, mods.Omod, mods.Clamp))
		case ipMovF32:
			r = p[[3]int{1, 2, 0}[a.param]]
		case ipP1LLF16, ipP1LVF16:
			s := flushIn(w.interpSrc(a.ij, l, false, false), e32.din)
			var c float64
			if in.sub == ipP1LLF16 {
				c = f16In(uint16(half(p[0])), &e16)
			} else {
				c = f16In(uint16(w.interpSrc(a.p0, l, true, a.high)), &e16)
			}
			hi, lo := interpSum(f16In(uint16(half(p[1])), &e16), float64(f32(s)), c, e32.rm)
			r = f32bits(toF32(hi, lo, e32.rm))
			r = uint32(post(&e32, uint64(r), 32, mods.Omod, mods.Clamp))
		case ipP2F16:
			s := flushIn(w.interpSrc(a.ij, l, false, false), e32.din)
			c := flushIn(w.interpSrc(a.p0, l, false, false), e32.din)
			hi, lo := interpSum(f16In(uint16(half(p[2])), &e16), float64(f32(s)), float64(f32(c)), e16.rm)
			h := f64ToF16(hi, lo, e16.rm)
			if hi != hi {
				h = 0x7e00
			}
			r = uint32(post(&e16, uint64(h), 16, 0, mods.Clamp))
		}
		res[l] = r
	}
	w.wv(dst, mask, &res)
	return nil
}

// f16In widens an f16 parameter, flushing a denormal unless MODE keeps
// f16 input denormals.
func f16In(h uint16, e *fenv) float64 {
	if !e.din && isDenorm16(h) {
		h &= 0x8000
	}
	return f16ToF64(h)
}

// interpSum returns x*y + c as an unevaluated sum hi+lo: the product of an
// f16 and an f32 is exact in float64, so rounding hi+lo once gives the
// fused result. A NaN result is the default quiet NaN's value.
func interpSum(x, y, c float64, rm int) (float64, float64) {
	p := x * y
	hi, lo := twoSum(p, c)
	if hi != hi {
		return math.NaN(), 0
	}
	if math.IsInf(hi, 0) {
		return hi, 0
	}
	if hi == 0 && lo == 0 && rm == rmMinusInf && (p != 0 || c != 0 || math.Signbit(p) != math.Signbit(c)) {
		return math.Copysign(0, -1), 0
	}
	return hi, lo
}

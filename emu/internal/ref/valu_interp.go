package ref

import (
	"encoding/binary"
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
	"math"
	"math/bits"
)

const (
	ipP1F32 = iota
	ipP2F32
	ipMovF32
	ipP1LLF16
	ipP1LVF16
	ipP2F16
)

// InterpPrimStride is the size of one primitive's parameters in LDS.
const InterpPrimStride = 64 * 48

func init() {
	def("v_interp_p1_f32", execInterp, ipP1F32, 1, core.TyF32, core.CVALU).Exact = "exact (P10*I rounded, then + P0: not fused; LDS layout per RATIONALE.md)"
	def("v_interp_p2_f32", execInterp, ipP2F32, 1, core.TyF32, core.CVALU).Exact = "exact (P20*J rounded, then + D: not fused; LDS layout per RATIONALE.md)"
	def("v_interp_mov_f32", execInterp, ipMovF32, 1, core.TyF32, core.CVALU).Exact = "exact (LDS layout per RATIONALE.md)"
	def("v_interp_p1ll_f16", execInterp, ipP1LLF16, 1, core.TyF32, core.CVALU).Exact = "exact (one rounding to f32: the manual does not say fused or not; LDS layout per RATIONALE.md)"
	def("v_interp_p1lv_f16", execInterp, ipP1LVF16, 1, core.TyF32, core.CVALU).Exact = "exact (one rounding to f32: the manual does not say fused or not; LDS layout per RATIONALE.md)"
	def("v_interp_p2_f16", execInterp, ipP2F16, 1, core.TyF32, core.CVALU).Exact = "exact (one rounding to f16: the manual does not say fused or not; LDS layout per RATIONALE.md)"
	def("v_interp_p2_legacy_f16", execInterp, ipP2F16, 1, core.TyF32, core.CVALU).Exact = "exact (one rounding to f16: the manual does not say fused or not; LDS layout per RATIONALE.md)"
}

// interpArgs locates an interp instruction's operands.
type interpArgs struct {
	ij, p0 *core.Operand // the I/J coordinate; v_interp_p1lv_f16's P0, the f16 opcodes' P1 sum
	param  int           // v_interp_mov_f32: 0 P10, 1 P20, 2 P0
	attr   int
	chan_  int
	high   bool
}

func interpOperands(in *core.Instr) (interpArgs, bool) {
	a := interpArgs{param: -1}
	if in.In == nil || in.Ndst < 1 || in.Dst[0].Kind != core.OkV {
		return a, false
	}
	m := &in.In.Mods
	a.attr, a.chan_ = int(m.Attr), int(m.AttrChan)
	a.high = in.In.Enc == isa.EncVOP3 && m.OpSel&8 != 0
	nd, ns := 0, 0
	for k := range in.In.Args {
		o := &in.In.Args[k]
		if o.Kind == isa.KindLabel {
			continue
		}
		if o.Kind != isa.KindImm && nd < int(in.Ndst) {
			nd++
			continue
		}
		if ns >= int(in.Nsrc) {
			return a, false
		}
		src := &in.Src[ns]
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
	switch in.Sub {
	case ipMovF32:
		return a, a.param >= 0
	case ipP1LVF16, ipP2F16:
		return a, a.ij != nil && a.p0 != nil
	}
	return a, a.ij != nil
}

// interpLDS returns the wave's LDS unit, or nil.
func interpLDS(w *core.Wave) *VMemUnit {
	if u, ok := w.M.VectorMemory.(*VMemUnit); ok && u != nil && u.Lds != nil {
		return u
	}
	return nil
}

// interpSrc reads a 32-bit source of lane l with its VOP3 abs/neg applied
// to bit 31 of an f32, or with f16 set, to the f16 in its low half (high
// half when high is set).
func interpSrc(w *core.Wave, o *core.Operand, l int, f16, high bool) uint32 {
	var u uint32
	if o.Kind == core.OkV {
		u = w.V[o.Reg][l]
	} else {
		u = w.Sv(o)
	}
	sign := uint32(1) << 31
	if f16 {
		if high {
			u >>= 16
		}
		u &= 0xffff
		sign = 1 << 15
	}
	if o.Abs {
		u &^= sign
	}
	if o.Neg {
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
func execInterp(w *core.Wave, in *core.Instr) error {
	a, ok := interpOperands(in)
	if !ok {
		return ExecBadOperands(w, in)
	}
	if a.param > 2 {
		return &core.ExecError{PC: in.Pc, Op: in.Name, Msg: "interpolation parameter 3 is undefined (p10, p20 and p0 only)"}
	}
	u := interpLDS(w)
	if u == nil {
		return &core.ExecError{PC: in.Pc, Op: in.Name, Msg: "parameter interpolation reads LDS: the machine has no LDS (no emulator vector memory unit)"}
	}
	m0 := w.Rs(core.CodeM0)
	base, prims := m0&0xffff, m0>>16&0x7fff
	var mods isa.Modifiers
	if in.In.Enc == isa.EncVOP3 {
		mods = in.In.Mods
	}
	e32 := *FenvFor(w, 32)
	e16 := *FenvFor(w, 16)
	mask := w.Exec()
	dst := int(in.Dst[0].Reg)
	var res [64]uint32
	var rec [12]byte
	for mm := mask; mm != 0; mm &= mm - 1 {
		l := core.Tz(mm)
		q := uint(l >> 2)
		prim := uint32(bits.OnesCount32(prims & (1<<q - 1)))
		addr := base + prim*InterpPrimStride + uint32(a.attr)*48 + uint32(a.chan_)*4
		// P0, P10 and P20 (out-of-range LDS reads as 0, as DS reads do)
		var p [3]uint32
		for k := range p {
			u.LdsRead(w, addr+uint32(k)*16, rec[:4], u.Lds.size)
			p[k] = binary.LittleEndian.Uint32(rec[:4])
		}
		half := func(v uint32) uint32 {
			if a.high {
				return v >> 16
			}
			return v & 0xffff
		}
		var r uint32
		switch in.Sub {
		case ipP1F32, ipP2F32:
			s := FlushIn(interpSrc(w, a.ij, l, false, false), e32.Din)
			var pk, c uint32
			if in.Sub == ipP1F32 {
				pk, c = p[1], p[0]
			} else {
				pk, c = p[2], w.V[dst][l]
			}
			pk, c = FlushIn(pk, e32.Din), FlushIn(c, e32.Din)
			r = uint32(madF32(&e32, uint64(pk), uint64(s), uint64(c)))
			r = uint32(Post(&e32, uint64(r), 32, mods.Omod, mods.Clamp))
		case ipMovF32:
			r = p[[3]int{1, 2, 0}[a.param]]
		case ipP1LLF16, ipP1LVF16:
			s := FlushIn(interpSrc(w, a.ij, l, false, false), e32.Din)
			var c float64
			if in.Sub == ipP1LLF16 {
				c = f16In(uint16(half(p[0])), &e16)
			} else {
				c = f16In(uint16(interpSrc(w, a.p0, l, true, a.high)), &e16)
			}
			hi, lo := interpSum(f16In(uint16(half(p[1])), &e16), float64(core.F32(s)), c, e32.Rm)
			r = core.F32bits(core.ToF32(hi, lo, e32.Rm))
			r = uint32(Post(&e32, uint64(r), 32, mods.Omod, mods.Clamp))
		case ipP2F16:
			s := FlushIn(interpSrc(w, a.ij, l, false, false), e32.Din)
			c := FlushIn(interpSrc(w, a.p0, l, false, false), e32.Din)
			hi, lo := interpSum(f16In(uint16(half(p[2])), &e16), float64(core.F32(s)), float64(core.F32(c)), e16.Rm)
			h := core.F64ToF16(hi, lo, e16.Rm)
			if hi != hi {
				h = 0x7e00
			}
			r = uint32(Post(&e16, uint64(h), 16, 0, mods.Clamp))
		}
		res[l] = r
	}
	w.Wv(dst, mask, &res)
	return nil
}

// f16In widens an f16 parameter, flushing a denormal unless MODE keeps
// f16 input denormals.
func f16In(h uint16, e *core.Fenv) float64 {
	if !e.Din && core.IsDenorm16(h) {
		h &= 0x8000
	}
	return core.F16ToF64(h)
}

// interpSum returns x*y + c as an unevaluated sum hi+lo: the product of an
// f16 and an f32 is exact in float64, so rounding hi+lo once gives the
// fused result. A NaN result is the default quiet NaN's value.
func interpSum(x, y, c float64, rm int) (float64, float64) {
	p := x * y
	hi, lo := core.TwoSum(p, c)
	if hi != hi {
		return math.NaN(), 0
	}
	if math.IsInf(hi, 0) {
		return hi, 0
	}
	if hi == 0 && lo == 0 && rm == core.RmMinusInf && (p != 0 || c != 0 || math.Signbit(p) != math.Signbit(c)) {
		return math.Copysign(0, -1), 0
	}
	return hi, lo
}

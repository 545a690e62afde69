package core

import (
	"github.com/wavedbg/wavedbg/isa"
)

// Program is a code section decoded once into a flat slice: instruction i
// starts at Addrs[i]. Branch targets are resolved to indexes when the
// program is built, so stepping never decodes.
type Program struct {
	Target isa.Target
	Base   uint64     // address of the first instruction
	Insts  []isa.Inst // decoded instructions
	Addrs  []uint64   // byte address of each instruction

	Code  []Instr // compiled; one extra final entry catches running off the end
	Index map[uint64]int
}

// End is the address after the last instruction.
func (p *Program) End() uint64 { return p.Code[len(p.Code)-1].Pc }

// IndexOf returns the index of the instruction at pc.
func (p *Program) IndexOf(pc uint64) (int, bool) {
	i, ok := p.Index[pc]
	return i, ok
}

// ExecFn executes one compiled instruction.
type ExecFn func(w *Wave, in *Instr) error

// Operand kinds after compilation.
const (
	OkNone  uint8 = iota
	OkS           // scalar code (SGPR, TTMP or special < 128)
	OkV           // VGPR
	OkConst       // inline constant or literal, expanded for its type
	OkSCC         // SCC as a source
	OkVCCZ        // VCCZ
	OkEXECZ       // EXECZ
	OkZero        // LDS direct and other sources the emulator reads as 0
)

type Operand struct {
	Kind  uint8
	Width uint8
	Neg   bool
	Abs   bool
	Sext  bool
	Reg   uint16
	Val   uint64
}

// Instr is a compiled instruction. It keeps two forms: fn, the fast form
// an unjournaled step runs, and ref, the reference form a journaled step
// runs (it records every write); fn is ref when the instruction has no
// fast form or its shape has none. emu's form makes the choice; no form
// tests the journal flag to pick another. (kft sits with the other bytes
// and ref, which only journaled steps read, at the end: the struct stays
// 208 bytes.)
type Instr struct {
	Fn     ExecFn
	Sub    int32
	Next   int32  // index of the next instruction
	Target int32  // branch target index, -1 when none or outside the program
	Cost   uint32 // cost class (cSALU, ...), priced by the machine's Latency
	Ndst   uint8
	Nsrc   uint8
	Ty     uint8
	Shape  uint8 // the operand shape a shape handler runs (execCarry's carryShape)
	Mreg   uint8 // a shape handler's lane-mask destination SGPR pair (carryShape), below 127
	Creg   uint8 // a shape handler's lane-mask source SGPR pair (carries in), below 127
	Kft    uint8 // k's float type (MODE context), 0 for an integer kernel
	Dst    [2]Operand
	Src    [4]Operand
	Imm    int64 // the first immediate operand
	Label  int64 // branch target byte address, -1 when none
	Pc     uint64
	In     *isa.Inst
	Name   string
	Def    *OpDef
	Cf     *[6][64]uint32 // VALU fast paths: constant sources as registers (prefill)
	K      Kernel         // the whole-register kernel execFast and execFastV run (kernelFn)
	Ref    ExecFn
}

// Data types used to expand constants.
const (
	TyB32 uint8 = iota
	TyF32
	TyF16
	TyF64
	TyB64 // 64-bit unsigned/bitwise: literals zero-extend
	TyI64 // 64-bit signed: literals sign-extend
	tyB16
	TyV2F16
	TyV2I16
)

// cost classes
const (
	CSALU uint8 = iota
	CVALU
	CTrans
	CF64
	CSMEM
	cNone
)

// OpDef is a row of the emulator's operation table.
type OpDef struct {
	Fn   ExecFn // the reference form
	Sub  int32
	Ndst uint8
	Ty   uint8
	Cost uint8
	// exact documents whether the result is bit-exact ("exact") or an
	// approximation within the ISA manual's bound ("approx: ...").
	Exact string
	V     *Vop   // vector ALU operations
	K     Kernel // fast whole-register kernel
	Cmp   bool   // a vector compare, v_cmp*/v_cmpx* (ref/valu_cmp.go)
}

// End0 is the address after the last instruction before code is compiled.
func (p *Program) End0() uint64 {
	if len(p.Addrs) == 0 {
		return p.Base
	}
	n := p.Insts[len(p.Insts)-1].Len
	if n <= 0 {
		n = 4
	}
	return p.Addrs[len(p.Addrs)-1] + uint64(n)
}

func IsaType(t isa.DataType, def uint8) uint8 {
	switch t {
	case isa.TypeF32:
		return TyF32
	case isa.TypeF16:
		return TyF16
	case isa.TypeF64:
		return TyF64
	case isa.TypeB64, isa.TypeU64:
		return TyB64
	case isa.TypeI64:
		return TyI64
	case isa.TypeB16, isa.TypeI16, isa.TypeU16:
		return tyB16
	case isa.TypeV2F16:
		return TyV2F16
	case isa.TypeV2I16:
		return TyV2I16
	case isa.TypeB32, isa.TypeI32, isa.TypeU32:
		return TyB32
	}
	return def
}

// ApertureValue returns src_shared_base and friends as a 32-bit operand
// reads them: the high dword of the LDS and scratch apertures of the flat
// address space (SH_MEM_BASES holds the same bases, see shMemBases).
func ApertureValue(code uint16) uint64 {
	switch code {
	case 235: // src_shared_base
		return 0x1_0000
	case 236: // src_shared_limit
		return 0x1_0000
	case 237: // src_private_base
		return 0x2_0000
	case 238: // src_private_limit
		return 0x2_0000
	}
	return 0
}

// InlineValue expands inline-constant code c for type ty.
func InlineValue(c uint16, ty uint8) uint64 {
	switch {
	case c >= 128 && c <= 192:
		return uint64(c - 128)
	case c >= 193 && c <= 208:
		return uint64(-int64(c - 192))
	}
	f := [...]float64{0.5, -0.5, 1, -1, 2, -2, 4, -4}
	var v float64
	switch {
	case c >= 240 && c <= 247:
		v = f[c-240]
	case c == 248:
		switch ty {
		case TyF16, tyB16, TyV2F16, TyV2I16:
			return 0x3118
		case TyF64, TyB64, TyI64:
			return 0x3fc45f306dc9c882
		}
		return 0x3e22f983
	default:
		return 0
	}
	switch ty {
	case TyF16, tyB16, TyV2F16, TyV2I16:
		return uint64(f32ToF16(float32(v), RmNearest, true))
	case TyF64, TyB64, TyI64:
		return F64bits(v)
	}
	return uint64(F32bits(float32(v)))
}

// LiteralValue expands a 32-bit literal: f64 operands take it as the high
// dword; 64-bit signed operands sign-extend it, unsigned ones zero-extend.
func LiteralValue(lit uint32, ty uint8) uint64 {
	switch ty {
	case TyF64:
		return uint64(lit) << 32
	case TyI64:
		return uint64(int64(int32(lit)))
	}
	return uint64(lit)
}

package isa

// Source operands and modifiers shared by the encoders: a register,
// inline constant or literal becomes its 8- or 9-bit source code
// (the inverse of srcOperand in operand.go), and trailing modifiers are
// looked up by name and marked used.

import (
	"math"
	"strconv"
	"strings"
)

// What a source field accepts.
type srcAllow uint8

const (
	allowScalar srcAllow = 1 << iota // SGPRs, ttmps and special registers
	allowVGPR                        // VGPRs (9-bit VOP sources)
	allowConst                       // inline constants
	allowLit                         // a 32-bit literal after the instruction
	allowSrc    = allowScalar | allowConst
)

// src returns the source code of operand o read as spec s.
func (a *asmLine) src(o *asmOp, s *OperandSpec, allow srcAllow) (uint16, error) {
	width := s.Width
	if width == 0 {
		width = 1
	}
	switch o.kind {
	case opReg:
		if o.width != 0 && o.width != width {
			return 0, errAt(o, msgInvalidOperand)
		}
		switch o.rk {
		case KindVGPR:
			if allow&allowVGPR == 0 {
				return 0, errAt(o, msgInvalidOperand)
			}
			return srcVGPR + o.reg, nil
		case KindSGPR:
			if allow&allowScalar == 0 {
				return 0, errAt(o, msgInvalidOperand)
			}
			return o.reg, nil
		case KindTTMP:
			if allow&allowScalar == 0 {
				return 0, errAt(o, msgInvalidOperand)
			}
			base := uint16(112)
			if a.t == GFX9 {
				base = 108
			}
			return base + o.reg, nil
		case KindSpecial:
			if allow&allowScalar == 0 || width > 2 && o.width != 0 {
				return 0, errAt(o, msgInvalidOperand)
			}
			if o.reg == uint16(LDSDirect) {
				switch {
				case a.form.Enc < EncVOP1 || a.form.Enc > EncVINTRP:
					return 0, errAt(o, msgInvalidOperand)
				case s.Field != FieldSRC0:
					return 0, errAt(o, "lds_direct may be used as src0 only")
				case revOpcode(a.form.Mnemonic):
					return 0, errAt(o, "lds_direct cannot be used with this instruction")
				}
			}
			return o.reg, nil
		}
	case opInt, opFloat:
		if allow&(allowConst|allowLit) == 0 {
			return 0, errAt(o, msgInvalidOperand)
		}
		code, word, err := a.constant(o, s.Type)
		if err != nil {
			return 0, err
		}
		if code != srcLiteral {
			if allow&allowConst == 0 {
				return 0, errAt(o, msgInvalidOperand)
			}
			return code, nil
		}
		if allow&allowLit == 0 {
			if a.form.Enc == EncVOP3 || a.form.Enc == EncVOP3P {
				return 0, errAt(o, "literal operands are not supported")
			}
			return 0, errAt(o, msgInvalidOperand)
		}
		return srcLiteral, a.setLiteral(o, word)
	}
	return 0, errAt(o, msgInvalidOperand)
}

// setLiteral records the instruction's literal; a second, different one
// is an error.
func (a *asmLine) setLiteral(o *asmOp, w uint32) error {
	if a.hasLit && a.lit != w {
		return errAt(o, "only one unique literal operand is allowed")
	}
	a.hasLit, a.lit, a.litCol = true, w, o.col
	return nil
}

// sdst returns the code of a scalar destination (an SGPR, ttmp or
// special register below 128).
func (a *asmLine) sdst(o *asmOp, s *OperandSpec) (uint16, error) {
	c, err := a.src(o, s, allowScalar)
	if err == nil && c > 127 {
		err = errAt(o, msgInvalidOperand)
	}
	return c, err
}

// constant returns the inline-constant code of o read as type t, or
// srcLiteral and the literal word.
func (a *asmLine) constant(o *asmOp, t DataType) (uint16, uint32, error) {
	bits := typeBits(t)
	var v uint64
	if o.kind == opFloat {
		f := o.fval
		switch bits {
		case 16:
			v = uint64(f16Bits(f))
			if lossy16(f, uint16(v)) && !inlineFP(f) {
				return 0, 0, errAt(o, msgInvalidOperand)
			}
		case 32:
			v = uint64(math.Float32bits(float32(f)))
		default:
			v = math.Float64bits(f)
		}
	} else {
		v = uint64(o.val)
		if bits < 64 && (o.val < math.MinInt32 || o.val > math.MaxUint32) {
			return 0, 0, errAt(o, msgInvalidOperand)
		}
	}
	switch bits {
	case 16:
		if o.kind == opInt && o.val >= -16 && o.val <= 64 || o.kind == opFloat && v == 0 {
			return inlineIntCode(o.val), 0, nil
		}
		for i, c := range fp16Consts {
			if v == uint64(c) && (o.kind == opFloat || !intType16(t)) {
				return uint16(srcInlineFPLo + i), 0, nil
			}
		}
		return srcLiteral, uint32(v), nil
	case 32:
		x := int64(int32(v))
		if x >= -16 && x <= 64 {
			return inlineIntCode(x), 0, nil
		}
		for i, c := range fp32Consts {
			if uint32(v) == c {
				return uint16(srcInlineFPLo + i), 0, nil
			}
		}
		return srcLiteral, uint32(v), nil
	}
	x := int64(v)
	if x >= -16 && x <= 64 {
		return inlineIntCode(x), 0, nil
	}
	for i, c := range fp64Consts {
		if v == c {
			return uint16(srcInlineFPLo + i), 0, nil
		}
	}
	if o.kind == opFloat {
		return srcLiteral, uint32(v >> 32), nil
	}
	if x < math.MinInt32 || x > math.MaxUint32 {
		return 0, 0, errAt(o, msgInvalidOperand)
	}
	return srcLiteral, uint32(v), nil
}

// inlineIntCode is the source code of integer inline constant x (-16..64).
func inlineIntCode(x int64) uint16 {
	if x >= 0 {
		return uint16(srcInlineIntLo + x)
	}
	return uint16(192 - x)
}

// f16Bits converts f to IEEE half precision, rounding to nearest even.
func f16Bits(f float64) uint16 {
	b := math.Float32bits(float32(f))
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23&0xff) - 127 + 15
	man := b & 0x7fffff
	switch {
	case b&0x7fffffff == 0:
		return sign
	case int(b>>23&0xff) == 0xff:
		if man != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp >= 0x1f:
		return sign | 0x7c00
	case exp <= 0:
		if exp < -10 {
			return sign
		}
		man |= 0x800000
		shift := uint(14 - exp)
		h := man >> shift
		rem := man & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || rem == half && h&1 != 0 {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(exp)<<10 | man>>13
	rem := man & 0x1fff
	if rem > 0x1000 || rem == 0x1000 && h&1 != 0 {
		h++
	}
	return sign | uint16(h)
}

// mod returns the trailing modifier called name and marks it used.
func (a *asmLine) mod(name string) *asmMod {
	for i := range a.mods {
		if a.mods[i].name == name && a.used&(1<<i) == 0 {
			a.used |= 1 << i
			return &a.mods[i]
		}
	}
	return nil
}

// flag reports whether the bare modifier name is present, and marks it.
func (a *asmLine) flag(name string) (bool, error) {
	m := a.mod(name)
	if m != nil && m.hasVal {
		return true, &AsmError{Col: m.col, Msg: msgInvalidOperand}
	}
	return m != nil, nil
}

// intMod returns the value of modifier name:N, which must lie in [lo, hi],
// or def when the modifier is absent.
func (a *asmLine) intMod(name string, lo, hi, def int64) (int64, error) {
	return a.intModMsg(name, lo, hi, def, "invalid "+name+" value")
}

// intModMsg is intMod with the message for a value out of range.
func (a *asmLine) intModMsg(name string, lo, hi, def int64, msg string) (int64, error) {
	m := a.mod(name)
	if m == nil {
		return def, nil
	}
	if !m.hasVal {
		return 0, &AsmError{Col: m.col, Msg: "expected a colon"}
	}
	v, err := parseInt(m.val)
	if err != nil {
		return 0, &AsmError{Col: m.col + len(name) + 1, Msg: "expected absolute expression"}
	}
	if v < lo || v > hi {
		return 0, &AsmError{Col: m.col, Msg: msg}
	}
	return v, nil
}

// parseInt parses a decimal, hex or binary integer with an optional sign.
func parseInt(s string) (int64, error) {
	neg := false
	if t, ok := strings.CutPrefix(s, "-"); ok {
		neg, s = true, t
	}
	v, err := strconv.ParseUint(s, 0, 63)
	if neg {
		return -int64(v), err
	}
	return int64(v), err
}

// unusedModifier reports the first modifier the encoder did not take.
func (a *asmLine) unusedModifier() error {
	for i := range a.mods {
		if a.used&(1<<i) == 0 {
			if a.modKind != modsNone && sdwaDPPMod(a.mods[i].name) {
				return &AsmError{Col: a.mods[i].col, Msg: "not a valid operand."}
			}
			return &AsmError{Col: a.mods[i].col, Msg: msgInvalidOperand}
		}
	}
	return nil
}

// sdwaDPPMod reports whether name is an SDWA or DPP modifier.
func sdwaDPPMod(name string) bool {
	switch name {
	case "dst_sel", "dst_unused", "src0_sel", "src1_sel", "quad_perm", "row_shl", "row_shr", "row_ror",
		"wave_shl", "wave_rol", "wave_shr", "wave_ror", "row_mirror", "row_half_mirror", "row_bcast",
		"row_mask", "bank_mask", "bound_ctrl":
		return true
	}
	return false
}

// tooFew is the error for a line that ends before the form's operands do.
func (a *asmLine) tooFew() error {
	return &AsmError{Col: a.mnCol, Msg: msgTooFew}
}

// extra is the error for an operand beyond the form's last.
func (a *asmLine) extra(k int) error {
	if k < len(a.ops) {
		return errAt(&a.ops[k], msgInvalidOperand)
	}
	return nil
}

// modCol is the column of modifier name, or of the mnemonic when absent.
func (a *asmLine) modCol(name string) int {
	for i := range a.mods {
		if a.mods[i].name == name {
			return a.mods[i].col
		}
	}
	return a.mnCol
}

// lossy16 reports whether converting f to half precision (h) overflows or
// underflows, which LLVM rejects (plain rounding it accepts).
func lossy16(f float64, h uint16) bool {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return false
	}
	e := h >> 10 & 0x1f
	if e == 0x1f {
		return true // overflow to infinity
	}
	back := f16Float(h)
	return e == 0 && back != f // an inexact denormal (or zero)
}

// f16Float is the value of half-precision bits h.
func f16Float(h uint16) float64 {
	e, m := int(h>>10&0x1f), float64(h&0x3ff)
	v := math.Ldexp(m, -24)
	if e != 0 {
		v = math.Ldexp(1024+m, e-25)
	}
	if h&0x8000 != 0 {
		v = -v
	}
	return v
}

// inlineFP reports whether f is one of the float inline constants, which
// LLVM matches before converting.
func inlineFP(f float64) bool {
	for _, c := range fp64Consts {
		if math.Float64bits(f) == c {
			return true
		}
	}
	return false
}

// revOpcode reports whether LLVM treats mnemonic as a reversed-operand
// opcode (v_subrev*, v_subbrev*, v_lshlrev*, v_lshrrev*, v_ashrrev*).
func revOpcode(mn string) bool {
	for _, r := range [...]string{"subrev", "subbrev", "lshlrev", "lshrrev", "ashrrev"} {
		if strings.Contains(mn, r) {
			return true
		}
	}
	return false
}

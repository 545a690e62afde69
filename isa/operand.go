package isa

// This file holds the operand helpers shared by every encoding family:
// turning a scalar or vector source code into an Operand (srcOperand,
// sdstOperand, vgprOperand, immOperand) and the constants they use.
// printer.operand (print.go) is their inverse.

import "errors"

// Source-operand codes (SSRC, 9-bit VOP sources; 256–511 are v0–v255).
const (
	srcSGPRMax     = 101 // s0–s101
	srcInlineIntLo = 128 // 0
	srcInlineIntHi = 208 // -16
	srcInlineFPLo  = 240 // 0.5
	srcInlineFPHi  = 248 // 1/(2π)
	srcLiteral     = 255
	srcVGPR        = 256
	srcNull        = 125 // LLVM names it "null" on every generation
)

// ttmpIndex returns the trap-temporary number of source code c, or -1:
// ttmp0–11 are 112–123 on GFX8 and ttmp0–15 are 108–123 on GFX9.
func ttmpIndex(t Target, c uint16) int {
	lo := uint16(112)
	if t == GFX9 {
		lo = 108
	}
	if c >= lo && c <= 123 {
		return int(c - lo)
	}
	return -1
}

// special32 reports whether c names a 32-bit special register on generation t.
func special32(t Target, c uint16) bool {
	switch {
	case c >= 102 && c <= 107, c == 124, c == srcNull, c == 126, c == 127:
		return true
	case c >= 108 && c <= 111:
		return t == GFX8
	case c >= 235 && c <= 239, c >= 251 && c <= 254:
		return true
	}
	return false
}

// special64 reports whether c names a 64-bit special register (a pair)
// on generation t.
func special64(t Target, c uint16) bool {
	switch c {
	case 102, 104, 106, srcNull, 126, 235, 236, 237, 238, 239, 251, 252, 253:
		return true
	case 108, 110:
		return t == GFX8
	}
	return false
}

// alignShift is the log2 of the register alignment LLVM's disassembler
// applies to an SGPR or TTMP tuple of width dwords: it drops the low bits
// of a misaligned number (s[5:6] decodes as s[4:5]).
func alignShift(width uint8) uint {
	switch {
	case width <= 1:
		return 0
	case width == 2:
		return 1
	}
	return 2
}

// regTuple reports whether an SGPR/TTMP tuple of width dwords starting at
// reg (already aligned) lies inside a register file of n registers.
func regTuple(reg int, width uint8, n int) bool {
	w := int(width)
	if w == 0 {
		w = 1
	}
	return reg+w <= n
}

// numSGPRs is the SGPR tuple space LLVM's register classes cover (s0–s105).
const numSGPRs = 106

// srcOperand decodes source code c (an 8-bit SSRC or a 9-bit VOP source,
// where 256–511 are VGPRs) as the operand s describes. A literal (255)
// reads the word that follows the instruction's fixed words, src[inst.Len:],
// and grows inst.Len and inst.Words; a second literal source in the same
// instruction shares it. It returns ErrInvalid for a code LLVM rejects
// and ErrTruncated when the literal is cut off.
func srcOperand(src []byte, t Target, inst *Inst, s *OperandSpec, c uint16) (Operand, error) {
	op := Operand{Field: s.Field, Access: s.Access, Type: s.Type, Width: s.Width, Reg: c}
	if op.Width == 0 {
		op.Width = 1
	}
	switch {
	case c >= srcVGPR:
		return vgprOperand(s, c-srcVGPR)
	case c <= srcSGPRMax:
		return sgprOperand(s, c)
	case ttmpIndex(t, c) >= 0:
		op.Kind = KindTTMP
		op.Reg = uint16(ttmpIndex(t, c)) >> alignShift(op.Width) << alignShift(op.Width)
		if !regTuple(int(op.Reg), op.Width, 16) { // LLVM's TTMP tuples reach ttmp15 on GFX8 too
			return op, ErrInvalid
		}
		return op, nil
	case c >= srcInlineIntLo && c <= srcInlineIntHi, c >= srcInlineFPLo && c <= srcInlineFPHi:
		op.Kind = KindInline
		return op, nil
	case c == srcLiteral:
		op.Kind = KindLiteral
		v, err := literal(src, inst)
		op.Imm = int64(v)
		return op, err
	}
	op.Kind = KindSpecial
	if op.Width <= 1 && special32(t, c) || op.Width == 2 && special64(t, c) || op.Width > 2 && (special64(t, c) || c == srcNull) {
		return op, nil
	}
	return op, ErrInvalid
}

// sgprOperand decodes an SGPR number (0–101) as the operand s describes,
// aligning a tuple the way LLVM does.
func sgprOperand(s *OperandSpec, reg uint16) (Operand, error) {
	op := Operand{Kind: KindSGPR, Field: s.Field, Access: s.Access, Type: s.Type, Width: s.Width}
	if op.Width == 0 {
		op.Width = 1
	}
	sh := alignShift(op.Width)
	op.Reg = reg >> sh << sh
	if !regTuple(int(op.Reg), op.Width, numSGPRs) {
		return op, ErrInvalid
	}
	return op, nil
}

// vgprOperand decodes a VGPR number (0–255) as the operand s describes.
func vgprOperand(s *OperandSpec, reg uint16) (Operand, error) {
	op := Operand{Kind: KindVGPR, Field: s.Field, Access: s.Access, Type: s.Type, Width: s.Width, Reg: reg}
	if op.Width == 0 {
		op.Width = 1
	}
	if int(reg)+int(op.Width) > 256 {
		return op, ErrInvalid
	}
	return op, nil
}

// sdstOperand decodes a 7-bit scalar destination code (SGPRs, ttmps and
// the 32/64-bit specials; no constants) as the operand s describes.
func sdstOperand(t Target, s *OperandSpec, c uint16) (Operand, error) {
	if c > 127 {
		return Operand{}, ErrInvalid
	}
	return srcOperand(nil, t, nil, s, c)
}

// immOperand returns the immediate field value v as the operand s describes.
func immOperand(s *OperandSpec, v int64) Operand {
	return Operand{Kind: KindImm, Field: s.Field, Access: s.Access, Imm: v}
}

// literal returns the instruction's literal, reading it after the fixed
// words on first use.
func literal(src []byte, inst *Inst) (uint32, error) {
	if inst == nil {
		return 0, ErrInvalid
	}
	if inst.hasLit {
		return inst.Words[inst.Len/4-1], nil
	}
	w, ok := word(src, inst.Len)
	if !ok {
		return 0, ErrTruncated
	}
	inst.Words[inst.Len/4] = w
	inst.Len += 4
	inst.hasLit = true
	return w, nil
}

// inlineInts maps inline-constant codes 128–208 to their integer values.
func inlineInt(c uint16) int64 {
	if c <= 192 {
		return int64(c) - 128
	}
	return 192 - int64(c)
}

// InlineValue returns the bits an inline-constant code (128–208, 240–248)
// stands for when read as type t: integers sign-extended to the operand's
// width, float constants in the operand's float format (f16 for 16-bit
// types, f64 for 64-bit ones, f32 otherwise).
func InlineValue(code uint16, t DataType) uint64 {
	if code >= srcInlineIntLo && code <= srcInlineIntHi {
		v := inlineInt(code)
		switch typeBits(t) {
		case 16:
			return uint64(uint16(v))
		case 32:
			return uint64(uint32(v))
		}
		return uint64(v)
	}
	i := int(code) - srcInlineFPLo
	if i < 0 || i > 8 {
		return 0
	}
	switch typeBits(t) {
	case 16:
		return uint64(fp16Consts[i])
	case 64:
		return fp64Consts[i]
	}
	return uint64(fp32Consts[i])
}

// typeBits is the width in bits of one element of t (32 for TypeNone).
func typeBits(t DataType) int {
	switch t {
	case TypeB16, TypeI16, TypeU16, TypeF16:
		return 16
	case TypeB64, TypeI64, TypeU64, TypeF64:
		return 64
	}
	return 32
}

// The float inline constants 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0 and
// 1/(2π), in each format.
var (
	fp16Consts = [9]uint16{0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118}
	fp32Consts = [9]uint32{0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000,
		0x40800000, 0xc0800000, 0x3e22f983}
	fp64Consts = [9]uint64{0x3fe0000000000000, 0xbfe0000000000000, 0x3ff0000000000000, 0xbff0000000000000,
		0x4000000000000000, 0xc000000000000000, 0x4010000000000000, 0xc010000000000000, 0x3fc45f306dc9c882}
	fpConstText = [9]string{"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0", "0.15915494"}
)

// inv2pi64Text is how LLVM prints 1/(2π) for a 64-bit operand.
const inv2pi64Text = "0.15915494309189532"

// errOmit, returned by an appendOperands callback, leaves the row's operand
// out of Args: LLVM does not print it in this instance.
var errOmit = errors.New("isa: operand omitted")

// appendOperands appends to inst.Args the operand of each row of f, in
// order, as operand decodes it from the row's spec; it stops at the first
// error other than errOmit.
func appendOperands(inst *Inst, f *Form, operand func(s *OperandSpec) (Operand, error)) error {
	for k := range f.Operands {
		op, err := operand(&f.Operands[k])
		switch err {
		case nil:
			inst.Args = append(inst.Args, op)
		case errOmit:
		default:
			return err
		}
	}
	return nil
}

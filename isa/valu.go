package isa

// This file decodes and prints the vector ALU encodings: VOP1, VOP2, VOPC
// (with their SDWA and DPP forms), VOP3 (VOP3a and VOP3b), VOP3P and
// VINTRP. The table rows (tables/valu.txt) say which modifier bits an
// opcode accepts through flag words; vop3SrcMods and the SDWA/DPP checks
// turn them into LLVM's per-bit behaviour: printed, ignored or rejected.
//
// LLVM 19 behaviour the decoder and printer copy (checked bit by bit by
// the harvester, isa/internal/harvest/valu.go):
//   - A VOP3 source field the opcode does not use must be zero; a literal
//     (255) in any VOP3 or VOP3P source is invalid on GFX8/9; op_sel bits
//     of opcodes without op_sel are ignored.
//   - The neg bit of an integer source of an opcode with float modifiers
//     (v_ldexp's exponent, v_cvt_pk_u8_f32's byte index) prints as sext();
//     its abs bit is ignored. Integer opcodes with op_sel ignore neg/abs.
//   - v_mad_mix*/v_fma_mix* use neg_lo/neg_hi as each source's neg/abs and
//     print op_sel_hi only when it is not all zero (packed opcodes: not
//     all one).
//   - SDWA: a select of 7 is invalid here (it crashes llvm-objdump-19);
//     dst_unused 3 prints as UNUSED_PAD; GFX8 VOPC prints no _sdwa suffix;
//     GFX9 takes SGPRs and inline constants through the s0/s1 bits and a
//     VOPC sdst through sd. v_nop and v_clrexcp ignore the whole word.
//   - DPP: undefined dpp_ctrl values decode and print a remark.
//   - Operands outside the register class LLVM expects (v_swap_b32's and
//     v_movrels's VGPR source, v_readlane's lane select, a VOP3 lane mask,
//     a 128-bit VOP3 source, a VOP3 sdst holding a constant) decode and
//     print LLVM's "/*Invalid register ...*/" or "/*Invalid immediate*/".
//   - The VOP3 interp opcodes keep attr, chan and high in the src0 field;
//     high is recorded as Mods.OpSel bit 3.

func init() {
	decoders[EncVOP1] = decodeVOP1
	decoders[EncVOP2] = decodeVOP2
	decoders[EncVOPC] = decodeVOPC
	decoders[EncVOP3] = decodeVOP3
	decoders[EncVOP3P] = decodeVOP3P
	decoders[EncVINTRP] = decodeVINTRP
	for _, e := range []Encoding{EncVOP1, EncVOP2, EncVOPC, EncVOP3, EncVOP3P, EncVINTRP} {
		printers[e] = printVALU
	}
}

// Source codes that select the SDWA and DPP forms of VOP1, VOP2 and VOPC.
const (
	srcSDWA = 0xf9
	srcDPP  = 0xfa
)

// How LLVM treats a modifier bit of an opcode.
const (
	modRejected = iota // the word is invalid when the bit is set
	modIgnored         // accepted and not printed
	modPrinted         // accepted and printed
)

// srcSpec returns the operand spec of field in f, or nil.
func srcSpec(f *Form, field Field) *OperandSpec {
	for k := range f.Operands {
		if f.Operands[k].Field == field {
			return &f.Operands[k]
		}
	}
	return nil
}

// floatish reports whether LLVM gives an operand of type t floating-point
// input modifiers (float, untyped and packed operands).
func floatish(t DataType) bool {
	switch t {
	case TypeI16, TypeI32, TypeI64, TypeU16, TypeU32, TypeU64:
		return false
	}
	return true
}

var vop3Srcs = [3]Field{FieldSRC0, FieldSRC1, FieldSRC2}

// vop3SrcMods says how the neg and abs bits of VOP3 source k behave.
func vop3SrcMods(f *Form, k int) (neg, abs int) {
	s := srcSpec(f, vop3Srcs[k])
	switch {
	case s == nil, k == 1 && f.Flags&FlagSrc1Nomods != 0, k == 2 && f.Flags&FlagSrc2Nomods != 0:
		return modRejected, modRejected
	case f.Flags&FlagMods != 0:
		if floatish(s.Type) {
			return modPrinted, modPrinted
		}
		return modPrinted, modIgnored
	case f.Flags&FlagOpsel != 0:
		return modIgnored, modIgnored
	}
	return modRejected, modRejected
}

// e32Src returns the spec of source k (0 or 1) of a VOP1/VOP2/VOPC form.
func e32Src(f *Form, k int) *OperandSpec {
	if k == 0 {
		return srcSpec(f, FieldSRC0)
	}
	return srcSpec(f, FieldVSRC1)
}

func decodeVOP1(src []byte, t Target, inst *Inst) error {
	w := inst.Words[0]
	return decodeE32(src, t, inst, uint16(w>>9&0xff))
}

func decodeVOP2(src []byte, t Target, inst *Inst) error {
	w := inst.Words[0]
	return decodeE32(src, t, inst, uint16(w>>25&0x3f))
}

func decodeVOPC(src []byte, t Target, inst *Inst) error {
	w := inst.Words[0]
	return decodeE32(src, t, inst, uint16(w>>17&0xff))
}

// decodeE32 decodes VOP1, VOP2 and VOPC words, choosing the SDWA or DPP
// form when src0 says so.
func decodeE32(src []byte, t Target, inst *Inst, opcode uint16) error {
	f, err := startForm(t, inst, opcode, 4)
	if err != nil {
		return err
	}
	w := inst.Words[0]
	if len(f.Operands) == 0 {
		// v_nop, v_clrexcp: vdst must be zero; LLVM ignores src0 (and
		// reads an SDWA or DPP word when src0 selects one).
		if w>>17&0xff != 0 {
			return ErrInvalid
		}
	}
	switch w & 0x1ff {
	case srcSDWA:
		if f.Flags&FlagSdwa != 0 {
			return decodeSDWA(src, t, inst, f)
		}
	case srcDPP:
		if f.Flags&FlagDpp != 0 {
			return decodeDPP(src, t, inst, f)
		}
	}
	inst.Variant = VariantE32
	return appendOperands(inst, f, func(s *OperandSpec) (op Operand, err error) {
		switch s.Field {
		case FieldVDST:
			if inst.Enc == EncVOPC {
				return op, ErrInvalid
			}
			op, err = vgprOperand(s, uint16(w>>17&0xff))
		case FieldSDST:
			// v_readfirstlane_b32: LLVM decodes any 8-bit source code.
			op, err = srcOperand(src, t, inst, s, uint16(w>>17&0xff))
		case FieldSRC0:
			op, err = srcOperand(src, t, inst, s, uint16(w&0x1ff))
		case FieldVSRC1:
			op, err = vgprOperand(s, uint16(w>>9&0xff))
		case FieldVCC:
			op = vccOperand(s)
		case FieldSIMM32:
			op, err = srcOperand(src, t, inst, s, srcLiteral)
		default:
			err = ErrInvalid
		}
		return op, err
	})
}

func vccOperand(s *OperandSpec) Operand {
	return Operand{Kind: KindSpecial, Field: s.Field, Access: s.Access, Type: s.Type, Width: 2, Reg: uint16(VCCLo)}
}

// second reads the instruction's second word.
func second(src []byte, inst *Inst) (uint32, error) {
	w, ok := word(src, 4)
	if !ok {
		inst.Len = 4
		return 0, ErrTruncated
	}
	inst.Words[1] = w
	inst.Len = 8
	return w, nil
}

// decodeSDWA decodes the SDWA form: the second word holds src0, the
// selects and the source modifiers.
func decodeSDWA(src []byte, t Target, inst *Inst, f *Form) error {
	d, err := second(src, inst)
	if err != nil {
		return err
	}
	inst.Variant = VariantSDWA
	w := inst.Words[0]
	m := &inst.Mods
	bit := func(n uint) bool { return d>>n&1 != 0 }
	vopc := inst.Enc == EncVOPC
	// Destination fields.
	switch {
	case vopc && t == GFX9:
	case vopc:
		m.Clamp = bit(13)
	default:
		m.DstSel = uint8(d >> 8 & 7)
		m.DstUnused = uint8(d >> 11 & 3)
		m.Clamp = bit(13)
		if t == GFX9 {
			m.Omod = uint8(d >> 14 & 3)
			if m.Omod != 0 && f.Flags&FlagSdwaOmod == 0 {
				return ErrInvalid
			}
		}
		if m.DstSel > 6 {
			return ErrInvalid
		}
	}
	if len(f.Operands) == 0 {
		return nil
	}
	m.Src0Sel = uint8(d >> 16 & 7)
	m.Src1Sel = uint8(d >> 24 & 7)
	if m.Src0Sel > 6 || m.Src1Sel > 6 {
		return ErrInvalid
	}
	for k := 0; k < 2; k++ {
		s := e32Src(f, k)
		base := uint(16 + 8*k)
		if s == nil {
			if d>>base&0x3f != 0 || t == GFX9 && k == 1 && bit(31) {
				return ErrInvalid
			}
			continue
		}
		if f.Flags&FlagMods != 0 && floatish(s.Type) {
			if bit(base + 3) {
				return ErrInvalid
			}
		} else if bit(base+4) || bit(base+5) {
			return ErrInvalid
		}
	}
	return appendOperands(inst, f, func(s *OperandSpec) (op Operand, err error) {
		switch s.Field {
		case FieldVDST:
			op, err = vgprOperand(s, uint16(w>>17&0xff))
		case FieldSDST:
			op, err = sdstOperand(t, s, uint16(w>>17&0xff))
		case FieldSRC0:
			op, err = sdwaSrc(t, s, uint16(d&0xff), t == GFX9 && bit(23))
			op.Sext, op.Neg, op.Abs = bit(19), bit(20), bit(21)
		case FieldVSRC1:
			op, err = sdwaSrc(t, s, uint16(w>>9&0xff), t == GFX9 && bit(31))
			op.Sext, op.Neg, op.Abs = bit(27), bit(28), bit(29)
		case FieldVCC:
			op = vccOperand(s)
			if vopc && t == GFX9 && bit(15) {
				op, err = sdstOperand(t, s, uint16(d>>8&0x7f))
				op.Field = FieldSDST
			}
		default:
			err = ErrInvalid
		}
		return op, err
	})
}

// sdwaSrc decodes an SDWA source: a VGPR, or on GFX9 with the s bit an
// SGPR, special or inline constant (no literal).
func sdwaSrc(t Target, s *OperandSpec, c uint16, scalar bool) (Operand, error) {
	if !scalar {
		return vgprOperand(s, c)
	}
	if c == srcLiteral {
		return Operand{}, ErrInvalid
	}
	return srcOperand(nil, t, nil, s, c)
}

// decodeDPP decodes the DPP form: the second word holds src0, dpp_ctrl,
// the masks and the source modifiers.
func decodeDPP(src []byte, t Target, inst *Inst, f *Form) error {
	d, err := second(src, inst)
	if err != nil {
		return err
	}
	inst.Variant = VariantDPP
	w := inst.Words[0]
	m := &inst.Mods
	m.DPPCtrl = uint16(d >> 8 & 0x1ff)
	m.BoundCtrl = d>>19&1 != 0
	m.BankMask = uint8(d >> 24 & 0xf)
	m.RowMask = uint8(d >> 28 & 0xf)
	if len(f.Operands) == 0 {
		return nil
	}
	var neg, abs, sext [2]bool
	for k := 0; k < 2; k++ {
		n, a := d>>(20+2*k)&1 != 0, d>>(21+2*k)&1 != 0
		s := e32Src(f, k)
		switch {
		case s == nil || f.Flags&FlagMods == 0:
			if n || a {
				return ErrInvalid
			}
		case floatish(s.Type):
			neg[k], abs[k] = n, a
		default:
			sext[k] = n // LLVM prints an integer source's neg bit as sext()
		}
	}
	return appendOperands(inst, f, func(s *OperandSpec) (op Operand, err error) {
		switch s.Field {
		case FieldVDST:
			op, err = vgprOperand(s, uint16(w>>17&0xff))
		case FieldSDST:
			op, err = sdstOperand(t, s, uint16(w>>17&0xff))
		case FieldSRC0:
			op, err = vgprOperand(s, uint16(d&0xff))
			op.Neg, op.Abs, op.Sext = neg[0], abs[0], sext[0]
		case FieldVSRC1:
			op, err = vgprOperand(s, uint16(w>>9&0xff))
			op.Neg, op.Abs, op.Sext = neg[1], abs[1], sext[1]
		case FieldVCC:
			op = vccOperand(s)
		default:
			err = ErrInvalid
		}
		return op, err
	})
}

// validDPPCtrl reports whether GFX8/9 define the dpp_ctrl value.
func validDPPCtrl(c uint16) bool {
	switch {
	case c <= 0xff:
		return true
	case c >= 0x101 && c <= 0x10f, c >= 0x111 && c <= 0x11f, c >= 0x121 && c <= 0x12f:
		return true
	}
	switch c {
	case 0x130, 0x134, 0x138, 0x13c, 0x140, 0x141, 0x142, 0x143:
		return true
	}
	return false
}

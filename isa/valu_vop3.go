package isa

// VOP3 (VOP3a and VOP3b), VOP3P and VINTRP decoding.

// decodeVOP3 decodes a VOP3 word pair. A form with both vdst and sdst is
// VOP3b: sdst sits in bits 14–8 where VOP3a keeps abs, op_sel and clamp
// sits at bit 15 in both.
func decodeVOP3(src []byte, t Target, inst *Inst) error {
	w := inst.Words[0]
	f, err := startForm(t, inst, uint16(w>>16&0x3ff), 4)
	if err != nil {
		return err
	}
	d, err := second(src, inst)
	if err != nil {
		return err
	}
	inst.Variant = VariantE64
	m := &inst.Mods
	if len(f.Operands) == 0 && (w&0xffff != 0 || d != 0) {
		return ErrInvalid
	}
	vop3b := srcSpec(f, FieldVDST) != nil && srcSpec(f, FieldSDST) != nil
	interp := srcSpec(f, FieldATTR) != nil
	var srcs [3]*OperandSpec // nil for a source the form does not use
	for k := range srcs {
		srcs[k] = srcSpec(f, vop3Srcs[k])
	}
	m.Clamp = w>>15&1 != 0
	m.Omod = uint8(d >> 27 & 3)
	if m.Clamp && f.Flags&FlagClamp == 0 || m.Omod != 0 && f.Flags&FlagOmod == 0 {
		return ErrInvalid
	}
	var neg, abs [3]bool
	for k := 0; k < 3; k++ {
		nb, ab := d>>(29+k)&1 != 0, w>>(8+k)&1 != 0
		if vop3b {
			ab = false
		}
		ns, as := vop3SrcMods(f, k)
		if nb && ns == modRejected || ab && as == modRejected {
			return ErrInvalid
		}
		neg[k] = nb && ns == modPrinted
		abs[k] = ab && as == modPrinted
	}
	if !vop3b && f.Flags&FlagOpsel != 0 {
		m.OpSel = uint8(w >> 11 & 0xf)
		for k := 0; k < 3; k++ {
			if m.OpSel>>k&1 != 0 && srcs[k] == nil {
				return ErrInvalid
			}
		}
	}
	// Source fields the form does not use must be zero.
	for k := 0; k < 3; k++ {
		used := srcs[k] != nil || interp && k == 0 || k == 1 && srcSpec(f, FieldPARAM) != nil
		if !used && d>>(9*k)&0x1ff != 0 {
			return ErrInvalid
		}
	}
	return appendOperands(inst, f, func(s *OperandSpec) (op Operand, err error) {
		switch s.Field {
		case FieldVDST:
			op, err = vgprOperand(s, uint16(w&0xff))
		case FieldSDST:
			if vop3b {
				op, err = sdstOperand(t, s, uint16(w>>8&0x7f))
			} else {
				// LLVM decodes the 8-bit field as a source and remarks on
				// constants.
				op, err = srcOperand(nil, t, nil, s, uint16(w&0xff))
			}
		case FieldSRC0, FieldSRC1, FieldSRC2:
			var i int
			op, i, err = vop3Src(src, t, inst, s, d)
			op.Neg, op.Abs = neg[i], abs[i]
			if op.Neg && !floatish(s.Type) {
				// LLVM prints the neg bit of an integer source as sext().
				op.Neg, op.Sext = false, true
			}
		case FieldATTR:
			m.Attr = uint8(d & 0x3f)
			m.AttrChan = uint8(d >> 6 & 3)
			if d>>8&1 != 0 {
				if f.Flags&FlagHigh == 0 {
					return op, ErrInvalid
				}
				m.OpSel |= 8
			}
			op = immOperand(s, int64(m.Attr))
		case FieldPARAM:
			op = immOperand(s, int64(d>>9&0x1ff))
		default:
			err = ErrInvalid
		}
		return op, err
	})
}

// decodeVOP3P decodes GFX9 packed-math words.
func decodeVOP3P(src []byte, t Target, inst *Inst) error {
	w := inst.Words[0]
	f, err := startForm(t, inst, uint16(w>>16&0x7f), 4)
	if err != nil {
		return err
	}
	d, err := second(src, inst)
	if err != nil {
		return err
	}
	inst.Variant = VariantNone
	m := &inst.Mods
	m.Clamp = w>>15&1 != 0
	m.NegHi = uint8(w >> 8 & 7)
	m.OpSel = uint8(w >> 11 & 7)
	m.OpSelHi = uint8(d>>27&3) | uint8(w>>14&1)<<2
	m.NegLo = uint8(d >> 29 & 7)
	mix := isMix(f)
	for k := 0; k < 3; k++ {
		if srcSpec(f, vop3Srcs[k]) != nil {
			continue
		}
		if (m.NegHi|m.OpSel|m.NegLo)>>k&1 != 0 || d>>(9*k)&0x1ff != 0 {
			return ErrInvalid
		}
		m.OpSelHi &^= 1 << k
	}
	return appendOperands(inst, f, func(s *OperandSpec) (op Operand, err error) {
		switch s.Field {
		case FieldVDST:
			op, err = vgprOperand(s, uint16(w&0xff))
		case FieldSRC0, FieldSRC1, FieldSRC2:
			var i int
			op, i, err = vop3Src(src, t, inst, s, d)
			if mix {
				// The mixed-precision opcodes use neg_lo and neg_hi as
				// each source's neg and abs.
				op.Neg, op.Abs = m.NegLo>>i&1 != 0, m.NegHi>>i&1 != 0
			}
		default:
			err = ErrInvalid
		}
		return op, err
	})
}

// decodeVINTRP decodes v_interp_p1_f32, v_interp_p2_f32 and v_interp_mov_f32.
func decodeVINTRP(src []byte, t Target, inst *Inst) error {
	w := inst.Words[0]
	f, err := startForm(t, inst, uint16(w>>16&3), 4)
	if err != nil {
		return err
	}
	inst.Variant = VariantE32
	m := &inst.Mods
	m.Attr = uint8(w >> 10 & 0x3f)
	m.AttrChan = uint8(w >> 8 & 3)
	return appendOperands(inst, f, func(s *OperandSpec) (op Operand, err error) {
		switch s.Field {
		case FieldVDST:
			op, err = vgprOperand(s, uint16(w>>18&0xff))
		case FieldVSRC:
			op, err = vgprOperand(s, uint16(w&0xff))
		case FieldPARAM:
			op = immOperand(s, int64(w&0xff))
		case FieldATTR:
			op = immOperand(s, int64(m.Attr))
		default:
			err = ErrInvalid
		}
		return op, err
	})
}

// vop3Src decodes VOP3 or VOP3P source s from the second word d and
// returns its index (0–2). A literal is invalid on GFX8/9.
func vop3Src(src []byte, t Target, inst *Inst, s *OperandSpec, d uint32) (Operand, int, error) {
	i := srcIndex(s.Field)
	c := uint16(d >> (9 * i) & 0x1ff)
	if c == srcLiteral {
		return Operand{}, i, ErrInvalid
	}
	op, err := srcOperand(src, t, inst, s, c)
	return op, i, err
}

// srcIndex maps src0, src1 and src2 to 0, 1 and 2.
func srcIndex(f Field) int {
	switch f {
	case FieldSRC1:
		return 1
	case FieldSRC2:
		return 2
	}
	return 0
}

// isMix reports whether a VOP3P form is one of the mixed-precision
// opcodes (v_mad_mix*, v_fma_mix*), whose sources are not packed.
func isMix(f *Form) bool {
	s := srcSpec(f, FieldSRC0)
	return s != nil && s.Type == TypeF32
}

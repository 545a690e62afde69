package isa

// This file decodes and prints the scalar encodings: SOP2, SOPK, SOP1,
// SOPC, SOPP and SMEM.

func init() {
	decoders[EncSOP2] = decodeSOP2
	decoders[EncSOPK] = decodeSOPK
	decoders[EncSOP1] = decodeSOP1
	decoders[EncSOPC] = decodeSOPC
	decoders[EncSOPP] = decodeSOPP
	decoders[EncSMEM] = decodeSMEM
	for _, e := range []Encoding{EncSOP2, EncSOPK, EncSOP1, EncSOPC, EncSOPP, EncSMEM} {
		printers[e] = printScalar
	}
}

// startForm looks the opcode up and prepares inst for its operands.
func startForm(t Target, inst *Inst, opcode uint16, n int) (*Form, error) {
	f := lookupForm(t, inst.Enc, opcode)
	if f == nil {
		inst.Len = 4
		return nil, errInvalid
	}
	inst.Form = f
	inst.Op = f.Op
	inst.Len = n
	return f, nil
}

// salu decodes the operands of the SOP encodings from their fields.
func salu(src []byte, t Target, inst *Inst, f *Form, sdst, ssrc0, ssrc1 uint16, simm16 uint32) error {
	for k := range f.Operands {
		s := &f.Operands[k]
		var op Operand
		var err error
		switch s.Field {
		case FieldSDST:
			if s.Access&Write != 0 || !s.Imm {
				op, err = sdstOperand(t, s, sdst)
			}
		case FieldSSRC0:
			op, err = srcOperand(src, t, inst, s, ssrc0)
		case FieldSSRC1:
			op, err = srcOperand(src, t, inst, s, ssrc1)
		case FieldSIMM16:
			op = immOperand(s, int64(simm16))
		default:
			err = errInvalid
		}
		if err != nil {
			return err
		}
		inst.Args = append(inst.Args, op)
	}
	return nil
}

func decodeSOP2(src []byte, t Target, inst *Inst) error {
	w := inst.Words[0]
	f, err := startForm(t, inst, uint16(w>>23&0x7f), 4)
	if err != nil {
		return err
	}
	return salu(src, t, inst, f, uint16(w>>16&0x7f), uint16(w&0xff), uint16(w>>8&0xff), 0)
}

func decodeSOPK(src []byte, t Target, inst *Inst) error {
	w := inst.Words[0]
	f, err := startForm(t, inst, uint16(w>>23&0x1f), 4)
	if err != nil {
		return err
	}
	return salu(src, t, inst, f, uint16(w>>16&0x7f), 0, 0, w&0xffff)
}

func decodeSOP1(src []byte, t Target, inst *Inst) error {
	w := inst.Words[0]
	f, err := startForm(t, inst, uint16(w>>8&0xff), 4)
	if err != nil {
		return err
	}
	return salu(src, t, inst, f, uint16(w>>16&0x7f), uint16(w&0xff), 0, 0)
}

func decodeSOPC(src []byte, t Target, inst *Inst) error {
	w := inst.Words[0]
	f, err := startForm(t, inst, uint16(w>>16&0x7f), 4)
	if err != nil {
		return err
	}
	return salu(src, t, inst, f, 0, uint16(w&0xff), uint16(w>>8&0xff), 0)
}

func decodeSOPP(src []byte, t Target, inst *Inst) error {
	w := inst.Words[0]
	f, err := startForm(t, inst, uint16(w>>16&0x7f), 4)
	if err != nil {
		return err
	}
	return salu(src, t, inst, f, 0, 0, 0, w&0xffff)
}

// SMEM fields.
func decodeSMEM(src []byte, t Target, inst *Inst) error {
	w := inst.Words[0]
	f, err := startForm(t, inst, uint16(w>>18&0xff), 8)
	if err != nil {
		return err
	}
	w1, ok := word(src, 4)
	if !ok {
		return errTruncated
	}
	inst.Words[1] = w1
	m := &inst.Mods
	m.GLC = w>>16&1 != 0
	m.Imm = w>>17&1 != 0
	if t == GFX9 {
		m.SOE = w>>14&1 != 0
		m.NV = w>>15&1 != 0
		m.Offset = int32(w1<<11) >> 11
	} else {
		m.Offset = int32(w1 & 0xfffff)
	}
	for k := range f.Operands {
		s := &f.Operands[k]
		var op Operand
		var err error
		switch s.Field {
		case FieldSDATA:
			op, err = sdstOperand(t, s, uint16(w>>6&0x7f))
		case FieldSBASE:
			op, err = sdstOperand(t, s, uint16(w&0x3f)<<1)
		case FieldOFFSET:
			op = immOperand(s, int64(m.Offset))
		default:
			err = errInvalid
		}
		if err != nil {
			return err
		}
		inst.Args = append(inst.Args, op)
	}
	return nil
}

// printScalar prints every scalar encoding.
func printScalar(p *printer, inst *Inst) {
	p.mnemonic(inst.Form.Mnemonic)
	for k := range inst.Args {
		p.sep()
		p.operand(inst.Args[k])
	}
	if inst.Enc == EncSMEM && inst.Mods.GLC {
		p.str(" glc")
	}
}

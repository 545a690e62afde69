package isa

// This file decodes and prints the scalar encodings: SOP2, SOPK, SOP1,
// SOPC, SOPP and SMEM. How a simm16 prints is a flag of the table row
// (imm-hex, imm-u16, imm-dec, label, waitcnt, sendmsg, hwreg, gpr-idx).

func init() {
	decoders[EncSOP2] = decodeSOP2
	decoders[EncSOPK] = decodeSOPK
	decoders[EncSOP1] = decodeSOP1
	decoders[EncSOPC] = decodeSOPC
	decoders[EncSOPP] = decodeSOPP
	decoders[EncSMEM] = decodeSMEM
	for _, e := range []Encoding{EncSOP2, EncSOPK, EncSOP1, EncSOPC, EncSOPP} {
		printers[e] = printSALU
	}
	printers[EncSMEM] = printSMEM
}

// salu decodes the operands of the SOP encodings from their fields.
func salu(src []byte, t Target, inst *Inst, f *Form, sdst, ssrc0, ssrc1 uint16, simm16 uint32) error {
	return appendOperands(inst, f, func(s *OperandSpec) (op Operand, err error) {
		switch s.Field {
		case FieldSDST:
			op, err = sdstOperand(t, s, sdst)
		case FieldSSRC0:
			op, err = srcOperand(src, t, inst, s, ssrc0)
		case FieldSSRC1:
			if s.Imm {
				op = immOperand(s, int64(ssrc1))
			} else {
				op, err = srcOperand(src, t, inst, s, ssrc1)
			}
		case FieldSIMM16:
			op = immOperand(s, int64(simm16))
			if f.Flags&FlagLabel != 0 {
				op.Kind = KindLabel
				op.Imm = int64(int16(simm16)) * 4
			}
		case FieldSIMM32:
			op, err = srcOperand(src, t, inst, s, srcLiteral)
		default:
			err = ErrInvalid
		}
		return op, err
	})
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
	if len(f.Operands) == 0 && w&0xffff != 0 {
		return ErrInvalid // LLVM requires simm16 = 0 when it prints none
	}
	return salu(src, t, inst, f, 0, 0, 0, w&0xffff)
}

// decodeSMEM decodes the two-word SMEM encoding. GFX8: sbase[5:0]
// sdata[12:6] glc[16] imm[17] op[25:18], offset[19:0] (an SGPR in [6:0]
// when imm=0). GFX9 adds soe[14] and nv[15], a signed 21-bit offset and an
// SGPR soffset in [31:25] when soe=1.
func decodeSMEM(src []byte, t Target, inst *Inst) error {
	w := inst.Words[0]
	f, err := startForm(t, inst, uint16(w>>18&0xff), 8)
	if err != nil {
		return err
	}
	w1, ok := word(src, 4)
	if !ok {
		return ErrTruncated
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
	if m.Imm && f.Flags&FlagSmemImm == 0 || !m.Imm && f.Flags&FlagSmemSGPR == 0 {
		return ErrInvalid
	}
	return appendOperands(inst, f, func(s *OperandSpec) (op Operand, err error) {
		switch s.Field {
		case FieldSDATA:
			if s.Imm {
				op = immOperand(s, int64(w>>6&0x7f))
			} else {
				op, err = sdstOperand(t, s, uint16(w>>6&0x7f))
			}
		case FieldSBASE:
			op, err = sdstOperand(t, s, uint16(w&0x3f)<<1)
		case FieldOFFSET:
			switch {
			case t == GFX9 && m.SOE:
				// soffset SGPR, then the immediate offset when imm=1.
				so := OperandSpec{Field: FieldSOFFSET, Access: Read, Type: TypeB32, Width: 1}
				op, err = sdstOperand(t, &so, uint16(w1>>25))
				if err == nil && m.Imm {
					inst.Args = append(inst.Args, op)
					op = immOperand(s, int64(m.Offset))
				}
			case m.Imm:
				op = immOperand(s, int64(m.Offset))
			default:
				so := OperandSpec{Field: FieldSOFFSET, Access: Read, Type: TypeB32, Width: 1}
				op, err = sdstOperand(t, &so, uint16(w1&0x7f))
			}
		default:
			err = ErrInvalid
		}
		return op, err
	})
}

// printSALU prints SOP2, SOPK, SOP1, SOPC and SOPP instructions.
func printSALU(p *printer, inst *Inst) {
	f := inst.Form
	p.mnemonic(f.Mnemonic)
	for k := range inst.Args {
		a := &inst.Args[k]
		if a.Kind != KindImm && a.Kind != KindLabel {
			p.sep()
			sreg := a.Field == FieldSSRC0 && f.Flags&FlagSregSsrc0 != 0
			if sreg && a.Kind == KindInline {
				b := *a
				b.Type = TypeB32 // a register-only operand's constant decodes as 32 bits
				p.operand(b)
			} else {
				p.operand(*a)
			}
			switch {
			case a.Kind == KindSpecial && a.Reg == uint16(LDSDirect):
				p.str("/*Invalid register, operand has 'SReg_32' register class*/")
			case (a.Kind == KindInline || a.Kind == KindLiteral) && sreg:
				p.str("/*Invalid immediate*/")
			}
			continue
		}
		v := uint64(a.Imm)
		switch {
		case f.Flags&FlagOptImm != 0 && v == 0:
			continue
		case f.Flags&FlagLabel != 0:
			p.sep()
			p.dec(int64(uint16(a.Imm / 4)))
		case f.Flags&FlagImmHex != 0:
			p.sep()
			p.hex(v & 0xffff)
		case f.Flags&FlagImmU16 != 0:
			p.sep()
			if v <= 64 {
				p.dec(int64(v))
			} else {
				p.hex(v)
			}
		case f.Flags&FlagWaitcnt != 0:
			p.sep()
			p.waitcnt(uint16(v))
		case f.Flags&FlagSendmsg != 0:
			p.sep()
			p.sendmsg(uint16(v))
		case f.Flags&FlagHwreg != 0:
			p.sep()
			p.hwreg(uint16(v))
		case f.Flags&FlagGprIdx != 0:
			p.sep()
			p.gprIdx(v)
		default:
			p.sep()
			p.dec(int64(v))
		}
	}
}

// printSMEM prints SMEM instructions: operands, then an immediate offset
// after an SGPR soffset as offset:, then glc.
func printSMEM(p *printer, inst *Inst) {
	p.mnemonic(inst.Form.Mnemonic)
	for k := range inst.Args {
		a := &inst.Args[k]
		switch {
		case a.Kind == KindImm && a.Field == FieldOFFSET:
			if k > 0 && inst.Args[k-1].Field == FieldSOFFSET {
				p.str(" offset:")
			} else {
				p.sep()
			}
			if a.Imm < 0 {
				p.byte('-')
				p.hex(uint64(-a.Imm))
			} else {
				p.hex(uint64(a.Imm))
			}
		case a.Kind == KindImm:
			p.sep()
			if a.Imm <= 64 {
				p.dec(a.Imm)
			} else {
				p.hex(uint64(a.Imm))
			}
		default:
			p.sep()
			p.operand(*a)
			if a.Field == FieldSDATA && a.Kind == KindSpecial {
				switch {
				case a.Width == 1 && (a.Reg == uint16(M0) || a.Reg == uint16(ExecLo) || a.Reg == uint16(ExecHi)):
					p.str("/*Invalid register, operand has 'SReg_32_XM0_XEXEC' register class*/")
				case a.Width == 2 && a.Reg == uint16(ExecLo):
					p.str("/*Invalid register, operand has 'SReg_64_XEXEC' register class*/")
				}
			}
		}
	}
	if inst.Mods.GLC && inst.Form.Flags&FlagGLC != 0 {
		p.str(" glc")
	}
}

// waitcnt prints an s_waitcnt simm16 as LLVM does: each counter that is
// not at its maximum, or all three when all are.
func (p *printer) waitcnt(v uint16) {
	w, m := WaitcntFields(p.t, v), WaitcntMax(p.t)
	all := w == m
	space := false
	put := func(name string, x int, show bool) {
		if !show && !all {
			return
		}
		if space {
			p.byte(' ')
		}
		p.str(name)
		p.byte('(')
		p.dec(int64(x))
		p.byte(')')
		space = true
	}
	put("vmcnt", w.VM, w.VM != m.VM)
	put("expcnt", w.EXP, w.EXP != m.EXP)
	put("lgkmcnt", w.LGKM, w.LGKM != m.LGKM)
}

// hwregName is LLVM's name of hardware register id on generation t, or "".
func hwregName(t Target, id uint16) string {
	switch id {
	case 1:
		return "HW_REG_MODE"
	case 2:
		return "HW_REG_STATUS"
	case 3:
		return "HW_REG_TRAPSTS"
	case 4:
		return "HW_REG_HW_ID"
	case 5:
		return "HW_REG_GPR_ALLOC"
	case 6:
		return "HW_REG_LDS_ALLOC"
	case 7:
		return "HW_REG_IB_STS"
	}
	if t == GFX9 {
		switch id {
		case 15:
			return "HW_REG_SH_MEM_BASES"
		case 16:
			return "HW_REG_TBA_LO"
		case 17:
			return "HW_REG_TBA_HI"
		case 18:
			return "HW_REG_TMA_LO"
		case 19:
			return "HW_REG_TMA_HI"
		}
	}
	return ""
}

// hwreg prints hwreg(ID[, OFFSET, SIZE]): id [5:0], offset [10:6],
// size-1 [15:11]; offset and size only when not 0 and 32.
func (p *printer) hwreg(v uint16) {
	id, off, size := v&0x3f, v>>6&0x1f, v>>11+1
	p.str("hwreg(")
	if n := hwregName(p.t, id); n != "" {
		p.str(n)
	} else {
		p.dec(int64(id))
	}
	if off != 0 || size != 32 {
		p.str(", ")
		p.dec(int64(off))
		p.str(", ")
		p.dec(int64(size))
	}
	p.byte(')')
}

// Message ids and operations of s_sendmsg.
const (
	msgGS     = 2
	msgGSDone = 3
	msgSysmsg = 15
)

// msgName is LLVM's name of s_sendmsg message id on generation t, or "".
func msgName(t Target, id uint16) string {
	switch id {
	case 1:
		return "MSG_INTERRUPT"
	case msgGS:
		return "MSG_GS"
	case msgGSDone:
		return "MSG_GS_DONE"
	case 4:
		return "MSG_SAVEWAVE"
	case msgSysmsg:
		return "MSG_SYSMSG"
	}
	if t == GFX9 {
		switch id {
		case 5:
			return "MSG_STALL_WAVE_GEN"
		case 6:
			return "MSG_HALT_WAVES"
		case 7:
			return "MSG_ORDERED_PS_DONE"
		case 8:
			return "MSG_EARLY_PRIM_DEALLOC"
		case 9:
			return "MSG_GS_ALLOC_REQ"
		case 10:
			return "MSG_GET_DOORBELL"
		}
	}
	return ""
}

var (
	gsOpNames     = [4]string{"GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"}
	sysmsgOpNames = [5]string{"", "SYSMSG_OP_ECC_ERR_INTERRUPT", "SYSMSG_OP_REG_RD", "SYSMSG_OP_HOST_TRAP_ACK", "SYSMSG_OP_TTRACE_PC"}
)

// sendmsg prints sendmsg(MSG[, OP[, STREAM]]) for a valid message, the
// numeric sendmsg(id, op, stream) when only reserved bits are clear, and
// the plain decimal otherwise. id [3:0], op [6:4], stream [9:8].
func (p *printer) sendmsg(v uint16) {
	id, op, stream := v&0xf, v>>4&7, v>>8&3
	name := msgName(p.t, id)
	var opName string
	valid := name != ""
	withStream := false
	switch {
	case !valid:
	case id == msgGS || id == msgGSDone:
		if op > 3 || id == msgGS && op == 0 {
			valid = false
			break
		}
		opName = gsOpNames[op]
		withStream = op != 0
	case id == msgSysmsg:
		if op == 0 || int(op) >= len(sysmsgOpNames) || op == 3 && p.t == GFX9 { // HOST_TRAP_ACK is pre-GFX9
			valid = false
			break
		}
		opName = sysmsgOpNames[op]
	default:
		valid = op == 0
	}
	if valid && !withStream && stream != 0 {
		valid = false
	}
	switch {
	case valid:
		p.str("sendmsg(")
		p.str(name)
		if opName != "" {
			p.str(", ")
			p.str(opName)
			if withStream {
				p.str(", ")
				p.dec(int64(stream))
			}
		}
		p.byte(')')
	case id|op<<4|stream<<8 == v:
		p.str("sendmsg(")
		p.dec(int64(id))
		p.str(", ")
		p.dec(int64(op))
		p.str(", ")
		p.dec(int64(stream))
		p.byte(')')
	default:
		p.dec(int64(v))
	}
}

// gprIdx prints an s_set_gpr_idx mode: gpr_idx(SRC0,SRC1,SRC2,DST) for
// values up to 15, hex above.
func (p *printer) gprIdx(v uint64) {
	if v > 15 {
		p.hex(v)
		return
	}
	p.str("gpr_idx(")
	first := true
	for i, n := range [4]string{"SRC0", "SRC1", "SRC2", "DST"} {
		if v&(1<<i) != 0 {
			if !first {
				p.byte(',')
			}
			p.str(n)
			first = false
		}
	}
	p.byte(')')
}

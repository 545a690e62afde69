package isa

// VALU printing: LLVM's operand modifiers and the trailing SDWA, DPP,
// VOP3 and VOP3P modifiers.

var sdwaSelNames = [...]string{"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD"}

// sdwaUnusedNames: LLVM prints the reserved value 3 as UNUSED_PAD.
var sdwaUnusedNames = [...]string{"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "UNUSED_PAD"}

// printVALU prints every VALU encoding.
func printVALU(p *printer, inst *Inst) {
	f := inst.Form
	p.mnemonic(f.Mnemonic)
	switch inst.Variant {
	case VariantE32, VariantE64:
		if f.Flags&FlagSuffix != 0 {
			if inst.Variant == VariantE32 {
				p.str("_e32")
			} else {
				p.str("_e64")
			}
		}
	case VariantSDWA:
		if len(f.Operands) == 0 {
			return
		}
		if !(inst.Enc == EncVOPC && inst.Target == GFX8) {
			p.str("_sdwa")
		}
	case VariantDPP:
		if len(f.Operands) == 0 {
			return
		}
		p.str("_dpp")
	}
	m := &inst.Mods
	interp := inst.Enc == EncVOP3 && srcSpec(f, FieldATTR) != nil
	for k := range inst.Args {
		a := &inst.Args[k]
		p.sep()
		switch a.Field {
		case FieldATTR:
			p.str("attr")
			p.dec(int64(m.Attr))
			p.byte('.')
			p.byte("xyzw"[m.AttrChan&3])
			continue
		case FieldPARAM:
			switch a.Imm {
			case 0:
				p.str("p10")
			case 1:
				p.str("p20")
			case 2:
				p.str("p0")
			default:
				p.str("invalid_param_")
				p.dec(a.Imm)
			}
			continue
		}
		if a.Field == FieldSIMM32 {
			p.hex(uint64(uint32(a.Imm)))
			continue
		}
		p.valuOperand(a, func() { p.classRemark(inst, a, interp) })
	}
	switch inst.Enc {
	case EncVOP3:
		if m.OpSel&8 != 0 && srcSpec(f, FieldATTR) != nil {
			p.str(" high")
		} else if m.OpSel != 0 {
			p.opSel("op_sel", m.OpSel, f, true)
		}
		if m.Clamp {
			p.str(" clamp")
		}
		p.omod(m.Omod)
	case EncVOP3P:
		p.vop3pMods(inst)
		if m.Clamp {
			p.str(" clamp")
		}
	}
	switch inst.Variant {
	case VariantSDWA:
		if m.Clamp {
			p.str(" clamp")
		}
		p.omod(m.Omod)
		if inst.Enc != EncVOPC {
			p.str(" dst_sel:")
			p.sdwaSel(m.DstSel)
			p.str(" dst_unused:")
			p.str(sdwaUnusedNames[m.DstUnused&3])
		}
		p.str(" src0_sel:")
		p.sdwaSel(m.Src0Sel)
		if inst.Enc != EncVOP1 {
			p.str(" src1_sel:")
			p.sdwaSel(m.Src1Sel)
		}
	case VariantDPP:
		if validDPPCtrl(m.DPPCtrl) {
			p.dppCtrl(m.DPPCtrl)
		} else if m.DPPCtrl >= 0x150 && m.DPPCtrl <= 0x15f {
			p.str("  /* row_newbcast/row_share is not supported on ASICs earlier than GFX90A/GFX10 */")
		} else if m.DPPCtrl >= 0x160 && m.DPPCtrl <= 0x16f {
			p.str(" /* row_xmask is not supported on ASICs earlier than GFX10 */")
		} else {
			p.str(" /* Invalid dpp_ctrl value */")
		}
		p.str(" row_mask:")
		p.hex(uint64(m.RowMask))
		p.str(" bank_mask:")
		p.hex(uint64(m.BankMask))
		if m.BoundCtrl {
			p.str(" bound_ctrl:1")
		}
	}
}

// valuOperand prints a source with its neg, abs and sext modifiers the
// way LLVM does: -v1, |v1|, -|v1|, neg(1.0), sext(v1).
func (p *printer) valuOperand(a *Operand, remark func()) {
	imm := a.Kind == KindInline || a.Kind == KindLiteral
	negFn := a.Neg && !a.Abs && imm
	switch {
	case negFn:
		p.str("neg(")
	case a.Neg:
		p.byte('-')
	}
	if a.Abs {
		p.byte('|')
	}
	if a.Sext {
		p.str("sext(")
	}
	switch {
	case a.Kind == KindInline && a.Reg >= srcInlineFPLo && intType16(a.Type):
		// 16-bit integer operands show the float constants as their bits,
		p.hex(InlineValue(a.Reg, a.Type))
	case a.Kind == KindLiteral && intType16(a.Type):
		// and literals always in hex.
		p.hex(uint64(uint16(a.Imm)))
	default:
		p.operand(*a)
	}
	remark()

	if a.Sext {
		p.byte(')')
	}
	if a.Abs {
		p.byte('|')
	}
	if negFn {
		p.byte(')')
	}
}

func (p *printer) omod(o uint8) {
	switch o {
	case 1:
		p.str(" mul:2")
	case 2:
		p.str(" mul:4")
	case 3:
		p.str(" div:2")
	}
}

// opSel prints name:[b0,b1,...] with one bit per source of f and, when
// dst is set, one for the destination.
func (p *printer) opSel(name string, v uint8, f *Form, dst bool) {
	p.byte(' ')
	p.str(name)
	p.str(":[")
	n := 0
	for k := 0; k < 3; k++ {
		if srcSpec(f, vop3Srcs[k]) == nil {
			continue
		}
		if n > 0 {
			p.byte(',')
		}
		p.byte('0' + v>>k&1)
		n++
	}
	if dst {
		p.byte(',')
		p.byte('0' + v>>3&1)
	}
	p.byte(']')
}

// vop3pMods prints op_sel, op_sel_hi, neg_lo, neg_hi and clamp.
func (p *printer) vop3pMods(inst *Inst) {
	f, m := inst.Form, &inst.Mods
	all := uint8(0)
	for k := 0; k < 3; k++ {
		if srcSpec(f, vop3Srcs[k]) != nil {
			all |= 1 << k
		}
	}
	if m.OpSel != 0 {
		p.opSel("op_sel", m.OpSel, f, false)
	}
	mix := isMix(f)
	if mix && m.OpSelHi != 0 || !mix && m.OpSelHi != all {
		p.opSel("op_sel_hi", m.OpSelHi, f, false)
	}
	if mix {
		return
	}
	if m.NegLo != 0 {
		p.opSel("neg_lo", m.NegLo, f, false)
	}
	if m.NegHi != 0 {
		p.opSel("neg_hi", m.NegHi, f, false)
	}
}

// dppCtrl prints a dpp_ctrl value by name.
func (p *printer) dppCtrl(c uint16) {
	switch {
	case c <= 0xff:
		p.str(" quad_perm:[")
		for k := 0; k < 4; k++ {
			if k > 0 {
				p.byte(',')
			}
			p.dec(int64(c >> (2 * k) & 3))
		}
		p.byte(']')
		return
	case c >= 0x101 && c <= 0x10f:
		p.str(" row_shl:")
		p.dec(int64(c & 0xf))
		return
	case c >= 0x111 && c <= 0x11f:
		p.str(" row_shr:")
		p.dec(int64(c & 0xf))
		return
	case c >= 0x121 && c <= 0x12f:
		p.str(" row_ror:")
		p.dec(int64(c & 0xf))
		return
	}
	switch c {
	case 0x130:
		p.str(" wave_shl:1")
	case 0x134:
		p.str(" wave_rol:1")
	case 0x138:
		p.str(" wave_shr:1")
	case 0x13c:
		p.str(" wave_ror:1")
	case 0x140:
		p.str(" row_mirror")
	case 0x141:
		p.str(" row_half_mirror")
	case 0x142:
		p.str(" row_bcast:15")
	case 0x143:
		p.str(" row_bcast:31")
	}
}

func intType16(t DataType) bool { return t == TypeI16 || t == TypeU16 || t == TypeB16 }

// Register classes LLVM gives restricted VALU operands.
const (
	classAny = iota
	classVGPR
	classVRegOrLds
	classSReg
	classSRegDst
	classMask
	classVReg128
)

var classNames = [...]string{"", "VGPR_32", "VRegOrLds_32", "SReg_32", "SReg_32", "SReg_1_XEXEC", "VReg_128"}

// operandClass returns the register class LLVM requires for operand a.
func operandClass(inst *Inst, a *Operand, interp bool) int {
	f := inst.Form
	switch {
	case interp && a.Access == Read:
		return classVGPR
	case f.Flags&FlagSrcVGPR != 0 && a.Field == FieldSRC0:
		return classVGPR
	case f.Flags&FlagSrcLane != 0:
		switch a.Field {
		case FieldSDST:
			return classSRegDst
		case FieldSRC0:
			return classVRegOrLds
		case FieldSRC1:
			return classSReg
		}
	case f.Flags&FlagSrcSreg != 0 && (a.Field == FieldSRC0 || a.Field == FieldSRC1):
		return classSReg
	case inst.Enc == EncVOP3 && a.Field == FieldSRC2 && a.Type == TypeB64:
		return classMask
	case inst.Enc == EncVOP3 && a.Access == Read && a.Width == 4:
		return classVReg128
	case inst.Enc == EncVOP3 && a.Field == FieldSDST && srcSpec(f, FieldVDST) == nil:
		return classSRegDst
	}
	return classAny
}

// classRemark appends LLVM's remark for an operand outside its class.
func (p *printer) classRemark(inst *Inst, a *Operand, interp bool) {
	c := operandClass(inst, a, interp)
	if c == classAny {
		return
	}
	imm := a.Kind == KindInline || a.Kind == KindLiteral
	bad := false
	switch c {
	case classVGPR:
		bad = a.Kind != KindVGPR && !srcReg(a)
	case classVRegOrLds:
		bad = a.Kind != KindVGPR && !srcReg(a) && !(a.Kind == KindSpecial && a.Reg == uint16(LDSDirect))
	case classSReg:
		bad = a.Kind == KindVGPR || a.Kind == KindSpecial && a.Reg == uint16(LDSDirect)
		imm = false
	case classSRegDst:
		bad = a.Kind == KindSpecial && a.Reg == uint16(LDSDirect)
	case classMask:
		bad = a.Kind == KindVGPR || a.Kind == KindSpecial && a.Reg == uint16(ExecLo)
	case classVReg128:
		bad = a.Kind != KindVGPR
	}
	switch {
	case imm:
		p.str("/*Invalid immediate*/")
	case bad:
		p.str("/*Invalid register, operand has '")
		p.str(classNames[c])
		p.str("' register class*/")
	}
}

// srcReg reports whether a is one of the src_* registers (shared/private
// base and limit, pops_exiting_wave_id, vccz, execz, scc) and null, which pass
// LLVM's register-class checks of VALU sources.
func srcReg(a *Operand) bool {
	return a.Kind == KindSpecial && (a.Reg == srcNull || a.Reg >= uint16(SrcSharedBase) && a.Reg <= uint16(SrcPopsExitingWaveID) ||
		a.Reg >= uint16(VCCZ) && a.Reg <= uint16(SCC))
}

// sdwaSel prints an SDWA select; 7, which the decoder rejects, prints as
// its number so that a partly decoded instruction still prints.
func (p *printer) sdwaSel(v uint8) {
	if int(v) < len(sdwaSelNames) {
		p.str(sdwaSelNames[v])
	} else {
		p.dec(int64(v))
	}
}

package isa

// Assembling the SDWA and DPP forms of VOP1, VOP2 and VOPC: the second
// word holds src0, the selects or dpp_ctrl, and the source modifiers.

import "strings"

// sdwaSel parses an SDWA select name (BYTE_0 … DWORD) or returns def.
func (a *asmLine) sdwaSel(name string, def uint32) (uint32, error) {
	m := a.mod(name)
	if m == nil {
		return def, nil
	}
	for i, n := range sdwaSelNames {
		if m.val == n {
			return uint32(i), nil
		}
	}
	return 0, &AsmError{Col: m.col + len(name) + 1, Msg: "invalid " + name + " value"}
}

// sdwaOperands walks a VOP1/VOP2/VOPC form's operands for the SDWA and
// DPP forms: it returns vdst (or the VOPC sdst code, 0 for vcc), the two
// sources' operands and their specs.
func (a *asmLine) sdwaOperands() (vdst uint32, sdst int, srcs [2]*asmOp, specs [2]*OperandSpec, err error) {
	f := a.form
	sdst = -1
	k := 0
	for i := range f.Operands {
		s := &f.Operands[i]
		if k == len(a.ops) {
			return 0, 0, srcs, specs, a.tooFew()
		}
		o := &a.ops[k]
		k++
		switch s.Field {
		case FieldVDST:
			vdst, err = a.vgpr(o, s)
		case FieldSDST:
			var c uint16
			c, err = a.sdst(o, s)
			vdst = uint32(c)
		case FieldSRC0:
			srcs[0], specs[0] = o, s
		case FieldVSRC1:
			srcs[1], specs[1] = o, s
		case FieldVCC:
			if err = isVCC(o); err != nil && f.Enc == EncVOPC && a.variant == VariantSDWA && a.t == GFX9 && s.Access == Write {
				var c uint16
				spec := OperandSpec{Field: FieldSDST, Access: Write, Type: TypeB64, Width: 2}
				c, err = a.sdst(o, &spec)
				sdst = int(c)
			}
		default:
			err = errAt(o, msgInvalidOperand)
		}
		if err != nil {
			return
		}
	}
	err = a.extra(k)
	return
}

// sdwaSrc encodes SDWA source k: a VGPR, or on GFX9 an SGPR or inline
// constant (with the s bit); it returns the 8-bit field, the s bit and the
// sext/neg/abs bits.
func (a *asmLine) sdwaSrc(o *asmOp, s *OperandSpec) (code uint32, sbit bool, mods uint32, err error) {
	f := a.form
	if f.Flags&FlagMods != 0 && floatish(s.Type) {
		if o.sext {
			return 0, false, 0, errAt(o, msgInvalidOperand)
		}
	} else if o.neg || o.abs {
		return 0, false, 0, errAt(o, msgInvalidOperand)
	}
	if o.sext {
		mods |= 1
	}
	if o.neg {
		mods |= 2
	}
	if o.abs {
		mods |= 4
	}
	if o.kind == opReg && o.rk == KindVGPR {
		v, err := a.vgpr(&asmOp{kind: opReg, rk: KindVGPR, reg: o.reg, width: o.width, col: o.col}, s)
		return v, false, mods, err
	}
	if a.t != GFX9 {
		return 0, false, 0, errAt(o, msgInvalidOperand)
	}
	c, err := a.src(o, s, allowSrc)
	return uint32(c) & 0xff, true, mods, err
}

func encSDWA(a *asmLine) error {
	f := a.form
	vdst, sdst, srcs, specs, err := a.sdwaOperands()
	if err != nil {
		return err
	}
	var w1, vsrc1 uint32
	var busOps [3]*asmOp
	bus := busOps[:0]
	if f.Flags&FlagVCCRead != 0 {
		bus = append(bus, &vccOp)
	}
	for k := 0; k < 2; k++ {
		if srcs[k] == nil {
			continue
		}
		if o := srcs[k]; o.kind == opReg && o.rk != KindVGPR {
			bus = append(bus, o)
		}
		code, sbit, mods, err := a.sdwaSrc(srcs[k], specs[k])
		if err != nil {
			return err
		}
		base := uint(16 + 8*k)
		w1 |= mods << (base + 3)
		if sbit {
			w1 |= 1 << (base + 7)
		}
		if k == 0 {
			w1 |= code
		} else {
			vsrc1 = code
		}
	}
	if err := a.constantBus(bus, true); err != nil {
		return err
	}
	vopc := f.Enc == EncVOPC
	clampOK := !(vopc && a.t == GFX9)
	clamp, omod, err := a.clampOmod(clampOK, a.t == GFX9 && f.Flags&FlagSdwaOmod != 0)
	if err != nil {
		return err
	}
	if clamp {
		w1 |= 1 << 13
	}
	w1 |= omod << 14
	if !vopc {
		sel, err := a.sdwaSel("dst_sel", 6)
		if err != nil {
			return err
		}
		if d := srcSpec(f, FieldVDST); d != nil && d.Access == ReadWrite && sel != 6 {
			return &AsmError{Col: a.mnCol, Msg: msgInvalidOperand} // v_mac: the whole dword
		}
		unused := uint32(2)
		if m := a.mod("dst_unused"); m != nil {
			i := -1
			for j, n := range sdwaUnusedNames[:3] {
				if m.val == n {
					i = j
				}
			}
			if i < 0 {
				return &AsmError{Col: m.col, Msg: "invalid dst_unused value"}
			}
			unused = uint32(i)
		}
		w1 |= sel<<8 | unused<<11
	}
	if sdst >= 0 {
		w1 |= 1<<15 | uint32(sdst)<<8
	}
	if len(f.Operands) > 0 {
		s0, err := a.sdwaSel("src0_sel", 6)
		if err != nil {
			return err
		}
		w1 |= s0 << 16
		if f.Enc != EncVOP1 {
			s1, err := a.sdwaSel("src1_sel", 6)
			if err != nil {
				return err
			}
			w1 |= s1 << 24
		}
	}
	a.emit(vopWord(f, vdst, vsrc1, srcSDWA), w1)
	return nil
}

func encDPP(a *asmLine) error {
	f := a.form
	vdst, _, srcs, specs, err := a.sdwaOperands()
	if err != nil {
		return err
	}
	var w1, vsrc1 uint32
	for k := 0; k < 2; k++ {
		o := srcs[k]
		if o == nil {
			continue
		}
		fl := floatish(specs[k].Type)
		mods := f.Flags&FlagMods != 0
		if (o.neg || o.abs) && !(mods && fl) || o.sext && !(mods && !fl) {
			return errAt(o, msgInvalidOperand)
		}
		v, err := a.vgpr(&asmOp{kind: o.kind, rk: o.rk, reg: o.reg, width: o.width, col: o.col}, specs[k])
		if err != nil {
			return err
		}
		if o.neg || o.sext {
			w1 |= 1 << (20 + 2*k)
		}
		if o.abs {
			w1 |= 1 << (21 + 2*k)
		}
		if k == 0 {
			w1 |= v
		} else {
			vsrc1 = v
		}
	}
	ctrl, err := a.dppCtrl()
	if err != nil {
		return err
	}
	rm, err := a.intMod("row_mask", 0, 15, 15)
	if err != nil {
		return err
	}
	bm, err := a.intMod("bank_mask", 0, 15, 15)
	if err != nil {
		return err
	}
	if m := a.mod("bound_ctrl"); m != nil {
		if m.val != "0" && m.val != "1" {
			return &AsmError{Col: m.col, Msg: "invalid bound_ctrl value"}
		}
		w1 |= 1 << 19
	}
	w1 |= ctrl<<8 | uint32(bm)<<24 | uint32(rm)<<28
	a.emit(vopWord(f, vdst, vsrc1, srcDPP), w1)
	return nil
}

// dppCtrl parses the dpp_ctrl modifier (quad_perm, row_shl, ...); LLVM's
// default is the identity quad_perm:[0,1,2,3].
func (a *asmLine) dppCtrl() (ctrl uint32, err error) {
	ctrl = 0xe4
	found := 0
	defer func() {
		if found == 0 && err == nil {
			err = a.tooFew()
			for i := range a.mods {
				if sdwaDPPMod(a.mods[i].name) {
					err = &AsmError{Col: a.mods[i].col, Msg: "not a valid operand."}
					break
				}
			}
		}
	}()
	for i := range a.mods {
		m := &a.mods[i]
		var c uint32
		bad := false
		switch m.name {
		case "quad_perm":
			p := strings.Split(strings.Trim(m.val, "[]"), ",")
			bad = len(p) != 4 || !strings.HasPrefix(m.val, "[")
			col := m.col + len("quad_perm:[")
			for j := 0; j < 4 && !bad; j++ {
				v, err := parseInt(p[j])
				if err != nil || v < 0 || v > 3 {
					return 0, &AsmError{Col: col, Msg: "expected a 2-bit value"}
				}
				c |= uint32(v) << (2 * j)
				col += len(p[j]) + 1
			}
		case "row_shl", "row_shr", "row_ror":
			v, err := parseInt(m.val)
			bad = err != nil || v < 1 || v > 15
			c = map[string]uint32{"row_shl": 0x100, "row_shr": 0x110, "row_ror": 0x120}[m.name] | uint32(v)&0xf
		case "wave_shl", "wave_rol", "wave_shr", "wave_ror":
			bad = m.val != "1"
			c = map[string]uint32{"wave_shl": 0x130, "wave_rol": 0x134, "wave_shr": 0x138, "wave_ror": 0x13c}[m.name]
		case "row_mirror", "row_half_mirror":
			bad = m.hasVal
			c = 0x140
			if m.name == "row_half_mirror" {
				c = 0x141
			}
		case "row_bcast":
			bad = m.val != "15" && m.val != "31"
			c = 0x142
			if m.val == "31" {
				c = 0x143
			}
		default:
			continue
		}
		if bad {
			return 0, &AsmError{Col: m.col + len(m.name) + 1, Msg: "invalid " + m.name + " value"}
		}
		if found++; found > 1 {
			return 0, &AsmError{Col: m.col, Msg: msgInvalidOperand}
		}
		a.used |= 1 << i
		ctrl = c
	}
	return ctrl, nil
}

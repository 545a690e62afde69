package isa

// Assembling the vector ALU encodings: VOP1, VOP2 and VOPC in their e32,
// SDWA and DPP forms, VOP3 (a and b), VOP3P and VINTRP. Which modifier
// bits a form accepts comes from its table flags, read the way the
// decoder reads them (vop3SrcMods, floatish, isMix in valu.go).

import (
	"math"
	"strings"
)

func init() {
	encoders[EncVOP1] = encVOP
	encoders[EncVOP2] = encVOP
	encoders[EncVOPC] = encVOP
	encoders[EncVOP3] = encVOP3
	encoders[EncVOP3P] = encVOP3P
	encoders[EncVINTRP] = encVINTRP
}

// vgpr returns the number of VGPR operand o of spec s's width.
func (a *asmLine) vgpr(o *asmOp, s *OperandSpec) (uint32, error) {
	w := s.Width
	if w == 0 {
		w = 1
	}
	if o.kind != opReg || o.rk != KindVGPR || o.width != w || o.neg || o.abs || o.sext {
		return 0, errAt(o, msgInvalidOperand)
	}
	return uint32(o.reg), nil
}

// isVCC checks that o is vcc, an implicit operand LLVM spells out.
func isVCC(o *asmOp) error {
	if o.kind != opReg || o.rk != KindSpecial || o.reg != uint16(VCCLo) || o.width != 2 || o.neg || o.abs || o.sext {
		return errAt(o, msgInvalidOperand)
	}
	return nil
}

// simm32 records the literal of v_madmk/v_madak.
func (a *asmLine) simm32(o *asmOp, s *OperandSpec) error {
	var w uint32
	switch {
	case o.kind == opInt && typeBits(s.Type) == 16:
		if o.val < -1<<15 || o.val >= 1<<16 {
			return errAt(o, msgInvalidOperand)
		}
		w = uint32(o.val) & 0xffff
	case o.kind == opInt && o.val >= -1<<31 && o.val < 1<<32:
		w = uint32(o.val)
	case o.kind == opFloat && typeBits(s.Type) == 16:
		w = uint32(f16Bits(o.fval))
	case o.kind == opFloat:
		w = math.Float32bits(float32(o.fval))
	default:
		return errAt(o, msgInvalidOperand)
	}
	return a.setLiteral(o, w)
}

// encVOP packs VOP1, VOP2 and VOPC in the variant being tried.
func encVOP(a *asmLine) error {
	switch a.variant {
	case VariantSDWA:
		return encSDWA(a)
	case VariantDPP:
		return encDPP(a)
	}
	f := a.form
	var vdst, src0, vsrc1 uint32
	var busOps [3]*asmOp
	bus := busOps[:0] // scalar reads: SGPR src0, implicit vcc
	k := 0
	for i := range f.Operands {
		s := &f.Operands[i]
		if k == len(a.ops) {
			return a.tooFew()
		}
		o := &a.ops[k]
		k++
		if o.neg || o.abs || o.sext {
			return errAt(o, msgInvalidOperand)
		}
		var err error
		var c uint16
		switch s.Field {
		case FieldVDST:
			vdst, err = a.vgpr(o, s)
		case FieldSDST: // v_readfirstlane_b32: an 8-bit SReg_32 code
			c, err = a.src(o, s, allowScalar)
			if err == nil && o.rk == KindSpecial && !sregClass(o.reg, false) {
				err = errAt(o, msgInvalidOperand)
			}
			vdst = uint32(c)
		case FieldSRC0:
			allow := allowSrc | allowVGPR | allowLit
			if f.Flags&FlagSrcVGPR != 0 {
				allow = allowVGPR
			}
			c, err = a.src(o, s, allow)
			if err == nil && f.Flags&FlagSrcLane != 0 && !vgprOrLDS(o) {
				err = errAt(o, msgInvalidOperand) // VRegOrLds_32
			}
			src0 = uint32(c)
			if err == nil && (o.kind == opReg && o.rk != KindVGPR || c == srcLiteral) {
				bus = append(bus, o)
			}
		case FieldVSRC1:
			vsrc1, err = a.vgpr(o, s)
		case FieldVCC:
			err = isVCC(o)
			if s.Access&Read != 0 {
				bus = append(bus, o)
			}
		case FieldSIMM32:
			err = a.simm32(o, s)
		default:
			err = errAt(o, msgInvalidOperand)
		}
		if err != nil {
			return err
		}
	}
	if err := a.extra(k); err != nil {
		return err
	}
	if f.Flags&FlagM0Read != 0 {
		bus = append(bus, &m0Op)
	}
	if a.hasLit && f.Flags&FlagM0Read == 0 && len(bus) > 0 && !(bus[0].rk == KindSpecial && bus[0].reg == uint16(LDSDirect)) && bus[0].kind == opReg {
		return errAt(bus[0], "invalid operand (violates constant bus restrictions)") // v_madmk/v_madak: SGPR and literal
	}
	if err := a.constantBus(bus, true); err != nil {
		return err
	}
	a.emit(vopWord(f, vdst, vsrc1, src0))
	return nil
}

// vopWord is the first word of a VOP1, VOP2 or VOPC instruction.
func vopWord(f *Form, vdst, vsrc1, src0 uint32) uint32 {
	op := uint32(f.Opcode)
	switch f.Enc {
	case EncVOP1:
		return 0x7e000000 | vdst<<17 | op<<9 | src0
	case EncVOP2:
		return op<<25 | vdst<<17 | vsrc1<<9 | src0
	}
	return 0x7c000000 | op<<17 | vsrc1<<9 | src0
}

// srcModBits checks source o's neg, abs and sext against what form f
// accepts for source k (0–2) and returns the neg and abs bits to set
// (sext sets the neg bit of an integer source).
func srcModBits(f *Form, k int, o *asmOp, s *OperandSpec) (neg, abs bool, err error) {
	ns, as := vop3SrcMods(f, k)
	fl := floatish(s.Type)
	switch {
	case o.neg && (ns != modPrinted || !fl), o.abs && (as != modPrinted || !fl), o.sext && (ns != modPrinted || fl):
		return false, false, errAt(o, msgInvalidOperand)
	}
	return o.neg || o.sext, o.abs, nil
}

// clampOmod reads clamp and mul:/div: for a form whose flags allow them.
func (a *asmLine) clampOmod(clampOK, omodOK bool) (clamp bool, omod uint32, err error) {
	if clampOK {
		if clamp, err = a.flag("clamp"); err != nil {
			return
		}
	}
	if !omodOK {
		return
	}
	if m := a.mod("mul"); m != nil {
		switch m.val {
		case "1":
		case "2":
			omod = 1
		case "4":
			omod = 2
		default:
			return false, 0, &AsmError{Col: m.col, Msg: "invalid mul value."}
		}
	}
	if m := a.mod("div"); m != nil {
		switch m.val {
		case "1":
		case "2":
			omod = 3
		default:
			return false, 0, &AsmError{Col: m.col, Msg: "invalid div value. div:1 and div:2 are the only valid values"}
		}
	}
	return
}

// bitList parses name:[b0,b1,...] with n entries into a bit mask, or
// returns def when the modifier is absent.
func (a *asmLine) bitList(name string, n int, def uint32) (uint32, error) {
	m := a.mod(name)
	if m == nil {
		return def, nil
	}
	v := strings.TrimSuffix(strings.TrimPrefix(m.val, "["), "]")
	parts := strings.Split(v, ",")
	if !strings.HasPrefix(m.val, "[") || len(parts) != n {
		return 0, &AsmError{Col: m.col, Msg: "invalid " + name + " value."}
	}
	var bits uint32
	for i, p := range parts {
		switch p {
		case "0":
		case "1":
			bits |= 1 << i
		default:
			return 0, &AsmError{Col: m.col, Msg: "invalid " + name + " value."}
		}
	}
	return bits, nil
}

// vop3Operands walks the operands of a VOP3 or VOP3P form and returns the
// fields; mods decides what each source's neg/abs/sext become.
type vop3Fields struct {
	vdst, sdst   uint32
	src          [3]uint32
	neg, abs     uint32 // per source
	srcOp        [3]*asmOp
	nsrc         int
	used         uint32 // sources the form has
	attr, chan_  uint32
	param        uint32
	hasAttr, hi  bool
	hasParam     bool
	srcForParam1 bool
}

func (a *asmLine) vop3Operands(packed bool) (v vop3Fields, err error) {
	f := a.form
	vop3b := srcSpec(f, FieldVDST) != nil && srcSpec(f, FieldSDST) != nil
	k := 0
	for i := range f.Operands {
		s := &f.Operands[i]
		if k == len(a.ops) {
			return v, a.tooFew()
		}
		o := &a.ops[k]
		k++
		var c uint16
		switch s.Field {
		case FieldVDST:
			v.vdst, err = a.vgpr(o, s)
		case FieldSDST:
			c, err = a.sdst(o, s)
			if vop3b {
				v.sdst = uint32(c)
			} else {
				v.vdst = uint32(c)
			}
		case FieldSRC0, FieldSRC1, FieldSRC2:
			j := srcIndex(s.Field)
			allow := allowSrc | allowVGPR
			if j == 0 && f.Flags&FlagSrcVGPR != 0 {
				allow = allowVGPR
			}
			c, err = a.src(o, s, allow)
			if err == nil && j == 0 && f.Flags&FlagSrcLane != 0 && !vgprOrLDS(o) {
				err = errAt(o, msgInvalidOperand) // VRegOrLds_32
			}
			v.src[j], v.srcOp[j] = uint32(c), o
			v.used |= 1 << j
			v.nsrc++
			if err != nil {
				break
			}
			switch {
			case packed && isMix(f):
				if o.sext {
					err = errAt(o, msgInvalidOperand)
				}
				if o.neg {
					v.neg |= 1 << j
				}
				if o.abs {
					v.abs |= 1 << j
				}
			case packed:
				if o.neg || o.abs || o.sext {
					err = &AsmError{Col: o.mcol, Msg: "not a valid operand."}
				}
			default:
				var n, ab bool
				n, ab, err = srcModBits(f, j, o, s)
				if vop3b && ab {
					err = errAt(o, msgInvalidOperand)
				}
				if n {
					v.neg |= 1 << j
				}
				if ab {
					v.abs |= 1 << j
				}
			}
		case FieldATTR:
			v.attr, v.chan_, err = attrOperand(o)
			v.hasAttr = true
		case FieldPARAM:
			v.param, err = paramOperand(o)
			v.hasParam = true
		default:
			err = errAt(o, msgInvalidOperand)
		}
		if err != nil {
			return v, err
		}
	}
	if err := a.extra(k); err != nil {
		return v, err
	}
	if f.Flags&FlagSrcLane == 0 {
		bus := v.srcOp[:]
		if f.Flags&FlagVCCRead != 0 && srcSpec(f, FieldSRC2) == nil || f.Op == V_DIV_FMAS_F32 || f.Op == V_DIV_FMAS_F64 {
			bus = append(bus, &vccOp)
		}
		if f.Flags&FlagM0Read != 0 && !v.hasAttr && !v.hasParam {
			bus = append(bus, &m0Op)
		}
		if err := a.constantBus(bus, false); err != nil {
			return v, err
		}
	}
	return v, nil
}

// The implicit scalar reads some opcodes make.
var (
	vccOp = asmOp{kind: opReg, rk: KindSpecial, reg: uint16(VCCLo), width: 2}
	m0Op  = asmOp{kind: opReg, rk: KindSpecial, reg: uint16(M0), width: 1}
)

// constantBus rejects VOP3 sources that read more than one distinct
// scalar value (GFX8/9 have one constant bus read per instruction).
func (a *asmLine) constantBus(ops []*asmOp, blameFirst bool) error {
	var seen [3]uint16
	n := 0
	for j, o := range ops {
		if o == nil || o.kind == opReg && (o.rk == KindVGPR || o.rk == KindSpecial && o.reg == uint16(LDSDirect)) ||
			o.kind != opReg && !(a.hasLit && o.col == a.litCol) {
			continue
		}
		code := o.reg | uint16(o.width)<<9 // vcc_lo and vcc are different reads
		if o.kind != opReg {
			code = 0xffff // the literal
		}
		if o.rk == KindTTMP {
			code += 200
		}
		dup := false
		for _, c := range seen[:n] {
			dup = dup || c == code
		}
		if !dup {
			if n == 1 {
				// LLVM blames the first scalar source of e32, the last of VOP3.
				o := ops[j]
				for _, p := range ops {
					if p != nil && p.col != 0 && (p.kind != opReg && blameFirst || p.kind == opReg && p.rk != KindVGPR) {
						if blameFirst || o.col == 0 {
							o = p
							break
						}
						o = p
					}
				}
				return errAt(o, "invalid operand (violates constant bus restrictions)")
			}
			seen[n] = code
			n++
		}
	}
	return nil
}

// attrOperand parses attrN.c.
func attrOperand(o *asmOp) (attr, ch uint32, err error) {
	n, ok := strings.CutPrefix(o.name, "attr")
	if o.kind != opName || !ok || len(n) < 3 || n[len(n)-2] != '.' {
		return 0, 0, errAt(o, msgInvalidOperand)
	}
	c := strings.IndexByte("xyzw", n[len(n)-1])
	v, perr := parseInt(n[:len(n)-2])
	if c < 0 || perr != nil || v < 0 {
		return 0, 0, errAt(o, "invalid interpolation attribute")
	}
	if v > 32 {
		return 0, 0, errAt(o, "out of bounds interpolation attribute number")
	}
	return uint32(v), uint32(c), nil
}

// paramOperand parses p10, p20 or p0.
func paramOperand(o *asmOp) (uint32, error) {
	if o.kind == opName {
		switch o.name {
		case "p10":
			return 0, nil
		case "p20":
			return 1, nil
		case "p0":
			return 2, nil
		}
	}
	return 0, errAt(o, "invalid interpolation slot")
}

// encVOP3 packs VOP3a and VOP3b.
func encVOP3(a *asmLine) error {
	f := a.form
	v, err := a.vop3Operands(false)
	if err != nil {
		return err
	}
	clamp, omod, err := a.clampOmod(f.Flags&FlagClamp != 0, f.Flags&FlagOmod != 0)
	if err != nil {
		return err
	}
	vop3b := srcSpec(f, FieldVDST) != nil && srcSpec(f, FieldSDST) != nil
	w0 := 0xd0000000 | uint32(f.Opcode)<<16 | v.vdst&0xff
	if vop3b {
		w0 |= v.sdst << 8
	} else {
		w0 |= v.abs << 8
	}
	if clamp {
		w0 |= 1 << 15
	}
	if v.hasAttr {
		hi := false
		if f.Flags&FlagHigh != 0 {
			if hi, err = a.flag("high"); err != nil {
				return err
			}
		}
		v.src[0] = v.attr | v.chan_<<6
		if hi {
			v.src[0] |= 1 << 8
		}
	}
	if v.hasParam {
		v.src[1] = v.param
	}
	if f.Flags&FlagOpsel != 0 && !vop3b {
		bits, err := a.bitList("op_sel", v.nsrc+1, 0)
		if err != nil {
			return err
		}
		w0 |= spreadBits(bits, v.used, v.nsrc) << 11
	}
	a.emit(w0, v.neg<<29|omod<<27|v.src[2]<<18|v.src[1]<<9|v.src[0])
	return nil
}

// spreadBits maps a list of n per-source bits (then a dst bit) onto the
// sources the form has (mask used) and bit 3.
func spreadBits(list, used uint32, n int) uint32 {
	var out uint32
	j := 0
	for k := 0; k < 3; k++ {
		if used&(1<<k) == 0 {
			continue
		}
		if list>>j&1 != 0 {
			out |= 1 << k
		}
		j++
	}
	if list>>n&1 != 0 {
		out |= 8
	}
	return out
}

// encVOP3P packs the packed-math encoding.
func encVOP3P(a *asmLine) error {
	f := a.form
	v, err := a.vop3Operands(true)
	if err != nil {
		return err
	}
	n := v.nsrc
	list := func(name string, def uint32) (uint32, error) {
		b, err := a.bitList(name, n, def)
		return spreadBits(b, v.used, 8) & 7, err
	}
	mix := isMix(f)
	opsel, err := list("op_sel", 0)
	if err != nil {
		return err
	}
	hiDef := uint32(1<<n - 1)
	if mix {
		hiDef = 0
	}
	opselHi, err := list("op_sel_hi", hiDef)
	if err != nil {
		return err
	}
	if !mix {
		opselHi |= ^v.used & 7 // LLVM sets op_sel_hi of absent sources
	}
	negLo, negHi := v.neg, v.abs
	if !mix {
		if negLo, err = list("neg_lo", 0); err != nil {
			return err
		}
		if negHi, err = list("neg_hi", 0); err != nil {
			return err
		}
	}
	clamp, err := a.flag("clamp")
	if err != nil {
		return err
	}
	w0 := 0xd3800000 | uint32(f.Opcode)<<16 | v.vdst | negHi<<8 | opsel<<11 | opselHi>>2<<14
	if clamp {
		w0 |= 1 << 15
	}
	a.emit(w0, negLo<<29|(opselHi&3)<<27|v.src[2]<<18|v.src[1]<<9|v.src[0])
	return nil
}

// encVINTRP packs v_interp_p1_f32, v_interp_p2_f32 and v_interp_mov_f32.
func encVINTRP(a *asmLine) error {
	f := a.form
	var vdst, vsrc, attr, ch uint32
	k := 0
	for i := range f.Operands {
		s := &f.Operands[i]
		if k == len(a.ops) {
			return a.tooFew()
		}
		o := &a.ops[k]
		k++
		var err error
		switch s.Field {
		case FieldVDST:
			vdst, err = a.vgpr(o, s)
		case FieldVSRC:
			vsrc, err = a.vgpr(o, s)
		case FieldPARAM:
			vsrc, err = paramOperand(o)
		case FieldATTR:
			attr, ch, err = attrOperand(o)
		default:
			err = errAt(o, msgInvalidOperand)
		}
		if err != nil {
			return err
		}
	}
	if err := a.extra(k); err != nil {
		return err
	}
	a.emit(0xd4000000 | vdst<<18 | uint32(f.Opcode)<<16 | attr<<10 | ch<<8 | vsrc)
	return nil
}

// vgprOrLDS reports whether o is a VGPR or lds_direct (LLVM's VRegOrLds_32).
func vgprOrLDS(o *asmOp) bool {
	return o.kind == opReg && (o.rk == KindVGPR || o.rk == KindSpecial && o.reg == uint16(LDSDirect))
}

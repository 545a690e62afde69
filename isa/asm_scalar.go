package isa

// Assembling the scalar encodings: SOP2, SOPK, SOP1, SOPC, SOPP and SMEM,
// with the symbolic simm16 forms (waitcnt, hwreg, sendmsg, gpr_idx) and
// branch labels. The names come from the printer's tables (scalar.go).

import (
	"strings"
)

func init() {
	for _, e := range []Encoding{EncSOP2, EncSOPK, EncSOP1, EncSOPC, EncSOPP} {
		encoders[e] = encSALU
	}
	encoders[EncSMEM] = encSMEM
}

// encSALU packs the SOP encodings.
func encSALU(a *asmLine) error {
	f := a.form
	var sdst, ssrc0, ssrc1 uint16
	var simm16 uint32
	k := 0
	for i := range f.Operands {
		s := &f.Operands[i]
		if k == len(a.ops) {
			if s.Field == FieldSIMM16 && f.Flags&FlagOptImm != 0 {
				break
			}
			return a.tooFew()
		}
		o := &a.ops[k]
		k++
		var err error
		switch s.Field {
		case FieldSDST:
			if s.Access == Read {
				sdst, err = a.src(o, s, allowScalar) // s_cmpk_*, s_setreg: a source in sdst
				if err == nil && sdst > 127 {
					err = errAt(o, msgInvalidOperand)
				}
			} else {
				sdst, err = a.sdst(o, s)
			}
		case FieldSSRC0:
			allow := allowSrc | allowLit
			if f.Op == S_CBRANCH_G_FORK {
				allow = allowSrc // LLVM: SReg_64 or inline constant, no literal
			}
			if f.Flags&FlagSregSsrc0 != 0 {
				allow = allowScalar
				// SReg_32 holds src_vccz/execz/scc, SReg_64 the apertures.
				wide := s.Width == 2
				if o.kind == opReg && o.rk == KindSpecial && !sregClass(o.reg, wide) {
					err = errAt(o, msgInvalidOperand)
					break
				}
			}
			ssrc0, err = a.src(o, s, allow)
		case FieldSSRC1:
			if s.Imm {
				var v int64
				v, err = a.gprIdxOperand(o)
				ssrc1 = uint16(v)
			} else {
				allow := allowSrc | allowLit
				if f.Op == S_CBRANCH_G_FORK {
					allow = allowSrc // LLVM: SReg_64, no literal
				}
				ssrc1, err = a.src(o, s, allow)
			}
		case FieldSIMM16:
			simm16, err = a.simm16(o, f)
		case FieldSIMM32:
			if o.kind != opInt && o.kind != opFloat {
				err = errAt(o, msgInvalidOperand)
				break
			}
			if o.kind == opInt && (o.val < -1<<31 || o.val > 1<<32-1) {
				err = errAt(o, msgInvalidOperand)
				break
			}
			err = a.setLiteral(o, uint32(o.val))
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
	op := uint32(f.Opcode)
	switch f.Enc {
	case EncSOP2:
		a.emit(0x80000000 | op<<23 | uint32(sdst)<<16 | uint32(ssrc1)<<8 | uint32(ssrc0))
	case EncSOPK:
		a.emit(0xb0000000 | op<<23 | uint32(sdst)<<16 | simm16)
	case EncSOP1:
		a.emit(0xbe800000 | uint32(sdst)<<16 | op<<8 | uint32(ssrc0))
	case EncSOPC:
		a.emit(0xbf000000 | op<<16 | uint32(ssrc1)<<8 | uint32(ssrc0))
	case EncSOPP:
		a.emit(0xbf800000 | op<<16 | simm16)
	}
	return nil
}

// simm16 returns the 16-bit immediate of a SOPK or SOPP form.
func (a *asmLine) simm16(o *asmOp, f *Form) (uint32, error) {
	switch {
	case f.Flags&FlagLabel != 0:
		return a.label(o)
	case f.Flags&FlagHwreg != 0 && o.kind == opFunc && o.name == "hwreg":
		return a.hwregOperand(o)
	case f.Flags&FlagSendmsg != 0 && o.kind == opFunc && o.name == "sendmsg":
		return a.sendmsgOperand(o)
	case f.Flags&FlagGprIdx != 0:
		v, err := a.gprIdxOperand(o)
		return uint32(v), err
	case f.Flags&FlagWaitcnt != 0 && o.kind == opFunc:
		return 0, errAt(o, "invalid counter name "+o.name)
	case f.Enc == EncSOPP && o.kind == opInt && !o.neg && !o.abs && !o.sext && o.val >= -1<<31 && o.val < 1<<32:
		return uint32(o.val) & 0xffff, nil // LLVM truncates
	}
	if o.kind != opInt || o.neg || o.abs || o.sext {
		return 0, errAt(o, msgInvalidOperand)
	}
	if o.val < -1<<15 || o.val > 1<<16-1 {
		return 0, errAt(o, "invalid immediate: only 16-bit values are legal")
	}
	return uint32(o.val) & 0xffff, nil
}

// label returns a branch's simm16: a label's offset from PC+4 in words,
// or a plain integer taken as the offset itself.
func (a *asmLine) label(o *asmOp) (uint32, error) {
	switch {
	case o.kind == opInt && o.addr:
		return a.branchTo(o, o.val, "")
	case o.kind == opInt:
		if o.val < -1<<15 || o.val > 1<<16-1 {
			return 0, errAt(o, "branch offset out of range")
		}
		return uint32(o.val) & 0xffff, nil
	case o.kind == opName:
		if a.env == nil || a.env.Symbol == nil {
			return 0, errAt(o, "undefined label "+o.name)
		}
		v, ok := a.env.Symbol(o.name)
		if !ok {
			return 0, errAt(o, "undefined label "+o.name)
		}
		return a.branchTo(o, v, o.name)
	}
	return 0, errAt(o, msgInvalidOperand)
}

// branchTo returns the simm16 of a branch to address v.
func (a *asmLine) branchTo(o *asmOp, v int64, name string) (uint32, error) {
	pc := int64(0)
	if a.env != nil {
		pc = int64(a.env.PC)
	}
	d := v - pc - 4
	if d%4 != 0 || d/4 < -1<<15 || d/4 >= 1<<15 {
		if name == "" {
			return 0, errAt(o, "branch target out of range")
		}
		return 0, errAt(o, "branch target out of range: "+name)
	}
	return uint32(d/4) & 0xffff, nil
}

// funcArgs splits name(args)'s arguments at commas.
func funcArgs(s string) []string {
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// argCols returns the column of each argument of name(args) operand o.
func argCols(o *asmOp) []int {
	cols := []int{}
	start := o.col + len(o.name) + 1
	for i := 0; i <= len(o.args); i++ {
		if i == 0 || o.args[i-1] == ',' {
			j := i
			for j < len(o.args) && o.args[j] == ' ' {
				j++
			}
			cols = append(cols, start+j)
		}
	}
	return cols
}

// hwregOperand encodes hwreg(ID[, OFFSET, SIZE]).
func (a *asmLine) hwregOperand(o *asmOp) (uint32, error) {
	args := funcArgs(o.args)
	if len(args) != 1 && len(args) != 3 {
		return 0, errAt(o, "expected a comma or a closing parenthesis")
	}
	id, err := parseInt(args[0])
	if err != nil {
		id = -1
		for i := uint16(0); i < 64; i++ {
			if n := hwregName(a.t, i); n != "" && n == args[0] {
				id = int64(i)
			}
		}
		if id < 0 {
			return 0, &AsmError{Col: o.col + len("hwreg("), Msg: "expected a register name or an absolute expression"}
		}
	}
	if id < 0 || id > 63 {
		return 0, errAt(o, "invalid code of hardware register: only 6-bit values are legal")
	}
	off, size := int64(0), int64(32)
	if len(args) == 3 {
		cols := argCols(o)
		if off, err = parseInt(args[1]); err != nil || off < 0 || off > 31 {
			return 0, &AsmError{Col: cols[1], Msg: "invalid bit offset: only 5-bit values are legal"}
		}
		if size, err = parseInt(args[2]); err != nil || size < 1 || size > 32 {
			return 0, &AsmError{Col: cols[2], Msg: "invalid bitfield width: only values from 1 to 32 are legal"}
		}
	}
	return uint32(id | off<<6 | (size-1)<<11), nil
}

// sendmsgOperand encodes sendmsg(MSG[, OP[, STREAM]]).
func (a *asmLine) sendmsgOperand(o *asmOp) (uint32, error) {
	args := funcArgs(o.args)
	if len(args) > 3 {
		return 0, errAt(o, "expected a closing parenthesis")
	}
	id, err := parseInt(args[0])
	if err != nil {
		id = -1
		for i := uint16(0); i < 16; i++ {
			if n := msgName(a.t, i); n != "" && n == args[0] {
				id = int64(i)
			}
		}
		if id < 0 {
			return 0, &AsmError{Col: o.col + len("sendmsg("), Msg: "expected a message name or an absolute expression"}
		}
	}
	var op, stream int64
	if len(args) > 1 {
		if op, err = parseInt(args[1]); err != nil {
			op = -1
			names := gsOpNames[:]
			if id == msgSysmsg {
				names = sysmsgOpNames[:]
			}
			for i, n := range names {
				if n != "" && n == args[1] {
					op = int64(i)
				}
			}
			if op < 0 {
				return 0, errAt(o, "expected an operation name or an absolute expression")
			}
		}
	}
	if len(args) > 2 {
		if stream, err = parseInt(args[2]); err != nil || stream < 0 || stream > 3 {
			return 0, errAt(o, "invalid message stream id")
		}
	}
	if id < 0 || id > 15 || op < 0 || op > 7 {
		return 0, errAt(o, "invalid message id")
	}
	return uint32(id | op<<4 | stream<<8), nil
}

// gprIdxOperand encodes gpr_idx(SRC0,SRC1,SRC2,DST) or a plain 0–15... value.
func (a *asmLine) gprIdxOperand(o *asmOp) (int64, error) {
	switch {
	case o.kind == opInt:
		if o.val < 0 || o.val > 15 {
			return 0, errAt(o, "invalid immediate: only 4-bit values are legal")
		}
		return o.val, nil
	case o.kind == opFunc && o.name == "gpr_idx":
		var v int64
		if strings.TrimSpace(o.args) == "" {
			return 0, nil
		}
		for _, n := range funcArgs(o.args) {
			bit := int64(-1)
			for i, m := range [4]string{"SRC0", "SRC1", "SRC2", "DST"} {
				if n == m {
					bit = int64(i)
				}
			}
			if bit < 0 {
				return 0, errAt(o, "expected a VGPR index mode")
			}
			if v&(1<<bit) != 0 {
				return 0, errAt(o, "duplicate VGPR index mode")
			}
			v |= 1 << bit
		}
		return v, nil
	}
	return 0, errAt(o, msgInvalidOperand)
}

// waitcnt parses vmcnt(N) expcnt(N) lgkmcnt(N) (separated by blanks, &
// or commas) into an s_waitcnt simm16.
func (a *asmLine) waitcnt(o *asmOp) error {
	w, wmax := WaitcntMax(a.t), WaitcntMax(a.t)
	for {
		col := a.pos + 1
		name := a.ident()
		if a.pos >= len(a.text) || a.text[a.pos] != '(' {
			return &AsmError{Col: col, Msg: "expected a counter name"}
		}
		a.pos++
		a.skipSpace()
		s := a.pos
		for a.pos < len(a.text) && a.text[a.pos] != ')' {
			a.pos++
		}
		if a.pos == len(a.text) {
			return a.errHere("expected a closing parenthesis")
		}
		n, err := parseInt(strings.TrimSpace(a.text[s:a.pos]))
		a.pos++
		if err != nil {
			return &AsmError{Col: s + 1, Msg: "expected absolute expression"}
		}
		col = s + 1
		base, sat := strings.CutSuffix(name, "_sat")
		max := map[string]int64{"vmcnt": int64(wmax.VM), "expcnt": int64(wmax.EXP), "lgkmcnt": int64(wmax.LGKM)}[base]
		if max == 0 {
			return &AsmError{Col: col, Msg: "invalid counter name " + name}
		}
		if n < 0 || n > max {
			if !sat {
				return &AsmError{Col: col, Msg: "too large value for " + base}
			}
			n = max
		}
		switch base {
		case "vmcnt":
			w.VM = int(n)
		case "expcnt":
			w.EXP = int(n)
		case "lgkmcnt":
			w.LGKM = int(n)
		}
		c := a.peek()
		if c == '&' || c == ',' {
			a.pos++
			c = a.peek()
		}
		if !(c >= 'a' && c <= 'z') {
			break
		}
		s = a.pos
		id := a.ident()
		a.pos = s
		if !strings.HasSuffix(id, "cnt") && !strings.HasSuffix(id, "cnt_sat") {
			break
		}
	}
	v, err := WaitcntImm(a.t, w)
	if err != nil {
		return errAt(o, err.Error())
	}
	o.kind, o.val = opInt, int64(v)
	return nil
}

// encSMEM packs the SMEM encoding.
func encSMEM(a *asmLine) error {
	f := a.form
	var sdata, sbase uint32
	var imm, soe bool
	var offset int64
	var soff uint32
	k := 0
	for i := range f.Operands {
		s := &f.Operands[i]
		if k == len(a.ops) {
			return a.tooFew()
		}
		o := &a.ops[k]
		k++
		switch s.Field {
		case FieldSDATA:
			if s.Imm {
				if o.kind != opInt || o.val < 0 || o.val > 0x7f {
					return errAt(o, msgInvalidOperand)
				}
				sdata = uint32(o.val)
				break
			}
			c, err := a.sdst(o, s)
			if err != nil {
				return err
			}
			if o.rk == KindSpecial && (c == uint16(M0) || c == uint16(ExecLo) || c == uint16(ExecHi)) {
				return errAt(o, msgInvalidOperand) // SReg_*_XM0_XEXEC
			}
			sdata = uint32(c)
		case FieldSBASE:
			c, err := a.sdst(o, s)
			if err != nil {
				return err
			}
			sbase = uint32(c) >> 1
		case FieldOFFSET:
			switch o.kind {
			case opInt:
				imm, offset = true, o.val
				lo, hi, msg := int64(0), int64(1<<20-1), "expected a 20-bit unsigned offset"
				if a.t == GFX9 && srcSpec(f, FieldSBASE).Width != 4 {
					lo, hi, msg = -1<<20, 1<<20-1, "expected a 21-bit signed offset"
				}
				if offset < lo || offset > hi {
					return errAt(o, msg)
				}
			case opReg:
				so := OperandSpec{Field: FieldSOFFSET, Access: Read, Type: TypeB32, Width: 1}
				c, err := a.sdst(o, &so)
				if err != nil {
					return err
				}
				soff = uint32(c)
				if a.t == GFX8 {
					for i := range a.mods {
						if a.mods[i].name == "offset" {
							return &AsmError{Col: a.mods[i].col, Msg: "not a valid operand."}
						}
					}
				}
				if m := a.mod("offset"); m != nil {
					v, err := parseInt(m.val)
					if err == nil && v < 0 && srcSpec(f, FieldSBASE).Width == 4 {
						return &AsmError{Col: m.col, Msg: "expected a 20-bit unsigned offset"}
					}
					if err != nil || v < -1<<20 || v >= 1<<20 {
						return &AsmError{Col: m.col, Msg: "expected a 21-bit signed offset"}
					}
					imm, soe, offset = true, true, v
				}
			default:
				return errAt(o, msgInvalidOperand)
			}
		}
	}
	if err := a.extra(k); err != nil {
		return err
	}
	if imm && f.Flags&FlagSmemImm == 0 || !imm && f.Flags&FlagSmemSGPR == 0 {
		return &AsmError{Col: a.mnCol, Msg: msgInvalidOperand}
	}
	glc := false
	if f.Flags&FlagGLC != 0 {
		var err error
		if glc, err = a.flag("glc"); err != nil {
			return err
		}
	}
	w0 := 0xc0000000 | uint32(f.Opcode)<<18 | sdata<<6 | sbase
	if imm {
		w0 |= 1 << 17
	}
	if glc {
		w0 |= 1 << 16
	}
	w1 := soff
	switch {
	case soe:
		w0 |= 1 << 14
		w1 = soff<<25 | uint32(offset)&0x1fffff
	case imm && a.t == GFX9:
		w1 = uint32(offset) & 0x1fffff
	case imm:
		w1 = uint32(offset) & 0xfffff
	}
	a.emit(w0, w1)
	return nil
}

// sregClass reports whether special register code c belongs to LLVM's
// SReg_32 (or, wide, SReg_64) register class: SReg_32 has
// src_pops_exiting_wave_id and src_vccz/execz/scc but not the apertures,
// SReg_64 the apertures but not the others; neither has lds_direct.
func sregClass(c uint16, wide bool) bool {
	switch {
	case c >= uint16(SrcSharedBase) && c <= uint16(SrcPrivateLimit):
		return wide
	case c == uint16(SrcPopsExitingWaveID), c >= uint16(VCCZ) && c <= uint16(SCC):
		return !wide
	}
	return c != uint16(LDSDirect)
}

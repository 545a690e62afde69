package isa

// This file is the assembler's entry point: Assemble parses one line of
// LLVM AMDGPU assembly (asm_lex.go), looks its mnemonic up in an index
// built from the decoder's own tables (forms, formIndex, featureForms),
// and lets each candidate form's encoder (asm_scalar.go, asm_valu.go,
// asm_mem.go) try to pack the operands. The first form that accepts them
// wins, in LLVM's order of preference (e32 before e64; SDWA and DPP only
// when asked for); a packed instruction is decoded again to check it.

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
)

// AsmEnv is what one instruction's assembly may refer to.
type AsmEnv struct {
	PC     uint64                          // the instruction's address (branch targets are relative to PC+4)
	Symbol func(name string) (int64, bool) // a label's or .set symbol's value; nil: none
}

// AsmError is a rejected instruction: Col is the 1-based byte column in
// the text, Msg what llvm-mc would say ("invalid operand for instruction").
type AsmError struct {
	Col int
	Msg string
}

// Error returns "COL: MSG".
func (e *AsmError) Error() string { return fmt.Sprintf("%d: %s", e.Col, e.Msg) }

// Messages llvm-mc gives for the commonest rejections.
const (
	msgInvalidOperand = "invalid operand for instruction"
	msgTooFew         = "too few operands for instruction"
	msgInvalidInst    = "invalid instruction"
	msgNotSupported   = "instruction not supported on this GPU"
)

// Assemble encodes one instruction in LLVM's AMDGPU assembly syntax (as
// llvm-mc-19 accepts it for target t with features f), appending its words
// to dst. env may be nil.
func Assemble(dst []uint32, text string, t Target, f Features, env *AsmEnv) ([]uint32, error) {
	if t != GFX8 && t != GFX9 {
		return dst, &AsmError{Col: 1, Msg: "unsupported target " + t.String()}
	}
	a := asmPool.Get().(*asmLine)
	defer asmPool.Put(a)
	a.reset(text, t, f, env)
	if err := a.parse(); err != nil {
		return dst, err
	}
	cands, err := a.candidates()
	if err != nil {
		return dst, err
	}
	if a.modErr != nil {
		return dst, a.modErr
	}
	var best *AsmError
	for _, fm := range cands {
		for _, v := range a.variants(fm) {
			a.start(fm, v)
			enc := encoders[fm.Enc]
			if enc == nil {
				continue
			}
			err := enc(a)
			if err == nil {
				err = a.unusedModifier()
			}
			if err == nil {
				err = a.verify()
			}
			if err == nil {
				return append(dst, a.words[:a.n]...), nil
			}
			e, ok := err.(*AsmError)
			if !ok {
				e = &AsmError{Col: a.mnCol, Msg: err.Error()}
			}
			if best == nil || e.Col >= best.Col {
				best = e
			}
		}
	}
	if best == nil {
		best = &AsmError{Col: a.mnCol, Msg: msgInvalidOperand}
	}
	if t == GFX8 && a.gfx9Only(text, env) {
		best = &AsmError{Col: a.mnCol, Msg: "operands are not valid for this GPU or mode"}
	}
	return dst, best
}

var asmPool = sync.Pool{New: func() any { return new(asmLine) }}

// encoders[enc] packs a.ops and a.mods for the form a.form into a.words.
var encoders [numEncodings]func(a *asmLine) error

// asmIndex maps a mnemonic to the forms one processor has for it, in
// encoding order (so VOP1/VOP2/VOPC come before VOP3).
type asmIndex struct {
	once  sync.Once
	forms map[string][]*Form
	other map[string]bool // mnemonics of the other generation or features
}

var asmIndexes [3][8]asmIndex

// asmEncOrder is the order candidates are tried in: LLVM prefers the
// 32-bit encodings (VINTRP's v_interp_* before their VOP3 forms).
var asmEncOrder = [...]Encoding{EncSOP2, EncSOPK, EncSOP1, EncSOPC, EncSOPP, EncSMEM, EncVOP1, EncVOP2,
	EncVOPC, EncVINTRP, EncVOP3, EncVOP3P, EncDS, EncMUBUF, EncMTBUF, EncMIMG, EncEXP, EncFLAT}

// index returns the mnemonic index of generation t with features f, built
// on first use from the decoder's tables.
func index(t Target, f Features) *asmIndex {
	ix := &asmIndexes[t][f&7]
	ix.once.Do(func() {
		ix.forms = map[string][]*Form{}
		ix.other = map[string]bool{}
		for _, e := range asmEncOrder {
			n := len(formIndex[t][e])
			for i := range featureForms {
				if ff := &featureForms[i]; ff.feat&f != 0 && ff.enc == e {
					n = max(n, int(ff.opcode)+1)
				}
			}
			for op := 0; op < n; op++ {
				if fm := lookupFormWith(t, f, e, uint16(op)); fm != nil {
					ix.forms[fm.Mnemonic] = append(ix.forms[fm.Mnemonic], fm)
				}
			}
		}
		for i := range forms {
			if _, ok := ix.forms[forms[i].Mnemonic]; !ok {
				ix.other[forms[i].Mnemonic] = true
			}
		}
	})
	return ix
}

// candidates returns the forms the mnemonic may assemble to, after
// removing an _e32, _e64, _sdwa or _dpp suffix into a.suffix.
func (a *asmLine) candidates() ([]*Form, error) {
	ix := index(a.t, a.f)
	mn := a.mn
	if fs, ok := ix.forms[mn]; ok {
		return fs, nil
	}
	for _, s := range [...]struct {
		suf string
		v   Variant
	}{{"_e32", VariantE32}, {"_e64", VariantE64}, {"_sdwa", VariantSDWA}, {"_dpp", VariantDPP}} {
		if base, ok := strings.CutSuffix(mn, s.suf); ok {
			if fs, ok := ix.forms[base]; ok {
				a.suffix = s.v
				return fs, nil
			}
			mn = base
		}
	}
	if ix.other[mn] {
		return nil, &AsmError{Col: a.mnCol, Msg: msgNotSupported}
	}
	return nil, &AsmError{Col: a.mnCol, Msg: msgInvalidInst}
}

// variants returns the variants form fm may be tried in for this line.
func (a *asmLine) variants(fm *Form) []Variant {
	switch fm.Enc {
	case EncVOP1, EncVOP2, EncVOPC:
		switch {
		case a.suffix == VariantSDWA || a.suffix == VariantNone && a.modKind == modsSDWA:
			if fm.Flags&FlagSdwa != 0 {
				return variantsSDWA
			}
		case a.suffix == VariantDPP || a.suffix == VariantNone && a.modKind == modsDPP:
			if fm.Flags&FlagDpp != 0 {
				return variantsDPP
			}
		case a.suffix == VariantE32 || a.suffix == VariantNone && a.modKind == modsNone:
			return variantsE32
		}
		return nil
	case EncVOP3:
		if a.suffix == VariantE64 || a.suffix == VariantNone && a.modKind == modsNone {
			return variantsE64
		}
		return nil
	case EncVINTRP:
		if a.suffix == VariantE32 || a.suffix == VariantNone {
			return variantsE32
		}
		return nil
	}
	if a.suffix != VariantNone {
		return nil
	}
	return variantsNone
}

var (
	variantsNone = []Variant{VariantNone}
	variantsE32  = []Variant{VariantE32}
	variantsE64  = []Variant{VariantE64}
	variantsSDWA = []Variant{VariantSDWA}
	variantsDPP  = []Variant{VariantDPP}
)

// start prepares a to encode form fm in variant v.
func (a *asmLine) start(fm *Form, v Variant) {
	a.form, a.variant = fm, v
	a.words = [3]uint32{}
	a.n = 0
	a.hasLit = false
	a.used = 0
}

// emit sets the instruction's fixed words (one or two) and appends the
// literal, if one was used.
func (a *asmLine) emit(ws ...uint32) {
	a.n = copy(a.words[:], ws)
	if a.hasLit {
		a.words[a.n] = a.lit
		a.n++
	}
}

// verify decodes the packed words and checks that the registers read
// back are the ones written, which catches width and alignment mistakes
// the encoders do not check one by one.
func (a *asmLine) verify() error {
	b := a.raw[:]
	for i := 0; i < a.n; i++ {
		w := a.words[i]
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
	}
	inst := &a.inst
	if err := DecodeWith(b[:4*a.n], a.t, a.f, inst); err != nil || inst.Len != 4*a.n {
		return &AsmError{Col: a.mnCol, Msg: msgInvalidOperand}
	}
	k := 0
	for i := range a.ops {
		o := &a.ops[i]
		if o.kind != opReg || inst.Enc == EncEXP {
			continue
		}
		for k < len(inst.Args) && !regKind(inst.Args[k].Kind) {
			k++
		}
		if k == len(inst.Args) {
			return nil // the encoder placed it somewhere the decoder does not list
		}
		d := &inst.Args[k]
		k++
		anyWidth := o.width == 0 || inst.Enc == EncMIMG && d.Field == FieldVADDR
		if d.Kind != o.rk || d.Reg != o.reg || !anyWidth && d.Width != o.width {
			return &AsmError{Col: o.col, Msg: msgInvalidOperand}
		}
	}
	// Operands the decoder accepts outside LLVM's register classes print
	// with a remark; the assembler rejects them.
	if inst.Enc >= EncVOP1 && inst.Enc <= EncVINTRP {
		if c := a.remarkCol(inst); c != 0 {
			return &AsmError{Col: c, Msg: msgInvalidOperand}
		}
		return nil
	}
	remarkable := inst.Form.Flags&FlagSregSsrc0 != 0
	for k := range inst.Args {
		remarkable = remarkable || inst.Args[k].Kind == KindSpecial
	}
	if remarkable {
		a.buf = inst.AppendText(a.buf[:0], 0, nil)
		if bytes.Contains(a.buf, []byte("/*")) {
			return &AsmError{Col: a.scalarRemarkCol(inst), Msg: msgInvalidOperand}
		}
	}
	return nil
}

// scalarRemarkCol returns the column of the operand of a non-VALU
// instruction that the printer remarks on, or the mnemonic's.
func (a *asmLine) scalarRemarkCol(inst *Inst) int {
	for k := range inst.Args {
		op := &inst.Args[k]
		bad := regClassComment(inst, op) != ""
		if inst.Enc == EncSMEM && op.Field == FieldSDATA && op.Kind == KindSpecial {
			bad = op.Reg == uint16(M0) || op.Reg == uint16(ExecLo) || op.Reg == uint16(ExecHi)
		}
		if bad && k < len(a.ops) && inst.Enc != EncSMEM || bad && k == 0 {
			return a.ops[k].col
		}
	}
	return a.mnCol
}

// remarkCol returns the column of the first VALU operand the printer
// remarks on (outside LLVM's register class), or 0.
func (a *asmLine) remarkCol(inst *Inst) int {
	interp := inst.Enc == EncVOP3 && srcSpec(inst.Form, FieldATTR) != nil
	p := &a.pr
	for k := range inst.Args {
		switch inst.Args[k].Field {
		case FieldATTR, FieldPARAM, FieldSIMM32: // printed without remarks
			continue
		}
		if operandClass(inst, &inst.Args[k], interp) == classAny {
			continue
		}
		*p = printer{t: a.t, buf: a.buf[:0]}
		p.classRemark(inst, &inst.Args[k], interp)
		a.buf = p.buf
		if len(p.buf) > 0 {
			if k < len(a.ops) {
				return a.ops[k].col
			}
			return a.mnCol
		}
	}
	return 0
}

func regKind(k OperandKind) bool {
	return k == KindSGPR || k == KindVGPR || k == KindTTMP || k == KindSpecial
}

// errAt returns an AsmError at operand o's column.
func errAt(o *asmOp, msg string) error { return &AsmError{Col: o.col, Msg: msg} }

// gfx9Only reports whether a line GFX8 rejects assembles on GFX9 to an
// operation none of the GFX8 candidates is (GFX9's v_add_u32 has no carry).
func (a *asmLine) gfx9Only(text string, env *AsmEnv) bool {
	ws, err := Assemble(nil, text, GFX9, 0, env)
	if err != nil {
		return false
	}
	var b [12]byte
	for i, w := range ws {
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(w), byte(w>>8), byte(w>>16), byte(w>>24)
	}
	inst, err := Decode(b[:4*len(ws)], GFX9)
	if err != nil {
		return false
	}
	cands, _ := a.candidates()
	for _, f := range cands {
		if f.Op == inst.Op {
			return false
		}
	}
	return true
}

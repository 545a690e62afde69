package isa

// The assembler's scanner: one line becomes a mnemonic, comma-separated
// operands (registers, constants, names, name(args)) with their source
// modifiers, and space-separated trailing modifiers (name or name:value).

import (
	"strconv"
	"strings"
)

// opKind says what a parsed operand is.
type opKind uint8

const (
	opNone  opKind = iota
	opReg          // a register or tuple: rk, reg, width
	opInt          // an integer constant: val
	opFloat        // a floating-point constant: fval
	opOff          // "off"
	opName         // an identifier: name (a label, attr0.x, p10, mrt0, ...)
	opFunc         // name(args): hwreg, sendmsg, gpr_idx
)

// asmOp is one parsed operand.
type asmOp struct {
	col            int
	kind           opKind
	rk             OperandKind // opReg: KindSGPR, KindVGPR, KindTTMP or KindSpecial
	reg            uint16      // register number, or the Special's code
	width          uint8       // dwords; 0 for a special of any width (src_*)
	val            int64
	fval           float64
	neg, abs, sext bool
	name, args     string
}

// asmMod is one trailing modifier: name or name:val.
type asmMod struct {
	col       int
	name, val string
	hasVal    bool
}

// Which family of modifiers a line carries, to choose SDWA or DPP.
const (
	modsNone = iota
	modsSDWA
	modsDPP
)

// asmLine is the state of one Assemble call.
type asmLine struct {
	text string
	pos  int
	t    Target
	f    Features
	env  *AsmEnv

	mn      string
	mnCol   int
	suffix  Variant
	ops     []asmOp
	mods    []asmMod
	modKind int

	// Per attempt.
	form    *Form
	variant Variant
	words   [3]uint32
	n       int
	lit     uint32
	hasLit  bool
	litCol  int
	used    uint64 // modifiers consumed, one bit per a.mods index
	inst    Inst   // for verify
	buf     []byte // for verify
}

func (a *asmLine) reset(text string, t Target, f Features, env *AsmEnv) {
	ops, mods, args, buf := a.ops[:0], a.mods[:0], a.inst.Args[:0], a.buf[:0]
	*a = asmLine{text: text, t: t, f: f, env: env, ops: ops, mods: mods, buf: buf}
	a.inst.Args = args
}

func (a *asmLine) errHere(msg string) error { return &AsmError{Col: a.pos + 1, Msg: msg} }

// peek returns the next byte after blanks and comments, or 0 at the end.
func (a *asmLine) peek() byte {
	a.skipSpace()
	if a.pos < len(a.text) {
		return a.text[a.pos]
	}
	return 0
}

// skipSpace skips blanks and /* */ comments; a // or ; comment ends the line.
func (a *asmLine) skipSpace() {
	for a.pos < len(a.text) {
		c := a.text[a.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			a.pos++
		case c == '/' && strings.HasPrefix(a.text[a.pos:], "/*"):
			if e := strings.Index(a.text[a.pos+2:], "*/"); e >= 0 {
				a.pos += e + 4
			} else {
				a.pos = len(a.text)
			}
		case c == ';' || c == '/' && strings.HasPrefix(a.text[a.pos:], "//"):
			a.text = a.text[:a.pos]
		default:
			return
		}
	}
}

func identByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '$'
}

// ident scans an identifier at a.pos.
func (a *asmLine) ident() string {
	s := a.pos
	for a.pos < len(a.text) && identByte(a.text[a.pos]) {
		a.pos++
	}
	return a.text[s:a.pos]
}

// parse splits the line into mnemonic, operands and modifiers.
func (a *asmLine) parse() error {
	if a.peek() == 0 {
		return a.errHere("expected an instruction")
	}
	a.mnCol = a.pos + 1
	a.mn = a.ident()
	if a.mn == "" {
		return a.errHere("unexpected token at start of statement")
	}
	if strings.ToLower(a.mn) != a.mn {
		a.mn = strings.ToLower(a.mn)
	}
	exp := a.mn == "exp"
	for n := 0; ; n++ {
		c := a.peek()
		if c == 0 {
			return nil
		}
		if n > 0 {
			if c != ',' && !(exp && n == 1) {
				break
			}
			if c == ',' {
				a.pos++
				if a.peek() == 0 {
					return a.errHere("expected an operand")
				}
			}
		}
		if a.isModifierStart(n == 0) {
			break
		}
		if err := a.operand(); err != nil {
			return err
		}
	}
	return a.modifiers()
}

// isModifierStart reports whether the text at a.pos begins a trailing
// modifier (name:value, or for the first operand a bare modifier word)
// rather than an operand.
func (a *asmLine) isModifierStart(first bool) bool {
	s := a.pos
	id := a.ident()
	c := byte(0)
	if a.pos < len(a.text) {
		c = a.text[a.pos]
	}
	a.pos = s
	return id != "" && (c == ':' || first && bareModifiers[id])
}

// bareModifiers are the modifier words that take no value.
var bareModifiers = map[string]bool{"glc": true, "slc": true, "tfe": true, "lds": true, "gds": true,
	"offen": true, "idxen": true, "addr64": true, "unorm": true, "da": true, "r128": true, "a16": true,
	"lwe": true, "d16": true, "done": true, "compr": true, "vm": true, "clamp": true, "high": true,
	"row_mirror": true, "row_half_mirror": true, "nv": true}

// modifiers parses the trailing modifiers.
func (a *asmLine) modifiers() error {
	for {
		c := a.peek()
		if c == 0 {
			return nil
		}
		if c == ',' { // LLVM allows a comma before some modifiers
			a.pos++
			a.skipSpace()
		}
		m := asmMod{col: a.pos + 1, name: a.ident()}
		if m.name == "" {
			return a.errHere("not a valid operand.")
		}
		if a.pos < len(a.text) && a.text[a.pos] == ':' {
			a.pos++
			m.hasVal = true
			s, depth := a.pos, 0
			for a.pos < len(a.text) {
				c := a.text[a.pos]
				if c == '[' || c == '(' {
					depth++
				} else if c == ']' || c == ')' {
					depth--
				} else if depth == 0 && (c == ' ' || c == '\t' || c == ',') {
					break
				}
				a.pos++
			}
			m.val = strings.ReplaceAll(a.text[s:a.pos], " ", "")
		}
		switch m.name {
		case "dst_sel", "dst_unused", "src0_sel", "src1_sel":
			a.modKind = modsSDWA
		case "quad_perm", "row_shl", "row_shr", "row_ror", "wave_shl", "wave_rol", "wave_shr", "wave_ror",
			"row_mirror", "row_half_mirror", "row_bcast", "row_mask", "bank_mask", "bound_ctrl":
			a.modKind = modsDPP
		}
		if len(a.mods) == 64 {
			return a.errHere("too many modifiers")
		}
		a.mods = append(a.mods, m)
	}
}

// operand parses one operand with its source modifiers.
func (a *asmLine) operand() error {
	o := asmOp{col: a.pos + 1}
	closers := 0
	var closeStack [4]byte
	push := func(c byte) error {
		if closers == len(closeStack) {
			return a.errHere("too many modifiers")
		}
		closeStack[closers] = c
		closers++
		return nil
	}
	for {
		c := a.peek()
		switch {
		case c == '-' && a.pos+1 < len(a.text) && !digitOrDot(a.nextNonSpace(a.pos+1)):
			o.neg = true
			a.pos++
			continue
		case c == '|' && !o.abs:
			o.abs = true
			a.pos++
			if err := push('|'); err != nil {
				return err
			}
			continue
		}
		s := a.pos
		id := a.ident()
		if (id == "neg" || id == "abs" || id == "sext") && a.pos < len(a.text) && a.text[a.pos] == '(' {
			a.pos++
			switch id {
			case "neg":
				o.neg = true
			case "abs":
				o.abs = true
			default:
				o.sext = true
			}
			if err := push(')'); err != nil {
				return err
			}
			continue
		}
		a.pos = s
		break
	}
	if err := a.core(&o); err != nil {
		return err
	}
	for closers > 0 {
		closers--
		if a.peek() != closeStack[closers] {
			return a.errHere("expected " + strconv.Quote(string(closeStack[closers]))[1:2])
		}
		a.pos++
	}
	a.ops = append(a.ops, o)
	return nil
}

// nextNonSpace returns the first non-blank byte at or after i, or 0.
func (a *asmLine) nextNonSpace(i int) byte {
	for i < len(a.text) && (a.text[i] == ' ' || a.text[i] == '\t') {
		i++
	}
	if i < len(a.text) {
		return a.text[i]
	}
	return 0
}

func digitOrDot(c byte) bool { return c >= '0' && c <= '9' || c == '.' }

// core parses an operand without source modifiers.
func (a *asmLine) core(o *asmOp) error {
	c := a.peek()
	o.col = a.pos + 1
	switch {
	case c == 0:
		return a.errHere("expected an operand")
	case c == '-' || digitOrDot(c):
		return a.number(o)
	case c == '[':
		return a.regList(o)
	}
	id := a.ident()
	if id == "" {
		return a.errHere("not a valid operand.")
	}
	if a.pos < len(a.text) && a.text[a.pos] == '[' {
		return a.regTuple(o, id)
	}
	if a.pos < len(a.text) && a.text[a.pos] == '(' {
		switch id {
		case "vmcnt", "expcnt", "lgkmcnt", "vmcnt_sat", "expcnt_sat", "lgkmcnt_sat":
			a.pos -= len(id)
			return a.waitcnt(o)
		}
		s, depth := a.pos, 0
		for a.pos < len(a.text) {
			c := a.text[a.pos]
			a.pos++
			if c == '(' {
				depth++
			} else if c == ')' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		if depth != 0 {
			return a.errHere("expected ')'")
		}
		o.kind, o.name, o.args = opFunc, id, a.text[s+1:a.pos-1]
		return nil
	}
	if id == "off" {
		o.kind = opOff
		return nil
	}
	if ok, err := a.register(o, id); ok || err != nil {
		return err
	}
	o.kind, o.name = opName, id
	if a.env != nil && a.env.Symbol != nil {
		if v, ok := a.env.Symbol(id); ok && !a.labelContext() {
			o.kind, o.val = opInt, v
		}
	}
	return nil
}

// labelContext reports whether the mnemonic takes a branch label, whose
// symbol the encoder resolves relative to the PC.
func (a *asmLine) labelContext() bool {
	return strings.HasPrefix(a.mn, "s_cbranch") || a.mn == "s_branch" || a.mn == "s_call_b64"
}

// number parses an integer (decimal, 0x hex, 0b binary) or a float.
func (a *asmLine) number(o *asmOp) error {
	s := a.pos
	if a.text[a.pos] == '-' {
		a.pos++
		a.skipSpace()
	}
	b := a.pos
	for a.pos < len(a.text) && (identByte(a.text[a.pos]) ||
		(a.text[a.pos] == '-' || a.text[a.pos] == '+') && (a.text[a.pos-1] == 'e' || a.text[a.pos-1] == 'E') && !strings.HasPrefix(a.text[b:], "0x")) {
		a.pos++
	}
	lit := a.text[b:a.pos]
	neg := b != s
	if strings.ContainsAny(lit, ".") || !strings.HasPrefix(lit, "0x") && strings.ContainsAny(lit, "eE") {
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil {
			return &AsmError{Col: s + 1, Msg: "invalid floating point constant"}
		}
		if neg {
			f = -f
		}
		o.kind, o.fval = opFloat, f
		return nil
	}
	v, err := strconv.ParseUint(lit, 0, 64)
	if err != nil {
		return &AsmError{Col: s + 1, Msg: "invalid integer constant"}
	}
	o.kind, o.val = opInt, int64(v)
	if neg {
		o.val = -o.val
	}
	return nil
}

// specialRegs are the named scalar registers: code and width (0: any).
var specialRegs = map[string]struct {
	code  uint16
	width uint8
	gfx9  bool // GFX9 only
	gfx8  bool // GFX8 only
}{
	"vcc": {106, 2, false, false}, "vcc_lo": {106, 1, false, false}, "vcc_hi": {107, 1, false, false},
	"exec": {126, 2, false, false}, "exec_lo": {126, 1, false, false}, "exec_hi": {127, 1, false, false},
	"m0": {124, 1, false, false}, "flat_scratch": {102, 2, false, false},
	"flat_scratch_lo": {102, 1, false, false}, "flat_scratch_hi": {103, 1, false, false},
	"xnack_mask": {104, 2, false, false}, "xnack_mask_lo": {104, 1, false, false}, "xnack_mask_hi": {105, 1, false, false},
	"tba": {108, 2, false, true}, "tba_lo": {108, 1, false, true}, "tba_hi": {109, 1, false, true},
	"tma": {110, 2, false, true}, "tma_lo": {110, 1, false, true}, "tma_hi": {111, 1, false, true},
	"src_shared_base": {235, 0, true, false}, "shared_base": {235, 0, true, false},
	"src_shared_limit": {236, 0, true, false}, "shared_limit": {236, 0, true, false},
	"src_private_base": {237, 0, true, false}, "private_base": {237, 0, true, false},
	"src_private_limit": {238, 0, true, false}, "private_limit": {238, 0, true, false},
	"src_pops_exiting_wave_id": {239, 0, true, false}, "pops_exiting_wave_id": {239, 0, true, false},
	"src_vccz": {251, 0, false, false}, "vccz": {251, 0, false, false},
	"src_execz": {252, 0, false, false}, "execz": {252, 0, false, false},
	"src_scc": {253, 0, false, false}, "scc": {253, 0, false, false},
	"src_lds_direct": {254, 1, false, false}, "lds_direct": {254, 1, false, false},
}

// register parses a register name (v7, s3, ttmp2, vcc, ...) already
// scanned as id.
func (a *asmLine) register(o *asmOp, id string) (bool, error) {
	if sp, ok := specialRegs[id]; ok {
		if sp.gfx9 && a.t != GFX9 || sp.gfx8 && a.t != GFX8 {
			return true, errAt(o, id+" register not available on this GPU")
		}
		o.kind, o.rk, o.reg, o.width = opReg, KindSpecial, sp.code, sp.width
		return true, nil
	}
	rk, n := regPrefix(id)
	if rk == KindNone || len(id) == n {
		return false, nil
	}
	v, err := strconv.Atoi(id[n:])
	if err != nil || id[n] == '+' || id[n] == '-' {
		return false, nil
	}
	return true, a.setReg(o, rk, v, 1)
}

// regPrefix splits a register name's prefix: v, s or ttmp.
func regPrefix(id string) (OperandKind, int) {
	switch {
	case strings.HasPrefix(id, "ttmp"):
		return KindTTMP, 4
	case strings.HasPrefix(id, "v"):
		return KindVGPR, 1
	case strings.HasPrefix(id, "s"):
		return KindSGPR, 1
	}
	return KindNone, 0
}

// regTuple parses v[lo:hi], s[lo:hi], ttmp[lo:hi] or v[n].
func (a *asmLine) regTuple(o *asmOp, id string) error {
	rk, n := regPrefix(id)
	if rk == KindNone || n != len(id) {
		return errAt(o, "not a valid operand.")
	}
	a.pos++ // [
	lo, err := a.regIndex()
	if err != nil {
		return err
	}
	hi := lo
	if a.peek() == ':' {
		a.pos++
		if hi, err = a.regIndex(); err != nil {
			return err
		}
	}
	if a.peek() != ']' {
		return a.errHere("expected a closing square bracket")
	}
	a.pos++
	if hi < lo {
		return errAt(o, "first register index should not exceed second index")
	}
	return a.setReg(o, rk, lo, hi-lo+1)
}

// regList parses [s0,s1,...], a list of consecutive registers.
func (a *asmLine) regList(o *asmOp) error {
	a.pos++
	var first asmOp
	for i := 0; ; i++ {
		a.skipSpace()
		var r asmOp
		r.col = a.pos + 1
		id := a.ident()
		if ok, err := a.register(&r, id); err != nil || !ok || r.rk == KindSpecial {
			return errAt(&r, "invalid register in the list")
		}
		if i == 0 {
			first = r
		} else if r.rk != first.rk || int(r.reg) != int(first.reg)+i {
			return errAt(&r, "registers in a list must have consecutive indices")
		}
		if c := a.peek(); c == ']' {
			a.pos++
			return a.setReg(o, first.rk, int(first.reg), i+1)
		} else if c != ',' {
			return a.errHere("expected a comma or a closing square bracket")
		}
		a.pos++
	}
}

func (a *asmLine) regIndex() (int, error) {
	a.skipSpace()
	s := a.pos
	for a.pos < len(a.text) && a.text[a.pos] >= '0' && a.text[a.pos] <= '9' {
		a.pos++
	}
	v, err := strconv.Atoi(a.text[s:a.pos])
	if err != nil {
		return 0, &AsmError{Col: s + 1, Msg: "expected a register index"}
	}
	return v, nil
}

// setReg checks a register tuple's range and alignment and records it.
func (a *asmLine) setReg(o *asmOp, rk OperandKind, reg, width int) error {
	switch width {
	case 1, 2, 3, 4, 5, 6, 7, 8, 16:
	default:
		return errAt(o, "invalid register width") // LLVM: no register class of that size
	}
	limit := 256
	switch rk {
	case KindSGPR:
		limit = srcSGPRMax + 1
	case KindTTMP:
		limit = 12
		if a.t == GFX9 {
			limit = 16
		}
	}
	if reg+width > limit {
		return errAt(o, "register index is out of range")
	}
	if rk != KindVGPR && width > 1 && reg%min(width, 4) != 0 {
		return errAt(o, "invalid register alignment")
	}
	o.kind, o.rk, o.reg, o.width = opReg, rk, uint16(reg), uint8(width)
	return nil
}

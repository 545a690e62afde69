package isa

// The assembler's scanner: one line becomes a mnemonic, comma-separated
// operands (registers, constants, names, name(args)) with their source
// modifiers, and space-separated trailing modifiers (name or name:value).

import (
	"math"
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
	col            int // the operand's column, after source modifiers
	mcol           int // the column of its first source modifier
	kind           opKind
	rk             OperandKind // opReg: KindSGPR, KindVGPR, KindTTMP or KindSpecial
	reg            uint16      // register number, or the Special's code
	width          uint8       // dwords; 0 for a special of any width (src_*)
	val            int64
	fval           float64
	neg, abs, sext bool
	addr           bool // an expression holding a symbol: an address
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
	modErr  *AsmError // a modifier the generation does not have
	depth   int       // expression nesting

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
	raw     [12]byte
	pr      printer
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

func identByte(c byte) bool { return identBytes[c] }

// identBytes marks the bytes of identifiers: letters, digits, _ . $.
var identBytes = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '$'
	}
	return
}()

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
	for i := 0; i < len(a.mn); i++ {
		if c := a.mn[i]; c >= 'A' && c <= 'Z' {
			a.mn = strings.ToLower(a.mn)
			break
		}
	}
	for n := 0; ; n++ {
		c := a.peek()
		if c == 0 {
			return nil
		}
		if n > 0 && c == ',' {
			a.pos++
			if a.peek() == 0 {
				return nil // a trailing comma: the operands fall short
			}
		}
		// Operands are separated by commas or blanks (LLVM accepts both).
		if a.isModifierStart() {
			if err := a.modifier(); err != nil {
				return err
			}
			if a.peek() == ',' { // format:[...], soffset
				continue
			}
			break
		}
		if err := a.operand(); err != nil {
			return err
		}
	}
	return a.modifiers()
}

// isModifierStart reports whether the text at a.pos begins a trailing
// modifier (name:value or a bare modifier word) rather than an operand.
func (a *asmLine) isModifierStart() bool {
	s := a.pos
	id := a.ident()
	c := byte(0)
	if a.pos < len(a.text) {
		c = a.text[a.pos]
	}
	a.pos = s
	switch {
	case id == "":
		return false
	case c == ':':
		return true
	case c == '(' || c == '[' || (id[0] == 'v' || id[0] == 's') && len(id) > 1 && id[1] >= '0' && id[1] <= '9':
		return false // a function, a tuple or a register
	}
	return bareModifiers[id] && !a.isSymbol(id)
}

// isSymbol reports whether the environment defines name (a label called
// "done" is an operand, not the exp modifier).
func (a *asmLine) isSymbol(name string) bool {
	if a.env == nil || a.env.Symbol == nil {
		return false
	}
	_, ok := a.env.Symbol(name)
	return ok
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
		if err := a.modifier(); err != nil {
			return err
		}
	}
}

// modifier parses one name or name:value modifier.
func (a *asmLine) modifier() error {
	m := asmMod{col: a.pos + 1}
	m.name = a.ident()
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
		m.val = a.text[s:a.pos]
		if strings.IndexByte(m.val, ' ') >= 0 {
			m.val = strings.ReplaceAll(m.val, " ", "")
		}
	}
	switch m.name {
	case "dst_sel", "dst_unused", "src0_sel", "src1_sel":
		a.modKind = modsSDWA
	case "quad_perm", "row_shl", "row_shr", "row_ror", "wave_shl", "wave_rol", "wave_shr", "wave_ror",
		"row_mirror", "row_half_mirror", "row_bcast", "row_mask", "bank_mask", "bound_ctrl":
		a.modKind = modsDPP
	case "op_sel", "op_sel_hi", "neg_lo", "neg_hi":
		if a.t == GFX8 && a.modErr == nil {
			a.modErr = &AsmError{Col: m.col, Msg: "not a valid operand."} // reported once the mnemonic is known
		}
	}
	if len(a.mods) == 64 {
		return a.errHere("too many modifiers")
	}
	a.mods = append(a.mods, m)
	return nil
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
		case c == '-' && a.pos+1 < len(a.text) && !digitOrDot(a.nextNonSpace(a.pos+1)) && !a.symbolAt(a.pos+1):
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
	o.mcol = o.col
	if err := a.core(&o); err != nil {
		return err
	}
	for closers > 0 {
		closers--
		if a.peek() != closeStack[closers] {
			return &AsmError{Col: o.mcol, Msg: "not a valid operand."}
		}
		a.pos++
	}
	a.ops = append(a.ops, o)
	return nil
}

// symbolAt reports whether the identifier at byte i (after blanks) is a
// symbol of the environment (-N is an expression, -v1 a negation).
func (a *asmLine) symbolAt(i int) bool {
	if a.env == nil || a.env.Symbol == nil {
		return false
	}
	for i < len(a.text) && (a.text[i] == ' ' || a.text[i] == '\t') {
		i++
	}
	j := i
	for j < len(a.text) && identByte(a.text[j]) {
		j++
	}
	return j > i && a.isSymbol(a.text[i:j])
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

// dotSymbolAt reports whether byte i starts a name beginning with a dot
// (.LBB0_1): a dot then a letter or _, where .5 is a number.
func (a *asmLine) dotSymbolAt(i int) bool {
	if i+1 >= len(a.text) || a.text[i] != '.' {
		return false
	}
	c := a.text[i+1]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

// core parses an operand without source modifiers.
func (a *asmLine) core(o *asmOp) error {
	c := a.peek()
	o.col = a.pos + 1
	switch {
	case c == 0:
		return a.errHere("expected an operand")
	case c == ',':
		return a.errHere("unknown token in expression")
	case c == '-' && a.symbolAt(a.pos+1):
		v, addr, err := a.exprTerm()
		if err == nil {
			v, addr, err = a.exprRest(v, addr, 1)
		}
		o.kind, o.val, o.addr = opInt, v, addr
		return err
	case c == '-' || digitOrDot(c) && !a.dotSymbolAt(a.pos):
		if err := a.number(o); err != nil || o.kind != opInt || !a.moreExpr() {
			return err
		}
		v, _, err := a.exprRest(o.val, false, 1)
		o.val = v
		return err
	case c == '(' || c == '~':
		v, addr, err := a.exprTerm()
		if err == nil {
			v, addr, err = a.exprRest(v, addr, 1)
		}
		o.kind, o.val, o.addr = opInt, v, addr
		return err
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
	if id == "null" && !(a.mn == "exp" && len(a.ops) == 0) {
		return errAt(o, "'null' operand is not supported on this GPU")
	}
	if ok, err := a.register(o, id); ok || err != nil {
		return err
	}
	o.kind, o.name = opName, id
	if a.env != nil && a.env.Symbol != nil {
		if v, ok := a.env.Symbol(id); ok {
			if a.moreExpr() {
				v, addr, err := a.exprRest(v, true, 1)
				o.kind, o.val, o.addr = opInt, v, addr
				return err
			}
			if !a.labelContext() {
				o.kind, o.val = opInt, v
			}
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
		if err != nil && !math.IsInf(f, 0) { // LLVM takes 1e400 as infinity
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

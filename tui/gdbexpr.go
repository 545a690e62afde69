package tui

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// This file is the expression language of print, display, set, x and
// watch: gdb's C-like expressions over the wave's registers, its lanes and
// memory. Values come from the debuggee; this file only parses and
// computes.

// exprValue is a computed value: an integer or float of size bytes, or a
// whole VGPR (one value a lane).
type exprValue struct {
	bits  uint64
	float bool
	size  int
	lanes []uint32 // a VGPR without a lane
	name  string   // what the value reads, for messages
}

func intValue(v uint64, size int) exprValue { return exprValue{bits: v, size: size} }

func floatValue(f float64) exprValue {
	return exprValue{bits: math.Float64bits(f), float: true, size: 8}
}

// f returns the value as a float64.
func (v exprValue) f() float64 {
	switch {
	case v.float && v.size == 4:
		return float64(math.Float32frombits(uint32(v.bits)))
	case v.float:
		return math.Float64frombits(v.bits)
	case v.size == 8:
		return float64(int64(v.bits))
	}
	return float64(int32(uint32(v.bits)))
}

// i returns the value as an integer.
func (v exprValue) i() uint64 {
	if v.float {
		return uint64(int64(v.f()))
	}
	return v.bits
}

// memType is a C type a pointer cast names.
type memType struct {
	size   int
	float  bool
	signed bool
}

var memTypes = map[string]memType{
	"uint": {4, false, false}, "unsigned": {4, false, false}, "uint32_t": {4, false, false},
	"int": {4, false, true}, "int32_t": {4, false, true},
	"float": {4, true, false}, "double": {8, true, false},
	"uchar": {1, false, false}, "char": {1, false, true}, "uint8_t": {1, false, false},
	"ushort": {2, false, false}, "short": {2, false, true}, "uint16_t": {2, false, false},
	"ulong": {8, false, false}, "long": {8, false, true}, "uint64_t": {8, false, false},
}

// lvalue is what set assigns to: a register (one lane) or typed memory.
type lvalue struct {
	reg  *RegRef
	pair bool // s[4:5], exec, vcc: a 64-bit register pair at reg
	addr uint64
	typ  memType
}

// evaluator parses and evaluates one expression.
type evaluator struct {
	d   Debuggee
	f   *Frame
	src string
	pos int
	lv  *lvalue // the last primary's location, for set
	// vals are print's earlier results, $1, $2, ... ($ is the last).
	vals []exprValue
}

func (m *Model) evalExpr(s string) (exprValue, error) {
	e := &evaluator{d: m.dbg, f: &m.frame, src: s, vals: m.gdb.vals}
	return e.parse()
}

func (e *evaluator) parse() (exprValue, error) {
	if strings.TrimSpace(e.src) == "" {
		return exprValue{}, fmt.Errorf("want an expression")
	}
	v, err := e.binary(0)
	if err != nil {
		return v, err
	}
	if e.skip(); e.pos < len(e.src) {
		return v, fmt.Errorf("unexpected %q at column %d of %q", e.src[e.pos:], e.pos+1, e.src)
	}
	return v, nil
}

func (e *evaluator) skip() {
	for e.pos < len(e.src) && e.src[e.pos] == ' ' {
		e.pos++
	}
}

// eat consumes tok if it is next.
func (e *evaluator) eat(tok string) bool {
	e.skip()
	if strings.HasPrefix(e.src[e.pos:], tok) {
		e.pos += len(tok)
		return true
	}
	return false
}

// binaryOps are the operators by precedence level, loosest first.
var binaryOps = [][]string{{"==", "!=", "<=", ">=", "<", ">"}, {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}}

func (e *evaluator) binary(level int) (exprValue, error) {
	if level == len(binaryOps) {
		return e.unary()
	}
	l, err := e.binary(level + 1)
	if err != nil {
		return l, err
	}
	for {
		op := ""
		e.skip()
		for _, o := range binaryOps[level] {
			rest := e.src[e.pos:]
			// A comparison's < or > is not half of a shift.
			if strings.HasPrefix(rest, o) && !(len(o) == 1 && len(rest) > 1 && (o == "<" || o == ">") && rest[1] == o[0]) {
				op = o
				break
			}
		}
		if op == "" {
			return l, nil
		}
		e.pos += len(op)
		r, err := e.binary(level + 1)
		if err != nil {
			return r, err
		}
		if l, err = apply(op, l, r); err != nil {
			return l, err
		}
		e.lv = nil
	}
}

// apply computes l op r: in floating point when either is a float.
func apply(op string, l, r exprValue) (exprValue, error) {
	for _, v := range []exprValue{l, r} {
		if v.lanes != nil {
			return v, fmt.Errorf("%s is a vector: name a lane, as in %s[5]", v.name, v.name)
		}
	}
	if l.float || r.float {
		a, b := l.f(), r.f()
		switch op {
		case "==", "!=", "<", "<=", ">", ">=":
			return intValue(b2u(compare(op, a, b)), 4), nil
		case "+":
			return floatValue(a + b), nil
		case "-":
			return floatValue(a - b), nil
		case "*":
			return floatValue(a * b), nil
		case "/":
			return floatValue(a / b), nil
		}
		return l, fmt.Errorf("operator %s needs integers", op)
	}
	a, b := l.bits, r.bits
	size := max(l.size, r.size)
	var v uint64
	switch op {
	case "+":
		v = a + b
	case "-":
		v = a - b
	case "*":
		v = a * b
	case "/", "%":
		if b == 0 {
			return l, fmt.Errorf("division by zero")
		}
		if op == "/" {
			v = a / b
		} else {
			v = a % b
		}
	case "&":
		v = a & b
	case "|":
		v = a | b
	case "^":
		v = a ^ b
	case "==", "!=", "<", "<=", ">", ">=":
		return intValue(b2u(compare(op, a, b)), 4), nil
	case "<<":
		v = a << (b & 63)
	case ">>":
		v = a >> (b & 63)
	}
	if size < 8 {
		v &= 1<<(8*size) - 1
	}
	return intValue(v, size), nil
}

func (e *evaluator) unary() (exprValue, error) {
	e.skip()
	switch {
	case e.eat("-"):
		v, err := e.unary()
		if err != nil || v.lanes != nil {
			return v, notVector(v, err)
		}
		e.lv = nil
		if v.float {
			return floatValue(-v.f()), nil
		}
		return apply("-", intValue(0, v.size), v)
	case e.eat("~"):
		v, err := e.unary()
		if err != nil || v.lanes != nil {
			return v, notVector(v, err)
		}
		e.lv = nil
		return apply("^", v, intValue(^uint64(0), v.size))
	case e.eat("*"):
		return e.deref()
	case e.eat("("):
		v, err := e.binary(0)
		if err != nil {
			return v, err
		}
		if !e.eat(")") {
			return v, fmt.Errorf("missing ) in %q", e.src)
		}
		return v, nil
	}
	return e.primary()
}

func notVector(v exprValue, err error) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("%s is a vector: name a lane, as in %s[5]", v.name, v.name)
}

// deref reads memory: *(TYPE*)ADDR, or *ADDR as a uint.
func (e *evaluator) deref() (exprValue, error) {
	typ := memTypes["uint"]
	save := e.pos
	if e.eat("(") {
		e.skip()
		start := e.pos
		for e.pos < len(e.src) && (isIdent(e.src[e.pos]) || e.src[e.pos] == ' ') {
			e.pos++
		}
		name := strings.Join(strings.Fields(e.src[start:e.pos]), " ")
		t, ok := memTypes[name]
		if rest, cut := strings.CutPrefix(name, "unsigned "); cut && !ok {
			t, ok = memTypes[rest]
			t.signed = false
		}
		if ok && e.eat("*") && e.eat(")") {
			typ = t
		} else {
			e.pos = save // *(ADDR): a parenthesised address
		}
	}
	a, err := e.unary()
	if err != nil {
		return a, err
	}
	if a.lanes != nil || a.float {
		return a, fmt.Errorf("cannot read memory at a %s address", map[bool]string{true: "vector", false: "float"}[a.lanes != nil])
	}
	v, err := readTyped(e.d, a.bits, typ)
	e.lv = &lvalue{addr: a.bits, typ: typ}
	return v, err
}

// readTyped reads one value of type t from global memory.
func readTyped(d Debuggee, addr uint64, t memType) (exprValue, error) {
	b, valid := d.ReadMem(addr, t.size, false)
	for _, ok := range valid {
		if !ok {
			return exprValue{}, fmt.Errorf("cannot read %d bytes at 0x%x: not mapped", t.size, addr)
		}
	}
	var buf [8]byte
	copy(buf[:], b)
	v := binary.LittleEndian.Uint64(buf[:])
	if t.signed && t.size < 8 && v>>(8*t.size-1)&1 == 1 {
		v |= ^uint64(0) << (8 * t.size) // sign-extend to 64 bits
		return exprValue{bits: v, size: 8, name: fmt.Sprintf("0x%x", addr)}, nil
	}
	return exprValue{bits: v, float: t.float, size: max(t.size, 4), name: fmt.Sprintf("0x%x", addr)}, nil
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '$'
}

func (e *evaluator) primary() (exprValue, error) {
	e.skip()
	start := e.pos
	for e.pos < len(e.src) && isIdent(e.src[e.pos]) {
		e.pos++
	}
	// A lane or an SGPR pair: v3[5], s[4:5].
	if e.pos < len(e.src) && e.src[e.pos] == '[' {
		if end := strings.IndexByte(e.src[e.pos:], ']'); end > 0 {
			e.pos += end + 1
		}
	}
	tok := e.src[start:e.pos]
	if tok == "" {
		if e.pos >= len(e.src) {
			return exprValue{}, fmt.Errorf("%q ends early", e.src)
		}
		return exprValue{}, fmt.Errorf("unexpected %q at column %d of %q", e.src[e.pos:], e.pos+1, e.src)
	}
	if c := tok[0]; c >= '0' && c <= '9' {
		return parseNumber(tok)
	}
	if tok[0] == '$' {
		if n, err := strconv.Atoi(tok[1:]); err == nil || tok == "$" {
			if tok == "$" {
				n = len(e.vals)
			}
			if n < 1 || n > len(e.vals) {
				return exprValue{}, fmt.Errorf("no value %s (print has made %d)", tok, len(e.vals))
			}
			return e.vals[n-1], nil
		}
	}
	return e.name(strings.TrimPrefix(tok, "$"))
}

func parseNumber(tok string) (exprValue, error) {
	low := strings.ToLower(tok)
	if !strings.HasPrefix(low, "0x") && strings.ContainsAny(low, ".e") {
		f, err := strconv.ParseFloat(strings.TrimSuffix(low, "f"), 64)
		if err != nil {
			return exprValue{}, fmt.Errorf("bad number %q", tok)
		}
		return floatValue(f), nil
	}
	v, err := strconv.ParseUint(tok, 0, 64)
	if err != nil {
		return exprValue{}, fmt.Errorf("bad number %q", tok)
	}
	size := 4
	if v > math.MaxUint32 {
		size = 8
	}
	return intValue(v, size), nil
}

// name reads a register, a register pair or a counter.
func (e *evaluator) name(n string) (exprValue, error) {
	low := strings.ToLower(n)
	pair := func(lo RegRef) (exprValue, error) {
		hi := lo
		hi.Num++
		a, err := e.d.Reg(lo)
		if err != nil {
			return exprValue{}, err
		}
		b, err := e.d.Reg(hi)
		if err != nil {
			return exprValue{}, err
		}
		e.lv = &lvalue{reg: &lo, pair: true}
		return exprValue{bits: uint64(b)<<32 | uint64(a), size: 8, name: n}, nil
	}
	switch low {
	case "exec", "vcc":
		r, _ := ParseRegRef(low + "_lo")
		return pair(r)
	case "pc":
		pc, ok := e.d.PC()
		if !ok {
			return exprValue{}, fmt.Errorf("the wave has ended: no pc")
		}
		return intValue(pc, 8), nil
	}
	if v, ok := counterValue(e.f, low); ok {
		return intValue(v, 8), nil
	}
	for _, b := range e.d.Buffers() {
		if b.Is(n) {
			return intValue(b.Addr, 8), nil // a buffer's name is its address
		}
	}
	if strings.HasPrefix(low, "s[") {
		var lo, hi int
		if _, err := fmt.Sscanf(low, "s[%d:%d]", &lo, &hi); err != nil || hi != lo+1 {
			return exprValue{}, fmt.Errorf("bad register pair %q (want s[4:5])", n)
		}
		return pair(RegRef{File: 's', Num: lo, Lane: -1})
	}
	r, err := ParseRegRef(low)
	if err != nil {
		return exprValue{}, fmt.Errorf("no register or counter %q", n)
	}
	if r.File == 'v' && r.Lane < 0 {
		out := exprValue{lanes: make([]uint32, 64), name: n, size: 4}
		for l := range out.lanes {
			lr := r
			lr.Lane = l
			if out.lanes[l], err = e.d.Reg(lr); err != nil {
				return exprValue{}, err
			}
		}
		e.lv = &lvalue{reg: &r}
		return out, nil
	}
	v, err := e.d.Reg(r)
	if err != nil {
		return exprValue{}, err
	}
	e.lv = &lvalue{reg: &r}
	return exprValue{bits: uint64(v), size: 4, name: n}, nil
}

func counterValue(f *Frame, n string) (uint64, bool) {
	c := &f.Counters
	switch n {
	case "cycle", "cycles":
		return c.Cycle, true
	case "vmcnt":
		return uint64(c.VM), true
	case "lgkmcnt":
		return uint64(c.LGKM), true
	case "expcnt":
		return uint64(c.EXP), true
	}
	return 0, false
}

// formatValue prints v in gdb's /x, /d, /u, /f or /t format (0: natural).
func formatExpr(v exprValue, f byte) string {
	if v.lanes != nil {
		parts := make([]string, len(v.lanes))
		for i, l := range v.lanes {
			parts[i] = formatExpr(exprValue{bits: uint64(l), size: 4}, f)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	bits := v.bits
	if v.size < 8 {
		bits &= 1<<(8*v.size) - 1
	}
	switch f {
	case 'x':
		if v.float && v.size == 8 {
			return fmt.Sprintf("0x%x", v.i())
		}
		return fmt.Sprintf("0x%x", bits)
	case 'd':
		if v.float {
			return strconv.FormatInt(int64(v.f()), 10)
		}
		if v.size == 8 {
			return strconv.FormatInt(int64(bits), 10)
		}
		return strconv.FormatInt(int64(int32(uint32(bits))), 10)
	case 'u':
		return strconv.FormatUint(v.i(), 10)
	case 't':
		return strconv.FormatUint(bits, 2)
	case 'f':
		if v.float {
			return strconv.FormatFloat(v.f(), 'g', -1, 64)
		}
		if v.size == 8 {
			return strconv.FormatFloat(math.Float64frombits(bits), 'g', -1, 64)
		}
		return strconv.FormatFloat(float64(math.Float32frombits(uint32(bits))), 'g', -1, 32)
	}
	if v.float {
		return strconv.FormatFloat(v.f(), 'g', -1, 64)
	}
	return strconv.FormatUint(bits, 10)
}

// assign parses "LHS = EXPR" and stores the value through the debuggee.
func (m *Model) assign(s string) (string, error) {
	lhs, rhs, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(rhs) == "" {
		return "", fmt.Errorf("want: set LHS = EXPR")
	}
	e := &evaluator{d: m.dbg, f: &m.frame, src: strings.TrimSpace(lhs)}
	if _, err := e.parse(); err != nil {
		return "", err
	}
	lv := e.lv
	if lv == nil {
		return "", fmt.Errorf("cannot assign to %q: not a register, lane or memory", strings.TrimSpace(lhs))
	}
	v, err := m.evalExpr(rhs)
	if err != nil {
		return "", err
	}
	if v.lanes != nil {
		return "", notVector(v, nil)
	}
	switch {
	case lv.reg != nil && lv.pair:
		hi := *lv.reg
		hi.Num++
		if err := m.dbg.SetReg(*lv.reg, uint32(v.i())); err != nil {
			return "", err
		}
		err = m.dbg.SetReg(hi, uint32(v.i()>>32))
	case lv.reg != nil:
		bits := uint32(v.bits)
		if v.float {
			bits = math.Float32bits(float32(v.f()))
		}
		err = m.dbg.SetReg(*lv.reg, bits)
	default:
		var buf [8]byte
		bits := v.i()
		switch {
		case lv.typ.float && lv.typ.size == 4:
			bits = uint64(math.Float32bits(float32(v.f())))
		case lv.typ.float:
			bits = math.Float64bits(v.f())
		}
		binary.LittleEndian.PutUint64(buf[:], bits)
		err = m.dbg.WriteMem(lv.addr, buf[:lv.typ.size], false)
	}
	if err != nil {
		return "", err
	}
	if v.float {
		return fmt.Sprintf("%s = %s", strings.TrimSpace(lhs), formatExpr(v, 0)), nil
	}
	return fmt.Sprintf("%s = %s", strings.TrimSpace(lhs), formatExpr(v, 'x')), nil
}

func compare[T uint64 | float64](op string, a, b T) bool {
	switch op {
	case "==":
		return a == b
	case "!=":
		return a != b
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	}
	return a >= b
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

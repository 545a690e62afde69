package asm

import (
	"strconv"
	"strings"
)

// A value is an expression's result: an absolute number (sec nil) or an
// offset in a section, as a label is.
type value struct {
	v   int64
	sec *section
}

// lookupFunc resolves a symbol name; ok false means undefined.
type lookupFunc func(name string) (value, bool)

// binPrec is llvm-mc's GNU precedence of each binary operator.
var binPrec = map[string]int{
	"||": 1, "&&": 2,
	"==": 3, "!=": 3, "<>": 3, "<": 3, "<=": 3, ">": 3, ">=": 3,
	"+": 4, "-": 4,
	"|": 5, "^": 5, "&": 5,
	"*": 6, "/": 6, "%": 6, "<<": 6, ">>": 6,
}

// binOp peeks at a binary operator, returning it and its precedence.
func (sc *scanner) binOp() (string, int) {
	sc.skipSpace()
	if sc.pos >= len(sc.s) {
		return "", 0
	}
	if sc.pos+1 < len(sc.s) {
		if p, ok := binPrec[sc.s[sc.pos:sc.pos+2]]; ok {
			return sc.s[sc.pos : sc.pos+2], p
		}
	}
	if p, ok := binPrec[sc.s[sc.pos:sc.pos+1]]; ok {
		return sc.s[sc.pos : sc.pos+1], p
	}
	return "", 0
}

// expr parses and evaluates an expression.
func (sc *scanner) expr(look lookupFunc) (value, error) {
	return sc.binary(look, 1)
}

// absExpr parses an expression that must be absolute.
func (sc *scanner) absExpr(look lookupFunc) (int64, error) {
	sc.skipSpace()
	col := sc.col()
	v, err := sc.expr(look)
	if err != nil {
		return 0, err
	}
	if v.sec != nil {
		return 0, errAt(col, "expected absolute expression")
	}
	return v.v, nil
}

func (sc *scanner) binary(look lookupFunc, minPrec int) (value, error) {
	lhs, err := sc.unary(look)
	if err != nil {
		return lhs, err
	}
	for {
		op, p := sc.binOp()
		if p < minPrec || p == 0 {
			return lhs, nil
		}
		col := sc.col()
		sc.pos += len(op)
		rhs, err := sc.binary(look, p+1)
		if err != nil {
			return lhs, err
		}
		if lhs, err = apply(op, lhs, rhs, col); err != nil {
			return lhs, err
		}
	}
}

// apply evaluates one binary operation; only + and - accept section
// offsets, and a difference of two offsets in one section is absolute.
func apply(op string, a, b value, col int) (value, error) {
	switch {
	case op == "+" && (a.sec == nil || b.sec == nil):
		s := a.sec
		if s == nil {
			s = b.sec
		}
		return value{a.v + b.v, s}, nil
	case op == "-" && b.sec == nil:
		return value{a.v - b.v, a.sec}, nil
	case op == "-" && a.sec == b.sec:
		return value{a.v - b.v, nil}, nil
	case a.sec != nil || b.sec != nil:
		return value{}, errAt(col, "expected absolute expression")
	}
	x, y := a.v, b.v
	t := func(c bool) value {
		if c {
			return value{v: 1}
		}
		return value{}
	}
	switch op {
	case "*":
		return value{v: x * y}, nil
	case "/", "%":
		if y == 0 {
			return value{}, errAt(col, "division by zero")
		}
		if op == "/" {
			return value{v: x / y}, nil
		}
		return value{v: x % y}, nil
	case "<<":
		return value{v: x << uint64(y&63)}, nil
	case ">>":
		return value{v: x >> uint64(y&63)}, nil
	case "|":
		return value{v: x | y}, nil
	case "^":
		return value{v: x ^ y}, nil
	case "&":
		return value{v: x & y}, nil
	case "+":
		return value{v: x + y}, nil
	case "-":
		return value{v: x - y}, nil
	case "==":
		return t(x == y), nil
	case "!=", "<>":
		return t(x != y), nil
	case "<":
		return t(x < y), nil
	case "<=":
		return t(x <= y), nil
	case ">":
		return t(x > y), nil
	case ">=":
		return t(x >= y), nil
	case "&&":
		return t(x != 0 && y != 0), nil
	}
	return t(x != 0 || y != 0), nil // "||"
}

func (sc *scanner) unary(look lookupFunc) (value, error) {
	sc.skipSpace()
	if sc.pos >= len(sc.s) {
		return value{}, errAt(sc.col(), "unknown token in expression")
	}
	col := sc.col()
	switch c := sc.s[sc.pos]; c {
	case '-', '~', '!', '+':
		sc.pos++
		v, err := sc.unary(look)
		if err != nil {
			return v, err
		}
		if v.sec != nil && c != '+' {
			return v, errAt(col, "expected absolute expression")
		}
		switch c {
		case '-':
			v.v = -v.v
		case '~':
			v.v = ^v.v
		case '!':
			if v.v == 0 {
				v.v = 1
			} else {
				v.v = 0
			}
		}
		return v, nil
	case '(':
		sc.pos++
		v, err := sc.expr(look)
		if err != nil {
			return v, err
		}
		if !sc.accept(')') {
			return v, errAt(sc.col(), "expected ')' in parentheses expression")
		}
		return v, nil
	case '\'':
		if sc.pos+2 < len(sc.s) && sc.s[sc.pos+2] == '\'' {
			v := int64(sc.s[sc.pos+1])
			sc.pos += 3
			return value{v: v}, nil
		}
	}
	if c := sc.s[sc.pos]; c >= '0' && c <= '9' {
		return sc.number()
	}
	name := sc.ident()
	if name == "" {
		return value{}, errAt(col, "unknown token in expression")
	}
	v, ok := look(name)
	if !ok {
		return value{}, errAt(col, "undefined symbol '%s'", name)
	}
	return v, nil
}

// number parses an integer literal in llvm-mc's forms: decimal, 0x hex,
// 0b binary and 0-prefixed octal.
func (sc *scanner) number() (value, error) {
	col := sc.col()
	i := sc.pos
	for i < len(sc.s) && isIdentChar(sc.s[i]) {
		i++
	}
	lit := sc.s[sc.pos:i]
	sc.pos = i
	digits, base := lit, 10
	switch l := strings.ToLower(lit); {
	case strings.HasPrefix(l, "0x"):
		digits, base = lit[2:], 16
	case strings.HasPrefix(l, "0b"):
		digits, base = lit[2:], 2
	case len(l) > 1 && l[0] == '0':
		digits, base = lit[1:], 8
	}
	u, err := strconv.ParseUint(digits, base, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return value{}, errAt(col, "literal value out of range")
		}
		return value{}, errAt(col, "invalid literal %q", lit)
	}
	return value{v: int64(u)}, nil
}

package samples

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A small expression language for the per-lane and per-dword values a
// claim expects: integers and floats, + - * / % >> & and parentheses,
// the variables lane, i and group, and the functions float(x) (to a
// float), u32(x) (wrap to 32 bits) and f32(x) (the bits of float32(x)).
// Integer / is integer division; a float operand makes an operation float.

// val is an expression's value: an integer, or a float when isFloat.
type val struct {
	i       int64
	f       float64
	isFloat bool
}

func (v val) float() float64 {
	if v.isFloat {
		return v.f
	}
	return float64(v.i)
}

// expr is a parsed expression.
type expr interface {
	eval(vars map[string]int64) (val, error)
}

type (
	num   val
	ident string
	binOp struct {
		op   string
		l, r expr
	}
	call struct {
		fn  string
		arg expr
	}
)

func (n num) eval(map[string]int64) (val, error) { return val(n), nil }

func (id ident) eval(vars map[string]int64) (val, error) {
	v, ok := vars[string(id)]
	if !ok {
		return val{}, fmt.Errorf("%s is not defined here", id)
	}
	return val{i: v}, nil
}

func (b binOp) eval(vars map[string]int64) (val, error) {
	l, err := b.l.eval(vars)
	if err != nil {
		return val{}, err
	}
	r, err := b.r.eval(vars)
	if err != nil {
		return val{}, err
	}
	if l.isFloat || r.isFloat {
		x, y := l.float(), r.float()
		switch b.op {
		case "+":
			return val{f: x + y, isFloat: true}, nil
		case "-":
			return val{f: x - y, isFloat: true}, nil
		case "*":
			return val{f: x * y, isFloat: true}, nil
		case "/":
			return val{f: x / y, isFloat: true}, nil
		}
		return val{}, fmt.Errorf("%s needs integers", b.op)
	}
	x, y := l.i, r.i
	switch b.op {
	case "+":
		return val{i: x + y}, nil
	case "-":
		return val{i: x - y}, nil
	case "*":
		return val{i: x * y}, nil
	case "/", "%":
		if y == 0 {
			return val{}, fmt.Errorf("division by zero")
		}
		if b.op == "/" {
			return val{i: x / y}, nil
		}
		return val{i: x % y}, nil
	case ">>":
		return val{i: x >> uint(y&63)}, nil
	case "&":
		return val{i: x & y}, nil
	}
	return val{}, fmt.Errorf("unknown operator %s", b.op)
}

func (c call) eval(vars map[string]int64) (val, error) {
	v, err := c.arg.eval(vars)
	if err != nil {
		return val{}, err
	}
	switch c.fn {
	case "float":
		return val{f: v.float(), isFloat: true}, nil
	case "u32":
		if v.isFloat {
			return val{}, fmt.Errorf("u32 of a float")
		}
		return val{i: int64(uint32(v.i))}, nil
	case "f32":
		return val{i: int64(math.Float32bits(float32(v.float())))}, nil
	}
	return val{}, fmt.Errorf("unknown function %s", c.fn)
}

// parseExpr parses s.
func parseExpr(s string) (expr, error) {
	p := &exprParser{toks: tokenize(s)}
	e, err := p.sum(0)
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) {
		return nil, fmt.Errorf("unexpected %q in %q", p.toks[p.pos], s)
	}
	return e, nil
}

func tokenize(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '>' && i+1 < len(s) && s[i+1] == '>':
			out = append(out, ">>")
			i += 2
		case strings.IndexByte("+-*/%&()", c) >= 0:
			out = append(out, string(c))
			i++
		default:
			j := i
			for j < len(s) && (isWord(s[j]) || s[j] == '.') {
				j++
			}
			if j == i {
				j++ // an unknown character: its own token, rejected by the parser
			}
			out = append(out, s[i:j])
			i = j
		}
	}
	return out
}

func isWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

type exprParser struct {
	toks []string
	pos  int
}

// levels are the binary operators by precedence, loosest first.
var levels = [][]string{{"&"}, {">>"}, {"+", "-"}, {"*", "/", "%"}}

func (p *exprParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *exprParser) sum(level int) (expr, error) {
	if level == len(levels) {
		return p.atom()
	}
	l, err := p.sum(level + 1)
	if err != nil {
		return nil, err
	}
	for {
		op := p.peek()
		found := false
		for _, o := range levels[level] {
			found = found || o == op
		}
		if !found {
			return l, nil
		}
		p.pos++
		r, err := p.sum(level + 1)
		if err != nil {
			return nil, err
		}
		l = binOp{op, l, r}
	}
}

func (p *exprParser) atom() (expr, error) {
	t := p.peek()
	p.pos++
	switch {
	case t == "":
		return nil, fmt.Errorf("unexpected end of expression")
	case t == "(":
		e, err := p.sum(0)
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, fmt.Errorf("missing )")
		}
		p.pos++
		return e, nil
	case t == "-":
		e, err := p.atom()
		if err != nil {
			return nil, err
		}
		return binOp{"-", num{}, e}, nil
	case '0' <= t[0] && t[0] <= '9':
		if strings.ContainsAny(t, ".") && !strings.HasPrefix(t, "0x") {
			f, err := strconv.ParseFloat(t, 64)
			if err != nil {
				return nil, fmt.Errorf("bad number %q", t)
			}
			return num{f: f, isFloat: true}, nil
		}
		n, err := strconv.ParseUint(t, 0, 64)
		if err != nil {
			return nil, fmt.Errorf("bad number %q", t)
		}
		return num{i: int64(n)}, nil
	case isWord(t[0]) && p.peek() == "(":
		p.pos++
		arg, err := p.sum(0)
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, fmt.Errorf("missing ) after %s(", t)
		}
		p.pos++
		switch t {
		case "float", "u32", "f32":
			return call{t, arg}, nil
		}
		return nil, fmt.Errorf("unknown function %s", t)
	case isWord(t[0]):
		return ident(t), nil
	}
	return nil, fmt.Errorf("unexpected %q", t)
}

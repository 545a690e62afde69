package isa

// Integer expressions in operands, as LLVM's assembler evaluates them:
// numbers and symbols (AsmEnv.Symbol) joined by * / % << >> & ^ + - with
// llvm-mc's GNU precedence (* / % << >> bind tightest, then & ^, then + -;
// 1<<2+1 is 5), unary - and ~, and parentheses: s_movk_i32 s0, N*4+1,
// s_branch loop+4. A symbol makes the value an address (addr), which a
// branch turns into an offset from PC+4.

// binaryOp returns the operator at a.pos and its precedence, or 0.
func (a *asmLine) binaryOp() (string, int) {
	if a.pos >= len(a.text) {
		return "", 0
	}
	switch c := a.text[a.pos]; c {
	case '*', '/', '%':
		return string(c), 6
	case '<', '>':
		if a.pos+1 < len(a.text) && a.text[a.pos+1] == c {
			return a.text[a.pos : a.pos+2], 6
		}
	case '&', '^':
		return string(c), 5
	case '+', '-':
		return string(c), 4
	}
	return "", 0
}

// exprRest continues an expression whose first term is v (addr: it holds
// a symbol) with the binary operators of precedence at least min.
func (a *asmLine) exprRest(v int64, addr bool, min int) (int64, bool, error) {
	for {
		save := a.pos
		a.skipSpace()
		op, prec := a.binaryOp()
		if prec == 0 || prec < min {
			a.pos = save
			return v, addr, nil
		}
		a.pos += len(op)
		a.skipSpace()
		r, raddr, err := a.exprTerm()
		if err != nil {
			return 0, false, err
		}
		for {
			s2 := a.pos
			a.skipSpace()
			_, p2 := a.binaryOp()
			a.pos = s2
			if p2 <= prec {
				break
			}
			if r, raddr, err = a.exprRest(r, raddr, p2); err != nil {
				return 0, false, err
			}
		}
		switch op {
		case "*":
			v *= r
		case "/", "%":
			if r == 0 {
				return 0, false, a.errHere("division by zero")
			}
			if op == "/" {
				v /= r
			} else {
				v %= r
			}
		case "+":
			v += r
		case "-":
			v -= r
			if addr && raddr { // label - label is a plain number
				addr, raddr = false, false
			}
		case "<<":
			v <<= uint(r & 63)
		case ">>":
			v >>= uint(r & 63)
		case "&":
			v &= r
		case "^":
			v ^= r
		}
		addr = addr || raddr
	}
}

// exprTerm parses one term: a number, a symbol, (expr), -term or ~term.
func (a *asmLine) exprTerm() (int64, bool, error) {
	c := a.peek()
	col := a.pos + 1
	if a.depth++; a.depth > 64 {
		return 0, false, &AsmError{Col: col, Msg: "expression too deeply nested"}
	}
	defer func() { a.depth-- }()
	switch {
	case c == '(':
		a.pos++
		v, addr, err := a.exprTerm()
		if err == nil {
			v, addr, err = a.exprRest(v, addr, 1)
		}
		if err != nil {
			return 0, false, err
		}
		if a.peek() != ')' {
			return 0, false, a.errHere("expected ')'")
		}
		a.pos++
		return v, addr, nil
	case c == '-' || c == '~':
		a.pos++
		v, addr, err := a.exprTerm()
		if c == '-' {
			return -v, addr, err
		}
		return ^v, addr, err
	case c >= '0' && c <= '9':
		var o asmOp
		if err := a.number(&o); err != nil {
			return 0, false, err
		}
		if o.kind != opInt {
			return 0, false, &AsmError{Col: col, Msg: "expected an integer"}
		}
		return o.val, false, nil
	}
	id := a.ident()
	if id == "" {
		return 0, false, &AsmError{Col: col, Msg: "unknown token in expression"}
	}
	if a.env != nil && a.env.Symbol != nil {
		if v, ok := a.env.Symbol(id); ok {
			return v, true, nil
		}
	}
	return 0, false, &AsmError{Col: col, Msg: "undefined symbol " + id}
}

// moreExpr reports whether a binary operator follows at a.pos (after
// blanks), so that the operand just read is the start of an expression.
func (a *asmLine) moreExpr() bool {
	save := a.pos
	a.skipSpace()
	_, prec := a.binaryOp()
	a.pos = save
	return prec > 0 // | is not an operator here: it closes an abs
}

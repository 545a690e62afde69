package asm

import (
	"strconv"
	"strings"

	"github.com/wavedbg/wavedbg/isa"
)

// This file rewrites an instruction's text before isa.Assemble reads it:
// operands that are expressions of .set symbols or label differences are
// folded to their values. isa.Assemble evaluates expressions too, but only
// with + - * / % << >> & ^ ~ and without sections; folding with the file's
// evaluator (expr.go, which directives need anyway) adds | and the
// comparisons and checks that the value is absolute.

// foldOperands folds each operand of text (not of a branch, whose label
// isa.Assemble resolves) that is an expression naming a symbol and comes
// out absolute: "s_movk_i32 s0, COUNT*4" becomes "s_movk_i32 s0, 12".
// It returns "" when nothing was folded.
func (a *assembler) foldOperands(text string) string {
	sp := strings.IndexAny(text, " \t")
	if sp < 0 || isBranch(text) || !strings.ContainsAny(text[sp:], "+-*/%<>&|^~!()") || !a.namesSymbol(text[sp:]) {
		return ""
	}
	var b strings.Builder
	b.WriteString(text[:sp])
	changed, start, depth := false, sp, 0
	flush := func(end int) {
		op := text[start:end]
		if v, ok := a.foldOne(op); ok {
			lead := op[:len(op)-len(strings.TrimLeft(op, " \t"))]
			b.WriteString(lead + strconv.FormatInt(v, 10))
			changed = true
		} else {
			b.WriteString(op)
		}
	}
	for i := sp; i < len(text); i++ {
		switch text[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',':
			if depth == 0 {
				flush(i)
				b.WriteByte(',')
				start = i + 1
			}
		}
	}
	flush(len(text))
	if !changed {
		return ""
	}
	return b.String()
}

// namesSymbol reports whether s has an identifier that is a symbol of
// the file (this pass's or the last's).
func (a *assembler) namesSymbol(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isIdentStart(s[i]) || i > 0 && (isIdentChar(s[i-1]) || s[i-1] >= '0' && s[i-1] <= '9') {
			continue
		}
		j := i + 1
		for j < len(s) && isIdentChar(s[j]) {
			j++
		}
		if _, ok := a.syms[s[i:j]]; ok {
			return true
		}
		if _, ok := a.prev[s[i:j]]; ok {
			return true
		}
		i = j - 1
	}
	return false
}

// foldOne evaluates one operand that is an expression with an operator
// and at least one symbol of the file, all of it absolute.
func (a *assembler) foldOne(op string) (int64, bool) {
	t := strings.TrimSpace(op)
	if t == "" || !strings.ContainsAny(t, "+-*/%<>&|^~!()") {
		return 0, false
	}
	named := false
	for i := 0; i < len(t); i++ {
		if isIdentStart(t[i]) && (i == 0 || !isIdentChar(t[i-1]) && (t[i-1] < '0' || t[i-1] > '9')) {
			j := i + 1
			for j < len(t) && isIdentChar(t[j]) {
				j++
			}
			name := t[i:j]
			if _, ok := a.syms[name]; !ok {
				if _, ok := a.prev[name]; !ok {
					return 0, false // a register, a modifier or a function
				}
			}
			named, i = true, j-1
		}
	}
	if !named {
		return 0, false
	}
	sc := scanner{s: t}
	v, err := sc.expr(a.lookup)
	if err != nil || !sc.eol() || v.sec != nil {
		return 0, false
	}
	return v.v, true
}

// errMessage is an error's message without isa.AsmError's column.
func errMessage(err error) string {
	if ae, ok := err.(*isa.AsmError); ok {
		return ae.Msg
	}
	return err.Error()
}

// isBranch reports whether text is a branch, which takes a label.
func isBranch(text string) bool {
	return strings.HasPrefix(text, "s_cbranch") || strings.HasPrefix(text, "s_branch") || strings.HasPrefix(text, "s_call_b64")
}

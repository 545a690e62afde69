package asm

import (
	"fmt"
	"strings"
)

// An Error is one assembly error, located as llvm-mc locates it.
type Error struct {
	File      string
	Line, Col int    // 1-based
	Msg       string // without the "error: " prefix
	Source    string // the line's text, for the caret form
}

// Error is "file:line:col: error: message", llvm-mc's first line.
func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: error: %s", e.File, e.Line, e.Col, e.Msg)
}

// Caret is llvm-mc's full report: the error line, the source line and a
// caret under the column.
func (e *Error) Caret() string {
	var b strings.Builder
	b.WriteString(e.Error())
	b.WriteByte('\n')
	b.WriteString(e.Source)
	b.WriteByte('\n')
	for i := 0; i < e.Col-1 && i < len(e.Source); i++ {
		if e.Source[i] == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteString("^\n")
	return b.String()
}

// maxErrors bounds the errors one run reports.
const maxErrors = 20

// ErrorList is every error of a file, in line order; at most maxErrors.
type ErrorList []*Error

// Error joins the errors' first lines.
func (l ErrorList) Error() string {
	s := make([]string, len(l))
	for i, e := range l {
		s[i] = e.Error()
	}
	return strings.Join(s, "\n")
}

// Caret joins the errors in llvm-mc's caret form.
func (l ErrorList) Caret() string {
	var b strings.Builder
	for _, e := range l {
		b.WriteString(e.Caret())
	}
	return b.String()
}

// posError is an error at a column of the current line, raised by the
// directive and expression parsers.
type posError struct {
	col int
	msg string
}

func (e *posError) Error() string { return e.msg }

func errAt(col int, format string, args ...any) *posError {
	return &posError{col: col, msg: fmt.Sprintf(format, args...)}
}

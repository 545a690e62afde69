package asm

import (
	"strconv"
	"strings"
)

// stripComments blanks the comments of line: ";" and "//" to the end of
// the line, "/* … */" (which may span lines: *inBlock carries the state),
// and a "#" that starts a statement, as llvm-mc's AMDGPU lexer does.
// Blanking keeps every column where it was.
func stripComments(line string, inBlock *bool) string {
	var b []byte // copied on the first change
	set := func(i int, c byte) {
		if b == nil {
			b = []byte(line)
		}
		b[i] = c
	}
	start := true // only blanks so far
	for i := 0; i < len(line); i++ {
		c := line[i]
		if *inBlock {
			if c == '*' && i+1 < len(line) && line[i+1] == '/' {
				*inBlock = false
				set(i, ' ')
				set(i+1, ' ')
				i++
				continue
			}
			if c != '\t' {
				set(i, ' ')
			}
			continue
		}
		switch {
		case c == '"':
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' {
					i++
				}
			}
		case c == ';', c == '#' && start, c == '/' && i+1 < len(line) && line[i+1] == '/':
			if b == nil {
				return line[:i]
			}
			return string(b[:i])
		case c == '/' && i+1 < len(line) && line[i+1] == '*':
			*inBlock = true
			set(i, ' ')
			set(i+1, ' ')
			i++
			continue
		}
		if c != ' ' && c != '\t' {
			start = false
		}
	}
	if b == nil {
		return line
	}
	return string(b)
}

// isIdentStart and isIdentChar follow llvm-mc's identifiers.
func isIdentStart(c byte) bool {
	return c == '_' || c == '.' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentChar(c byte) bool {
	return isIdentStart(c) || c >= '0' && c <= '9' || c == '@'
}

// scanner walks one statement's text; pos indexes the line, so pos+1 is a
// column.
type scanner struct {
	s   string
	pos int
}

func (sc *scanner) col() int { return sc.pos + 1 }

func (sc *scanner) skipSpace() {
	for sc.pos < len(sc.s) && (sc.s[sc.pos] == ' ' || sc.s[sc.pos] == '\t' || sc.s[sc.pos] == '\r') {
		sc.pos++
	}
}

// eol reports whether only blanks remain.
func (sc *scanner) eol() bool {
	sc.skipSpace()
	return sc.pos >= len(sc.s)
}

// peek is the next non-blank byte, or 0 at the end.
func (sc *scanner) peek() byte {
	sc.skipSpace()
	if sc.pos >= len(sc.s) {
		return 0
	}
	return sc.s[sc.pos]
}

// accept consumes c if it is next.
func (sc *scanner) accept(c byte) bool {
	if sc.peek() == c {
		sc.pos++
		return true
	}
	return false
}

// ident consumes an identifier, or returns "" and consumes nothing.
func (sc *scanner) ident() string {
	sc.skipSpace()
	i := sc.pos
	if i >= len(sc.s) || !isIdentStart(sc.s[i]) {
		return ""
	}
	for i++; i < len(sc.s) && isIdentChar(sc.s[i]); i++ {
	}
	id := sc.s[sc.pos:i]
	sc.pos = i
	return id
}

// str consumes a double-quoted string and returns its value.
func (sc *scanner) str() (string, error) {
	sc.skipSpace()
	start := sc.pos
	if sc.pos >= len(sc.s) || sc.s[sc.pos] != '"' {
		return "", errAt(sc.col(), "expected string")
	}
	i := sc.pos + 1
	for ; i < len(sc.s) && sc.s[i] != '"'; i++ {
		if sc.s[i] == '\\' {
			i++
		}
	}
	if i >= len(sc.s) {
		return "", errAt(start+1, "expected string")
	}
	sc.pos = i + 1
	v, err := strconv.Unquote(sc.s[start:sc.pos])
	if err != nil {
		return sc.s[start+1 : i], nil
	}
	return v, nil
}

// expectEOL fails unless the statement ends here.
func (sc *scanner) expectEOL() error {
	if !sc.eol() {
		return errAt(sc.col(), "expected newline")
	}
	return nil
}

// expectComma consumes a comma or fails.
func (sc *scanner) expectComma() error {
	if !sc.accept(',') {
		return errAt(sc.col(), "unexpected token")
	}
	return nil
}

// splitLabel returns the label that starts stmt (from column off), if
// any, and where the rest begins.
func splitLabel(stmt string, off int) (label string, rest int) {
	i := off
	if i >= len(stmt) || !isIdentStart(stmt[i]) && stmt[i] != '"' {
		return "", off
	}
	if stmt[i] == '"' {
		j := strings.IndexByte(stmt[i+1:], '"')
		if j < 0 || i+j+2 >= len(stmt) || stmt[i+j+2] != ':' {
			return "", off
		}
		return stmt[i+1 : i+1+j], i + j + 3
	}
	for i++; i < len(stmt) && isIdentChar(stmt[i]); i++ {
	}
	if i < len(stmt) && stmt[i] == ':' {
		return stmt[off:i], i + 1
	}
	return "", off
}

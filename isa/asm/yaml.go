package asm

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// parseYAML reads the YAML subset AMDGPU metadata is written in (block
// and flow mappings and sequences, plain and quoted scalars, !str-style
// tags) into a document, typing scalars as LLVM's msgpack::DocNode does.
// Errors give line numbers counted from first.
func parseYAML(text string, first int) (*node, error) {
	p := &yamlParser{}
	for i, l := range strings.Split(text, "\n") {
		i += first - 1
		t := strings.TrimRight(l, " \t\r")
		trim := strings.TrimLeft(t, " ")
		if trim == "" || trim[0] == '#' || trim == "---" || trim == "..." || strings.HasPrefix(trim, "--- ") {
			continue
		}
		if strings.HasPrefix(trim, "\t") {
			return nil, fmt.Errorf("line %d: tab in indentation", i+1)
		}
		p.lines = append(p.lines, yline{indent: len(t) - len(trim), text: trim, no: i + 1})
	}
	if len(p.lines) == 0 {
		return &node{kind: kMap}, nil
	}
	n, err := p.block(p.lines[0].indent)
	if err != nil {
		return nil, err
	}
	if p.i < len(p.lines) {
		return nil, fmt.Errorf("line %d: unexpected indentation", p.lines[p.i].no)
	}
	return n, nil
}

type yline struct {
	indent int
	text   string
	no     int
}

type yamlParser struct {
	lines []yline
	i     int
}

// block parses the mapping or sequence whose entries start at indent.
func (p *yamlParser) block(indent int) (*node, error) {
	l := p.lines[p.i]
	if l.text == "-" || strings.HasPrefix(l.text, "- ") {
		return p.sequence(indent)
	}
	return p.mapping(indent)
}

func (p *yamlParser) sequence(indent int) (*node, error) {
	n := &node{kind: kSeq}
	for p.i < len(p.lines) {
		l := &p.lines[p.i]
		if l.indent != indent || !(l.text == "-" || strings.HasPrefix(l.text, "- ")) {
			break
		}
		rest := strings.TrimLeft(strings.TrimPrefix(l.text, "-"), " ")
		if rest == "" {
			p.i++
			v, err := p.child(indent, false)
			if err != nil {
				return nil, err
			}
			n.seq = append(n.seq, v)
			continue
		}
		if _, _, ok := splitKey(rest); ok && rest[0] != '[' && rest[0] != '{' {
			// "- key: value" opens a mapping indented to the key.
			l.indent += len(l.text) - len(rest)
			l.text = rest
			v, err := p.mapping(l.indent)
			if err != nil {
				return nil, err
			}
			n.seq = append(n.seq, v)
			continue
		}
		v, err := p.inline(rest, l.no)
		if err != nil {
			return nil, err
		}
		p.i++
		n.seq = append(n.seq, v)
	}
	return n, nil
}

func (p *yamlParser) mapping(indent int) (*node, error) {
	n := &node{kind: kMap}
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if l.indent < indent {
			break
		}
		if l.indent > indent {
			return nil, fmt.Errorf("line %d: unexpected indentation", l.no)
		}
		k, rest, ok := splitKey(l.text)
		if !ok {
			return nil, fmt.Errorf("line %d: expected \"key: value\"", l.no)
		}
		key, err := scalar(k, l.no)
		if err != nil {
			return nil, err
		}
		p.i++
		var v *node
		if rest == "" {
			v, err = p.child(indent, true)
		} else {
			v, err = p.inline(rest, l.no)
		}
		if err != nil {
			return nil, err
		}
		if key.kind == kStr {
			n.set(key.s, v)
		} else {
			n.keys, n.vals = append(n.keys, key), append(n.vals, v)
		}
	}
	return n, nil
}

// child parses the block under a key or "-" at indent: deeper lines, or
// for a key a sequence at the same indent. Nothing there is an empty
// sequence, as LLVM reads it.
func (p *yamlParser) child(indent int, sameSeq bool) (*node, error) {
	if p.i < len(p.lines) {
		l := p.lines[p.i]
		if l.indent > indent || sameSeq && l.indent == indent && (l.text == "-" || strings.HasPrefix(l.text, "- ")) {
			return p.block(l.indent)
		}
	}
	return &node{kind: kSeq}, nil
}

// inline parses a value written on its line, joining following lines
// while a flow collection is open.
func (p *yamlParser) inline(s string, no int) (*node, error) {
	if s[0] == '[' || s[0] == '{' {
		for depth(s) > 0 && p.i+1 < len(p.lines) {
			p.i++
			s += " " + p.lines[p.i].text
		}
		f := &flow{s: s, no: no}
		v, err := f.value()
		if err != nil {
			return nil, err
		}
		f.skip()
		if f.pos < len(f.s) && f.s[f.pos] != '#' {
			return nil, fmt.Errorf("line %d: unexpected %q after flow collection", no, f.s[f.pos:])
		}
		return v, nil
	}
	if s[0] == '|' || s[0] == '>' {
		return nil, fmt.Errorf("line %d: block scalars are not supported", no)
	}
	return scalar(s, no)
}

// depth is how many flow brackets s leaves open.
func depth(s string) int {
	d, q := 0, byte(0)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '\'' || c == '"':
			q = c
		case c == '[' || c == '{':
			d++
		case c == ']' || c == '}':
			d--
		}
	}
	return d
}

// splitKey splits "key: value" (or "key:") outside quotes.
func splitKey(s string) (key, rest string, ok bool) {
	q := byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case (c == '\'' || c == '"') && i == 0:
			q = c
		case c == ':' && (i+1 == len(s) || s[i+1] == ' '):
			return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:]), true
		case c == ' ' && i+1 < len(s) && s[i+1] == '#':
			return "", "", false
		}
	}
	return "", "", false
}

// scalar types one scalar, with an optional tag, as DocNode::fromString.
func scalar(s string, no int) (*node, error) {
	tag := ""
	if strings.HasPrefix(s, "!") {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			tag, s = s, ""
		} else {
			tag, s = s[:i], strings.TrimLeft(s[i+1:], " ")
		}
	}
	if s != "" && (s[0] == '\'' || s[0] == '"') {
		v, err := unquote(s)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", no, err)
		}
		return typed(v, tag, true, no)
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = strings.TrimRight(s[:i], " ")
	}
	return typed(s, tag, false, no)
}

func unquote(s string) (string, error) {
	q := s[0]
	end := strings.LastIndexByte(s, q)
	if end == 0 {
		return "", fmt.Errorf("unterminated string %s", s)
	}
	if tail := strings.TrimSpace(s[end+1:]); tail != "" && tail[0] != '#' {
		return "", fmt.Errorf("unexpected %q after string", tail)
	}
	body := s[1:end]
	if q == '\'' {
		return strings.ReplaceAll(body, "''", "'"), nil
	}
	return strconv.Unquote(`"` + body + `"`)
}

// typed resolves a scalar's type as LLVM 19's DocNode::fromString does,
// quoted or not: an unsigned integer, else a signed one, else a boolean
// (true, yes, on, y, ...), else a string. Two of LLVM's ways are kept as
// they are: a scalar that reads as a float (1.5, 1e3, inf, +5) and an
// empty one become null.
func typed(s, tag string, quoted bool, no int) (*node, error) {
	switch tag {
	case "", "!str", "!int", "!float", "!bool", "!nil":
	default:
		return nil, fmt.Errorf("line %d: unknown tag %s", no, tag)
	}
	switch tag {
	case "!str":
		return strNode(s), nil
	case "!nil":
		return &node{kind: kNil}, nil
	}
	if tag == "" || tag == "!int" {
		if u, ok := parseUint(s); ok {
			return uintNode(u), nil
		}
		if strings.HasPrefix(s, "-") {
			if u, ok := parseUint(s[1:]); ok && u <= 1<<63 {
				return &node{kind: kInt, i: -int64(u)}, nil
			}
		}
	}
	if tag == "" || tag == "!bool" {
		switch s {
		case "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON":
			return &node{kind: kBool, b: true}, nil
		case "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF":
			return &node{kind: kBool}, nil
		}
	}
	if tag == "" || tag == "!float" {
		// strtod's syntax: Go's ParseFloat would also take "1_000".
		if _, err := strconv.ParseFloat(s, 64); !strings.Contains(s, "_") && (err == nil || errors.Is(err, strconv.ErrRange)) {
			return &node{kind: kNil}, nil
		}
	}
	if tag != "" {
		return nil, fmt.Errorf("line %d: %q is not %s", no, s, tag)
	}
	if s == "" {
		return &node{kind: kNil}, nil
	}
	return strNode(s), nil
}

// parseUint reads an unsigned integer as LLVM's getAsUnsignedInteger with
// radix 0: 0x hex, 0b binary, 0o or leading-0 octal, else decimal.
func parseUint(s string) (uint64, bool) {
	base, d := 10, s
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, d = 16, s[2:]
	case strings.HasPrefix(s, "0b") || strings.HasPrefix(s, "0B"):
		base, d = 2, s[2:]
	case strings.HasPrefix(s, "0o"):
		base, d = 8, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, d = 8, s[1:]
	}
	if d == "" || d[0] == '+' || d[0] == '-' {
		return 0, false
	}
	u, err := strconv.ParseUint(d, base, 64)
	return u, err == nil
}

// flow parses flow collections: [a, b] and {k: v}.
type flow struct {
	s   string
	pos int
	no  int
}

func (f *flow) skip() {
	for f.pos < len(f.s) && f.s[f.pos] == ' ' {
		f.pos++
	}
}

func (f *flow) errorf(format string, args ...any) error {
	return fmt.Errorf("line %d: %s", f.no, fmt.Sprintf(format, args...))
}

func (f *flow) value() (*node, error) {
	f.skip()
	if f.pos >= len(f.s) {
		return nil, f.errorf("unexpected end of flow collection")
	}
	switch f.s[f.pos] {
	case '[':
		f.pos++
		n := &node{kind: kSeq}
		return n, f.items(']', func() error {
			v, err := f.value()
			n.seq = append(n.seq, v)
			return err
		})
	case '{':
		f.pos++
		n := &node{kind: kMap}
		return n, f.items('}', func() error {
			k, err := f.value()
			if err != nil {
				return err
			}
			if f.skip(); f.pos >= len(f.s) || f.s[f.pos] != ':' {
				return f.errorf("expected ':' in flow mapping")
			}
			f.pos++
			v, err := f.value()
			if err != nil {
				return err
			}
			if k.kind == kStr {
				n.set(k.s, v)
			} else {
				n.keys, n.vals = append(n.keys, k), append(n.vals, v)
			}
			return nil
		})
	}
	start := f.pos
	q := byte(0)
	if c := f.s[f.pos]; c == '\'' || c == '"' {
		q = c
		for f.pos++; f.pos < len(f.s) && f.s[f.pos] != q; f.pos++ {
			if q == '"' && f.s[f.pos] == '\\' {
				f.pos++
			}
		}
		f.pos++
		if f.pos > len(f.s) {
			return nil, f.errorf("unterminated string")
		}
	} else {
		for f.pos < len(f.s) && !strings.ContainsRune(",]}", rune(f.s[f.pos])) &&
			!(f.s[f.pos] == ':' && (f.pos+1 == len(f.s) || f.s[f.pos+1] == ' ')) {
			f.pos++
		}
	}
	return scalar(strings.TrimSpace(f.s[start:f.pos]), f.no)
}

// items parses comma-separated entries up to the closing bracket.
func (f *flow) items(end byte, entry func() error) error {
	for {
		if f.skip(); f.pos < len(f.s) && f.s[f.pos] == end {
			f.pos++
			return nil
		}
		if err := entry(); err != nil {
			return err
		}
		f.skip()
		if f.pos >= len(f.s) {
			return f.errorf("expected '%c'", end)
		}
		switch f.s[f.pos] {
		case ',':
			f.pos++
		case end:
		default:
			return f.errorf("expected ',' or '%c'", end)
		}
	}
}

package tui

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"
)

// formatValue shows a 32-bit value in f, right-aligned to valueWidth(f).
func formatValue(v uint32, f NumFormat) string {
	var s string
	switch f {
	case FmtSigned:
		s = strconv.FormatInt(int64(int32(v)), 10)
	case FmtUnsigned:
		s = strconv.FormatUint(uint64(v), 10)
	case FmtFloat:
		s = formatFloat(math.Float32frombits(v), valueWidth(f))
	default:
		s = "0x" + hex32(v)
	}
	return pad(s, valueWidth(f), true)
}

// formatCompact is formatValue without the 0x prefix, for dense grids.
func formatCompact(v uint32, f NumFormat) string {
	if f == FmtHex {
		return hex32(v)
	}
	return formatValue(v, f)
}

func compactWidth(f NumFormat) int {
	if f == FmtHex {
		return 8
	}
	return valueWidth(f)
}

func valueWidth(f NumFormat) int {
	switch f {
	case FmtSigned:
		return 11
	case FmtUnsigned:
		return 10
	case FmtFloat:
		return 11
	}
	return 10
}

func formatFloat(x float32, w int) string {
	for prec := 7; prec >= 1; prec-- {
		s := strconv.FormatFloat(float64(x), 'g', prec, 32)
		if len(s) <= w {
			return s
		}
	}
	return strconv.FormatFloat(float64(x), 'g', 1, 32)
}

const hexDigits = "0123456789abcdef"

func hex32(v uint32) string {
	var b [8]byte
	for i := 7; i >= 0; i-- {
		b[i] = hexDigits[v&15]
		v >>= 4
	}
	return string(b[:])
}

func hexN(v uint64, n int) string {
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		b[i] = hexDigits[v&15]
		v >>= 4
	}
	return string(b)
}

// cellWidth is the number of terminal cells s takes: escape sequences take
// none. It is ansi.StringWidth's answer for the text we draw (no combining
// marks or emoji sequences), several times faster; the tests compare them.
func cellWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			i = skipEscape(s, i)
		case c < 0x80:
			if c >= 0x20 && c != 0x7f {
				n++
			}
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			n += runewidth.RuneWidth(r)
			i += size
		}
	}
	return n
}

// skipEscape returns the index after the escape sequence at s[i].
func skipEscape(s string, i int) int {
	if i+1 >= len(s) {
		return len(s)
	}
	switch s[i+1] {
	case '[': // CSI: parameters, then a final byte in 0x40–0x7e
		for j := i + 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	case ']', 'P', '_', '^': // OSC, DCS, APC, PM: until BEL or ST
		for j := i + 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	return i + 2
}

// pad pads s with spaces to width w (on the left when right is set); it
// measures cells, so styled strings pad correctly.
func pad(s string, w int, right bool) string {
	n := cellWidth(s)
	if n >= w {
		return s
	}
	if right {
		return strings.Repeat(" ", w-n) + s
	}
	return s + strings.Repeat(" ", w-n)
}

// fit truncates or pads s to exactly w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := cellWidth(s)
	if n > w {
		s = ansi.Truncate(s, w, "")
		n = cellWidth(s)
	}
	if n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// render applies st to s unless the style set is plain.
func (s *Styles) render(st lipgloss.Style, text string) string {
	if s.Mode == ColorPlain {
		return text
	}
	return st.Render(text)
}

// highlight draws one line of GCN assembly with the lexer's token styles.
func (s *Styles) highlight(line string) string {
	if s.Mode == ColorPlain {
		return line
	}
	if h, ok := s.hl[line]; ok {
		return h
	}
	var b strings.Builder
	for _, t := range gcnTokens(line) {
		if st, ok := s.Token(t.Type); ok {
			b.WriteString(st.Render(t.Value))
		} else {
			b.WriteString(t.Value)
		}
	}
	if s.hl == nil || len(s.hl) > 1<<14 {
		s.hl = map[string]string{}
	}
	s.hl[line] = b.String()
	return s.hl[line]
}

func f32bits(f float32) uint32 { return math.Float32bits(f) }

// memo is render for text that recurs from frame to frame (register names,
// headers, addresses): it remembers the result under kind and text.
func (s *Styles) memo(kind string, st lipgloss.Style, text string) string {
	if s.Mode == ColorPlain {
		return text
	}
	k := kind + "\x00" + text
	if r, ok := s.memos[k]; ok {
		return r
	}
	if s.memos == nil || len(s.memos) > 1<<14 {
		s.memos = map[string]string{}
	}
	r := st.Render(text)
	s.memos[k] = r
	return r
}

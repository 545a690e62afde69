package tui

import (
	"math"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
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

// pad pads s with spaces to width w (on the left when right is set); it
// measures cells, so styled strings pad correctly.
func pad(s string, w int, right bool) string {
	n := lipgloss.Width(s)
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
	if lipgloss.Width(s) > w {
		s = ansi.Truncate(s, w, "")
	}
	return pad(s, w, false)
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

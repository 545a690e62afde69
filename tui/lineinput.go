package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// lineInput is the ':' command line. bubbles/v2's textinput would do, but
// it imports github.com/atotto/clipboard, which is not in go.mod; this is
// the small subset the command line needs.
type lineInput struct {
	prompt string
	value  []rune
	pos    int
}

func (l *lineInput) Value() string { return string(l.value) }

func (l *lineInput) SetValue(s string) { l.value, l.pos = []rune(s), len([]rune(s)) }

func (l *lineInput) Reset() { l.value, l.pos = nil, 0 }

// Update edits the line for one key press.
func (l *lineInput) Update(msg tea.KeyPressMsg) {
	switch msg.String() {
	case "left", "ctrl+b":
		l.pos = max(l.pos-1, 0)
	case "right", "ctrl+f":
		l.pos = min(l.pos+1, len(l.value))
	case "home", "ctrl+a":
		l.pos = 0
	case "end", "ctrl+e":
		l.pos = len(l.value)
	case "backspace", "ctrl+h":
		if l.pos > 0 {
			l.value = append(l.value[:l.pos-1], l.value[l.pos:]...)
			l.pos--
		}
	case "delete", "ctrl+d":
		if l.pos < len(l.value) {
			l.value = append(l.value[:l.pos], l.value[l.pos+1:]...)
		}
	case "ctrl+u":
		l.value, l.pos = l.value[l.pos:], 0
	case "ctrl+k":
		l.value = l.value[:l.pos]
	case "ctrl+w":
		i := l.pos
		for i > 0 && l.value[i-1] == ' ' {
			i--
		}
		for i > 0 && l.value[i-1] != ' ' {
			i--
		}
		l.value, l.pos = append(l.value[:i], l.value[l.pos:]...), i
	default:
		if t := msg.Key().Text; t != "" {
			r := []rune(t)
			l.value = append(l.value[:l.pos], append(r, l.value[l.pos:]...)...)
			l.pos += len(r)
		}
	}
}

// View draws the prompt, the text and a block cursor.
func (l *lineInput) View(st *Styles) string {
	var b strings.Builder
	b.WriteString(l.prompt)
	b.WriteString(string(l.value[:l.pos]))
	cur := " "
	if l.pos < len(l.value) {
		cur = string(l.value[l.pos])
	}
	if st.Mode == ColorPlain {
		b.WriteString("_")
		if l.pos < len(l.value) {
			b.WriteString(string(l.value[l.pos+1:]))
		}
		return b.String()
	}
	b.WriteString(st.Cursor.Render(cur))
	if l.pos < len(l.value) {
		b.WriteString(string(l.value[l.pos+1:]))
	}
	return b.String()
}

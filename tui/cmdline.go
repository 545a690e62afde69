package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// cmdLine is the ':' command line: Bubbles' textinput, completing command
// names (tab accepts the suggestion, ctrl+n/ctrl+p choose another) with a
// history that ↑ and ↓ walk.
type cmdLine struct {
	in      textinput.Model
	st      *Styles
	history []string
	hpos    int // the history entry shown; len(history) for the line being typed
	names   []string
}

func newCmdLine(st *Styles, names []string) cmdLine {
	in := textinput.New()
	in.Prompt = ":"
	in.ShowSuggestions = true
	in.SetSuggestions(names)
	in.SetStyles(st.Input)
	// ↑ and ↓ walk the history instead of the suggestions.
	in.KeyMap.NextSuggestion = key.NewBinding(key.WithKeys("ctrl+n"))
	in.KeyMap.PrevSuggestion = key.NewBinding(key.WithKeys("ctrl+p"))
	return cmdLine{in: in, st: st, names: names}
}

// Open starts a new line.
func (c *cmdLine) Open() {
	c.in.Reset()
	c.in.Focus()
	c.hpos = len(c.history)
}

// Close abandons the line.
func (c *cmdLine) Close() {
	c.in.Blur()
	c.in.Reset()
}

// Submit closes the line and returns it, remembering it in the history
// (once, when it repeats the previous line).
func (c *cmdLine) Submit() string {
	line := c.in.Value()
	if strings.TrimSpace(line) != "" && (len(c.history) == 0 || c.history[len(c.history)-1] != line) {
		c.history = append(c.history, line)
	}
	c.Close()
	return line
}

// Value is the line as typed so far.
func (c *cmdLine) Value() string { return c.in.Value() }

// Update edits the line for one key press.
func (c *cmdLine) Update(msg tea.KeyPressMsg) {
	switch msg.String() {
	case "up":
		if c.hpos > 0 {
			c.hpos--
			c.recall(c.history[c.hpos])
		}
	case "down":
		if c.hpos < len(c.history)-1 {
			c.hpos++
			c.recall(c.history[c.hpos])
		} else {
			c.hpos = len(c.history)
			c.recall("")
		}
	default:
		c.in, _ = c.in.Update(msg)
	}
}

// recall shows a history entry with the cursor at its end. SetValue alone
// keeps the cursor where it was and the suggestion matched for the old
// line, which drew stale characters after a shorter entry.
func (c *cmdLine) recall(s string) {
	c.in.SetValue(s)
	c.in.CursorEnd()
	c.in.SetSuggestions(c.names) // match the suggestions again
}

// View draws the line in w cells. Without colour the block cursor (which
// textinput draws reversed) becomes a plain space.
func (c *cmdLine) View(w int) string {
	c.in.SetWidth(max(w-len(c.in.Prompt)-1, 1))
	v := c.in.View()
	if c.st.Mode == ColorPlain {
		v = ansi.Strip(v)
	}
	return v
}

package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

func typeLine(c *cmdLine, s string) {
	for _, r := range s {
		c.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// TestCmdLineHistoryAndCompletion: ↑/↓ walk earlier lines (a repeated line
// is kept once), tab completes a command name, the view draws no escapes
// without colour.
func TestCmdLineHistoryAndCompletion(t *testing.T) {
	c := newCmdLine(NewStyles(ColorPlain), commandNames())
	for _, l := range []string{"set s1 1", "step 3", "step 3"} {
		c.Open()
		typeLine(&c, l)
		if got := c.Submit(); got != l {
			t.Fatalf("submit %q, got %q", l, got)
		}
	}
	if len(c.history) != 2 {
		t.Errorf("history %q", c.history)
	}
	c.Open()
	up, down := tea.KeyPressMsg{Code: tea.KeyUp}, tea.KeyPressMsg{Code: tea.KeyDown}
	for _, want := range []string{"step 3", "set s1 1", "set s1 1"} {
		c.Update(up)
		if c.Value() != want {
			t.Errorf("up: %q, want %q", c.Value(), want)
		}
	}
	c.Update(down)
	c.Update(down)
	if c.Value() != "" {
		t.Errorf("down past the newest: %q", c.Value())
	}
	typeLine(&c, "unw")
	c.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if c.Value() != "unwatch" {
		t.Errorf("tab after unw: %q", c.Value())
	}
	if v := c.View(40); strings.TrimRight(v, " ") != ":unwatch" || strings.ContainsRune(v, '\x1b') {
		t.Errorf("view %q", v)
	}
	c.Close()
	if c.Value() != "" {
		t.Errorf("closed line keeps %q", c.Value())
	}
}

// TestHistoryRecallShorterCommand: recalling a command shorter than the
// one shown leaves no characters of the longer one (or of its
// completion), and the cursor at the end.
func TestHistoryRecallShorterCommand(t *testing.T) {
	c := newCmdLine(NewStyles(ColorPlain), commandNames())
	c.history = []string{"break 0x1830", "c", "si"}
	c.Open()
	for i, step := range []struct{ key, want string }{
		{"up", ":si"}, {"up", ":c"}, {"up", ":break 0x1830"}, {"down", ":c"}, {"down", ":si"}, {"down", ":"},
	} {
		code := tea.KeyUp
		if step.key == "down" {
			code = tea.KeyDown
		}
		c.Update(tea.KeyPressMsg{Code: code})
		// "c" completes to "continue": the completion is drawn, nothing else.
		got := strings.TrimRight(c.View(40), " ")
		if got != step.want && !(step.want == ":c" && got == ":continue") {
			t.Errorf("key %d (%s): %q, want %q", i, step.key, got, step.want)
		}
		if c.in.Position() != len(c.Value()) {
			t.Errorf("key %d (%s): cursor at %d of %q", i, step.key, c.in.Position(), c.Value())
		}
	}
}

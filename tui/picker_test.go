package tui

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

type item struct{ name, desc string }

func (i item) Title() string       { return i.name }
func (i item) Description() string { return i.desc }
func (i item) FilterValue() string { return i.name + " " + i.desc }

// TestPickerSizes draws the picker at sizes down to 1×1: always exactly
// the terminal's size, the selected entry marked.
func TestPickerSizes(t *testing.T) {
	a := NewApp([]item{{"one", "the first"}, {"two", "the second, with a long description"}}, nil, Options{Color: ColorPlain})
	a.Update(keyMsg("j"))
	a.Update(keyMsg("j")) // past the end: stays on the last
	for _, sz := range [][2]int{{80, 24}, {30, 8}, {12, 4}, {1, 1}} {
		a.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		lines := strings.Split(a.Render(), "\n")
		if len(lines) != sz[1] {
			t.Errorf("%dx%d: %d lines", sz[0], sz[1], len(lines))
		}
		for _, l := range lines {
			if n := cellWidth(l); n != sz[0] {
				t.Errorf("%dx%d: line %q is %d wide", sz[0], sz[1], l, n)
			}
		}
	}
	a.Update(tea.WindowSizeMsg{Width: 30, Height: 12})
	if got := a.Render(); !strings.Contains(got, "▌ two") || !strings.Contains(got, "▌ the second, with a long des…") {
		t.Errorf("30x12:\n%s", got)
	}
}

// TestPickerOpenError keeps the picker up and shows why an item did not open.
func TestPickerOpenError(t *testing.T) {
	open := func(string) (Debuggee, error) { return nil, errors.New("no metadata") }
	a := NewApp([]item{{"bad", "cannot open"}}, open, Options{Color: ColorPlain})
	a.Update(tea.WindowSizeMsg{Width: 60, Height: 10})
	a.Update(keyMsg("enter"))
	if a.Debugger() != nil || !strings.Contains(a.Render(), "bad: no metadata") {
		t.Errorf("after a failed open:\n%s", a.Render())
	}
	if _, cmd := a.Update(keyMsg("q")); cmd == nil {
		t.Error("q in the picker does not quit")
	}
}

package tui

import (
	"errors"
	"slices"
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

type groupedItem struct{ item, group string }

func (i groupedItem) Title() string       { return i.item }
func (i groupedItem) Description() string { return "about " + i.item }
func (i groupedItem) FilterValue() string { return i.item }
func (i groupedItem) Group() string       { return i.group }

// TestPickerGroups lists items under their group's heading, the groups in
// samples.Topics' order whatever order the items come in (items without a
// group last, under "other"), and the filter matches a group's name.
func TestPickerGroups(t *testing.T) {
	items := []PickerItem{
		groupedItem{"adder", "whole programs"},
		groupedItem{"loads", "scalar memory"},
		item{"loner", "no group"},
		groupedItem{"forms", "scalar memory"},
	}
	a := NewApp(items, nil, Options{Color: ColorPlain})
	a.Update(tea.WindowSizeMsg{Width: 40, Height: 30})
	var got []string
	for _, l := range strings.Split(a.Render(), "\n") {
		if l = strings.TrimSpace(strings.TrimPrefix(l, "▌")); l != "" && !strings.HasPrefix(l, "about") {
			got = append(got, l)
		}
	}
	want := []string{"wavedbg — pick a sample to debug", "── scalar memory", "loads", "forms",
		"── whole programs", "adder", "── other", "loner", "no group",
		"↑/↓ choose • enter open • / filter • q q"}
	if !slices.Equal(got, want) {
		t.Errorf("picker rows\n%q\nwant\n%q", got, want)
	}
	for _, k := range []string{"/", "w", "h", "o", "l", "e", "enter"} {
		a.Update(keyMsg(k))
	}
	if vis := a.visible(); len(vis) != 1 || vis[0].Title() != "adder" {
		t.Errorf("the filter \"whole\" keeps %d items, want adder (by its group)", len(vis))
	}
}

// TestPickerHeadingNotAlone scrolls a short picker: a heading is never the
// last row drawn without its first entry below it.
func TestPickerHeadingNotAlone(t *testing.T) {
	a := NewApp([]PickerItem{groupedItem{"one", "scalar memory"}, groupedItem{"two", "LDS"}}, nil, Options{Color: ColorPlain})
	a.Update(tea.WindowSizeMsg{Width: 40, Height: 9}) // title, blank, 5 rows, blank, help
	if s := a.Render(); strings.Contains(s, "── LDS") {
		t.Errorf("the LDS heading is drawn without its entry:\n%s", s)
	}
	a.Update(keyMsg("j"))
	if s := a.Render(); !strings.Contains(s, "── LDS") || !strings.Contains(s, "▌ two") {
		t.Errorf("with the cursor on two:\n%s", s)
	}
}

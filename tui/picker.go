package tui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/wavedbg/wavedbg/samples"
)

// The sample picker: what `wavedbg` with no argument shows, and what o in
// the debugger returns to. It lists items with Bubbles' list item interface
// (package samples' Items satisfy it) but draws them itself: bubbles' list
// imports github.com/sahilm/fuzzy, which is not in go.mod. Items that name
// a group (GroupedItem) are listed under a heading per group, the groups
// in samples.Topics' order.

// PickerItem is one entry of the picker (Bubbles' list.DefaultItem).
type PickerItem interface {
	Title() string
	Description() string
	FilterValue() string
}

// GroupedItem is a PickerItem with a group, its heading in the picker
// (a sample's topic). The filter matches the group too.
type GroupedItem interface {
	PickerItem
	Group() string
}

// groupOf is the item's group, "" if it has none.
func groupOf(it PickerItem) string {
	if g, ok := it.(GroupedItem); ok {
		return g.Group()
	}
	return ""
}

// groupItems orders items by group, stably: samples.Topics first in their
// order, then other groups as they first appear, then items without one.
func groupItems(items []PickerItem) {
	rank := map[string]int{}
	for i, t := range samples.Topics {
		rank[t] = i
	}
	for _, it := range items {
		if g := groupOf(it); g != "" {
			if _, ok := rank[g]; !ok {
				rank[g] = len(rank)
			}
		}
	}
	rankOf := func(it PickerItem) int {
		if r, ok := rank[groupOf(it)]; ok {
			return r
		}
		return len(rank)
	}
	slices.SortStableFunc(items, func(a, b PickerItem) int { return cmp.Compare(rankOf(a), rankOf(b)) })
}

// OpenFunc opens the item with the given title for debugging.
type OpenFunc func(title string) (Debuggee, error)

// pickerMsg asks the App to show the picker again.
type pickerMsg struct{}

// pickerKeys are the picker's bindings.
type pickerKeys struct {
	Up, Down, Open, Filter, Quit key.Binding
}

func defaultPickerKeys() pickerKeys {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return pickerKeys{
		Up:     b([]string{"up", "k"}, "↑/k", "up"),
		Down:   b([]string{"down", "j"}, "↓/j", "down"),
		Open:   b([]string{"enter"}, "enter", "open"),
		Filter: b([]string{"/"}, "/", "filter"),
		Quit:   b([]string{"q", "ctrl+c", "ctrl+q"}, "q", "quit"),
	}
}

// App is the program wavedbg runs: the sample picker, or the debugger over
// what was opened.
type App struct {
	items   []PickerItem
	open    OpenFunc
	opt     Options
	st      *Styles
	keys    pickerKeys
	dbg     *Model // nil while the picker shows
	cursor  int
	filter  textinput.Model
	editing bool   // typing the filter
	opened  string // the title of the item last opened
	err     string
	width   int
	height  int
}

// NewApp returns the picker over items; open opens the chosen one.
func NewApp[T PickerItem](items []T, open OpenFunc, opt Options) *App {
	a := &App{open: open, opt: opt, st: NewStyles(opt.Color), keys: defaultPickerKeys(), width: 80, height: 24}
	for _, it := range items {
		a.items = append(a.items, it)
	}
	groupItems(a.items)
	a.filter = textinput.New()
	a.filter.Prompt = "filter: "
	a.filter.SetStyles(a.st.Input)
	return a
}

// Show opens the debugger over d without going through the picker.
func (a *App) Show(d Debuggee) {
	a.dbg = New(d, a.opt)
	a.dbg.Update(tea.WindowSizeMsg{Width: a.width, Height: a.height})
}

// Debugger returns the debugger model, nil while the picker shows.
func (a *App) Debugger() *Model { return a.dbg }

// visible lists the items the filter keeps.
func (a *App) visible() []PickerItem {
	f := strings.ToLower(strings.TrimSpace(a.filter.Value()))
	if f == "" {
		return a.items
	}
	var out []PickerItem
	for _, it := range a.items {
		if strings.Contains(strings.ToLower(it.FilterValue()+" "+groupOf(it)), f) {
			out = append(out, it)
		}
	}
	return out
}

// resetFilter clears the filter when the picker comes back (o), with the
// cursor on the sample that was open.
func (a *App) resetFilter() {
	a.editing = false
	a.filter.Blur()
	a.filter.Reset()
	a.cursor = 0
	for i, it := range a.items {
		if it.Title() == a.opened {
			a.cursor = i
		}
	}
}

// Init implements tea.Model.
func (a *App) Init() tea.Cmd { return nil }

// Update implements tea.Model.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
	case pickerMsg:
		a.dbg, a.err = nil, ""
		a.resetFilter()
		return a, nil
	}
	if a.dbg != nil {
		_, cmd := a.dbg.Update(msg)
		return a, cmd
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return a, nil
	}
	if a.editing {
		switch k.String() {
		case "enter", "esc":
			a.editing = false
			a.filter.Blur()
			if k.String() == "esc" {
				a.filter.Reset()
			}
		default:
			a.filter, _ = a.filter.Update(k)
			a.cursor = 0
		}
		return a, nil
	}
	vis := a.visible()
	switch {
	case key.Matches(k, a.keys.Quit):
		return a, tea.Quit
	case key.Matches(k, a.keys.Up):
		a.cursor = max(a.cursor-1, 0)
	case key.Matches(k, a.keys.Down):
		a.cursor = min(a.cursor+1, max(len(vis)-1, 0))
	case key.Matches(k, a.keys.Filter):
		a.editing = true
		a.filter.Focus()
	case k.String() == "esc":
		a.filter.Reset()
	case key.Matches(k, a.keys.Open):
		if a.cursor < len(vis) {
			d, err := a.open(vis[a.cursor].Title())
			if err != nil {
				a.err = fmt.Sprintf("%s: %v", vis[a.cursor].Title(), err)
				return a, nil
			}
			a.err, a.opened = "", vis[a.cursor].Title()
			a.Show(d)
		}
	}
	return a, nil
}

// View implements tea.Model.
func (a *App) View() tea.View {
	if a.dbg != nil {
		return a.dbg.View()
	}
	v := tea.NewView(a.Render())
	v.AltScreen = true
	v.WindowTitle = "wavedbg"
	return v
}

// Render draws the debugger, or the picker as exactly height lines.
func (a *App) Render() string {
	if a.dbg != nil {
		return a.dbg.Render()
	}
	return renderPicker(a, a.st, a.width, a.height)
}

// renderPicker draws the picker: a title, the entries (name, and the
// description below it) under their groups' headings, then the filter or
// the help line.
func renderPicker(a *App, st *Styles, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	lines := []string{st.render(st.PickerTitle, " wavedbg — pick a sample to debug "), ""}
	vis := a.visible()
	foot := []string{""}
	if a.err != "" {
		foot = append(foot, st.render(st.Error, a.err))
	}
	switch {
	case a.editing || a.filter.Value() != "":
		v := a.filter.View()
		if st.Mode == ColorPlain {
			v = ansi.Strip(v)
		}
		foot = append(foot, v)
	default:
		foot = append(foot, st.render(st.PickerDesc, "↑/↓ choose • enter open • / filter • q quit • in the debugger, o comes back here"))
	}
	rows, heads, from, to := pickerRows(a, st, vis, w)
	room := max(h-len(lines)-len(foot), 1)
	top := max(to-room, 0)
	if len(rows)-1 > room { // the last row is blank
		// Not all fit: say where the cursor is and that the list scrolls.
		lines[0] += st.render(st.PickerDesc, fmt.Sprintf("  %d of %d, ↑/↓ scroll", min(a.cursor+1, len(vis)), len(vis)))
	}
	if top > from && from >= 0 {
		top = from
	}
	win := rows[top:min(top+room, len(rows))]
	for i := len(win) - 1; i >= 0 && (win[i] == "" || heads[top+i]); i-- {
		win[i] = "" // no heading at the bottom without its first entry
	}
	lines = append(lines, win...)
	if len(vis) == 0 {
		lines = append(lines, "  no sample matches")
	}
	for len(lines)+len(foot) < h {
		lines = append(lines, "")
	}
	lines = append(lines, foot...)
	if len(lines) > h {
		lines = lines[:h]
	}
	for i := range lines {
		lines[i] = fit(lines[i], w)
	}
	return strings.Join(lines, "\n")
}

// pickerRows lays out the visible items: a heading where a group starts,
// then each item's title, description and a blank line. heads marks the
// headings; from and to are the rows of the entry under the cursor (its
// heading included): the window scrolls to keep them on screen.
func pickerRows(a *App, st *Styles, vis []PickerItem, w int) (rows []string, heads map[int]bool, from, to int) {
	heads = map[int]bool{}
	from, to = -1, 0
	group := ""
	for i, it := range vis {
		start := len(rows)
		if g := groupOf(it); g != group || (i == 0 && g != "") {
			group = g
			if g == "" {
				g = "other"
			}
			heads[len(rows)] = true
			rows = append(rows, st.render(st.Label, "── "+g+" "))
		}
		desc := it.Description()
		if cellWidth(desc) > w-2 {
			desc = ansi.Truncate(desc, max(w-2, 0), "…")
		}
		mark, title := "  ", st.render(st.Label, it.Title())
		if i == a.cursor {
			mark = st.render(st.PickerSelected, "▌ ")
			title = st.render(st.PickerSelected, it.Title())
			from, to = start, len(rows)+2
		}
		rows = append(rows, mark+title, mark+st.render(st.PickerDesc, desc), "")
	}
	return rows, heads, from, to
}

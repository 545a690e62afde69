package tui

import (
	"fmt"
	"os"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// sourcePane shows the source file around the selected wave's line (code
// built with -g), the line marked; files are read by the path the DWARF
// names, relative to the current directory. up/down scroll away from the
// line; a step brings it back.
type sourcePane struct {
	*Common
	dbg   Debuggee
	off   int    // scroll from the centred view
	at    string // "file:line" the view is centred on; a change resets off
	files map[string]sourceFile
}

// sourceFile is a source file's lines, or why it could not be read.
type sourceFile struct {
	lines []string
	err   error
}

func (p *sourcePane) pos(f *Frame) (file string, line int, ok bool) {
	s, isLiner := p.dbg.(SourceLiner)
	if !isLiner || s.LineTable() == nil || !f.Disasm.HasPC {
		return "", 0, false
	}
	r, ok := s.LineTable().Lookup(f.Disasm.PC)
	return r.File, r.Line, ok && r.File != ""
}

func (p *sourcePane) Title(f *Frame) string {
	if file, line, ok := p.pos(f); ok && line > 0 {
		return fmt.Sprintf("9 source %s:%d", file, line)
	}
	return "9 source"
}

func (p *sourcePane) Render(f *Frame) []string {
	st := p.Styles
	if s, ok := p.dbg.(SourceLiner); !ok || s.LineTable() == nil {
		return []string{st.render(st.Dim, "no line table: build the kernel with -g")}
	}
	file, line, ok := p.pos(f)
	if !ok {
		return []string{st.render(st.Dim, "no source line for this address")}
	}
	if at := fmt.Sprintf("%s:%d", file, line); at != p.at {
		p.at, p.off = at, 0
	}
	sf := p.read(file)
	if sf.err != nil {
		return []string{fmt.Sprintf("%s:%d", file, line), st.render(st.Dim, sf.err.Error())}
	}
	h := max(p.Height, 1)
	top := max(line-1-h/2+p.off, 0)
	top = min(top, max(len(sf.lines)-h, 0))
	var out []string
	for i := top; i < len(sf.lines) && len(out) < h; i++ {
		mark := "  "
		text := fmt.Sprintf("%4d %s", i+1, strings.ReplaceAll(sf.lines[i], "\t", "    "))
		if i+1 == line {
			mark = "▶ "
			out = append(out, st.render(st.Cursor, fit(mark+text, p.Width)))
			continue
		}
		out = append(out, fit(mark+text, p.Width))
	}
	if line == 0 {
		out = append([]string{st.render(st.Dim, "line 0: compiler-generated code")}, out...)
	}
	return out
}

// read returns file's lines, read once.
func (p *sourcePane) read(file string) sourceFile {
	if sf, ok := p.files[file]; ok {
		return sf
	}
	if p.files == nil {
		p.files = map[string]sourceFile{}
	}
	var sf sourceFile
	b, err := os.ReadFile(file)
	if err != nil {
		sf.err = fmt.Errorf("cannot read the source: %v", err)
	} else {
		sf.lines = strings.Split(strings.TrimSuffix(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n"), "\n")
	}
	p.files[file] = sf
	return sf
}

func (p *sourcePane) HandleKey(msg tea.KeyPressMsg, f *Frame) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, p.Keys.Up):
		p.off--
	case key.Matches(msg, p.Keys.Down):
		p.off++
	case key.Matches(msg, p.Keys.PageUp):
		p.off -= max(p.Height-1, 1)
	case key.Matches(msg, p.Keys.PageDown):
		p.off += max(p.Height-1, 1)
	default:
		return nil, false
	}
	return nil, true
}

func (p *sourcePane) Scroll(delta int) { p.off += delta }

func (p *sourcePane) Click(x, y int, f *Frame) tea.Cmd { return nil }

func (p *sourcePane) ShortHelp() []key.Binding { return []key.Binding{p.Keys.Up, p.Keys.Down} }

// placeSource gives the source pane, when the debuggee has a line table,
// a slot under the disassembly in the same column if that is tall enough,
// else a place in the last slot. Without a line table it has none.
func (m *Model) placeSource(s []slot) []slot {
	if m.lineTable() == nil || len(s) == 0 {
		return s
	}
	for i, sl := range s {
		if len(sl.panes) != 1 || sl.panes[0] != paneDisasm || sl.h < 12 {
			continue
		}
		th := sl.h * 60 / 100
		out := make([]slot, 0, len(s)+1)
		out = append(out, s[:i]...)
		out = append(out, slot{rect{sl.x, sl.y, sl.w, th}, []paneID{paneDisasm}},
			slot{rect{sl.x, sl.y + th, sl.w, sl.h - th}, []paneID{paneSource}})
		return append(out, s[i+1:]...)
	}
	last := &s[len(s)-1]
	last.panes = append(append([]paneID(nil), last.panes...), paneSource)
	return s
}

// sourceFocus keeps the focus off the source pane when it is not shown
// (no line table): tab from the waves pane goes on to the disassembly,
// shift+tab from the disassembly back to the waves pane.
func (m *Model) sourceFocus(p paneID) paneID {
	if p != paneSource || m.lineTable() != nil {
		return p
	}
	if m.focus == paneDisasm {
		return paneWaves
	}
	return paneDisasm
}

package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

type textPane struct {
	*Common
	scroller
	title  string
	render func(f *Frame, st *Styles, w int) []string
}

func (p *textPane) Title(f *Frame) string { return p.title }

func (p *textPane) Render(f *Frame) []string {
	lines := p.render(f, p.Styles, p.Width)
	// Wrap long lines (an address formula, a long instruction) rather than
	// cut them; continuation lines are indented.
	var out []string
	for _, l := range lines {
		if p.Width > 8 && cellWidth(l) > p.Width {
			for i, part := range strings.Split(ansi.Wrap(l, p.Width-2, " ,"), "\n") {
				if i > 0 {
					part = "  " + part
				}
				out = append(out, part)
			}
			continue
		}
		out = append(out, l)
	}
	return p.show(out, p.Width, p.Height)
}

func (p *textPane) HandleKey(msg tea.KeyPressMsg, f *Frame) (tea.Cmd, bool) {
	return nil, p.key(msg, p.Keys)
}

func (p *textPane) Click(x, y int, f *Frame) tea.Cmd { return nil }

func (p *textPane) ShortHelp() []key.Binding { return []key.Binding{p.Keys.Up, p.Keys.Down} }

// ---- memory ----

type memPane struct {
	*Common
	dbg    Debuggee
	base   uint64
	title  string
	lds    bool
	format NumFormat
	dwords bool
	follow *RegRef // follow this 64-bit register pair (lane of the VGPR cursor for VGPRs)
	mark   map[uint64]bool
}

func (p *memPane) Title(f *Frame) string {
	t := "7 memory"
	if p.lds {
		t = "7 LDS"
	}
	if p.follow != nil {
		t += " following " + p.title
	}
	return t
}

func (p *memPane) rowBytes() int {
	return memRowBytes(&MemView{Format: p.format, Dwords: p.dwords}, p.Width)
}

func (p *memPane) Render(f *Frame) []string {
	if p.dbg == nil {
		return nil
	}
	if p.follow != nil {
		// Follow a 64-bit register pair as it changes.
		lo, err1 := p.dbg.Reg(*p.follow)
		hi := *p.follow
		hi.Num++
		h, err2 := p.dbg.Reg(hi)
		if err1 == nil && err2 == nil {
			p.base = (uint64(h)<<32 | uint64(lo)) &^ 3
		}
	}
	n := max(p.Height-1, 0) * p.rowBytes()
	data, valid := p.dbg.ReadMem(p.base, n, p.lds)
	v := MemView{Title: p.title, Base: p.base, Data: data, Valid: valid, Format: p.format, Dwords: p.dwords, Mark: p.mark}
	return renderMemory(&v, p.Styles, p.Height, p.Width)
}

func (p *memPane) HandleKey(msg tea.KeyPressMsg, f *Frame) (tea.Cmd, bool) {
	k := p.Keys
	switch {
	case key.Matches(msg, k.Format):
		// bytes → dwords hex → signed → unsigned → float → bytes
		switch {
		case !p.dwords && p.format == FmtHex:
			p.dwords = true
		case p.format == FmtFloat:
			p.dwords, p.format = false, FmtHex
		default:
			p.format++
		}
	case key.Matches(msg, k.Up):
		p.follow = nil
		p.Scroll(-1)
	case key.Matches(msg, k.Down):
		p.follow = nil
		p.Scroll(1)
	case key.Matches(msg, k.PageUp):
		p.follow = nil
		p.Scroll(-max(p.Height-2, 1))
	case key.Matches(msg, k.PageDown):
		p.follow = nil
		p.Scroll(max(p.Height-2, 1))
	default:
		return nil, false
	}
	return nil, true
}

func (p *memPane) Scroll(delta int) {
	rb := int64(p.rowBytes())
	nb := int64(p.base) + int64(delta)*rb
	if nb < 0 {
		nb = 0
	}
	p.base = uint64(nb)
}

func (p *memPane) Click(x, y int, f *Frame) tea.Cmd { return nil }

func (p *memPane) ShortHelp() []key.Binding { return []key.Binding{p.Keys.Format, p.Keys.Command} }

// ---- waves ----

type wavesPane struct {
	*Common
	top     int // wave index of the first row shown (within the window)
	lastSel int
}

func (p *wavesPane) Title(f *Frame) string {
	if r, ok := f.Waves.Row(f.Waves.Selected); ok {
		return fmt.Sprintf("8 waves (%d)  group %s", f.Waves.Total, groupText(r.Group))
	}
	return fmt.Sprintf("8 waves (%d)", f.Waves.Total)
}

// visible is how many wave rows fit under the header.
func (p *wavesPane) visible() int { return max(p.Height-1, 1) }

// Render keeps the header in place and draws only the rows on screen (the
// frame holds a window of thousands of waves), bringing the selected wave
// into view when the selection changes. It scrolls within the window.
func (p *wavesPane) Render(f *Frame) []string {
	v, h := f.Waves, p.visible()
	if sel := v.Selected; sel != p.lastSel {
		p.lastSel = sel
		if sel < p.top || sel >= p.top+h {
			p.top = sel - h/2
		}
	}
	first := v.First()
	p.top = max(min(p.top, first+len(v.Rows)-h), first)
	lo, hi := p.top-first, min(p.top-first+h, len(v.Rows))
	win := WavesView{Rows: v.Rows[lo:hi], Selected: v.Selected - p.top, Multi: v.Multi || multiGroup(v.Rows)}
	return renderWaves(&win, p.Styles, p.Width)
}

func (p *wavesPane) Scroll(delta int) { p.top = max(p.top+delta, 0) }

func (p *wavesPane) HandleKey(msg tea.KeyPressMsg, f *Frame) (tea.Cmd, bool) {
	k, sel, h := p.Keys, f.Waves.Selected, p.visible()
	switch {
	case key.Matches(msg, k.Up):
		sel--
	case key.Matches(msg, k.Down):
		sel++
	case key.Matches(msg, k.PageUp):
		sel -= h
	case key.Matches(msg, k.PageDown):
		sel += h
	case key.Matches(msg, k.Top):
		sel = 0
	case key.Matches(msg, k.Bottom):
		sel = f.Waves.Total - 1
	default:
		return nil, false
	}
	sel = max(min(sel, f.Waves.Total-1), 0)
	if sel == f.Waves.Selected {
		return nil, true
	}
	return msgCmd(selectWaveMsg{sel}), true
}

func (p *wavesPane) Click(x, y int, f *Frame) tea.Cmd {
	i := p.top + y - 1
	if _, ok := f.Waves.Row(i); y >= 1 && ok {
		return msgCmd(selectWaveMsg{i})
	}
	return nil
}

func (p *wavesPane) ShortHelp() []key.Binding {
	return []key.Binding{p.Keys.Up, p.Keys.Down, p.Keys.PrevWave, p.Keys.NextWave}
}

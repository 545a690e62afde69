package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
)

// Frame is every pane's view model for one moment of the selected wave; the
// app rebuilds it after each step.
type Frame struct {
	Disasm   DisasmView
	SGPR     SGPRView
	VGPR     VGPRView
	Counters CountersView
	Cache    CacheView
	Addr     AddrView
	Waves    WavesView
	Explain  string
}

// Common is embedded by every component: the shared styles and key map, and
// the component's size.
type Common struct {
	Styles        *Styles
	Keys          *KeyMap
	Width, Height int
}

// SetSize records the component's inner size.
func (c *Common) SetSize(w, h int) { c.Width, c.Height = max(w, 0), max(h, 0) }

// component is a pane: it renders its view model into its inner area,
// handles keys while focused and the mouse wheel while hovered, and lists
// the keys it understands for the help bar.
type component interface {
	SetSize(w, h int)
	Title(f *Frame) string
	Render(f *Frame) []string
	HandleKey(msg tea.KeyPressMsg, f *Frame) (tea.Cmd, bool)
	Scroll(delta int)
	Click(x, y int, f *Frame) tea.Cmd
	ShortHelp() []key.Binding
}

// Messages panes send to the app.
type (
	toggleBreakMsg struct{ addr uint64 }
	runToMsg       struct{ addr uint64 }
	watchMsg       struct{ ref RegRef }
	selectWaveMsg  struct{ index int }
)

func msgCmd(m tea.Msg) tea.Cmd { return func() tea.Msg { return m } }

// scroller is a viewport-backed pane body for panes whose whole content is
// small enough to render each frame.
type scroller struct {
	vp viewport.Model
}

func newScroller() scroller {
	vp := viewport.New()
	vp.MouseWheelEnabled = false
	return scroller{vp: vp}
}

func (s *scroller) show(lines []string, w, h int) []string {
	s.vp.SetWidth(w)
	s.vp.SetHeight(h)
	s.vp.SetContentLines(lines)
	if s.vp.YOffset() > max(len(lines)-h, 0) {
		s.vp.SetYOffset(len(lines) - h)
	}
	// The viewport keeps the scroll state; the visible window is cut here
	// because frame pads every line anyway and viewport.View's styling
	// pass was a third of a full redraw.
	top := min(max(s.vp.YOffset(), 0), len(lines))
	return lines[top:min(top+h, len(lines))]
}

func (s *scroller) Scroll(delta int) {
	if delta < 0 {
		s.vp.ScrollUp(-delta)
	} else {
		s.vp.ScrollDown(delta)
	}
}

func (s *scroller) key(msg tea.KeyPressMsg, k *KeyMap) bool {
	switch {
	case key.Matches(msg, k.Up):
		s.vp.ScrollUp(1)
	case key.Matches(msg, k.Down):
		s.vp.ScrollDown(1)
	case key.Matches(msg, k.PageUp):
		s.vp.PageUp()
	case key.Matches(msg, k.PageDown):
		s.vp.PageDown()
	case key.Matches(msg, k.Top):
		s.vp.GotoTop()
	case key.Matches(msg, k.Bottom):
		s.vp.GotoBottom()
	default:
		return false
	}
	return true
}

// ---- disassembly ----

type disasmPane struct {
	*Common
	cursor, top int
	showEnc     bool
	follow      bool // move the cursor to the PC after each step
	rows        []disasmRow
	rowsFor     []DisasmLine
}

func (p *disasmPane) SetSize(w, h int) { p.Common.SetSize(w, h) }

func (p *disasmPane) Title(f *Frame) string { return "1 disasm" }

func (p *disasmPane) rowsOf(f *Frame) []disasmRow {
	if len(p.rowsFor) != len(f.Disasm.Lines) || p.rows == nil {
		p.rows, p.rowsFor = disasmRows(&f.Disasm), f.Disasm.Lines
	}
	return p.rows
}

// rowOf returns the screen row of instruction i.
func (p *disasmPane) rowOf(rows []disasmRow, i int) int {
	for r, row := range rows {
		if row.inst == i {
			return r
		}
	}
	return 0
}

// followPC puts the cursor on the PC.
func (p *disasmPane) followPC(f *Frame) {
	if !f.Disasm.HasPC {
		return
	}
	for i, l := range f.Disasm.Lines {
		if l.Addr == f.Disasm.PC {
			p.cursor = i
			return
		}
	}
}

func (p *disasmPane) Render(f *Frame) []string {
	rows := p.rowsOf(f)
	h := p.Height
	cr := p.rowOf(rows, p.cursor)
	// Keep the cursor (and a label above it) in view with a little context.
	margin := min(3, h/4)
	if cr-margin < p.top {
		p.top = max(cr-margin, 0)
	}
	if cr+margin >= p.top+h {
		p.top = cr + margin - h + 1
	}
	p.top = max(min(p.top, len(rows)-h), 0)
	v := f.Disasm
	v.Cursor, v.ShowEnc = p.cursor, p.showEnc
	return renderDisasm(&v, rows, p.Styles, p.top, h, p.Width)
}

func (p *disasmPane) HandleKey(msg tea.KeyPressMsg, f *Frame) (tea.Cmd, bool) {
	k, n := p.Keys, len(f.Disasm.Lines)
	switch {
	case key.Matches(msg, k.Up):
		p.cursor--
	case key.Matches(msg, k.Down):
		p.cursor++
	case key.Matches(msg, k.PageUp):
		p.cursor -= max(p.Height-1, 1)
	case key.Matches(msg, k.PageDown):
		p.cursor += max(p.Height-1, 1)
	case key.Matches(msg, k.Top):
		p.followPC(f)
	case key.Matches(msg, k.Bottom):
		p.cursor = n - 1
	case key.Matches(msg, k.Encoding):
		p.showEnc = !p.showEnc
	case key.Matches(msg, k.Break):
		if p.cursor < n {
			return msgCmd(toggleBreakMsg{f.Disasm.Lines[p.cursor].Addr}), true
		}
	case key.Matches(msg, k.RunToCursor):
		if p.cursor < n {
			return msgCmd(runToMsg{f.Disasm.Lines[p.cursor].Addr}), true
		}
	default:
		return nil, false
	}
	p.cursor = max(min(p.cursor, n-1), 0)
	return nil, true
}

func (p *disasmPane) Scroll(delta int) {
	p.top = max(p.top+delta, 0)
	if len(p.rows) > 0 {
		p.top = min(p.top, max(len(p.rows)-p.Height, 0))
	}
	// Drag the cursor along so that it stays on screen.
	if r := p.rowOf(p.rows, p.cursor); r < p.top || r >= p.top+p.Height {
		target := p.top
		if delta > 0 {
			target = p.top
		} else {
			target = p.top + p.Height - 1
		}
		for r := target; r >= 0 && r < len(p.rows); r++ {
			if p.rows[r].inst >= 0 {
				p.cursor = p.rows[r].inst
				break
			}
		}
	}
}

func (p *disasmPane) Click(x, y int, f *Frame) tea.Cmd {
	r := p.top + y
	if r < 0 || r >= len(p.rows) || p.rows[r].inst < 0 {
		return nil
	}
	p.cursor = p.rows[r].inst
	if x <= 1 {
		return msgCmd(toggleBreakMsg{f.Disasm.Lines[p.cursor].Addr})
	}
	return nil
}

func (p *disasmPane) ShortHelp() []key.Binding {
	return []key.Binding{p.Keys.Break, p.Keys.RunToCursor, p.Keys.Encoding, p.Keys.Top}
}

// ---- scalar registers ----

type sgprPane struct {
	*Common
	scroller
	cursor int
	moved  bool // the cursor moved since the last render
	format NumFormat
}

func (p *sgprPane) Title(f *Frame) string {
	return fmt.Sprintf("2 sgpr %s  *changed ~pending", p.format)
}

func (p *sgprPane) Render(f *Frame) []string {
	v := f.SGPR
	v.Format, v.Cursor = p.format, p.cursor
	lines := renderSGPRs(&v, p.Styles, p.Width)
	lines = append(lines, renderMask("exec", v.Exec, p.Styles, p.Width)...)
	lines = append(lines, renderMask("vcc", v.VCC, p.Styles, p.Width)...)
	if p.moved {
		// Keep the cursor on screen after it moved.
		if r := sgprCursorRow(&v, p.Width); r >= 0 {
			if r < p.vp.YOffset() {
				p.vp.SetYOffset(r)
			} else if r >= p.vp.YOffset()+p.Height {
				p.vp.SetYOffset(r - p.Height + 1)
			}
		}
		p.moved = false
	}
	return p.show(lines, p.Width, p.Height)
}

func (p *sgprPane) HandleKey(msg tea.KeyPressMsg, f *Frame) (tea.Cmd, bool) {
	k, n := p.Keys, len(f.SGPR.Regs)
	switch {
	case key.Matches(msg, k.Format):
		p.format = (p.format + 1) % numFormats
	case key.Matches(msg, k.Up):
		p.cursor, p.moved = max(p.cursor-1, 0), true
	case key.Matches(msg, k.Down):
		p.cursor, p.moved = min(p.cursor+1, n-1), true
	case key.Matches(msg, k.Watch):
		if p.cursor < n {
			if r, err := ParseRegRef(f.SGPR.Regs[p.cursor].Name); err == nil {
				return msgCmd(watchMsg{r}), true
			}
		}
	default:
		return nil, p.key(msg, k)
	}
	return nil, true
}

func (p *sgprPane) Click(x, y int, f *Frame) tea.Cmd { return nil }

func (p *sgprPane) ShortHelp() []key.Binding { return []key.Binding{p.Keys.Format, p.Keys.Watch} }

// ---- vector registers ----

type vgprPane struct {
	*Common
	reg, lane     int
	regTop, laneL int
	nregs         int // VGPRs in the last frame drawn
	format        NumFormat
	allLanes      bool
}

func (p *vgprPane) Title(f *Frame) string {
	return fmt.Sprintf("3 vgpr %s  v%d lane %d", p.format, p.reg, p.lane)
}

func (p *vgprPane) Render(f *Frame) []string {
	v := f.VGPR
	n := len(v.Values)
	p.nregs = n
	p.reg = max(min(p.reg, n-1), 0)
	rowsVisible := max(p.Height-1, 1)
	if p.reg < p.regTop {
		p.regTop = p.reg
	}
	if p.reg >= p.regTop+rowsVisible {
		p.regTop = p.reg - rowsVisible + 1
	}
	cols, bands := vgprGrid(p.format, n, p.Width, p.Height)
	shown := cols * bands // lanes on screen
	if shown > cols {
		p.regTop = 0
	}
	if p.lane < p.laneL {
		p.laneL = p.lane
	}
	if p.lane >= p.laneL+shown {
		p.laneL = p.lane - shown + 1
	}
	if shown > cols {
		// Bands scroll by whole bands so each starts on the same lanes.
		p.laneL = (p.laneL + cols - 1) / cols * cols
		if p.lane < p.laneL {
			p.laneL -= cols
		}
	}
	p.laneL = max(min(p.laneL, 64-shown), 0)
	v.Format, v.RegCursor, v.LaneCursor, v.AllLanes = p.format, p.reg, p.lane, p.allLanes
	return renderVGPRs(&v, p.Styles, p.regTop, p.laneL, p.Height, p.Width)
}

func (p *vgprPane) HandleKey(msg tea.KeyPressMsg, f *Frame) (tea.Cmd, bool) {
	k, n := p.Keys, len(f.VGPR.Values)
	switch {
	case key.Matches(msg, k.Format):
		p.format = (p.format + 1) % numFormats
	case key.Matches(msg, k.AllLanes):
		p.allLanes = !p.allLanes
	case key.Matches(msg, k.Up):
		p.reg--
	case key.Matches(msg, k.Down):
		p.reg++
	case key.Matches(msg, k.Left):
		p.lane--
	case key.Matches(msg, k.Right):
		p.lane++
	case key.Matches(msg, k.PageUp):
		p.lane -= 8
	case key.Matches(msg, k.PageDown):
		p.lane += 8
	case key.Matches(msg, k.Top):
		p.reg, p.lane = 0, 0
	case key.Matches(msg, k.Bottom):
		p.reg = n - 1
	case key.Matches(msg, k.Watch):
		lane := p.lane
		if p.allLanes {
			lane = -1
		}
		return msgCmd(watchMsg{RegRef{File: 'v', Num: p.reg, Lane: lane}}), true
	default:
		return nil, false
	}
	p.reg = max(min(p.reg, n-1), 0)
	p.lane = max(min(p.lane, 63), 0)
	return nil, true
}

// Scroll moves through registers, or, when every register is on screen in
// lane bands, through lanes a band at a time.
func (p *vgprPane) Scroll(delta int) {
	if cols, bands := vgprGrid(p.format, p.nregs, p.Width, p.Height); bands > 1 && !p.allLanes {
		if delta < 0 {
			p.lane = max(p.lane-cols, 0)
		} else {
			p.lane = min(p.lane+cols, 63)
		}
		return
	}
	p.reg = max(p.reg+delta, 0)
}

func (p *vgprPane) Click(x, y int, f *Frame) tea.Cmd {
	if p.allLanes {
		return nil
	}
	cw := compactWidth(p.format) + 1
	n := len(f.VGPR.Values)
	cols, bands := vgprGrid(p.format, n, p.Width, p.Height)
	band := 0
	if bands > 1 {
		band, y = y/(n+1), y%(n+1)
	}
	if y >= 1 {
		p.reg = min(p.regTop+y-1, max(n-1, 0))
	}
	if x >= 5 {
		p.lane = min(p.laneL+band*cols+min((x-5)/cw, cols-1), 63)
	}
	return nil
}

func (p *vgprPane) ShortHelp() []key.Binding {
	return []key.Binding{p.Keys.Left, p.Keys.Right, p.Keys.AllLanes, p.Keys.Format, p.Keys.Watch}
}

// ---- text panes: counters, scalar cache, address decoder ----

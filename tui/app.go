package tui

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Model is the debugger's Bubble Tea model.
type Model struct {
	common Common
	dbg    Debuggee
	frame  Frame
	panes  [numPanes]component
	mem    *memPane
	disasm *disasmPane

	focus     paneID
	mru       []paneID // most recently focused first
	maximised bool
	showHelp  bool
	helpTop   int // first line of the help overlay shown
	help      help.Model
	cmdline   cmdLine
	cmdActive bool

	breaks  map[uint64]*breakpoint
	watches []*watchpoint
	tour    *tour       // the open sample's guided tour (tour.go), if any
	src     *editSource // the .s the session came from, for :edit (edit.go)
	opt     Options
	run     *runState // a continue in progress
	opening *opening  // a wave opening in the background (opening.go)
	gdb     gdbState  // the command language's state (gdbcmds.go)

	msg    string // status message
	msgErr bool
	width  int
	height int
}

// Options configures New.
type Options struct {
	Color ColorMode
	// Context, when set, stops the opening of a wave (of another
	// work-group) when it is done: for Batch, which has no Ctrl-C key.
	Context context.Context
	// Progress, when set, is told the progress line of a wave opening
	// (for Batch, which shows no screen).
	Progress func(line string)
}

// New returns a debugger model over d.
func New(d Debuggee, opt Options) *Model {
	st := NewStyles(opt.Color)
	m := &Model{
		common: Common{Styles: st, Keys: DefaultKeyMap()},
		dbg:    d,
		breaks: map[uint64]*breakpoint{},
		width:  80, height: 24,
		opt: opt,
	}
	c := &m.common
	m.help = help.New()
	m.help.Styles = st.Help
	m.cmdline = newCmdLine(st, commandNames())
	m.disasm = &disasmPane{Common: &Common{Styles: st, Keys: c.Keys}}
	m.mem = &memPane{Common: &Common{Styles: st, Keys: c.Keys}, dbg: d, dwords: true}
	sub := func() *Common { return &Common{Styles: st, Keys: c.Keys} }
	m.panes = [numPanes]component{
		paneDisasm: m.disasm,
		paneSGPR:   &sgprPane{Common: sub(), scroller: newScroller()},
		paneVGPR:   &vgprPane{Common: sub()},
		paneCounters: &textPane{Common: sub(), scroller: newScroller(), title: "4 counters",
			render: func(f *Frame, st *Styles, w int) []string { return renderCounters(&f.Counters, st, w) }},
		paneCache: &textPane{Common: sub(), scroller: newScroller(), title: "5 scalar cache",
			render: func(f *Frame, st *Styles, w int) []string { return renderCache(&f.Cache, st, w) }},
		paneAddr: &textPane{Common: sub(), scroller: newScroller(), title: "6 address decoder",
			render: func(f *Frame, st *Styles, w int) []string { return renderAddr(&f.Addr, st, w) }},
		paneMemory: m.mem,
		paneWaves:  &wavesPane{Common: sub()},
		paneSource: &sourcePane{Common: sub(), dbg: d},
	}
	m.mru = []paneID{paneDisasm, paneSGPR, paneVGPR, paneCounters, paneAddr, paneMemory, paneCache, paneWaves, paneSource}
	m.defaultMemory()
	m.refresh()
	m.disasm.followPC(&m.frame)
	if m.tour = newTour(d); m.tour != nil {
		m.tourFormat(m.tour.shownStop())
	}
	return m
}

// defaultMemory points the memory pane at the first buffer argument, or
// else at the kernel arguments.
func (m *Model) defaultMemory() {
	bufs := m.dbg.Buffers()
	for i, b := range bufs {
		if i == len(bufs)-1 || b.Name != "kernarg" {
			m.mem.base, m.mem.title = b.Addr, b.Name
			return
		}
	}
	m.mem.title = "global"
}

// refresh rebuilds the frame from the debuggee.
func (m *Model) refresh() {
	f := &m.frame
	lines := f.Disasm.Lines
	if lines == nil {
		lines = m.dbg.Program()
	}
	*f = Frame{}
	f.Disasm.Lines = lines
	m.dbg.Fill(f)
	f.Disasm.PC, f.Disasm.HasPC = m.dbg.PC()
	f.Disasm.Breaks = make(map[uint64]bool, len(m.breaks))
	for a, b := range m.breaks {
		f.Disasm.Breaks[a] = b.enabled
	}
	f.Waves.Rows = m.dbg.Waves()
	f.Waves.Selected = m.dbg.Selected()
	f.Waves.Total = m.dbg.WaveCount()
}

// Init implements tea.Model.
func (m *Model) Init() tea.Cmd { return nil }

func (m *Model) setFocus(p paneID) {
	p = m.sourceFocus(p)
	m.focus = p
	out := []paneID{p}
	for _, q := range m.mru {
		if q != p {
			out = append(out, q)
		}
	}
	m.mru = out
}

func (m *Model) status(format string, a ...any) {
	m.msg, m.msgErr = fmt.Sprintf(format, a...), false
}

func (m *Model) fail(err error) {
	if err != nil {
		m.msg, m.msgErr = err.Error(), true
	}
}

// Update implements tea.Model.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		return m, nil
	case runMsg:
		return m, m.runContinue(msg)
	case openProgressMsg:
		if msg.o != m.opening {
			return m, nil
		}
		if m.opt.Progress != nil {
			m.opt.Progress(msg.o.text())
		}
		return m, msg.o.update(msg.p)
	case openedMsg:
		m.opened(msg)
		return m, nil
	case editedMsg:
		m.afterEdit(msg)
		return m, nil
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.MouseWheelMsg:
		mm := msg.Mouse()
		delta := 3
		if mm.Button == tea.MouseWheelUp {
			delta = -3
		}
		if p, _, ok := m.paneAt(mm.X, mm.Y); ok {
			m.panes[p].Scroll(delta)
		}
		return m, nil
	case tea.MouseClickMsg:
		mm := msg.Mouse()
		if p, r, ok := m.paneAt(mm.X, mm.Y); ok && !m.busy() {
			m.setFocus(p)
			return m, m.now(m.panes[p].Click(mm.X-r.x-1, mm.Y-r.y-1, &m.frame))
		}
		return m, nil
	case toggleBreakMsg:
		m.toggleBreak(msg.addr)
	case runToMsg:
		return m, m.startRun(runForward, 0, msg.addr)
	case watchMsg:
		m.addWatch(msg.ref)
	case selectWaveMsg:
		return m, m.selectWave(msg.index)
	}
	return m, nil
}

func (m *Model) busy() bool { return m.run != nil || m.opening != nil }

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.common.Keys
	if m.opening != nil {
		return m.openKey(msg)
	}
	if m.busy() {
		switch {
		case key.Matches(msg, k.Quit):
			m.run = nil // the run stops with the program
			return tea.Quit
		case key.Matches(msg, k.Interrupt) || msg.String() == "esc":
			m.run.cancelled = true
		}
		return nil
	}
	if m.gdb.confirm {
		return m.confirmKey(msg)
	}
	if m.gdb.out != nil && !m.cmdActive {
		m.gdb.out = nil // any key closes the output box; ':' opens the line too
		if msg.String() != ":" {
			return nil
		}
	}
	if m.cmdActive {
		switch msg.String() {
		case "enter":
			m.cmdActive = false
			return m.execCommand(m.cmdline.Submit())
		case "esc", "ctrl+c":
			m.cmdActive = false
			m.cmdline.Close()
			return nil
		}
		m.cmdline.Update(msg)
		return nil
	}
	if m.showHelp {
		switch {
		case key.Matches(msg, k.Down), key.Matches(msg, k.PageDown):
			m.helpTop++
		case key.Matches(msg, k.Up), key.Matches(msg, k.PageUp):
			m.helpTop = max(m.helpTop-1, 0)
		default:
			m.showHelp = false
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Quit), key.Matches(msg, k.Interrupt):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.showHelp, m.helpTop = true, 0
	case key.Matches(msg, k.Samples):
		return func() tea.Msg { return pickerMsg{} }
	case key.Matches(msg, k.Tour):
		m.tourNext()
	case key.Matches(msg, k.Command):
		m.cmdActive = true
		m.cmdline.Open()
	case key.Matches(msg, k.Step):
		m.stepN(1)
	case key.Matches(msg, k.StepBack):
		m.backN(1)
	case key.Matches(msg, k.StepOver):
		return m.startRun(runForward, 10, noAddr)
	case key.Matches(msg, k.Continue):
		return m.startRun(runForward, 0, noAddr)
	case key.Matches(msg, k.ReverseContinue):
		return m.startRun(runBackward, 0, noAddr)
	case key.Matches(msg, k.NextPane):
		m.setFocus((m.focus + 1) % numPanes)
	case key.Matches(msg, k.PrevPane):
		m.setFocus((m.focus + numPanes - 1) % numPanes)
	case key.Matches(msg, k.FocusPane):
		m.setFocus(paneID(msg.String()[0] - '1'))
	case key.Matches(msg, k.Maximise):
		m.maximised = !m.maximised
	case key.Matches(msg, k.NextWave):
		return m.selectWave(m.dbg.Selected() + 1)
	case key.Matches(msg, k.PrevWave):
		return m.selectWave(m.dbg.Selected() - 1)
	default:
		cmd, _ := m.panes[m.focus].HandleKey(msg, &m.frame)
		return m.now(cmd)
	}
	return nil
}

// now runs a pane's command at once when it only carries one of the panes'
// messages, so that the keys after it see its effect.
func (m *Model) now(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	switch msg.(type) {
	case toggleBreakMsg, runToMsg, watchMsg, selectWaveMsg:
		_, next := m.Update(msg)
		return next
	}
	return func() tea.Msg { return msg }
}

// selectWave selects wave i; a wave of another work-group opens in the
// background (the command).
func (m *Model) selectWave(i int) tea.Cmd {
	if i < 0 || i >= m.frame.Waves.Total {
		return nil
	}
	if op, ok := m.dbg.(waveOpener); ok && op.NeedsOpen(i) {
		return m.openWave(op, i)
	}
	fresh := m.frame.Waves.fresh(m.dbg.Selected(), i)
	if err := m.dbg.SelectWave(i); err != nil {
		m.fail(err)
		return nil
	}
	m.selected(i, fresh)
	return nil
}

// selected shows wave i, just selected (fresh: its work-group was
// dispatched afresh).
func (m *Model) selected(i int, fresh bool) {
	m.refresh()
	m.disasm.followPC(&m.frame)
	for _, w := range m.watches {
		w.last = w.read(m.dbg) // watch the new wave from its current values
	}
	if fresh {
		r, _ := m.frame.Waves.Row(i)
		m.status("wave %d: group %s dispatched afresh (earlier groups ran to completion)", i, groupText(r.Group))
		return
	}
	m.status("wave %d", i)
}

// chrome returns the rows used by the status bar, the tour band, the
// explain line and the help bar.
func (m *Model) chrome() (top, bottom int) {
	if m.height < 10 {
		return 1, 0
	}
	return 1, 2 + m.tourHeight()
}

// slots lays out the panes for the current size.
func (m *Model) slots() []slot {
	top, bottom := m.chrome()
	s := layoutSlots(m.width, max(m.height-top-bottom, 0), m.maximised)
	if m.maximised || len(s) == 1 {
		s[0].panes = []paneID{m.focus}
	} else {
		s = m.placeSource(s)
	}
	for i := range s {
		s[i].y += top
	}
	return s
}

// paneAt finds the pane drawn at screen cell (x, y).
func (m *Model) paneAt(x, y int) (paneID, rect, bool) {
	for _, s := range m.slots() {
		if s.contains(x, y) {
			return s.shown(m.mru), s.rect, true
		}
	}
	return 0, rect{}, false
}

// View implements tea.Model.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "wavedbg " + m.dbg.Name()
	return v
}

// Render draws the whole screen as a string of exactly height lines.
func (m *Model) Render() string {
	w, h := m.width, m.height
	if w <= 0 || h <= 0 {
		return ""
	}
	st := m.common.Styles
	top, bottom := m.chrome()
	m.markTour(&m.frame)
	screen := make([]string, 0, h)
	screen = append(screen, fit(m.statusLine(), w))
	body := make([]string, max(h-top-bottom, 0))
	if m.showHelp {
		body = m.helpOverlay(w, len(body))
	} else if m.gdb.out != nil {
		body = m.outputBox(w, len(body))
	} else {
		for _, s := range m.slots() {
			if s.w <= 0 || s.h <= 0 {
				continue
			}
			p := s.shown(m.mru)
			c := m.panes[p]
			c.SetSize(s.w-2, s.h-2)
			title, tab := c.Title(&m.frame), ""
			if len(s.panes) > 1 {
				tab = fmt.Sprintf(" ‹tab %d/%d›", indexOf(s.panes, p)+1, len(s.panes))
			}
			// A narrow pane drops its title's trailing parts (legends, the
			// cursor) before the tab marker, which says more panes share it.
			for utf8.RuneCountInString(title+tab) > s.w-4 {
				i := strings.LastIndex(title, "  ")
				if i <= 0 {
					break
				}
				title = title[:i]
			}
			title += tab
			box := strings.Split(frame(" "+title+" ", c.Render(&m.frame), st, s.w, s.h, p == m.focus), "\n")
			for i, line := range box {
				y := s.y - top + i
				if y >= 0 && y < len(body) {
					body[y] += line
				}
			}
		}
	}
	screen = append(screen, body...)
	screen = append(screen, m.tourLines(w)...)
	if bottom > 0 {
		ex := st.Explain
		if strings.HasPrefix(m.frame.Explain, "⚠") {
			ex = st.Error // a hazard: the missing s_waitcnt bug
		}
		screen = append(screen, fit(st.render(ex, m.frame.Explain), w))
		if m.cmdActive {
			screen = append(screen, fit(m.cmdline.View(w), w))
		} else {
			m.help.SetWidth(w)
			keys := dedupe(append(m.panes[m.focus].ShortHelp(), m.common.Keys.ShortHelp()...))
			screen = append(screen, fit(m.help.ShortHelpView(keys), w))
		}
	}
	return strings.Join(screen, "\n")
}

func indexOf(ps []paneID, p paneID) int {
	for i, q := range ps {
		if q == p {
			return i
		}
	}
	return 0
}

func (m *Model) statusLine() string {
	st := m.common.Styles
	pc, ok := m.dbg.PC()
	where := "ended"
	if ok {
		where = fmt.Sprintf("pc 0x%x", pc)
	}
	group := ""
	if r, ok := m.frame.Waves.Row(m.dbg.Selected()); ok && (r.Group != [3]int{} || multiGroup(m.frame.Waves.Rows)) {
		group = "group " + groupText(r.Group) + " "
	}
	s := fmt.Sprintf(" wavedbg  %s  %swave %d/%d  %s  step %d  cycle %d ",
		m.dbg.Name(), group, m.dbg.Selected(), m.frame.Waves.Total, where, m.dbg.StepCount(), m.frame.Counters.Cycle)
	if m.msg != "" && m.run == nil && utf8.RuneCountInString(s)+1+utf8.RuneCountInString(m.msg) > m.width {
		// Narrow: keep room for the message (it says what just happened).
		s = fmt.Sprintf(" %s  %sw%d/%d  %s  step %d ",
			m.dbg.Name(), strings.TrimPrefix(group, "group "), m.dbg.Selected(), m.frame.Waves.Total, where, m.dbg.StepCount())
	}
	out := st.render(st.Status, s)
	switch {
	case m.opening != nil:
		out = st.render(st.Running, " "+m.opening.text()+" ") + out
	case m.run != nil:
		out = st.render(st.Running, " "+m.run.progress()+" ") + out
	case m.msg != "" && m.msgErr:
		out += " " + st.render(st.Error, m.msg)
	case m.msg != "":
		out += " " + m.msg
	}
	return out
}

package tui

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/wavedbg/wavedbg/emu"
)

// Starting is the program while the wave wavedbg starts with opens: the
// work-groups before it run in the background under a progress line, then
// the App shows the debugger over it. Ctrl-C or q stop the opening and end
// the program; Err then says so.
type Starting struct {
	app  *App
	o    *opening
	then func(*Model) error
	err  error
}

// NewStarting returns the program that opens wave with open (the
// progress is emu.GridConfig.Progress's), shows it in app, and calls then
// (when set) on the new debugger before its first frame.
func NewStarting(app *App, wave uint64, open func(ctx context.Context, progress func(emu.GridProgress)) (Debuggee, error), then func(*Model) error) *Starting {
	return &Starting{app: app, o: newOpening(nil, int(wave), open), then: then}
}

// Err is why the program ended before the debugger showed: the opening
// stopped (Ctrl-C) or failed.
func (s *Starting) Err() error { return s.err }

// Init implements tea.Model: the opening starts.
func (s *Starting) Init() tea.Cmd { return s.o.wait() }

// Update implements tea.Model.
func (s *Starting) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if s.o == nil {
		_, cmd := s.app.Update(msg)
		return s, cmd
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		s.app.Update(msg)
	case tea.KeyPressMsg:
		k := s.app.keys
		if key.Matches(msg, k.Quit) || msg.String() == "esc" {
			s.o.cancel() // the result ends the program
			s.o.stopped = true
		}
	case openProgressMsg:
		if msg.o == s.o {
			return s, s.o.update(msg.p)
		}
	case openedMsg:
		if msg.o != s.o {
			break
		}
		o := s.o
		defer o.cancel() // release the context
		if o.stopped && msg.err == nil {
			msg.err = context.Canceled // Ctrl-C as it ended: quit all the same
		}
		if msg.err != nil {
			s.err = o.result(msg.err)
			return s, tea.Quit
		}
		s.o = nil
		s.app.Show(msg.d)
		if s.then != nil {
			if s.err = s.then(s.app.Debugger()); s.err != nil {
				return s, tea.Quit
			}
		}
	}
	return s, nil
}

// View implements tea.Model.
func (s *Starting) View() tea.View {
	if s.o == nil {
		return s.app.View()
	}
	v := tea.NewView(s.Render())
	v.AltScreen = true
	v.WindowTitle = "wavedbg"
	return v
}

// Render draws the screen while the wave opens: the progress line at the
// top, as exactly height lines.
func (s *Starting) Render() string {
	if s.o == nil {
		return s.app.Render()
	}
	w, h := s.app.width, s.app.height
	if w <= 0 || h <= 0 {
		return ""
	}
	st := s.app.st
	lines := make([]string, h)
	lines[0] = fit(st.render(st.Running, " "+s.o.text()+" "), w)
	for i := 1; i < h; i++ {
		lines[i] = fit("", w)
	}
	return strings.Join(lines, "\n")
}

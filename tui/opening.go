package tui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/wavedbg/wavedbg/emu"
)

// This file opens a wave in the background: the work-groups before it run
// on the fast engine in a goroutine a tea.Cmd starts, while the screen
// shows a progress line and Ctrl-C stops them (emu.GridConfig.Progress and
// the run's context). The Model uses it when a wave of another work-group
// is selected; Starting uses it for the wave wavedbg opens with.

// openFunc opens a wave, stopped by ctx, telling progress how it goes.
type openFunc func(ctx context.Context, progress func(emu.GridProgress)) (Debuggee, error)

// opening is a wave being opened in the background.
type opening struct {
	wave   int
	open   openFunc
	ctx    context.Context
	cancel context.CancelFunc
	start  sync.Once
	prog   chan emu.GridProgress // the latest report not yet shown (capacity 1)
	done   chan openedMsg        // the result (capacity 1)

	p       emu.GridProgress // the latest report shown
	seen    bool             // a report came
	stopped bool             // Ctrl-C: stopping
}

// openProgressMsg carries a progress report of opening o.
type openProgressMsg struct {
	o *opening
	p emu.GridProgress
}

// openedMsg says that opening o has ended: with d, or with err.
type openedMsg struct {
	o   *opening
	d   Debuggee
	err error
}

// newOpening returns the opening of wave i by open under parent (nil: none);
// nothing runs until its first wait command does.
func newOpening(parent context.Context, i int, open openFunc) *opening {
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancel(parent)
	return &opening{wave: i, open: open, ctx: ctx, cancel: cancel,
		prog: make(chan emu.GridProgress, 1), done: make(chan openedMsg, 1)}
}

// report keeps only the latest progress report for the screen; it runs on
// the run's progress goroutine (one at a time).
func (o *opening) report(p emu.GridProgress) {
	select {
	case <-o.prog:
	default:
	}
	o.prog <- p // room: this is the only sender
}

// wait is the command that starts the opening (the first time) and
// returns its next message: a progress report or the result.
func (o *opening) wait() tea.Cmd {
	return func() tea.Msg {
		o.start.Do(func() {
			go func() {
				d, err := o.open(o.ctx, o.report)
				o.done <- openedMsg{o: o, d: d, err: err}
			}()
		})
		select {
		case r := <-o.done:
			return r
		case p := <-o.prog:
			return openProgressMsg{o: o, p: p}
		}
	}
}

// update takes a progress report in and returns the command waiting for
// the next message.
func (o *opening) update(p emu.GridProgress) tea.Cmd {
	o.p, o.seen = p, true
	return o.wait()
}

// text is the progress line.
func (o *opening) text() string {
	s := fmt.Sprintf("opening wave %d", o.wave)
	switch p := o.p; {
	case o.stopped:
		return s + ": stopping…"
	case !o.seen:
		s += ": running work-groups before it…"
	case p.WorkGroups >= p.Total:
		s += ": setting up its work-group…"
	default:
		s += ": running work-groups before it"
		s += fmt.Sprintf(", %s / %s (%d%%)", commas(p.WorkGroups), commas(p.Total), p.WorkGroups*100/p.Total)
	}
	return s + " — Ctrl-C stops"
}

// result turns a stopped opening's error into what to say.
func (o *opening) result(err error) error {
	if errors.Is(err, context.Canceled) && o.ctx.Err() != nil {
		msg := fmt.Sprintf("opening wave %d interrupted", o.wave)
		if o.seen && o.p.WorkGroups < o.p.Total {
			msg += fmt.Sprintf(" after %s of the %s work-groups before it", commas(o.p.WorkGroups), commas(o.p.Total))
		}
		return stoppedError{msg, err}
	}
	return fmt.Errorf("opening wave %d: %w", o.wave, err)
}

// stoppedError is an opening stopped by a cancellation: its message says
// how far it got, and it wraps the run's error (context.Canceled).
type stoppedError struct {
	msg string
	err error
}

func (e stoppedError) Error() string { return e.msg }
func (e stoppedError) Unwrap() error { return e.err }

// commas writes n with a comma between groups of three digits.
func commas(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// openWave selects wave i, a wave of another work-group, in the
// background: the status line shows the progress until it is open.
func (m *Model) openWave(op waveOpener, i int) tea.Cmd {
	if m.opening != nil {
		return nil
	}
	m.msg = ""
	m.opening = newOpening(m.opt.Context, i, func(ctx context.Context, progress func(emu.GridProgress)) (Debuggee, error) {
		return op.OpenWave(ctx, i, progress)
	})
	return m.opening.wait()
}

// openKey handles a key while a wave opens: Ctrl-C (or Esc) stops the
// opening, q stops it and quits (as q does); other keys are ignored.
func (m *Model) openKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.common.Keys
	switch {
	case key.Matches(msg, k.Quit):
		m.opening.cancel()
		m.opening = nil
		return m.quit()
	case key.Matches(msg, k.Interrupt) || msg.String() == "esc":
		m.opening.cancel()
		m.opening.stopped = true
	}
	return nil
}

// opened ends the opening of a wave: it is shown, or the current one stays.
func (m *Model) opened(msg openedMsg) {
	o := m.opening
	if o == nil || msg.o != o {
		return
	}
	m.opening = nil
	stopped := o.ctx.Err() != nil
	o.cancel() // release the context
	if stopped && (msg.err == nil || errors.Is(msg.err, context.Canceled)) {
		// Stopped, even if it ended meanwhile: the current wave stays.
		if m.opt.Context != nil && m.opt.Context.Err() != nil {
			m.fail(o.result(context.Canceled)) // Batch: interrupted
			return
		}
		m.status("opening wave %d stopped; still on wave %d", o.wave, m.dbg.Selected())
		return
	}
	if msg.err != nil {
		m.fail(o.result(msg.err))
		return
	}
	m.dbg.(waveOpener).Adopt(msg.d)
	m.selected(o.wave, true)
}

// OpenWithProgress opens a wave with open without a screen (wavedbg
// --batch): progress, when set, is told the progress line as it changes,
// on the caller's goroutine. A cancellation of ctx stops the opening with
// an error that says so.
func OpenWithProgress(ctx context.Context, wave uint64, open func(ctx context.Context, progress func(emu.GridProgress)) (Debuggee, error), progress func(line string)) (Debuggee, error) {
	o := newOpening(ctx, int(wave), open)
	defer o.cancel()
	for {
		switch msg := o.wait()().(type) {
		case openProgressMsg:
			o.update(msg.p)
			if progress != nil {
				progress(o.text())
			}
		case openedMsg:
			if msg.err == nil && o.ctx.Err() != nil {
				msg.err = context.Canceled // interrupted as it ended
			}
			if msg.err != nil {
				return nil, o.result(msg.err)
			}
			return msg.d, nil
		}
	}
}

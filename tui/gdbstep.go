package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// This file is gdb's stepping commands beyond step and continue: nexti,
// finish and until, which run the ordinary run loop with a check before
// and after each step; and what happens at every stop (temporary
// breakpoints, displays).

func cmdContinue(m *Model, _ []string) (tea.Cmd, error) {
	return m.startRun(runForward, 0, noAddr), nil
}

func cmdReverseContinue(m *Model, _ []string) (tea.Cmd, error) {
	return m.startRun(runBackward, 0, noAddr), nil
}

// instAt returns the text of the instruction at addr and the address of
// the one after it.
func (m *Model) instAt(addr uint64) (text string, next uint64, ok bool) {
	lines := m.frame.Disasm.Lines
	for i, l := range lines {
		if l.Addr == addr {
			next = addr + 4*uint64(max(len(strings.Fields(l.Enc)), 1))
			if i+1 < len(lines) && l.Enc == "" {
				next = lines[i+1].Addr
			}
			return l.Text, next, true
		}
	}
	return "", 0, false
}

func isCall(text string) bool {
	return strings.HasPrefix(text, "s_swappc_b64") || strings.HasPrefix(text, "s_call_b64")
}

func isReturn(text string) bool { return strings.HasPrefix(text, "s_setpc_b64") }

// callTracker follows the call depth of a run: each s_swappc/s_call goes
// one level in, each s_setpc_b64 one level out.
type callTracker struct{ depth int }

// before notes the instruction about to run; it returns true when it is a
// return from the level the run started at.
func (c *callTracker) before(m *Model) bool {
	pc, ok := m.dbg.PC()
	if !ok {
		return false
	}
	text, _, _ := m.instAt(pc)
	switch {
	case isCall(text):
		c.depth++
	case isReturn(text):
		if c.depth == 0 {
			return true
		}
		c.depth--
	}
	return false
}

// cmdNexti steps N instructions, running each call to its return: until
// the PC reaches the next instruction at the same call level.
func cmdNexti(m *Model, args []string) (tea.Cmd, error) {
	n, err := countArg(args)
	if err != nil {
		return nil, err
	}
	pc, ok := m.dbg.PC()
	if !ok {
		return nil, fmt.Errorf("the wave has ended")
	}
	if text, _, _ := m.instAt(pc); n == 1 && !isCall(text) {
		m.stepN(1)
		return nil, nil
	}
	ct, left := &callTracker{}, n
	r := m.newRun()
	r.pre = func(m *Model) string { ct.before(m); return "" }
	r.post = func(m *Model) string {
		if ct.depth > 0 {
			return ""
		}
		if left--; left > 0 {
			return ""
		}
		pc, _ := m.dbg.PC()
		if n == 1 {
			return fmt.Sprintf("stepped over the call, at 0x%x", pc)
		}
		return fmt.Sprintf("stepped %d, over calls, at 0x%x", n, pc)
	}
	return m.runOwn(r), nil
}

// cmdFinish runs until the current call returns: the s_setpc_b64 of this
// call level has executed.
func cmdFinish(m *Model, _ []string) (tea.Cmd, error) {
	if _, ok := m.dbg.PC(); !ok {
		return nil, fmt.Errorf("the wave has ended")
	}
	ct, done := &callTracker{}, false
	r := m.newRun()
	r.pre = func(m *Model) string { done = ct.before(m); return "" }
	r.post = func(m *Model) string {
		if done {
			pc, _ := m.dbg.PC()
			return fmt.Sprintf("returned to 0x%x", pc)
		}
		return ""
	}
	return m.runOwn(r), nil
}

// cmdGDBUntil runs to LOC, or alone to an instruction past the current
// one at the same call level (out of a loop: gdb's until).
func cmdGDBUntil(m *Model, args []string) (tea.Cmd, error) {
	if len(args) > 0 {
		return cmdUntil(m, args)
	}
	start, ok := m.dbg.PC()
	if !ok {
		return nil, fmt.Errorf("the wave has ended")
	}
	ct := &callTracker{}
	r := m.newRun()
	r.pre = func(m *Model) string { ct.before(m); return "" }
	r.post = func(m *Model) string {
		if pc, ok := m.dbg.PC(); ok && pc > start && ct.depth == 0 {
			return fmt.Sprintf("reached 0x%x", pc)
		}
		return ""
	}
	return m.runOwn(r), nil
}

// newRun makes a forward run state for runOwn.
func (m *Model) newRun() *runState {
	return &runState{dir: runForward, target: noAddr}
}

// runOwn starts r as the run in progress.
func (m *Model) runOwn(r *runState) tea.Cmd {
	if m.busy() {
		return nil
	}
	m.msg, r.started = "", time.Now()
	m.run = r
	return m.runContinue(runMsg{})
}

// stopped runs after every stop: a temporary breakpoint hit is deleted,
// and the displays are appended to the status line.
func (m *Model) stopped() {
	if pc, ok := m.dbg.PC(); ok {
		if b, ok := m.breaks[pc]; ok && b.temp && strings.Contains(m.msg, "breakpoint at") {
			delete(m.breaks, pc)
			m.refreshBreaks()
			m.msg = strings.Replace(m.msg, "breakpoint at", fmt.Sprintf("temporary breakpoint %d at", b.num), 1)
		}
	}
	if m.msgErr || len(m.gdb.displays) == 0 {
		return
	}
	var parts []string
	for _, d := range m.gdb.displays {
		parts = append(parts, m.displayText(d))
	}
	if m.msg != "" {
		m.msg += " · "
	}
	m.msg += strings.Join(parts, " · ")
}

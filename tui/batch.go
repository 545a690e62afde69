package tui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Batch runs one command line to completion without a terminal (wavedbg
// --batch) and returns what it printed: the status line and any output
// box, and after a stepping command where the wave stopped. An error is
// the command's error message. quit reports a quit command.
func (m *Model) Batch(line string) (out string, quit bool, err error) {
	m.gdb.out = nil
	name, _ := splitCommand(line)
	if c := findCommand(name); c != nil && c.names[0] == "quit" {
		return "", true, nil
	}
	cmd := m.execCommand(line)
	for cmd != nil {
		msg := cmd()
		if _, ok := msg.(tea.QuitMsg); ok {
			return "", true, nil
		}
		switch msg.(type) {
		case runMsg:
			if ctx := m.opt.Context; ctx != nil && ctx.Err() != nil && m.run != nil {
				m.run.cancelled = true // SIGINT
			}
			cmd = m.runContinue(runMsg{})
		case openProgressMsg, openedMsg: // a wave opening (opening.go)
			_, cmd = m.Update(msg)
		default:
			cmd = nil // a message only a program acts on (the sample picker)
		}
	}
	if m.msgErr {
		return "", false, errors.New(m.msg)
	}
	var lines []string
	if m.msg != "" {
		lines = append(lines, m.msg)
	}
	lines = append(lines, m.gdb.out...)
	if c := findCommand(name); c != nil && repeatable[c.names[0]] || isGroupStep(line) {
		lines = append(lines, m.where())
	}
	return strings.Join(lines, "\n"), false, nil
}

// where says where the selected wave stands: its PC and instruction.
func (m *Model) where() string {
	pc, ok := m.dbg.PC()
	if !ok {
		return fmt.Sprintf("wave %d: ended, %d steps in all", m.dbg.Selected(), m.dbg.StepCount())
	}
	text, _, _ := m.instAt(pc)
	return fmt.Sprintf("0x%x  %s", pc, text)
}

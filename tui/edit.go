package tui

import (
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// This file is :edit: a session opened from assembly source (wavedbg K.s)
// opens the source in $EDITOR, then reassembles and reloads it, keeping
// each breakpoint at the same label (and offset from it). An assembly
// error leaves the session as it was and shows in the status line.

// Reload reassembles a session's source and opens the same launch again;
// labels are the source's (.L ones too, which code objects drop) at their
// addresses.
type Reload func() (d Debuggee, labels map[string]uint64, err error)

// editSource is the .s file a session was assembled from.
type editSource struct {
	path   string
	labels map[string]uint64
	reload Reload
}

// SetSource makes :edit available: path is the source of the session,
// labels its labels (which LOC may then name) and reload reassembles it
// and opens it again (nil in batch mode: labels only).
func (m *Model) SetSource(path string, labels map[string]uint64, reload Reload) {
	m.src = &editSource{path: path, labels: labels, reload: reload}
}

// sourceLabel resolves a label of the session's source, "name" or "name:".
func (m *Model) sourceLabel(s string) (uint64, bool) {
	if m.src == nil {
		return 0, false
	}
	a, ok := m.src.labels[strings.TrimSuffix(s, ":")]
	return a, ok
}

// editedMsg reports that the editor exited.
type editedMsg struct{ err error }

func init() {
	commandTable = append(commandTable, command{[]string{"edit"}, "",
		"edit the session's .s in $EDITOR, reassemble and reload it (breakpoints kept by label)", cmdEdit})
}

// editorCommand runs $VISUAL, else $EDITOR, else vi on path; the variable
// may hold arguments ("code -w").
func editorCommand(path string) *exec.Cmd {
	ed := os.Getenv("VISUAL")
	if ed == "" {
		ed = os.Getenv("EDITOR")
	}
	if ed == "" {
		ed = "vi"
	}
	return exec.Command("sh", "-c", ed+` "$1"`, "sh", path)
}

func cmdEdit(m *Model, args []string) (tea.Cmd, error) {
	if m.src == nil {
		return nil, fmt.Errorf("this session was not opened from a .s file (wavedbg K.s)")
	}
	if len(args) > 0 {
		return nil, fmt.Errorf("want: edit")
	}
	if m.src.reload == nil {
		return nil, fmt.Errorf("the editor needs the interactive debugger")
	}
	return tea.ExecProcess(editorCommand(m.src.path), func(err error) tea.Msg { return editedMsg{err} }), nil
}

// afterEdit reloads the source once the editor has exited.
func (m *Model) afterEdit(msg editedMsg) {
	if msg.err != nil {
		m.fail(fmt.Errorf("edit: %s: %v", m.src.path, msg.err))
		return
	}
	m.Reassemble()
}

// Reassemble reloads the session's source: on success the debugger starts
// over on the new code with the breakpoints moved to their labels; an
// assembly error is shown and the session kept.
func (m *Model) Reassemble() {
	d, labels, err := m.src.reload()
	if err != nil {
		first, _, _ := strings.Cut(err.Error(), "\n")
		m.fail(fmt.Errorf("%s", first))
		return
	}
	type mark struct {
		label string
		off   uint64
		b     *breakpoint
	}
	var marks []mark
	for _, b := range m.breaks {
		l, off := nearestLabel(m.src.labels, b.addr)
		marks = append(marks, mark{l, off, b})
	}
	sort.Slice(marks, func(i, j int) bool { return marks[i].b.num < marks[j].b.num })
	nm := New(d, m.opt)
	nm.src, nm.cmdline.history, nm.gdb = &editSource{m.src.path, labels, m.src.reload}, m.cmdline.history, m.gdb
	nm.gdb.edited, nm.gdb.confirm = false, false
	nm.Update(tea.WindowSizeMsg{Width: m.width, Height: m.height})
	var lost []string
	for _, k := range marks {
		a, ok := labels[k.label]
		if !ok {
			lost = append(lost, fmt.Sprintf("%d (%s+%d)", k.b.num, k.label, k.off))
			continue
		}
		b := *k.b
		b.addr = a + k.off
		nm.breaks[b.addr] = &b
	}
	nm.refreshBreaks()
	*m = *nm
	m.status("reassembled %s: %d breakpoint(s) kept", m.src.path, len(marks)-len(lost))
	if len(lost) > 0 {
		m.fail(fmt.Errorf("reassembled %s: breakpoint(s) %s dropped, their labels are gone", m.src.path, strings.Join(lost, ", ")))
	}
}

// nearestLabel names addr as the closest label at or before it and the
// offset from it (ties: the first name in order).
func nearestLabel(labels map[string]uint64, addr uint64) (string, uint64) {
	best, at := "", uint64(0)
	for n, a := range labels {
		if a <= addr && (best == "" || a > at || a == at && n < best) {
			best, at = n, a
		}
	}
	return best, addr - at
}

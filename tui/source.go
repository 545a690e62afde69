package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/wavedbg/wavedbg/loader"
)

// SourceLiner is implemented by debuggees whose code object carries DWARF
// line tables (built with -g).
type SourceLiner interface {
	// LineTable is the code object's line table, or nil.
	LineTable() *loader.LineTable
}

// LineTable is the code object's DWARF line table, or nil without -g.
func (d *EmuDebuggee) LineTable() *loader.LineTable { return d.k.lines }

// lineTableOf reads f's line table; nil when f has no (usable) DWARF.
func lineTableOf(f *loader.File) *loader.LineTable {
	if !f.HasDWARF() {
		return nil
	}
	lt, err := f.LineTable()
	if err != nil {
		return nil
	}
	return lt
}

// lineTable is the debuggee's line table, or nil.
func (m *Model) lineTable() *loader.LineTable {
	if s, ok := m.dbg.(SourceLiner); ok {
		return s.LineTable()
	}
	return nil
}

// fileLine resolves "FILE:LINE" to the first address of that line's code;
// ok is false when s is not of that form.
func (m *Model) fileLine(s string) (addr uint64, ok bool, err error) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return 0, false, nil
	}
	line, err := strconv.Atoi(s[i+1:])
	if err != nil || line < 1 {
		return 0, false, nil
	}
	lt := m.lineTable()
	if lt == nil {
		return 0, true, fmt.Errorf("%s: the code object has no line table (build with -g)", s)
	}
	as := lt.Addrs(s[:i], line)
	if len(as) == 0 {
		return 0, true, fmt.Errorf("no code for %s (files: %s)", s, strings.Join(lt.Files(), ", "))
	}
	return as[0], true, nil
}

// srcPos is a source position a source-level step starts from.
type srcPos struct {
	file string
	line int
	fn   string
}

// sourcePos is the source position of the selected wave's PC; ok is false
// when it has none (no line table, no row, or line 0).
func (m *Model) sourcePos() (srcPos, bool) {
	lt := m.lineTable()
	pc, ok := m.dbg.PC()
	if lt == nil || !ok {
		return srcPos{}, false
	}
	r, ok := lt.Lookup(pc)
	if !ok || r.Line == 0 {
		return srcPos{}, false
	}
	return srcPos{r.File, r.Line, lt.Func(pc)}, true
}

// srcStop reports why a source-level step stops at the current PC, or "":
// at a line other than the start (for next, in the starting function).
func (m *Model) srcStop(r *runState) string {
	p, ok := m.sourcePos()
	if !ok || p.file == r.src.file && p.line == r.src.line {
		return ""
	}
	if r.over && p.fn != r.src.fn {
		return ""
	}
	return fmt.Sprintf("%s:%d", p.file, p.line)
}

// cmdSourceStep runs the wave until its source line changes; over steps
// over calls (the line must change within the same function).
func cmdSourceStep(over bool) func(*Model, []string) (tea.Cmd, error) {
	return func(m *Model, args []string) (tea.Cmd, error) {
		if len(args) != 0 {
			return nil, fmt.Errorf("takes no arguments")
		}
		if m.lineTable() == nil {
			return nil, fmt.Errorf("the code object has no line table (build with -g)")
		}
		p, _ := m.sourcePos()
		m.msg = ""
		if m.busy() {
			return nil, nil
		}
		m.run = &runState{dir: runForward, target: noAddr, started: time.Now(), srcStep: true, over: over, src: p}
		return m.runContinue(runMsg{}), nil
	}
}

// cmdGDBStep is gdb's step: to the next source line when the code object
// has a line table, else one instruction (stepi) per count.
func cmdGDBStep(m *Model, args []string) (tea.Cmd, error) {
	if m.lineTable() == nil || len(args) > 0 {
		return cmdStep(m, args)
	}
	return cmdSourceStep(false)(m, args)
}

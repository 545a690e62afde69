package tui

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// dwarfModel opens loops.cl built with -g (loader/testdata/dwarf) in the
// debugger. Its line table (llvm-objdump-19 -d -l): loops.cl:6 at 0x1900,
// :7 at 0x1938, :9 at 0x1984.
func dwarfModel(t *testing.T) *Model {
	t.Helper()
	data, err := os.ReadFile("../loader/testdata/dwarf/loops-gfx900-v5.co")
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(data, Launch{})
	if err != nil {
		t.Fatal(err)
	}
	if d.LineTable() == nil {
		t.Fatal("no line table for a -g code object")
	}
	return New(d, Options{Color: ColorPlain})
}

// execAll runs a command line and the run it starts to its end.
func (m *Model) execAll(line string) {
	cmd := m.execCommand(line)
	for i := 0; cmd != nil && i < 10000; i++ {
		_, cmd = m.Update(cmd())
	}
}

func TestBreakpointByFileLine(t *testing.T) {
	m := dwarfModel(t)
	for _, tt := range []struct{ cmd, want string }{
		{"break loops.cl:9", "breakpoint 1 at 0x1984"},
		{"break ./loops.cl:7", "breakpoint 2 at 0x1938"},
		{"break loops.cl:1000", "no code for loops.cl:1000"},
		{"break other.cl:9", "no code for other.cl:9"},
	} {
		m.msg = ""
		m.execAll(tt.cmd)
		if !strings.Contains(m.msg, tt.want) {
			t.Errorf(":%s → %q, want %q", tt.cmd, m.msg, tt.want)
		}
	}
	m.execAll("delete 2")
	m.execAll("continue")
	if pc, _ := m.dbg.PC(); pc != 0x1984 {
		t.Errorf("continue stopped at %#x (%q), want the breakpoint at loops.cl:9", pc, m.msg)
	}
}

func TestSourceStepStopsAtNextLine(t *testing.T) {
	m := dwarfModel(t)
	var lines []string
	for i := 0; i < 3; i++ {
		m.execAll("next")
		p, ok := m.sourcePos()
		if !ok {
			t.Fatalf("next %d stopped at no source line: %q", i, m.msg)
		}
		lines = append(lines, p.file+":"+strconv.Itoa(p.line))
		if !strings.Contains(m.msg, lines[i]) {
			t.Errorf("next %d: status %q does not name %s", i, m.msg, lines[i])
		}
	}
	// From line 6 the wave reaches 7, then 9.
	if lines[0] != "loops.cl:7" || lines[1] != "loops.cl:9" {
		t.Errorf("next, next went to %q, want loops.cl:7 then loops.cl:9", lines)
	}
	m.execAll("lstep")
	if p, ok := m.sourcePos(); !ok || p.file+":"+strconv.Itoa(p.line) == lines[2] {
		t.Errorf("lstep stayed on %s (%q)", lines[2], m.msg)
	}
}

func TestSourceCommandsWithoutDWARF(t *testing.T) {
	m := New(newFake(), Options{Color: ColorPlain})
	for _, c := range []string{"next", "lstep", "break k.cl:3"} {
		m.msg = ""
		m.execAll(c)
		if !strings.Contains(m.msg, "no line table") {
			t.Errorf(":%s without DWARF → %q", c, m.msg)
		}
	}
}

// TestSourcePaneMarksLine renders the debugger on a -g kernel: the source
// pane sits under the disassembly, titled with the line, and marks it;
// next moves the mark.
func TestSourcePaneMarksLine(t *testing.T) {
	m := dwarfModel(t)
	t.Chdir("../loader/testdata/dwarf") // the DWARF names loops.cl relative to it
	m.Update(winSize(140, 44))
	out := m.Render()
	for _, want := range []string{"9 source loops.cl:6", "▶    6 \tsize_t i = get_global_id(0);"} {
		if !strings.Contains(out, strings.ReplaceAll(want, "\t", "    ")) {
			t.Errorf("screen lacks %q:\n%s", want, out)
		}
	}
	m.execAll("next")
	if out := m.Render(); !strings.Contains(out, "9 source loops.cl:7") || !strings.Contains(out, "▶    7 ") {
		t.Errorf("after next the pane does not mark line 7:\n%s", out)
	}
}

// TestSourcePaneMissingFileAndSizes: without the source file the pane says
// why; at every size the frame still fills the terminal exactly.
func TestSourcePaneMissingFileAndSizes(t *testing.T) {
	m := dwarfModel(t)
	for _, sz := range [][2]int{{40, 12}, {80, 24}, {120, 40}, {200, 60}} {
		m.Update(winSize(sz[0], sz[1]))
		for p := paneID(0); p < numPanes; p++ {
			m.setFocus(p)
			lines := strings.Split(m.Render(), "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%v focus %v: %d lines", sz, p, len(lines))
			}
			for i, l := range lines {
				if w := lipgloss.Width(l); w != sz[0] {
					t.Fatalf("%v focus %v: line %d is %d wide", sz, p, i, w)
				}
			}
		}
	}
	m.Update(winSize(140, 44))
	m.setFocus(paneDisasm)
	if out := m.Render(); !strings.Contains(out, "cannot read the source") {
		t.Errorf("no reason shown for the missing loops.cl:\n%s", out)
	}
}

func TestSourcePaneFocusWithoutDWARF(t *testing.T) {
	m := New(newFake(), Options{Color: ColorPlain})
	m.setFocus(paneWaves)
	m.setFocus(paneSource)
	if m.focus != paneDisasm {
		t.Errorf("tab past the waves pane focused %v, want disasm", m.focus)
	}
	m.setFocus(paneSource)
	if m.focus != paneWaves {
		t.Errorf("shift+tab from disasm focused %v, want waves", m.focus)
	}
}

package tui

import (
	"os"
	"strconv"
	"strings"
	"testing"
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
		{"break loops.cl:9", "breakpoint at 0x1984"},
		{"break ./loops.cl:7", "breakpoint at 0x1938"},
		{"break loops.cl:1000", "no code for loops.cl:1000"},
		{"break other.cl:9", "no code for other.cl:9"},
	} {
		m.msg = ""
		m.execAll(tt.cmd)
		if !strings.Contains(m.msg, tt.want) {
			t.Errorf(":%s → %q, want %q", tt.cmd, m.msg, tt.want)
		}
	}
	m.execAll("delete 0x1938")
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

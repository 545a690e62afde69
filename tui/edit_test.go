package tui

import (
	"errors"
	"reflect"
	"sort"
	"testing"
)

func breakAddrs(m *Model) []uint64 {
	var out []uint64
	for a := range m.breaks {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// fakeSource is the fake's source labels, .Lloop moved to loop.
func fakeSource(loop uint64) map[string]uint64 {
	return map[string]uint64{"fake": 0x1500, ".Lloop": loop}
}

// TestEditKeepsBreakpointsByLabel: after :edit the breakpoints sit at the
// same labels and offsets in the reassembled code, numbered as before,
// and LOC names the source's labels.
func TestEditKeepsBreakpointsByLabel(t *testing.T) {
	m := New(newFake(), Options{Color: ColorPlain})
	src := map[string]uint64{"fake": 0x1500, ".Lloop": 0x1510, ".Lsrc": 0x1508}
	moved := newFake()
	after := map[string]uint64{"fake": 0x1500, ".Lloop": 0x1520, ".Lsrc": 0x1508}
	m.SetSource("k.s", src, func() (Debuggee, map[string]uint64, error) { return moved, after, nil })
	m.runLine("break 0x1500")
	m.runLine("break .Lsrc")  // a label only the source has
	m.runLine("break 0x1518") // .Lloop+8
	if got := breakAddrs(m); !reflect.DeepEqual(got, []uint64{0x1500, 0x1508, 0x1518}) {
		t.Fatalf("breakpoints at %#x (%s)", got, m.msg)
	}
	m.Update(editedMsg{})
	if got, want := breakAddrs(m), []uint64{0x1500, 0x1508, 0x1528}; !reflect.DeepEqual(got, want) {
		t.Errorf("breakpoints at %#x, want %#x (%s)", got, want, m.msg)
	}
	if b := m.breaks[0x1528]; b == nil || b.num != 3 || m.msgErr {
		t.Errorf("breakpoint %+v, status %q", b, m.msg)
	}
	if m.dbg != Debuggee(moved) || m.src == nil || m.src.labels[".Lloop"] != 0x1520 {
		t.Error("the reloaded session is not shown, or its labels are not the new source's")
	}
}

// TestEditAssemblyErrorKeepsSession: an assembly error shows its first
// line (file:line:col) and leaves the session and breakpoints alone.
func TestEditAssemblyErrorKeepsSession(t *testing.T) {
	f := newFake()
	m := New(f, Options{Color: ColorPlain})
	m.SetSource("k.s", fakeSource(0x1510), func() (Debuggee, map[string]uint64, error) {
		return nil, nil, errors.New("k.s:3:2: error: invalid instruction\n\ts_bogus\n\t^")
	})
	m.runLine("break 0x1504")
	m.Update(editedMsg{})
	if m.msg != "k.s:3:2: error: invalid instruction" || !m.msgErr {
		t.Errorf("status %q (error %v)", m.msg, m.msgErr)
	}
	if m.dbg != Debuggee(f) || !reflect.DeepEqual(breakAddrs(m), []uint64{0x1504}) {
		t.Error("the session changed")
	}
}

// TestEditDropsBreakpointWithoutLabel: a breakpoint whose label went away
// is dropped, and the status says which.
func TestEditDropsBreakpointWithoutLabel(t *testing.T) {
	m := New(newFake(), Options{Color: ColorPlain})
	m.SetSource("k.s", fakeSource(0x1510), func() (Debuggee, map[string]uint64, error) {
		return newFake(), map[string]uint64{"fake": 0x1500}, nil
	})
	m.runLine("break 0x1514")
	m.Update(editedMsg{})
	if len(m.breaks) != 0 || !m.msgErr || m.msg != "reassembled k.s: breakpoint(s) 1 (.Lloop+4) dropped, their labels are gone" {
		t.Errorf("breaks %v, status %q", breakAddrs(m), m.msg)
	}
}

// TestEditNeedsSource: :edit on a session from a code object says why not;
// the editor is $VISUAL or $EDITOR, which may carry arguments.
func TestEditNeedsSource(t *testing.T) {
	m := New(newFake(), Options{Color: ColorPlain})
	if m.runLine("edit"); !m.msgErr || m.msg != "edit: this session was not opened from a .s file (wavedbg K.s)" {
		t.Errorf("status %q", m.msg)
	}
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", "code -w")
	if got := editorCommand("k.s").Args; !reflect.DeepEqual(got, []string{"sh", "-c", `code -w "$1"`, "sh", "k.s"}) {
		t.Errorf("editor %q", got)
	}
}

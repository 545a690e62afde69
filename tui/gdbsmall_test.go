package tui

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/samples"
)

// TestMemAcceptsManifestBufferNames: :mem (and x, print) know a buffer by
// the manifest's name as well as by the code object metadata's.
func TestMemAcceptsManifestBufferNames(t *testing.T) {
	s, _ := samples.Lookup("vector_add")
	mf, err := s.RunManifest()
	if err != nil {
		t.Fatal(err)
	}
	mf.Args[2].Name = "result" // the metadata calls it c
	d, err := Open(s.CodeObject, Launch{Manifest: mf})
	if err != nil {
		t.Fatal(err)
	}
	m := New(d, Options{Color: ColorPlain})
	var c Buffer
	for _, b := range d.Buffers() {
		if b.Name == "c" {
			c = b
		}
	}
	for _, name := range []string{"result", "c"} {
		m.mem.base = 0
		if m.execCommand("mem " + name); m.msgErr || m.mem.base != c.Addr {
			t.Errorf(":mem %s → base %#x (%q), want %#x", name, m.mem.base, m.msg, c.Addr)
		}
	}
	runScript(t, m, []gdbStep{{"p/x result", "= 0x100000400"}, {"x/1x result", "0x100000400:"}})
}

// TestStatusClearsWhenNextCommandSucceeds: an error stays on the status
// line only until the next command succeeds.
func TestStatusClearsWhenNextCommandSucceeds(t *testing.T) {
	m := New(newFake(), Options{Color: ColorPlain})
	runScript(t, m, []gdbStep{{"bogus", "unknown command"}})
	runScript(t, m, []gdbStep{{"goto .Lloop", ""}})
	if m.msg != "" || m.msgErr {
		t.Errorf("status after a command that succeeded: %q", m.msg)
	}
	if s := m.statusLine(); strings.Contains(s, "unknown") {
		t.Errorf("status line still says %q", s)
	}
}

// TestLDSAddressShownAsOffset: a DS instruction's lane addresses show as
// offsets into LDS, not as the shared aperture's 0x1000000000000 + offset.
func TestLDSAddressShownAsOffset(t *testing.T) {
	d := openBundled(t, "reduction")
	m := New(d, Options{Color: ColorPlain})
	m.Update(winSize(160, 50))
	for i := 0; i < 200 && m.frame.Addr.Kind != "DS"; i++ {
		m.stepN(1)
	}
	lanes := m.frame.Addr.Lanes
	if m.frame.Addr.Kind != "DS" || len(lanes) < 2 {
		t.Fatalf("no DS step in reduction's first 200 steps")
	}
	if lanes[0].Addr != 0 || lanes[1].Addr != 4 {
		t.Errorf("lane addresses %#x, %#x; want LDS offsets 0x0, 0x4", lanes[0].Addr, lanes[1].Addr)
	}
	m.setFocus(paneAddr)
	m.maximised = true
	if s := m.Render(); strings.Contains(s, "1000000000") {
		t.Errorf("address pane shows aperture addresses:\n%s", s)
	}
}

// TestVGPRPaneFourLanesAt120x40: the medium layout leaves the VGPR pane
// room for four lanes a row at 120×40 (it had three).
func TestVGPRPaneFourLanesAt120x40(t *testing.T) {
	m := New(openBundled(t, "vector_add"), Options{Color: ColorPlain})
	m.panes[paneVGPR].(*vgprPane).format = FmtHex // the tour opens vector_add in decimal
	m.Update(winSize(120, 40))
	for _, s := range m.slots() {
		if s.shown(m.mru) != paneVGPR {
			continue
		}
		if cols, _ := vgprGrid(FmtHex, len(m.frame.VGPR.Values), s.w-2, s.h-2); cols < 4 {
			t.Errorf("VGPR pane %d cells wide shows %d lanes a row, want 4", s.w, cols)
		}
	}
	if s := m.Render(); !strings.Contains(s, "L0       L1       L2       L3") {
		t.Errorf("no four-lane header at 120×40:\n%s", s)
	}
}

// TestDisasmZeroPaddingShownAsEllipsis: zero padding after the last
// kernel is one "..." line, as llvm-objdump prints it, not a run of
// v_cndmask_b32 (the instruction whose encoding is all zeros).
func TestDisasmZeroPaddingShownAsEllipsis(t *testing.T) {
	d := openBundled(t, "vector_add")
	text := append(bytes.Clone(d.k.text), make([]byte, 32)...)
	d.prog = emu.DecodeProgram(isa.GFX9, d.k.base, text)
	d.lines, d.labels = nil, map[string]uint64{}
	d.buildListing(d.prog.Insts)
	lines := d.Program()
	last := lines[len(lines)-1]
	if last.Text != "..." || last.Addr != d.k.base+uint64(len(d.k.text)) || lines[len(lines)-2].Text != "s_endpgm" {
		t.Errorf("listing ends %+v, %+v; want s_endpgm then ... at 0x%x", lines[len(lines)-2], last, d.k.base+uint64(len(d.k.text)))
	}
	m := New(d, Options{Color: ColorPlain})
	m.Update(winSize(120, 40))
	m.execCommand("goto .LBB0_0")
	if s := m.Render(); strings.Contains(s, "v_cndmask") || !strings.Contains(s, "...") {
		t.Errorf("padding drawn as instructions:\n%s", s)
	}
}

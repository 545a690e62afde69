package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// drive feeds msg to m and then every command it returns, synchronously,
// until none is left or limit commands have run.
func drive(m *Model, msg tea.Msg, limit int) {
	_, cmd := m.Update(msg)
	for ; cmd != nil && limit > 0; limit-- {
		_, cmd = m.Update(cmd())
	}
}

func TestContinueStopsAtBreakpoint(t *testing.T) {
	m := New(newFake(), Options{Color: ColorPlain})
	m.breaks[0x1510] = &breakpoint{addr: 0x1510, enabled: true}
	drive(m, keyMsg("c"), 100)
	if pc, _ := m.dbg.PC(); pc != 0x1510 || !strings.Contains(m.msg, "breakpoint at 0x1510 after 4 steps") {
		t.Errorf("pc %#x, msg %q", pc, m.msg)
	}
	// Reverse-continue runs back to the start of history.
	drive(m, keyMsg("C"), 100)
	if m.dbg.StepCount() != 0 || !strings.Contains(m.msg, "start of history") {
		t.Errorf("reverse: %d steps, msg %q", m.dbg.StepCount(), m.msg)
	}
}

func TestConditionalBreakpoint(t *testing.T) {
	f := newFake()
	f.loop = true
	m := New(f, Options{Color: ColorPlain})
	// s3 is written with the step number on steps 3, 11, 19, 27; the PC is
	// back at 0x1500 after steps 9, 18, 27.
	m.execCommand("break 0x1500 if s3 == 27")
	drive(m, keyMsg("c"), 200)
	if v, _ := f.Reg(RegRef{File: 's', Num: 3}); v != 27 {
		t.Errorf("stopped with s3 = %d (%q)", v, m.msg)
	}
}

func TestLongContinueShowsProgressAndStops(t *testing.T) {
	f := newFake()
	f.loop = true
	m := New(f, Options{Color: ColorPlain})
	m.Update(winSize(80, 24))
	_, cmd := m.Update(keyMsg("c"))
	if cmd == nil || m.run == nil {
		t.Fatal("a never-ending continue finished in one chunk")
	}
	if s := m.Render(); !strings.Contains(s, "running…") || !strings.Contains(s, "(ctrl+c stops)") {
		t.Errorf("no progress on screen:\n%s", s)
	}
	steps := m.run.steps
	m.Update(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	_, cmd = m.Update(cmd())
	if cmd != nil || m.run != nil || !strings.Contains(m.msg, "stopped after") {
		t.Errorf("ctrl+c did not stop the run: %q", m.msg)
	}
	if m.dbg.StepCount() < steps {
		t.Errorf("steps went backwards")
	}
}

func TestWatchpoints(t *testing.T) {
	f := newFake()
	f.loop = true
	m := New(f, Options{Color: ColorPlain})
	m.execCommand("watch s5")
	drive(m, keyMsg("c"), 200)
	if f.steps != 5 || !strings.Contains(m.msg, "watchpoint s5 changed") {
		t.Errorf("register watch: %d steps, %q", f.steps, m.msg)
	}
	m.watches = nil
	m.execCommand("watch v2[7]")
	drive(m, keyMsg("c"), 200)
	if f.steps != 6 || !strings.Contains(m.msg, "watchpoint v2[7] changed") {
		t.Errorf("lane watch: %d steps, %q", f.steps, m.msg)
	}
	m.watches = nil
	m.execCommand("watch mem 0x10010 4")
	m.execCommand("write 0x10010 7")
	if len(m.watches) != 1 || !strings.Contains(m.msg, "wrote 4 bytes") {
		t.Fatalf("write: %q", m.msg)
	}
}

func TestCommands(t *testing.T) {
	f := newFake()
	m := New(f, Options{Color: ColorPlain})
	m.Update(winSize(120, 40))
	for _, tt := range []struct{ cmd, want string }{
		{"set s2 0x42", "s2 = 0x42"},
		{"set v1[3] -1", "v1[3] = 0xffffffff"},
		{"step 3", "stepped 3"},
		{"back 2", ""},
		{"goto .Lloop", ""},
		{"break .Lloop", "breakpoint 1 at 0x1510"},
		{"info", ""},
		{"delete all", "deleted 1 breakpoint(s)"},
		{"mem buf", ""},
		{"mem s[2:3]", ""},
		{"format float", ""},
		{"latency", "latencies: smem=200"},
		{"bogus", "unknown command"},
		{"set q1 1", "bad register"},
		{"break 0x1501", "not the start of an instruction"},
	} {
		m.msg = ""
		drive(m, nil, 0)
		cmd := m.execCommand(tt.cmd)
		for i := 0; cmd != nil && i < 100; i++ {
			_, cmd = m.Update(cmd())
		}
		if !strings.Contains(m.msg, tt.want) {
			t.Errorf(":%s → %q, want %q", tt.cmd, m.msg, tt.want)
		}
	}
	if v, _ := f.Reg(RegRef{File: 's', Num: 2}); v != 0x42 {
		t.Errorf("s2 = %#x", v)
	}
	if m.disasm.cursor != 4 {
		t.Errorf("goto .Lloop: cursor %d", m.disasm.cursor)
	}
	if m.mem.follow == nil || m.focus != paneMemory {
		t.Errorf("mem s[2:3] does not follow")
	}
}

func TestMouse(t *testing.T) {
	m := New(newFake(), Options{Color: ColorPlain})
	m.Update(winSize(120, 40))
	m.Render()
	// Row 1 is the disassembly's top border; row 3 is its first
	// instruction (after the label). A click in the gutter toggles a
	// breakpoint there.
	m.Update(tea.MouseClickMsg{X: 1, Y: 3, Button: tea.MouseLeft})
	if !m.breaks[0x1500].enabled {
		t.Errorf("click in the gutter set no breakpoint: %v", m.breaks)
	}
	// A click on a VGPR cell focuses the pane and moves the cursors.
	var vr rect
	for _, s := range m.slots() {
		if s.shown(m.mru) == paneVGPR {
			vr = s.rect
		}
	}
	m.Update(tea.MouseClickMsg{X: vr.x + 1 + 5 + 2*9 + 1, Y: vr.y + 1 + 2, Button: tea.MouseLeft})
	if vp := m.panes[paneVGPR].(*vgprPane); m.focus != paneVGPR || vp.reg != 1 || vp.lane != 2 {
		t.Errorf("click on VGPR: focus %v reg %d lane %d", m.focus, vp.reg, vp.lane)
	}
	// The pane is tall enough for a second band of lanes (L4-L7) below
	// the first: a click there picks lane 5.
	n := len(m.frame.VGPR.Values)
	if cols, bands := vgprGrid(FmtHex, n, vr.w-2, vr.h-2); cols != 4 || bands < 2 {
		t.Fatalf("VGPR grid %d lanes × %d bands", cols, bands)
	}
	m.Update(tea.MouseClickMsg{X: vr.x + 1 + 5 + 1*9 + 1, Y: vr.y + 1 + (n + 1) + 2, Button: tea.MouseLeft})
	if vp := m.panes[paneVGPR].(*vgprPane); vp.reg != 1 || vp.lane != 5 {
		t.Errorf("click on the second band: reg %d lane %d", vp.reg, vp.lane)
	}
	// Every register is on screen, in bands: the wheel moves a band of
	// lanes at a time.
	m.Update(tea.MouseWheelMsg{X: vr.x + 3, Y: vr.y + 3, Button: tea.MouseWheelDown})
	if vp := m.panes[paneVGPR].(*vgprPane); vp.reg != 1 || vp.lane != 9 {
		t.Errorf("wheel: reg %d lane %d", vp.reg, vp.lane)
	}
	// The wheel acts on the pane under the pointer, not the focused one.
	var sr rect
	for _, s := range m.slots() {
		if s.shown(m.mru) == paneSGPR {
			sr = s.rect
		}
	}
	m.Update(tea.MouseWheelMsg{X: sr.x + 3, Y: sr.y + 3, Button: tea.MouseWheelDown})
	if vp := m.panes[paneVGPR].(*vgprPane); m.focus != paneVGPR || vp.lane != 9 {
		t.Errorf("wheel over the SGPRs: focus %v, VGPR lane %d", m.focus, vp.lane)
	}
}

func TestNoColor(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	m := New(newFake(), Options{Color: ColorModeFromEnv()})
	m.Update(winSize(120, 40))
	m.stepN(2)
	s := m.Render()
	if strings.Contains(s, "\x1b[38;") || strings.Contains(s, "\x1b[48;") || strings.Contains(s, ";38;") {
		t.Errorf("NO_COLOR frame has colour escapes")
	}
	if !strings.Contains(s, "\x1b[") {
		t.Errorf("NO_COLOR frame has no attributes at all (reverse, bold)")
	}
}

func TestRunToCursorAndWatchKey(t *testing.T) {
	f := newFake()
	m := New(f, Options{Color: ColorPlain})
	m.Update(winSize(120, 40))
	for range 5 {
		m.Update(keyMsg("j"))
	}
	drive(m, keyMsg("r"), 100)
	if pc, _ := f.PC(); pc != 0x1514 || !strings.Contains(m.msg, "reached 0x1514") {
		t.Errorf("run to cursor: pc %#x, %q", pc, m.msg)
	}
	// w in the VGPR pane watches the register at the cursor, one lane.
	m.Update(keyMsg("3"))
	m.Update(keyMsg("j"))
	m.Update(keyMsg("l"))
	m.Update(keyMsg("w"))
	if len(m.watches) != 1 || m.watches[0].String() != "v1[1]" {
		t.Fatalf("watches: %v", m.watches)
	}
	drive(m, keyMsg("c"), 100)
	if !strings.Contains(m.msg, "watchpoint v1[1] changed") {
		t.Errorf("%q", m.msg)
	}
}

// TestVGPRBandsScroll moves the lane cursor past the bands on screen: the
// grid scrolls by whole bands, so every band starts on a multiple of its
// width and the cursor lane stays visible.
func TestVGPRBandsScroll(t *testing.T) {
	m := New(newFake(), Options{Color: ColorPlain})
	m.Update(winSize(200, 60))
	m.Render()
	p := m.panes[paneVGPR].(*vgprPane)
	cols, bands := vgprGrid(p.format, len(m.frame.VGPR.Values), p.Width, p.Height)
	if bands < 2 {
		t.Fatalf("%d lanes × %d bands at 200×60", cols, bands)
	}
	for _, lane := range []int{cols * bands, 41, 63, 5, 0} {
		p.lane = lane
		p.Render(&m.frame)
		if p.laneL%cols != 0 && p.laneL != 64-cols*bands || lane < p.laneL || lane >= p.laneL+cols*bands {
			t.Errorf("lane %d: bands from L%d (%d lanes × %d)", lane, p.laneL, cols, bands)
		}
	}
}

// TestStatusLineNarrow: at 80 columns a message would not fit beside the
// full status, so the status drops the program name and the cycle.
func TestStatusLineNarrow(t *testing.T) {
	m := New(newFake(), Options{Color: ColorPlain})
	m.Update(winSize(80, 24))
	m.status("breakpoint at 0x1510 after 4 steps")
	if s := m.statusLine(); strings.HasPrefix(s, " wavedbg") || strings.Contains(s, "cycle") || !strings.Contains(s, "w0/2") || len([]rune(s)) > 80 || !strings.HasSuffix(s, "breakpoint at 0x1510 after 4 steps") {
		t.Errorf("80 columns: %q", s)
	}
	m.Update(winSize(200, 60))
	if s := m.statusLine(); !strings.HasPrefix(s, " wavedbg") || !strings.Contains(s, "cycle") || !strings.Contains(s, "wave 0/2") {
		t.Errorf("200 columns: %q", s)
	}
}

// TestWaveCommand: ':wave' alone says which wave is shown; ':wave N'
// switches; an N past the grid is an error naming how many there are.
func TestWaveCommand(t *testing.T) {
	m := New(newFake(), Options{Color: ColorPlain})
	m.Update(winSize(120, 40))
	m.execCommand("wave")
	if m.msg != "wave 0 of 2: work-group 0,0,0, wave 0 of it" {
		t.Errorf(":wave: %q", m.msg)
	}
	m.execCommand("wave 1")
	if m.dbg.Selected() != 1 {
		t.Errorf(":wave 1 selected %d", m.dbg.Selected())
	}
	m.execCommand("wave 2")
	if !m.msgErr || !strings.Contains(m.msg, "there are 2") {
		t.Errorf(":wave 2: %q", m.msg)
	}
}

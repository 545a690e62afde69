package tui

import (
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// gdbStep is one line of a command script: the command and what the status
// line (or the output box, for several lines) must then contain.
type gdbStep struct{ cmd, want string }

// runScript runs a command script, as typed on the ':' line, and checks
// each step's status line or output box.
func runScript(t *testing.T, m *Model, script []gdbStep) {
	t.Helper()
	for _, s := range script {
		m.gdb.out = nil
		drive(m, keyMsg(":"), 0)
		for _, r := range s.cmd {
			drive(m, keyMsg(string(r)), 0)
		}
		drive(m, tea.KeyPressMsg{Code: tea.KeyEnter}, 10000)
		got := m.msg
		if m.gdb.out != nil {
			got += "\n" + strings.Join(m.gdb.out, "\n")
		}
		if !strings.Contains(got, s.want) {
			t.Errorf(":%s → %q, want %q", s.cmd, got, s.want)
		}
	}
}

// TestGDBCommands runs every command of the command language on the fake
// debuggee (a straight-line program at 0x1500 whose step k writes k to
// s(k%8) and k*100+lane to v(k%4); memory at 0x10000 holds its address's
// low byte).
func TestGDBCommands(t *testing.T) {
	m := New(newFake(), Options{Color: ColorPlain})
	m.Update(winSize(120, 40))
	runScript(t, m, []gdbStep{
		{"b 0x1510", "breakpoint 1 at 0x1510"}, // was "b: bad count"
		{"tbreak 0x1518", "temporary breakpoint 2 at 0x1518"},
		{"info breakpoints", "1   breakpoint y 0x1510"},
		{"info b", "2   tbreak     y 0x1518"},
		{"disable 1", "disabled 1 breakpoint(s)"},
		{"c", "temporary breakpoint 2 at 0x1518 after 6 steps"},
		{"info b", "1   breakpoint n 0x1510"},
		{"enable", "enabled 1 breakpoint(s)"},
		{"si 2", "stepped 2"},
		{"p s7", "$1 = 7"},
		{"p/x s7 + 9", "$2 = 0x10"},
		{"p v3[5]", "$3 = 705"},
		{"p/x *(uint*)0x10000", "$4 = 0x3020100"},
		{"p *(uint*)0x10000", "$5 = 50462976"},
		{"p *(uchar*)(0x10000 + 5)", "$6 = 5"},
		{"p/f 1.5 * 2", "$7 = 3"},
		{"p/f 0x3fc00000", "$8 = 1.5"},
		{"p (s7 << 4) | 1 - 1", "$9 = 112"},
		{"p/d -1", "$10 = -1"},
		{"p/x 0xff ^ 0x0f & 0x3c", "$11 = 0xf3"},
		{"p cycle", "$12 = 32"},
		{"p s7 == 7", "$13 = 1"},
		{"p $2 + $", "$14 = 17"},
		{"p $99", "no value $99 (print has made 14)"},
		{"p/x buf + 4", "$15 = 0x10004"},
		{"x/4x 0x10000", "0x10000:  0x03020100  0x07060504  0x0b0a0908  0x0f0e0d0c"},
		{"x/2db 0x10000", "0x10000:  0  1"},
		{"x/2xg buf", "0x10000:  0x0706050403020100  0x0f0e0d0c0b0a0908"},
		{"x/12uw 0x10000", "0x10010:  319951120"},
		{"set s7 = 0x20", "s7 = 0x20"},
		{"p s7", "= 32"},
		{"set var v3[5] = s7 + 1", "v3[5] = 0x21"},
		{"p v3[5]", "= 33"},
		{"set *(uint*)0x10000 = 0xdeadbeef", "*(uint*)0x10000 = 0xdeadbeef"},
		{"x/1x 0x10000", "0xdeadbeef"},
		{"set s6 5", "s6 = 0x5"},
		{"display s0", "1: s0 = 8"},
		{"display/x s7", "2: s7 = 0x"},
		{"info display", "1: s0 = 8"},
		{"rsi", "1: s0 = 0"},
		{"undisplay 1", "1 display(s)"},
		{"undisplay", "no displays"},
		{"watch s7", "watchpoint 3: s7"},
		{"watch *(uint*)0x10010", "watchpoint 4: mem[0x10010,+4]"},
		{"info watchpoints", "4   watch      y mem[0x10010,+4]"},
		{"watch mem 0x10020 8", "watchpoint 5: mem[0x10020,+8]"},
		{"delete 3 4 5", "deleted 0 breakpoint(s) and 3 watchpoint(s)"},
		{"delete 1", "deleted 1 breakpoint(s)"},
		{"help p", "print|p [/x|/d|/u|/f] EXPR"},
		{"help", "x [/NFU] ADDR"},
		{"info waves", "* wave 0"},
		{"info counters", "lgkm: s_load_dword s6"},
		{"info cache", "1 misses"},
		{"info registers", "s7         0x00000007"}, // rsi undid the set
		// Errors name what is wrong.
		{"b 0x1501", "b: 0x1501 is not the start of an instruction"},
		{"p s7 +", `"s7 +" ends early`},
		{"p v3 + 1", "v3 is a vector: name a lane, as in v3[5]"},
		{"p 1/0", "division by zero"},
		{"p q1", `no register or counter "q1"`},
		{"p (1", "missing )"},
		{"p/z 1", "bad format /z"},
		{"x/4z 0x10000", "bad letter 'z'"},
		{"set 1 = 2", "cannot assign"},
		{"delete 99", "no breakpoint or watchpoint number 99"},
		{"info bogus", `no info "bogus"`},
		{"watch 1 + 2", "can watch only a register"},
		{"frobnicate", `unknown command "frobnicate"`},
	})
}

// TestGDBCommandsOnEmu checks the commands the fake cannot answer (exec,
// pairs, buffers) on the vector_add sample.
func TestGDBCommandsOnEmu(t *testing.T) {
	m := New(openBundled(t, "vector_add"), Options{Color: ColorPlain})
	m.Update(winSize(120, 40))
	runScript(t, m, []gdbStep{
		{"b 0x1830", "breakpoint 1 at 0x1830"},
		{"c", "breakpoint at 0x1830"},
		{"p/x exec", "= 0xffffffffffffffff"},
		{"p/x vcc", "= 0x0"},
		{"p/x s[6:7] == kernarg", "= 0x1"},
		{"p scc", "= "},
		{"p/x pc", "= 0x1830"},
		{"p m0", "= "},
		{"p/f *(float*)a", "= "},
		{"x/4f b", "0x100000200:"},
		{"x/4x 0x7f0000000000", "cannot read memory at 0x7f0000000000"},
		{"p *(uint*)0x7f0000000000", "cannot read 4 bytes at 0x7f0000000000: not mapped"},
	})
}

// TestEnterRepeatsLastStep: Enter on an empty ':' line repeats the last
// stepping command, not a print.
func TestEnterRepeatsLastStep(t *testing.T) {
	f := newFake()
	m := New(f, Options{Color: ColorPlain})
	runScript(t, m, []gdbStep{{"si 2", "stepped 2"}, {"", "stepped 2"}, {"p s1", "$1 = "}, {"", "stepped 2"}})
	if f.steps != 6 {
		t.Errorf("%d steps, want 6 (si 2 three times)", f.steps)
	}
}

// TestQuitAsksWhenEdited: q quits at once, unless registers or memory
// were set; then it asks, and only y quits.
func TestQuitAsksWhenEdited(t *testing.T) {
	isQuit := func(cmd tea.Cmd) bool {
		if cmd == nil {
			return false
		}
		_, ok := cmd().(tea.QuitMsg)
		return ok
	}
	for _, edit := range []string{"", "set s2 = 5", "set v1[3] 7", "write 0x10000 1", "set *(uint*)0x10000 = 1"} {
		m := New(newFake(), Options{Color: ColorPlain})
		if edit != "" {
			runScript(t, m, []gdbStep{{edit, ""}})
		}
		_, cmd := m.Update(keyMsg("q"))
		if edit == "" {
			if !isQuit(cmd) {
				t.Errorf("unedited: q did not quit")
			}
			continue
		}
		if isQuit(cmd) || !strings.Contains(m.msg, "quit anyway? (y/n)") {
			t.Errorf("after %q: q did not ask (%q)", edit, m.msg)
		}
		if _, cmd = m.Update(keyMsg("n")); isQuit(cmd) || m.msg != "not quitting" {
			t.Errorf("after %q: n quit or said %q", edit, m.msg)
		}
		m.Update(keyMsg("q"))
		if _, cmd = m.Update(keyMsg("y")); !isQuit(cmd) {
			t.Errorf("after %q: y did not quit", edit)
		}
	}
}

// TestWatchStopsContinue: continue checks watchpoints after every step,
// for a register, a lane and memory.
func TestWatchStopsContinue(t *testing.T) {
	f := newFake()
	f.loop = true
	m := New(f, Options{Color: ColorPlain})
	runScript(t, m, []gdbStep{{"watch v2[7]", "watchpoint 1: v2[7]"}, {"c", "watchpoint v2[7] changed after 2 steps"}})
	runScript(t, m, []gdbStep{{"disable 1", "disabled"}, {"watch s5", "watchpoint 2: s5"}, {"c", "watchpoint s5 changed after 3 steps"}})
	if f.steps != 5 {
		t.Errorf("stopped after %d steps, want 5", f.steps)
	}
	// Memory: vector_add's store to c[0].
	e := openBundled(t, "vector_add")
	m = New(e, Options{Color: ColorPlain})
	runScript(t, m, []gdbStep{{"watch *(uint*)c", "watchpoint 1: mem[0x100000400,+4]"}, {"c", "watchpoint mem[0x100000400,+4] changed"}})
	if pc, _ := e.PC(); pc != 0x18a8 {
		t.Errorf("stopped at %#x, want 0x18a8 (after the store)", pc)
	}
	runScript(t, m, []gdbStep{{"rc", "watchpoint mem[0x100000400,+4] changed"}})
	if pc, _ := e.PC(); pc != 0x18a0 {
		t.Errorf("reverse-continue stopped at %#x, want 0x18a0 (before the store)", pc)
	}
}

// openCalls opens emu's calls_O0 test kernel, whose calls_O0 kernel calls
// functions with s_swappc_b64 s[30:31] and they return with s_setpc_b64.
func openCalls(t *testing.T) *EmuDebuggee {
	t.Helper()
	data, err := os.ReadFile("../emu/testdata/cl/gfx900/calls_O0.co")
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(data, Launch{Kernel: "calls_O0"})
	if err != nil {
		t.Fatalf("open calls_O0.co: %v", err)
	}
	return d
}

// TestFinishAndNexti: nexti runs a whole call; stepi goes into it and
// finish runs it to its return, at the instruction after the call.
func TestFinishAndNexti(t *testing.T) {
	d := openCalls(t)
	m := New(d, Options{Color: ColorPlain})
	runScript(t, m, []gdbStep{
		{"b 0x2164", "breakpoint 1 at 0x2164"},
		{"c", "breakpoint at 0x2164"},
		{"ni", "stepped over the call, at 0x2168"},
		{"rc", "breakpoint at 0x2164"},
		{"si", ""},
		{"finish", "returned to 0x2168"},
	})
	if pc, _ := d.PC(); pc != 0x2168 {
		t.Errorf("pc %#x after finish, want 0x2168", pc)
	}
	// nexti N counts a call as one instruction.
	runScript(t, m, []gdbStep{{"rc", "breakpoint at 0x2164"}, {"ni 2", "stepped 2, over calls"}})
	if pc, _ := d.PC(); pc != 0x2170 {
		t.Errorf("pc %#x after ni 2, want 0x2170 (the 8-byte load after the call)", pc)
	}
	// until alone runs to a later instruction at this level (over the
	// call); until LOC to LOC.
	runScript(t, m, []gdbStep{
		{"rc", "breakpoint at 0x2164"}, {"until", "reached 0x2168"},
		{"until 0x2178", "reached 0x2178"}, {"rsi 3", ""}, // back into the callee, at its return
		{"finish", "returned to 0x2168 after 1 step"},
	})
}

// TestBreakIfExpression: a breakpoint condition may be any expression,
// true when not zero; tbreak deletes itself when hit.
func TestBreakIfExpression(t *testing.T) {
	f := newFake()
	f.loop = true
	m := New(f, Options{Color: ColorPlain})
	// s3 is written with the step number on steps 3, 11, 19, 27; the PC is
	// back at 0x1500 after steps 9, 18, 27.
	runScript(t, m, []gdbStep{
		{"tbreak fake if (s3 + 1) * 2 == 56 && 1", "unexpected"},
		{"tbreak fake if (s3 + 1) * 2 == 56", "temporary breakpoint 1 at 0x1500 if (s3 + 1) * 2 == 56"},
		{"c", "temporary breakpoint 1 at 0x1500"},
		{"info b", "none"},
	})
	if v, _ := f.Reg(RegRef{File: 's', Num: 3}); v != 27 || f.steps != 27 {
		t.Errorf("stopped after %d steps with s3 = %d, want 27 and 27", f.steps, v)
	}
}

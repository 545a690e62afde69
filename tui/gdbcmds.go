package tui

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// This file is gdb's command language on the ':' line: the command table
// (each with a one-line help), and the breakpoint commands. The stepping
// commands are in gdbstep.go; print, x, display and info in gdbinfo.go.

// gdbState is the command language's state in the Model.
type gdbState struct {
	nextNum  int    // the last breakpoint or watchpoint number given
	last     string // the last stepping command, which Enter repeats
	displays []display
	nextDisp int
	vals     []exprValue // print's results: $1, $2, ...
	edited   bool        // registers or memory were set: quitting asks
	confirm  bool        // asking whether to quit
	out      []string
	outTitle string
}

// gdbCommandTable is the gdb-style commands, listed first in the help.
func gdbCommandTable() []command {
	return []command{
		{[]string{"break", "b", "bp"}, "[LOC [thread all] [if COND]]", "breakpoint at an address or label (alone: toggle at the cursor; thread all: any wave)", cmdGDBBreak},
		{[]string{"tbreak"}, "LOC [thread all] [if COND]", "breakpoint deleted when first hit", cmdTBreak},
		{[]string{"delete", "d"}, "[N...|LOC|all]", "delete breakpoints and watchpoints (alone: all)", cmdGDBDelete},
		{[]string{"disable"}, "[N...]", "disable breakpoints and watchpoints (alone: all)", cmdDisable},
		{[]string{"enable"}, "[N...]", "enable breakpoints and watchpoints (alone: all)", cmdEnable},
		{[]string{"watch", "w"}, "REG | REG[LANE] | *(TYPE*)ADDR", "stop right after the instruction that changes it", cmdGDBWatch},
		{[]string{"unwatch"}, "", "remove all watchpoints", cmdUnwatch},
		{[]string{"continue", "c"}, "", "continue to a breakpoint, a watchpoint or the end", cmdContinue},
		{[]string{"stepi", "si"}, "[N]", "step N instructions (default 1); Enter on an empty line repeats a step", cmdStep},
		{[]string{"step", "s"}, "[N]", "run until the source line changes (-g builds); with N or no line table, N instructions", cmdGDBStep},
		{[]string{"nexti", "ni"}, "[N]", "step N instructions, running over s_swappc/s_call", cmdNexti},
		{[]string{"finish", "fin"}, "", "run until the current call returns (s_setpc_b64)", cmdFinish},
		{[]string{"until", "u"}, "[LOC]", "run to LOC (alone: to an instruction past this one)", cmdGDBUntil},
		{[]string{"reverse-stepi", "rsi", "back"}, "[N]", "step back N instructions", cmdBack},
		{[]string{"reverse-continue", "rc", "rcontinue"}, "", "run backwards to a breakpoint, a watchpoint or the start", cmdReverseContinue},
		{[]string{"print", "p"}, "[/x|/d|/u|/f] EXPR", "print an expression: s8, v3[5], exec, *(uint*)ADDR, arithmetic", cmdPrint},
		{[]string{"x"}, "[/NFU] ADDR", "examine memory: N units, format x d u f, unit b h w g", cmdExamine},
		{[]string{"display"}, "[/F] [EXPR]", "print EXPR after every stop (alone: print them now)", cmdDisplay},
		{[]string{"undisplay"}, "[N...]", "stop displaying (alone: all)", cmdUndisplay},
		{[]string{"info", "i"}, "[registers|breakpoints|display|waves|threads|counters|cache]", "show state (threads: the waves)", cmdGDBInfo},
		{[]string{"thread"}, "[N] | apply all stepi [N]", "as wave N; apply all stepi: N instructions of every wave of the work-group (default 1)", cmdThread},
		{[]string{"set"}, "[var] LHS = EXPR | REG VALUE", "set a register, a lane or memory (*(uint*)ADDR)", cmdGDBSet},
		{[]string{"help", "h"}, "[CMD]", "list commands, or explain one", cmdHelp},
		{[]string{"quit", "q"}, "", "quit (asks first when registers or memory were set)", func(m *Model, _ []string) (tea.Cmd, error) { return m.quit(), nil }},
	}
}

// repeatable are the commands an empty line repeats, by their first name.
var repeatable = map[string]bool{
	"stepi": true, "step": true, "next": true, "nexti": true, "continue": true, "finish": true,
	"reverse-stepi": true, "reverse-continue": true, "until": true,
}

// findCommand looks a command up by any of its names.
func findCommand(name string) *command {
	for i := range commandTable {
		for _, n := range commandTable[i].names {
			if n == name {
				return &commandTable[i]
			}
		}
	}
	return nil
}

// splitCommand splits a line into its command name and arguments; gdb's
// "p/x v3" passes "/x" as the first argument.
func splitCommand(line string) (string, []string) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return "", nil
	}
	if name, format, ok := strings.Cut(f[0], "/"); ok && name != "" {
		return name, append([]string{"/" + format}, f[1:]...)
	}
	return f[0], f[1:]
}

// runLine runs one command line. An empty line repeats the last stepping
// command; a status message left by the previous command clears.
func (m *Model) runLine(line string) tea.Cmd {
	if strings.TrimSpace(line) == "" {
		line = m.gdb.last
	}
	name, args := splitCommand(line)
	if name == "" {
		return nil
	}
	c := findCommand(name)
	if c == nil {
		m.fail(fmt.Errorf("unknown command %q (help lists commands)", name))
		return nil
	}
	m.msg, m.msgErr = "", false
	cmd, err := c.run(m, args)
	if err != nil {
		m.fail(fmt.Errorf("%s: %v", name, err))
		return nil
	}
	if repeatable[c.names[0]] {
		m.gdb.last = line
	}
	return cmd
}

// newNum gives the next breakpoint or watchpoint number.
func (m *Model) newNum() int {
	m.gdb.nextNum++
	return m.gdb.nextNum
}

func (m *Model) appendWatch(w *watchpoint) {
	w.num = m.newNum()
	m.watches = append(m.watches, w)
	m.status("watchpoint %d: %s", w.num, w)
}

func cmdGDBBreak(m *Model, args []string) (tea.Cmd, error) { return nil, m.setBreak(args, false) }
func cmdTBreak(m *Model, args []string) (tea.Cmd, error)   { return nil, m.setBreak(args, true) }

// setBreak sets a breakpoint at LOC, with a condition after "if": REG OP
// VALUE (a VGPR without a lane holds when any lane does) or an expression.
func (m *Model) setBreak(args []string, temp bool) error {
	if len(args) == 0 {
		if temp {
			return fmt.Errorf("want: tbreak LOC [thread all] [if COND]")
		}
		if m.disasm.cursor < len(m.frame.Disasm.Lines) {
			m.toggleBreak(m.frame.Disasm.Lines[m.disasm.cursor].Addr)
		}
		return nil
	}
	a, err := m.location(args[0])
	if err != nil {
		return err
	}
	anyWave, rest, err := breakThread(args[1:])
	if err != nil {
		return err
	}
	b := &breakpoint{addr: a, enabled: true, temp: temp, anyWave: anyWave}
	if len(rest) > 0 {
		if rest[0] != "if" || len(rest) < 2 {
			return fmt.Errorf("want: break LOC [thread all] [if COND]")
		}
		if b.cond, err = m.parseCondition(rest[1:]); err != nil {
			return err
		}
	}
	if old, ok := m.breaks[a]; ok {
		b.num = old.num
	} else {
		b.num = m.newNum()
	}
	m.breaks[a] = b
	m.refreshBreaks()
	kind, where := "breakpoint", ""
	if temp {
		kind = "temporary breakpoint"
	}
	if anyWave {
		where = " for any wave"
	}
	if b.cond != nil {
		m.status("%s %d at 0x%x%s if %s", kind, b.num, a, where, b.cond)
	} else {
		m.status("%s %d at 0x%x%s", kind, b.num, a, where)
	}
	return nil
}

func (m *Model) parseCondition(f []string) (*condition, error) {
	if len(f) == 3 {
		if ref, err := ParseRegRef(f[0]); err == nil {
			if v, err := parseValue(f[2]); err == nil && strings.Contains("== != < <= > >=", f[1]) {
				return &condition{ref: ref, op: f[1], val: v}, nil
			}
		}
	}
	expr := strings.Join(f, " ")
	if _, err := m.evalExpr(expr); err != nil {
		return nil, err
	}
	return &condition{expr: expr}, nil
}

// exprHolds evaluates a breakpoint condition: true when it is not zero.
func exprHolds(d Debuggee, expr string) bool {
	f := &Frame{}
	d.Fill(f)
	v, err := (&evaluator{d: d, f: f, src: expr}).parse()
	return err == nil && v.lanes == nil && (v.bits != 0 || v.float && v.f() != 0)
}

// selectNums resolves breakpoint arguments: numbers, locations, or
// nothing for all. It returns the breakpoints and watchpoints named.
func (m *Model) selectNums(args []string) ([]*breakpoint, []*watchpoint, error) {
	if len(args) == 0 || len(args) == 1 && args[0] == "all" {
		return m.sortedBreaks(), m.watches, nil
	}
	var bs []*breakpoint
	var ws []*watchpoint
	for _, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil {
			loc, err := m.location(a)
			if err != nil {
				return nil, nil, err
			}
			b, ok := m.breaks[loc]
			if !ok {
				return nil, nil, fmt.Errorf("no breakpoint at 0x%x", loc)
			}
			bs = append(bs, b)
			continue
		}
		found := false
		for _, b := range m.breaks {
			if b.num == n {
				bs, found = append(bs, b), true
			}
		}
		for _, w := range m.watches {
			if w.num == n {
				ws, found = append(ws, w), true
			}
		}
		if !found {
			return nil, nil, fmt.Errorf("no breakpoint or watchpoint number %d", n)
		}
	}
	return bs, ws, nil
}

func cmdGDBDelete(m *Model, args []string) (tea.Cmd, error) {
	bs, ws, err := m.selectNums(args)
	if err != nil {
		return nil, err
	}
	for _, b := range bs {
		delete(m.breaks, b.addr)
	}
	keep := m.watches[:0:0]
	for _, w := range m.watches {
		if !containsPtr(ws, w) {
			keep = append(keep, w)
		}
	}
	m.watches = keep
	m.refreshBreaks()
	m.status("deleted %d breakpoint(s) and %d watchpoint(s)", len(bs), len(ws))
	return nil, nil
}

func containsPtr[T any](s []*T, p *T) bool {
	for _, q := range s {
		if q == p {
			return true
		}
	}
	return false
}

func cmdDisable(m *Model, args []string) (tea.Cmd, error) { return nil, m.enable(args, false) }
func cmdEnable(m *Model, args []string) (tea.Cmd, error)  { return nil, m.enable(args, true) }

func (m *Model) enable(args []string, on bool) error {
	bs, ws, err := m.selectNums(args)
	if err != nil {
		return err
	}
	for _, b := range bs {
		b.enabled = on
	}
	for _, w := range ws {
		w.off = !on
		w.last = w.read(m.dbg)
	}
	m.refreshBreaks()
	verb := "disabled"
	if on {
		verb = "enabled"
	}
	m.status("%s %d breakpoint(s) and %d watchpoint(s)", verb, len(bs), len(ws))
	return nil
}

// cmdGDBWatch watches a register, a lane or typed memory (or, as before,
// "mem ADDR [LEN]").
func cmdGDBWatch(m *Model, args []string) (tea.Cmd, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("want: watch REG | REG[LANE] | *(TYPE*)ADDR")
	}
	if args[0] == "mem" {
		return cmdWatch(m, args)
	}
	e := &evaluator{d: m.dbg, f: &m.frame, src: strings.Join(args, " ")}
	if _, err := e.parse(); err != nil {
		return nil, err
	}
	switch lv := e.lv; {
	case lv == nil:
		return nil, fmt.Errorf("can watch only a register, a lane or memory, not %q", e.src)
	case lv.reg != nil && lv.pair:
		return nil, fmt.Errorf("watch one register of a pair, as in s4")
	case lv.reg != nil:
		m.addWatch(*lv.reg)
	default:
		w := &watchpoint{addr: lv.addr, size: lv.typ.size}
		w.last = w.read(m.dbg)
		m.appendWatch(w)
	}
	return nil, nil
}

func cmdUnwatch(m *Model, _ []string) (tea.Cmd, error) {
	m.watches = nil
	m.status("no watchpoints")
	return nil, nil
}

// cmdGDBSet assigns "LHS = EXPR" (gdb's set var), or sets "REG VALUE".
func cmdGDBSet(m *Model, args []string) (tea.Cmd, error) {
	line := strings.Join(args, " ")
	if rest, ok := strings.CutPrefix(line, "var "); ok {
		line = rest
	}
	if !strings.Contains(line, "=") {
		if _, err := cmdSet(m, args); err != nil {
			return nil, err
		}
		m.gdb.edited = true
		return nil, nil
	}
	s, err := m.assign(line)
	if err != nil {
		return nil, err
	}
	m.gdb.edited = true
	m.refresh()
	m.status("%s", s)
	return nil, nil
}

// cmdHelp lists the commands in the output box, or explains one.
func cmdHelp(m *Model, args []string) (tea.Cmd, error) {
	if len(args) == 0 {
		m.output("commands", strings.Split(commandHelp, "\n"))
		return nil, nil
	}
	c := findCommand(strings.TrimPrefix(args[0], ":"))
	if c == nil {
		return nil, fmt.Errorf("unknown command %q", args[0])
	}
	m.status("%s %s — %s", strings.Join(c.names, "|"), c.args, c.help)
	return nil, nil
}

// quit quits, or asks first when the session was edited.
func (m *Model) quit() tea.Cmd {
	if !m.gdb.edited {
		return tea.Quit
	}
	m.gdb.confirm = true
	m.status("registers or memory were set in this session: quit anyway? (y/n)")
	return nil
}

// confirmKey answers the quit question.
func (m *Model) confirmKey(msg tea.KeyPressMsg) tea.Cmd {
	m.gdb.confirm = false
	if s := msg.String(); s == "y" || s == "Y" {
		return tea.Quit
	}
	m.status("not quitting")
	return nil
}

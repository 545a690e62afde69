package tui

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// This file is gdb's commands that show state: print, x, display and info.
// One-line results go to the status line; longer ones to an output box
// that the next key closes.

// display is an expression printed after every stop.
type display struct {
	num    int
	format byte
	expr   string
}

// formatArg takes a leading "/F" argument: the format letter and the count
// and unit that x also takes.
func formatArg(args []string) (spec string, rest []string) {
	if len(args) > 0 && strings.HasPrefix(args[0], "/") {
		return args[0][1:], args[1:]
	}
	return "", args
}

func printFormat(spec string) (byte, error) {
	switch spec {
	case "":
		return 0, nil
	case "x", "d", "u", "f", "t":
		return spec[0], nil
	}
	return 0, fmt.Errorf("bad format /%s (want /x, /d, /u, /f or /t)", spec)
}

func cmdPrint(m *Model, args []string) (tea.Cmd, error) {
	spec, args := formatArg(args)
	f, err := printFormat(spec)
	if err != nil {
		return nil, err
	}
	v, err := m.evalExpr(strings.Join(args, " "))
	if err != nil {
		return nil, err
	}
	m.gdb.vals = append(m.gdb.vals, v)
	text := fmt.Sprintf("$%d = %s", len(m.gdb.vals), formatExpr(v, f))
	if v.lanes != nil {
		m.output(strings.Join(args, " "), laneLines(v, f))
	}
	m.status("%s", text)
	return nil, nil
}

// laneLines prints a VGPR eight lanes a line.
func laneLines(v exprValue, f byte) []string {
	var out []string
	for l := 0; l < len(v.lanes); l += 8 {
		parts := []string{fmt.Sprintf("[%2d]", l)}
		for _, x := range v.lanes[l:min(l+8, len(v.lanes))] {
			parts = append(parts, fmt.Sprintf("%10s", formatExpr(exprValue{bits: uint64(x), size: 4}, f)))
		}
		out = append(out, strings.Join(parts, " "))
	}
	return out
}

// cmdExamine is gdb's x/NFU ADDR: N units of U bytes (b h w g) in format
// F (x d u f), four or eight a line.
func cmdExamine(m *Model, args []string) (tea.Cmd, error) {
	spec, args := formatArg(args)
	n, format, unit := 1, byte('x'), 4
	digits := strings.IndexFunc(spec, func(r rune) bool { return r < '0' || r > '9' })
	if digits < 0 {
		digits = len(spec)
	}
	if digits > 0 {
		var err error
		if n, err = strconv.Atoi(spec[:digits]); err != nil || n < 1 || n > 4096 {
			return nil, fmt.Errorf("bad count in /%s (1 to 4096)", spec)
		}
	}
	for _, c := range spec[digits:] {
		switch c {
		case 'x', 'd', 'u', 'f':
			format = byte(c)
		case 'b':
			unit = 1
		case 'h':
			unit = 2
		case 'w':
			unit = 4
		case 'g':
			unit = 8
		default:
			return nil, fmt.Errorf("bad letter %q in /%s (formats x d u f, units b h w g)", c, spec)
		}
	}
	if format == 'f' && unit < 4 {
		unit = 4
	}
	expr := strings.Join(args, " ")
	if expr == "" {
		return nil, fmt.Errorf("want: x/NFU ADDR")
	}
	var addr uint64
	if b := m.bufferNamed(expr); b != nil {
		addr = b.Addr
	} else {
		v, err := m.evalExpr(expr)
		if err != nil {
			return nil, err
		}
		if v.lanes != nil || v.float {
			return nil, fmt.Errorf("%q is not an address", expr)
		}
		addr = v.bits
	}
	data, valid := m.dbg.ReadMem(addr, n*unit, false)
	for i, ok := range valid {
		if !ok {
			return nil, fmt.Errorf("cannot read memory at 0x%x", addr+uint64(i))
		}
	}
	perLine := 8
	if unit >= 4 {
		perLine = 4
	}
	var lines []string
	for i := 0; i < n; i += perLine {
		parts := []string{fmt.Sprintf("0x%x:", addr+uint64(i*unit))}
		for j := i; j < min(i+perLine, n); j++ {
			var buf [8]byte
			copy(buf[:], data[j*unit:(j+1)*unit])
			parts = append(parts, unitText(binary.LittleEndian.Uint64(buf[:]), unit, format))
		}
		lines = append(lines, strings.Join(parts, "  "))
	}
	if len(lines) == 1 {
		m.status("%s", lines[0])
	} else {
		m.output("x/"+spec+" "+expr, lines)
	}
	return nil, nil
}

// unitText prints one unit of x's output.
func unitText(v uint64, unit int, f byte) string {
	switch f {
	case 'd':
		shift := 64 - 8*unit
		return strconv.FormatInt(int64(v<<shift)>>shift, 10)
	case 'u':
		return strconv.FormatUint(v, 10)
	case 'f':
		if unit == 8 {
			return strconv.FormatFloat(math.Float64frombits(v), 'g', -1, 64)
		}
		return strconv.FormatFloat(float64(math.Float32frombits(uint32(v))), 'g', -1, 32)
	}
	return fmt.Sprintf("0x%0*x", 2*unit, v)
}

// bufferNamed finds a dispatch buffer by name.
func (m *Model) bufferNamed(name string) *Buffer {
	for _, b := range m.dbg.Buffers() {
		if b.Is(name) {
			return &b
		}
	}
	return nil
}

func cmdDisplay(m *Model, args []string) (tea.Cmd, error) {
	spec, args := formatArg(args)
	f, err := printFormat(spec)
	if err != nil {
		return nil, err
	}
	if len(args) == 0 {
		if len(m.gdb.displays) == 0 {
			m.status("no displays")
			return nil, nil
		}
		m.stopped()
		return nil, nil
	}
	expr := strings.Join(args, " ")
	if _, err := m.evalExpr(expr); err != nil {
		return nil, err
	}
	m.gdb.nextDisp++
	d := display{num: m.gdb.nextDisp, format: f, expr: expr}
	m.gdb.displays = append(m.gdb.displays, d)
	m.status("%s", m.displayText(d))
	return nil, nil
}

func (m *Model) displayText(d display) string {
	v, err := m.evalExpr(d.expr)
	if err != nil {
		return fmt.Sprintf("%d: %s = <%v>", d.num, d.expr, err)
	}
	return fmt.Sprintf("%d: %s = %s", d.num, d.expr, formatExpr(v, d.format))
}

func cmdUndisplay(m *Model, args []string) (tea.Cmd, error) {
	if len(args) == 0 {
		m.gdb.displays = nil
		m.status("no displays")
		return nil, nil
	}
	for _, a := range args {
		n, err := strconv.Atoi(a)
		found := false
		for i, d := range m.gdb.displays {
			if err == nil && d.num == n {
				m.gdb.displays = append(m.gdb.displays[:i], m.gdb.displays[i+1:]...)
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("no display number %s", a)
		}
	}
	m.status("%d display(s)", len(m.gdb.displays))
	return nil, nil
}

// infoTopics are info's subcommands; each may be shortened to a prefix.
var infoTopics = []string{"registers", "breakpoints", "watchpoints", "display", "waves", "threads", "counters", "cache"}

func cmdGDBInfo(m *Model, args []string) (tea.Cmd, error) {
	topic := "breakpoints"
	if len(args) > 0 {
		topic = ""
		for _, t := range infoTopics {
			if strings.HasPrefix(t, args[0]) {
				topic = t
				break
			}
		}
		if topic == "" {
			return nil, fmt.Errorf("no info %q (want %s)", args[0], strings.Join(infoTopics, ", "))
		}
	}
	f := &m.frame
	var lines []string
	switch topic {
	case "registers":
		for _, r := range f.SGPR.Regs {
			lines = append(lines, fmt.Sprintf("%-10s 0x%08x  %d", r.Name, r.Value, r.Value))
		}
		if pc, ok := m.dbg.PC(); ok {
			lines = append(lines, fmt.Sprintf("%-10s 0x%x", "pc", pc))
		}
	case "breakpoints", "watchpoints":
		lines = m.breakpointLines()
	case "display":
		for _, d := range m.gdb.displays {
			lines = append(lines, m.displayText(d))
		}
	case "waves", "threads":
		v := &f.Waves
		if n := v.First(); n > 0 {
			lines = append(lines, fmt.Sprintf("  (%d waves before; wave N selects any)", n))
		}
		for _, w := range v.Rows {
			mark := " "
			if w.ID == v.Selected {
				mark = "*"
			}
			lines = append(lines, fmt.Sprintf("%s wave %d  group %s  wave %d of it  pc 0x%x  %s", mark, w.ID, groupText(w.Group), w.Wave, w.PC, w.State))
		}
		if n := v.Total - v.First() - len(v.Rows); n > 0 {
			lines = append(lines, fmt.Sprintf("  (%d more waves after; wave N selects any)", n))
		}
	case "counters":
		c := &f.Counters
		lines = append(lines, fmt.Sprintf("cycle %d  vmcnt %d  lgkmcnt %d  expcnt %d", c.Cycle, c.VM, c.LGKM, c.EXP))
		for _, op := range c.Ops {
			lines = append(lines, fmt.Sprintf("  %s: %s → %s, done at cycle %d", op.Counter, op.Inst, op.Dests, op.Done))
		}
	case "cache":
		c := &f.Cache
		lines = append(lines, fmt.Sprintf("%d-byte lines: %d hits, %d misses, %d evictions", c.LineSize, c.Hits, c.Misses, c.Evicts))
		for _, l := range c.Lines {
			if l.Valid {
				lines = append(lines, fmt.Sprintf("  line %d: 0x%x age %d %s", l.Index, l.Tag, l.Age, l.Event))
			}
		}
	}
	if len(lines) == 0 {
		lines = []string{"none"}
	}
	if len(lines) == 1 {
		m.status("%s", lines[0])
	} else {
		m.output("info "+topic, lines)
	}
	return nil, nil
}

// breakpointLines is info breakpoints' table, in number order.
func (m *Model) breakpointLines() []string {
	type row struct {
		num  int
		text string
	}
	var rows []row
	yn := map[bool]string{true: "y", false: "n"}
	for _, b := range m.sortedBreaks() {
		kind := "breakpoint"
		if b.temp {
			kind = "tbreak"
		}
		s := fmt.Sprintf("%-3d %-10s %s 0x%x", b.num, kind, yn[b.enabled], b.addr)
		if b.anyWave {
			s += "  any wave"
		} else {
			s += fmt.Sprintf("  wave %d", m.dbg.Selected())
		}
		if b.cond != nil {
			s += " if " + b.cond.String()
		}
		rows = append(rows, row{b.num, s})
	}
	for _, w := range m.watches {
		rows = append(rows, row{w.num, fmt.Sprintf("%-3d %-10s %s %s", w.num, "watch", yn[!w.off], w)})
	}
	for i := 1; i < len(rows); i++ {
		for j := i; j > 0 && rows[j].num < rows[j-1].num; j-- {
			rows[j], rows[j-1] = rows[j-1], rows[j]
		}
	}
	var out []string
	for _, r := range rows {
		out = append(out, r.text)
	}
	if len(out) > 0 {
		out = append([]string{"num type       on where"}, out...)
	}
	return out
}

// output shows lines in the output box until the next key.
func (m *Model) output(title string, lines []string) {
	m.gdb.outTitle, m.gdb.out = title, lines
}

// outputBox draws the output box over the panes, centred.
func (m *Model) outputBox(w, h int) []string {
	lines := prefixAll(m.gdb.out, " ")
	bw := 0
	for _, l := range lines {
		bw = max(bw, len([]rune(l))+1)
	}
	bw, bh := min(bw+2, w), min(len(lines)+2, h)
	title := " " + m.gdb.outTitle + "  (any key closes) "
	box := frame(title, lines, m.common.Styles, bw, bh, true)
	return strings.Split(lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, box), "\n")
}

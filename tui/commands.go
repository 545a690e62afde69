package tui

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// command is one ':' command; the table generates the help overlay.
type command struct {
	names []string
	args  string
	help  string
	run   func(m *Model, args []string) (tea.Cmd, error)
}

var commandTable []command

func init() {
	commandTable = append(gdbCommandTable(), []command{
		{[]string{"lstep", "ls"}, "", "run until the source line changes (-g builds)", cmdSourceStep(false)},
		{[]string{"next", "n"}, "", "run until the source line changes in this function", cmdSourceStep(true)},
		{[]string{"reverse-finish", "rfinish"}, "", "run backwards to the call that entered this function", cmdReverseFinish},
		{[]string{"write"}, "ADDR VALUE...", "write dwords to memory", cmdWrite},
		{[]string{"mem"}, "ADDR|BUFFER|REG", "show memory at an address or buffer, or follow a register pair", cmdMem},
		{[]string{"lds"}, "[ADDR]", "show LDS", cmdLDS},
		{[]string{"goto", "g"}, "LOC", "move the disassembly cursor", cmdGoto},
		{[]string{"wave"}, "[N]", "switch to wave N of the grid, in dispatch order (alone: which is shown)", cmdWave},
		{[]string{"latency", "lat"}, "[NAME CYCLES]", "set (or list) a latency", cmdLatency},
		{[]string{"format", "fmt"}, "hex|signed|unsigned|float", "register number format", cmdFormat},
	}...)
	var b strings.Builder
	b.WriteString("commands (press : first; LOC is 0xADDR, a label or FILE:LINE)\n")
	for _, c := range commandTable {
		use := strings.Join(c.names, "|") + " " + c.args
		if len(use) > 24 {
			fmt.Fprintf(&b, "  %s\n  %-24s %s\n", use, "", c.help)
		} else {
			fmt.Fprintf(&b, "  %-24s %s\n", use, c.help)
		}
	}
	commandHelp = strings.TrimRight(b.String(), "\n")
}

// commandHelp is the command table formatted for the help overlay.
var commandHelp string

// execCommand runs one ':' line (see runLine).
func (m *Model) execCommand(line string) tea.Cmd { return m.runLine(line) }

func countArg(args []string) (int, error) {
	if len(args) == 0 {
		return 1, nil
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 {
		return 0, fmt.Errorf("bad count %q", args[0])
	}
	return n, nil
}

func cmdStep(m *Model, args []string) (tea.Cmd, error) {
	n, err := countArg(args)
	if err != nil {
		return nil, err
	}
	if n == 1 {
		m.stepN(1)
		return nil, nil
	}
	return m.startRun(runForward, n, noAddr), nil
}

func cmdBack(m *Model, args []string) (tea.Cmd, error) {
	n, err := countArg(args)
	if err != nil {
		return nil, err
	}
	if fr, ok := m.fast(); ok {
		m.msg = ""
		if _, atStart, err := fr.ReverseStepN(n); err != nil {
			m.fail(err)
		} else if atStart {
			m.status("%s", m.historyStart())
		}
		m.moved()
		return nil, nil
	}
	m.backN(n)
	return nil, nil
}

// location resolves a label, an address or FILE:LINE.
func (m *Model) location(s string) (uint64, error) {
	if a, ok := m.dbg.Labels()[s]; ok {
		return a, nil
	}
	if a, ok, err := m.fileLine(s); ok {
		return a, err
	}
	if a, ok := m.dbg.Labels()[strings.TrimSuffix(s, ":")]; ok {
		return a, nil
	}
	if a, ok := m.sourceLabel(s); ok {
		return a, nil
	}
	a, err := parseAddr(s)
	if err != nil {
		return 0, fmt.Errorf("no label or address %q", s)
	}
	for _, l := range m.frame.Disasm.Lines {
		if l.Addr == a {
			return a, nil
		}
	}
	return 0, fmt.Errorf("0x%x is not the start of an instruction", a)
}

func cmdWatch(m *Model, args []string) (tea.Cmd, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("want: watch REG | REG[LANE] | mem ADDR [LEN]")
	}
	if args[0] == "mem" {
		if len(args) < 2 {
			return nil, fmt.Errorf("want: watch mem ADDR [LEN]")
		}
		a, err := parseAddr(args[1])
		if err != nil {
			return nil, err
		}
		n := 4
		if len(args) > 2 {
			if n, err = strconv.Atoi(args[2]); err != nil || n < 1 || n > 1<<16 {
				return nil, fmt.Errorf("bad length %q", args[2])
			}
		}
		w := &watchpoint{addr: a, size: n}
		w.last = w.read(m.dbg)
		m.appendWatch(w)
		return nil, nil
	}
	r, err := ParseRegRef(args[0])
	if err != nil {
		return nil, err
	}
	m.addWatch(r)
	return nil, nil
}

func cmdSet(m *Model, args []string) (tea.Cmd, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("want: set REG VALUE")
	}
	r, err := ParseRegRef(args[0])
	if err != nil {
		return nil, err
	}
	v, err := parseValue(args[1])
	if err != nil {
		return nil, err
	}
	if err := m.dbg.SetReg(r, v); err != nil {
		return nil, err
	}
	m.refresh()
	m.status("%s = 0x%x", r, v)
	return nil, nil
}

func cmdWrite(m *Model, args []string) (tea.Cmd, error) {
	if len(args) < 2 {
		return nil, fmt.Errorf("want: write ADDR VALUE...")
	}
	a, err := parseAddr(args[0])
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 0, 4*(len(args)-1))
	for _, s := range args[1:] {
		v, err := parseValue(s)
		if err != nil {
			return nil, err
		}
		buf = binary.LittleEndian.AppendUint32(buf, v)
	}
	if err := m.dbg.WriteMem(a, buf, m.mem.lds); err != nil {
		return nil, err
	}
	m.mem.mark = map[uint64]bool{}
	for i := range len(buf) {
		m.mem.mark[a+uint64(i)] = true
	}
	m.gdb.edited = true
	m.refresh()
	m.status("wrote %d bytes at 0x%x", len(buf), a)
	return nil, nil
}

func cmdMem(m *Model, args []string) (tea.Cmd, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("want: mem ADDR|BUFFER|REG")
	}
	m.mem.lds, m.mem.follow = false, nil
	for _, b := range m.dbg.Buffers() {
		if b.Is(args[0]) {
			m.mem.base, m.mem.title = b.Addr, b.Name
			m.setFocus(paneMemory)
			return nil, nil
		}
	}
	if a, err := parseAddr(args[0]); err == nil {
		m.mem.base, m.mem.title = a&^3, "global"
		m.setFocus(paneMemory)
		return nil, nil
	}
	// A register pair: s[4:5], s4 or v1 (at the VGPR lane cursor).
	s := strings.NewReplacer("[", "", "]", "").Replace(args[0])
	if i := strings.IndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	r, err := ParseRegRef(s)
	if err != nil {
		return nil, fmt.Errorf("no buffer, address or register %q", args[0])
	}
	if r.File == 'v' && r.Lane < 0 {
		r.Lane = m.panes[paneVGPR].(*vgprPane).lane
	}
	if _, err := m.dbg.Reg(r); err != nil {
		return nil, err
	}
	file := string(r.File)
	if r.File == 't' {
		file = "ttmp"
	}
	name := fmt.Sprintf("%s[%d:%d]", file, r.Num, r.Num+1)
	if r.File == 'v' {
		name += fmt.Sprintf(" lane %d", r.Lane)
	}
	m.mem.follow, m.mem.title = &r, name
	m.setFocus(paneMemory)
	return nil, nil
}

func cmdLDS(m *Model, args []string) (tea.Cmd, error) {
	m.mem.lds, m.mem.title, m.mem.base, m.mem.follow = true, "LDS", 0, nil
	if len(args) > 0 {
		a, err := parseAddr(args[0])
		if err != nil {
			return nil, err
		}
		m.mem.base = a &^ 3
	}
	m.setFocus(paneMemory)
	return nil, nil
}

func cmdGoto(m *Model, args []string) (tea.Cmd, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("want: goto LOC")
	}
	a, err := m.location(args[0])
	if err != nil {
		return nil, err
	}
	for i, l := range m.frame.Disasm.Lines {
		if l.Addr == a {
			m.disasm.cursor = i
		}
	}
	m.setFocus(paneDisasm)
	return nil, nil
}

func cmdUntil(m *Model, args []string) (tea.Cmd, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("want: until LOC")
	}
	a, err := m.location(args[0])
	if err != nil {
		return nil, err
	}
	return m.startRun(runForward, 0, a), nil
}

func cmdWave(m *Model, args []string) (tea.Cmd, error) {
	v := &m.frame.Waves
	if r, ok := v.Row(m.dbg.Selected()); len(args) == 0 && ok {
		m.status("wave %d of %d: work-group %s, wave %d of it", r.ID, v.Total, groupText(r.Group), r.Wave)
		return nil, nil
	}
	if len(args) != 1 {
		return nil, fmt.Errorf("want: wave [N]")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 0 || n >= v.Total {
		return nil, fmt.Errorf("no wave %q (there are %d)", args[0], v.Total)
	}
	return m.selectWave(n), nil
}

func cmdLatency(m *Model, args []string) (tea.Cmd, error) {
	if len(args) == 0 {
		m.status("latencies: %s", strings.Join(m.dbg.Latencies(), " "))
		return nil, nil
	}
	if len(args) != 2 {
		return nil, fmt.Errorf("want: latency NAME CYCLES")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 0 {
		return nil, fmt.Errorf("bad cycle count %q", args[1])
	}
	if err := m.dbg.SetLatency(args[0], n); err != nil {
		return nil, err
	}
	m.status("latency %s = %d", args[0], n)
	return nil, nil
}

func cmdFormat(m *Model, args []string) (tea.Cmd, error) {
	if len(args) != 1 {
		return nil, fmt.Errorf("want: format hex|signed|unsigned|float")
	}
	for f := FmtHex; f < numFormats; f++ {
		if f.String() == args[0] {
			m.panes[paneSGPR].(*sgprPane).format = f
			m.panes[paneVGPR].(*vgprPane).format = f
			return nil, nil
		}
	}
	return nil, fmt.Errorf("unknown format %q", args[0])
}

// commandNames lists every command name and alias, for completion.
func commandNames() []string {
	var out []string
	for _, c := range commandTable {
		out = append(out, c.names...)
	}
	return out
}

package tui

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// This file is execution control: stepping, breakpoints (with optional
// register conditions), watchpoints, and continue / reverse-continue / step
// N / run to cursor, which run in chunks so the screen shows progress and
// Ctrl-C stops them.

const noAddr = ^uint64(0)

// breakpoint stops execution at an address, when its condition holds.
type breakpoint struct {
	addr    uint64
	enabled bool
	cond    *condition
	num     int  // gdb's breakpoint number
	temp    bool // tbreak: deleted when hit
	anyWave bool // thread all: stops any wave of the work-group
}

// condition compares a register with a value; a VGPR without a lane holds
// when any lane does.
type condition struct {
	ref  RegRef
	op   string
	val  uint32
	expr string // an expression instead, true when not zero
}

func (c *condition) String() string {
	if c.expr != "" {
		return c.expr
	}
	return fmt.Sprintf("%s %s 0x%x", c.ref, c.op, c.val)
}

func (c *condition) holds(d Debuggee) bool {
	if c.expr != "" {
		return exprHolds(d, c.expr)
	}
	test := func(v uint32) bool {
		switch c.op {
		case "==":
			return v == c.val
		case "!=":
			return v != c.val
		case "<":
			return v < c.val
		case "<=":
			return v <= c.val
		case ">":
			return v > c.val
		case ">=":
			return v >= c.val
		}
		return false
	}
	if c.ref.File == 'v' && c.ref.Lane < 0 {
		for l := 0; l < 64; l++ {
			r := c.ref
			r.Lane = l
			if v, err := d.Reg(r); err == nil && test(v) {
				return true
			}
		}
		return false
	}
	v, err := d.Reg(c.ref)
	return err == nil && test(v)
}

// watchpoint stops execution when a register (one lane or all) or a memory
// range changes.
type watchpoint struct {
	ref  *RegRef
	addr uint64
	size int
	last []byte
	num  int  // gdb's breakpoint number
	off  bool // disabled
}

func (w *watchpoint) String() string {
	if w.ref != nil {
		return w.ref.String()
	}
	return fmt.Sprintf("mem[0x%x,+%d]", w.addr, w.size)
}

func (w *watchpoint) read(d Debuggee) []byte {
	if w.ref == nil {
		b, _ := d.ReadMem(w.addr, w.size, false)
		return b
	}
	lanes := []int{w.ref.Lane}
	if w.ref.File == 'v' && w.ref.Lane < 0 {
		lanes = lanes[:0]
		for l := 0; l < 64; l++ {
			lanes = append(lanes, l)
		}
	}
	out := make([]byte, 0, 4*len(lanes))
	for _, l := range lanes {
		r := *w.ref
		r.Lane = l
		v, _ := d.Reg(r)
		out = append(out, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	return out
}

// changed re-reads the watched value and reports whether it differs.
func (w *watchpoint) changed(d Debuggee) bool {
	now := w.read(d)
	ch := !bytes.Equal(now, w.last)
	w.last = now
	return ch
}

func (m *Model) toggleBreak(addr uint64) {
	if _, ok := m.breaks[addr]; ok {
		delete(m.breaks, addr)
		m.status("breakpoint at 0x%x removed", addr)
	} else {
		m.breaks[addr] = &breakpoint{addr: addr, enabled: true}
		m.status("breakpoint at 0x%x", addr)
	}
	m.refreshBreaks()
}

func (m *Model) refreshBreaks() {
	m.frame.Disasm.Breaks = make(map[uint64]bool, len(m.breaks))
	for a, b := range m.breaks {
		m.frame.Disasm.Breaks[a] = b.enabled
	}
}

func (m *Model) addWatch(r RegRef) {
	w := &watchpoint{ref: &r}
	w.last = w.read(m.dbg)
	m.appendWatch(w)
}

func (m *Model) sortedBreaks() []*breakpoint {
	out := make([]*breakpoint, 0, len(m.breaks))
	for _, b := range m.breaks {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].addr < out[j].addr })
	return out
}

// watchHit re-reads every watchpoint and names the first that changed.
func (m *Model) watchHit() string {
	hit := ""
	for _, w := range m.watches {
		if w.changed(m.dbg) && hit == "" && !w.off {
			hit = w.String()
		}
	}
	return hit
}

// breakHit reports whether the PC is at an enabled breakpoint whose
// condition holds.
func (m *Model) breakHit() (*breakpoint, bool) {
	pc, ok := m.dbg.PC()
	if !ok {
		return nil, false
	}
	b, ok := m.breaks[pc]
	if !ok || !b.enabled {
		return nil, false
	}
	if b.cond != nil && !b.cond.holds(m.dbg) {
		return nil, false
	}
	return b, true
}

// stepN steps n times at once (no progress), stopping early like continue.
func (m *Model) stepN(n int) {
	m.msg = ""
	for i := 0; i < n; i++ {
		if _, ok := m.dbg.PC(); !ok {
			m.status("the wave has ended")
			break
		}
		if err := m.dbg.Step(); err != nil {
			m.fail(err)
			break
		}
		if w := m.watchHit(); w != "" {
			m.status("watchpoint %s changed", w)
			break
		}
		if b, ok := m.breakHit(); ok && i < n-1 {
			m.status("breakpoint at 0x%x", b.addr)
			break
		}
	}
	m.afterMove()
	m.stopped()
}

func (m *Model) backN(n int) {
	m.msg = ""
	for i := 0; i < n; i++ {
		ok, err := m.dbg.StepBack()
		if err != nil {
			m.fail(err)
			break
		}
		if !ok {
			m.status("%s", m.historyStart())
			break
		}
	}
	for _, w := range m.watches {
		w.last = w.read(m.dbg)
	}
	m.afterMove()
	m.stopped()
}

func (m *Model) afterMove() {
	m.refresh()
	m.disasm.followPC(&m.frame)
}

type runDir int

const (
	runForward runDir = iota
	runBackward
)

// runState is a continue in progress.
type runState struct {
	dir    runDir
	limit  int // stop after this many steps; 0 for no limit
	target uint64
	// pre, when set, runs before each forward step and post after it;
	// post returns why the run stops, or "" (nexti, finish, until).
	pre, post func(m *Model) string
	// fast, when set, runs the chunk instead (on the engine: gdbstep.go)
	fast      func(m *Model, r *runState, deadline time.Time) string
	steps     int
	started   time.Time
	cancelled bool
	// A source-level step (srcStep) stops when the line differs from src
	// (over: within src's function).
	srcStep, over bool
	src           srcPos
}

func (r *runState) progress() string {
	verb := "running"
	if r.dir == runBackward {
		verb = "reversing"
	}
	return fmt.Sprintf("%s… %d steps %.1fs (ctrl+c stops)", verb, r.steps, time.Since(r.started).Seconds())
}

// runMsg asks for the next chunk of a run.
type runMsg struct{}

// runChunk bounds how long one chunk runs before the screen is redrawn and
// keys (Ctrl-C) are read.
const runChunk = 25 * time.Millisecond

func (m *Model) startRun(dir runDir, limit int, target uint64) tea.Cmd {
	m.msg = ""
	if m.busy() {
		return nil
	}
	if r, ok := m.fastRun(dir, limit, target); ok {
		return m.runOwn(r)
	}
	m.run = &runState{dir: dir, limit: limit, target: target, started: time.Now()}
	return m.runContinue(runMsg{})
}

// runContinue executes one chunk of the run in progress and schedules the
// next, or finishes it.
func (m *Model) runContinue(runMsg) tea.Cmd {
	r := m.run
	if r == nil {
		return nil
	}
	deadline := time.Now().Add(runChunk)
	stop := ""
	if r.fast != nil {
		stop = r.fast(m, r, deadline)
	}
	for i := 0; stop == "" && r.fast == nil; i++ {
		if r.cancelled {
			stop = "stopped"
			break
		}
		if r.limit > 0 && r.steps >= r.limit {
			stop = fmt.Sprintf("stepped %d", r.steps)
			break
		}
		if i&63 == 63 && time.Now().After(deadline) {
			break
		}
		stop = m.runOne(r)
	}
	if stop == "" {
		return func() tea.Msg { return runMsg{} }
	}
	m.run = nil
	for _, w := range m.watches {
		w.last = w.read(m.dbg)
	}
	m.afterMove()
	switch {
	case strings.HasPrefix(stop, "stepped"):
		m.status("%s", stop)
	case r.steps == 1:
		m.status("%s after 1 step", stop)
	default:
		m.status("%s after %d steps", stop, r.steps)
	}
	if strings.HasPrefix(stop, "error") {
		m.msgErr = true
	}
	m.stopped()
	return nil
}

// runOne takes one step of a run; it returns why the run stops, or "".
func (m *Model) runOne(r *runState) string {
	if r.dir == runBackward {
		ok, err := m.dbg.StepBack()
		if err != nil {
			return "error: " + err.Error()
		}
		if !ok {
			return m.historyStart()
		}
	} else {
		if _, ok := m.dbg.PC(); !ok {
			return "the wave has ended"
		}
		if r.pre != nil {
			if s := r.pre(m); s != "" {
				return s
			}
		}
		if err := m.dbg.Step(); err != nil {
			return "error: " + err.Error()
		}
	}
	r.steps++
	if r.post != nil {
		if s := r.post(m); s != "" {
			return s
		}
	}
	if w := m.watchHit(); w != "" {
		return "watchpoint " + w + " changed"
	}
	if pc, ok := m.dbg.PC(); ok && pc == r.target {
		return fmt.Sprintf("reached 0x%x", pc)
	}
	if b, ok := m.breakHit(); ok {
		s := fmt.Sprintf("breakpoint at 0x%x", b.addr)
		if b.cond != nil {
			s += " (" + b.cond.String() + ")"
		}
		return s
	}
	if r.srcStep {
		if s := m.srcStop(r); s != "" {
			return s
		}
	}
	if _, ok := m.dbg.PC(); !ok && r.dir == runForward {
		return "the wave has ended"
	}
	return ""
}

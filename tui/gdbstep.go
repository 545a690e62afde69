package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// This file is gdb's stepping commands beyond step and continue: nexti,
// finish and until, which run the ordinary run loop with a check before
// and after each step; and what happens at every stop (temporary
// breakpoints, displays).

func cmdContinue(m *Model, _ []string) (tea.Cmd, error) {
	return m.startRun(runForward, 0, noAddr), nil
}

func cmdReverseContinue(m *Model, _ []string) (tea.Cmd, error) {
	return m.startRun(runBackward, 0, noAddr), nil
}

// fastRun is startRun's run on the engine, when the Debuggee has one: a
// continue (to target, when set) or a reverse-continue. Runs of a number
// of steps step.
func (m *Model) fastRun(dir runDir, limit int, target uint64) (*runState, bool) {
	if limit > 0 || dir == runBackward && target != noAddr {
		return nil, false
	}
	fr, ok := m.fast()
	if !ok {
		return nil, false
	}
	r := m.newRun()
	r.dir, r.target = dir, target
	if dir == runBackward {
		r.fast = func(m *Model, r *runState, _ time.Time) string { return m.reverseFast(fr, r) }
	} else {
		r.fast = func(m *Model, r *runState, deadline time.Time) string { return m.continueFast(fr, r, deadline) }
	}
	return r, true
}

// cmdReverseFinish goes back to the call that entered the current frame.
func cmdReverseFinish(m *Model, _ []string) (tea.Cmd, error) {
	fr, ok := m.fast()
	if !ok {
		return nil, fmt.Errorf("reverse-finish needs emu's recording, which watches only registers and memory")
	}
	m.msg = ""
	n, err := fr.ReverseFinish(context.Background())
	if err != nil {
		return nil, err
	}
	pc, _ := m.dbg.PC()
	m.status("back %d steps to the call at 0x%x", n, pc)
	m.moved()
	return nil, nil
}

// fastRunner is a Debuggee that continues on its engine and goes back by
// replay, evaluating the breakpoints (with their conditions) and the
// watchpoints itself (EmuDebuggee, on an emu.Session).
type fastRunner interface {
	Fast() bool
	Watchable(w *watchpoint) bool
	SetStops(breaks []*breakpoint, watches []*watchpoint)
	Settle()
	RunFast(ctx context.Context, budget int64, target uint64) (fastStop, error)
	ReverseStepN(n int) (moved, atStart bool, err error)
	ReverseContinue(ctx context.Context) (fastStop, error)
	ReverseFinish(ctx context.Context) (int64, error)
}

// fast returns the Debuggee as a fastRunner, its stops handed to it, when
// it can run on its engine: it records, and it can watch every enabled
// watchpoint.
func (m *Model) fast() (fastRunner, bool) {
	fr, ok := m.dbg.(fastRunner)
	if !ok || !fr.Fast() {
		return nil, false
	}
	var ws []*watchpoint
	for _, w := range m.watches {
		if w.off {
			continue
		}
		if !fr.Watchable(w) {
			return nil, false
		}
		ws = append(ws, w)
	}
	fr.SetStops(m.enabledBreaks(), ws)
	return fr, true
}

// enabledBreaks lists the enabled breakpoints, by address.
func (m *Model) enabledBreaks() []*breakpoint {
	var out []*breakpoint
	for _, b := range m.sortedBreaks() {
		if b.enabled {
			out = append(out, b)
		}
	}
	return out
}

// fastChunk is the most instructions one engine run takes between looks
// at the clock (some 30 ms).
const fastChunk = 1 << 20

// continueFast is continue's chunk on the engine: runs until a breakpoint
// whose condition holds or a watched value changes (both evaluated by
// the engine), the run's target, the end, a trap or fault, or the
// deadline.
func (m *Model) continueFast(fr fastRunner, r *runState, deadline time.Time) string {
	for {
		if r.cancelled {
			fr.Settle()
			return "stopped"
		}
		if _, ok := m.dbg.PC(); !ok {
			return "the wave has ended"
		}
		if r.steps > 0 && time.Now().After(deadline) {
			return ""
		}
		st, err := fr.RunFast(context.Background(), fastChunk, r.target)
		r.steps += int(st.steps)
		if err != nil {
			return "error: " + err.Error()
		}
		switch st.reason {
		case emu.StopBudget:
		case emu.StopBreakpoint:
			if st.hit != nil {
				return m.waveHit(st.wave, st.hit)
			}
			if pc, _ := m.dbg.PC(); pc == r.target {
				return fmt.Sprintf("reached 0x%x", pc)
			}
			if s := m.breakStop(); s != "" {
				return s
			}
		case emu.StopWatchpoint:
			return m.watchStop(st)
		case emu.StopEnded:
			return "the wave has ended"
		default:
			return st.reason.String()
		}
	}
}

// watchStop says which watchpoint stopped a run on the engine, and
// re-reads every watched value.
func (m *Model) watchStop(st fastStop) string {
	for _, w := range m.watches {
		w.last = w.read(m.dbg)
	}
	if st.watch == nil {
		return "watchpoint"
	}
	return fmt.Sprintf("watchpoint %s changed", st.watch)
}

// reverseFast is reverse-continue on the engine: back to the last
// breakpoint hit whose condition holds or watched change, or the start.
func (m *Model) reverseFast(fr fastRunner, r *runState) string {
	for {
		st, err := fr.ReverseContinue(context.Background())
		r.steps += int(st.steps)
		switch {
		case err != nil:
			return "error: " + err.Error()
		case st.atStart:
			return m.historyStart()
		case st.reason == emu.StopWatchpoint:
			return m.watchStop(st)
		}
		if s := m.breakStop(); s != "" {
			return s
		}
		if st.steps == 0 {
			return m.historyStart()
		}
	}
}

// breakStop says why a run stops at the breakpoint at the PC, or "" when
// there is none or its condition does not hold.
func (m *Model) breakStop() string {
	b, ok := m.breakHit()
	if !ok {
		return ""
	}
	s := fmt.Sprintf("breakpoint at 0x%x", b.addr)
	if b.cond != nil {
		s += " (" + b.cond.String() + ")"
	}
	return s
}

// moved redraws after a reverse move: watchpoints read afresh, displays.
func (m *Model) moved() {
	for _, w := range m.watches {
		w.last = w.read(m.dbg)
	}
	m.afterMove()
	m.stopped()
}

// instAt returns the text of the instruction at addr and the address of
// the one after it.
func (m *Model) instAt(addr uint64) (text string, next uint64, ok bool) {
	l, next, ok := m.lineAt(addr)
	return l.Text, next, ok
}

// lineAt returns the disassembly line at addr and the address of the one
// after it.
func (m *Model) lineAt(addr uint64) (line DisasmLine, next uint64, ok bool) {
	lines := m.frame.Disasm.Lines
	for i, l := range lines {
		if l.Addr == addr {
			next = addr + 4*uint64(max(len(strings.Fields(l.Enc)), 1))
			if i+1 < len(lines) && l.Enc == "" {
				next = lines[i+1].Addr
			}
			return l, next, true
		}
	}
	return DisasmLine{}, 0, false
}

// isCall reports whether op saves a return address and jumps: isa's call
// flag (s_swappc_b64, s_call_b64).
func isCall(op isa.Op) bool { return op.Info().Flags.Has(isa.FlagCall) }

// isReturn reports whether op may return from a call: s_setpc_b64, the
// indirect jump a callee returns with.
func isReturn(op isa.Op) bool { return op == isa.S_SETPC_B64 }

// callTracker follows the call level of a run by the return addresses
// its calls saved: an s_swappc/s_call pushes the address after it, and an
// s_setpc_b64 that lands there pops it (one that lands elsewhere is a tail
// call or a jump, and keeps the level).
type callTracker struct {
	stack []uint64
	last  isa.Op // the instruction being stepped
	next  uint64 // the address after it
}

// before notes the instruction about to run.
func (c *callTracker) before(m *Model) {
	pc, _ := m.dbg.PC()
	var l DisasmLine
	l, c.next, _ = m.lineAt(pc)
	c.last = l.Op
}

// after follows the step just taken; it reports an s_setpc_b64 that left
// the level the run started at.
func (c *callTracker) after(m *Model) (left bool) {
	pc, _ := m.dbg.PC()
	switch {
	case isCall(c.last):
		c.stack = append(c.stack, c.next)
	case isReturn(c.last):
		if n := len(c.stack); n > 0 && c.stack[n-1] == pc {
			c.stack = c.stack[:n-1]
		} else if n == 0 {
			return true
		}
	}
	return false
}

// cmdNexti steps N instructions, running each call to its return: until
// the PC reaches the next instruction at the same call level.
func cmdNexti(m *Model, args []string) (tea.Cmd, error) {
	n, err := countArg(args)
	if err != nil {
		return nil, err
	}
	pc, ok := m.dbg.PC()
	if !ok {
		return nil, fmt.Errorf("the wave has ended")
	}
	if l, _, _ := m.lineAt(pc); n == 1 && !isCall(l.Op) {
		m.stepN(1)
		return nil, nil
	}
	ct, left := &callTracker{}, n
	r := m.newRun()
	r.pre = func(m *Model) string { ct.before(m); return "" }
	r.post = func(m *Model) string {
		if ct.after(m); len(ct.stack) > 0 {
			return ""
		}
		if left--; left > 0 {
			return ""
		}
		pc, _ := m.dbg.PC()
		if n == 1 {
			return fmt.Sprintf("stepped over the call, at 0x%x", pc)
		}
		return fmt.Sprintf("stepped %d, over calls, at 0x%x", n, pc)
	}
	return m.runOwn(r), nil
}

// cmdFinish runs until the current call returns: an s_setpc_b64 at this
// call level lands on the return address the call saved in s[30:31].
func cmdFinish(m *Model, _ []string) (tea.Cmd, error) {
	if _, ok := m.dbg.PC(); !ok {
		return nil, fmt.Errorf("the wave has ended")
	}
	lo, err1 := m.dbg.Reg(RegRef{File: 's', Num: 30, Lane: -1})
	hi, err2 := m.dbg.Reg(RegRef{File: 's', Num: 31, Lane: -1})
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("cannot read the return address in s[30:31]")
	}
	ret := uint64(hi)<<32 | uint64(lo)
	ct := &callTracker{}
	r := m.newRun()
	r.pre = func(m *Model) string { ct.before(m); return "" }
	r.post = func(m *Model) string {
		if ct.after(m) {
			if pc, _ := m.dbg.PC(); pc == ret {
				return fmt.Sprintf("returned to 0x%x", pc)
			}
		}
		return ""
	}
	return m.runOwn(r), nil
}

// cmdGDBUntil runs to LOC, or alone to an instruction past the current
// one at the same call level (out of a loop: gdb's until).
func cmdGDBUntil(m *Model, args []string) (tea.Cmd, error) {
	if len(args) > 0 {
		return cmdUntil(m, args)
	}
	start, ok := m.dbg.PC()
	if !ok {
		return nil, fmt.Errorf("the wave has ended")
	}
	ct := &callTracker{}
	r := m.newRun()
	r.pre = func(m *Model) string { ct.before(m); return "" }
	r.post = func(m *Model) string {
		ct.after(m)
		if pc, ok := m.dbg.PC(); ok && pc > start && len(ct.stack) == 0 {
			return fmt.Sprintf("reached 0x%x", pc)
		}
		return ""
	}
	return m.runOwn(r), nil
}

// newRun makes a forward run state for runOwn.
func (m *Model) newRun() *runState {
	return &runState{dir: runForward, target: noAddr}
}

// runOwn starts r as the run in progress.
func (m *Model) runOwn(r *runState) tea.Cmd {
	if m.busy() {
		return nil
	}
	m.msg, r.started = "", time.Now()
	m.run = r
	return m.runContinue(runMsg{})
}

// stopped runs after every stop: a temporary breakpoint hit is deleted,
// and the displays are appended to the status line.
func (m *Model) stopped() {
	if pc, ok := m.dbg.PC(); ok {
		if b, ok := m.breaks[pc]; ok && b.temp && strings.Contains(m.msg, "breakpoint at") {
			delete(m.breaks, pc)
			m.refreshBreaks()
			m.msg = strings.Replace(m.msg, "breakpoint at", fmt.Sprintf("temporary breakpoint %d at", b.num), 1)
		}
	}
	if m.msgErr || len(m.gdb.displays) == 0 {
		return
	}
	var parts []string
	for _, d := range m.gdb.displays {
		parts = append(parts, m.displayText(d))
	}
	if m.msg != "" {
		m.msg += " · "
	}
	m.msg += strings.Join(parts, " · ")
}

// historyStart says that a reverse move reached the start of history, and
// why it is not the kernel's entry when the recording restarted.
func (m *Model) historyStart() string {
	if r, ok := m.dbg.(interface{ HistoryRestarts() int }); ok && r.HistoryRestarts() > 0 {
		return "at the start of history (it restarted here to stay within the history budget: the work-group wrote more memory than the budget keeps)"
	}
	return "at the start of history"
}

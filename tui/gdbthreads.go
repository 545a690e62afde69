package tui

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/wavedbg/wavedbg/emu"
)

// This file is rocgdb's thread commands, where a thread is a wave: thread
// [N] (wave [N]), thread apply all stepi, and the "thread" clause of break
// and tbreak.

// groupStepper is a Debuggee that steps every wave of its work-group at
// once (EmuDebuggee, on an emu.Session).
type groupStepper interface {
	StepGroup(ctx context.Context, n int) groupStop
}

// cmdThread is thread [N] (as wave [N]) or thread apply all stepi [N].
func cmdThread(m *Model, args []string) (tea.Cmd, error) {
	if len(args) == 0 || args[0] != "apply" {
		if len(args) > 1 {
			return nil, fmt.Errorf("want: thread [N] or thread apply all stepi [N]")
		}
		return cmdWave(m, args)
	}
	if len(args) < 3 || args[1] != "all" {
		return nil, fmt.Errorf("want: thread apply all stepi [N] (only all waves of the work-group)")
	}
	if c := findCommand(args[2]); c == nil || c.names[0] != "stepi" {
		return nil, fmt.Errorf("thread apply all runs only stepi (si), not %q", args[2])
	}
	n, err := countArg(args[3:])
	if err != nil {
		return nil, err
	}
	if len(args) > 4 {
		return nil, fmt.Errorf("want: thread apply all stepi [N]")
	}
	gs, ok := m.dbg.(groupStepper)
	if !ok {
		return nil, fmt.Errorf("thread apply all needs the emulator's work-group session")
	}
	if _, ok := m.fast(); !ok {
		return nil, fmt.Errorf("thread apply all: a watchpoint cannot be watched on the work-group (disable it)")
	}
	m.gdb.last = "thread " + strings.Join(args, " ")
	m.stepGroup(gs, n)
	return nil, nil
}

// isGroupStep reports whether line is thread apply all (a stepping
// command: Enter repeats it, --batch says where the wave stopped).
func isGroupStep(line string) bool {
	name, args := splitCommand(line)
	return name == "thread" && len(args) > 0 && args[0] == "apply"
}

// stepGroup steps every wave of the work-group n instructions and says
// why it stopped, as stepi does; the panes show the selected wave.
func (m *Model) stepGroup(gs groupStepper, n int) {
	m.msg = ""
	ctx := m.opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	st := gs.StepGroup(ctx, n)
	var stop string
	switch st.reason {
	case emu.StopBudget:
		stop = m.groupMoves(n)
	case emu.StopBreakpoint:
		if st.switched {
			stop = m.waveHit(st.wave, st.brk)
		} else {
			stop = fmt.Sprintf("breakpoint at 0x%x", st.brk.addr)
		}
	case emu.StopWatchpoint:
		stop = m.watchStop(fastStop{watch: st.watch})
	case emu.StopEnded:
		stop = "every wave of the work-group has ended"
	case emu.StopCanceled:
		stop = "stopped"
	default:
		if st.err != nil {
			m.fail(fmt.Errorf("wave %d: %v", st.wave, st.err))
		} else {
			stop = fmt.Sprintf("wave %d: %s", st.wave, st.reason)
		}
	}
	if stop != "" {
		m.status("%s", stop)
	}
	for _, w := range m.watches {
		w.last = w.read(m.dbg)
	}
	m.afterMove()
	m.stopped()
}

// groupMoves says where each wave of the work-group stands after n
// rounds, and how when it is not running (a wave waiting at an s_barrier
// does not move).
func (m *Model) groupMoves(n int) string {
	var at []string
	for _, r := range m.dbg.Waves() {
		if r.Idle {
			continue
		}
		s := fmt.Sprintf("wave %d at 0x%x", r.ID, r.PC)
		if r.State != "running" {
			s += " (" + r.State + ")"
		}
		at = append(at, s)
	}
	return fmt.Sprintf("stepped every wave %d: %s", n, strings.Join(at, ", "))
}

// waveHit says that an any-wave breakpoint stopped wave, now selected;
// a temporary one is deleted.
func (m *Model) waveHit(wave int, b *breakpoint) string {
	for _, w := range m.watches {
		w.last = w.read(m.dbg) // watch the new wave from its current values
	}
	kind := "breakpoint"
	if b.temp {
		kind = "temporary breakpoint"
		delete(m.breaks, b.addr)
		m.refreshBreaks()
	}
	s := fmt.Sprintf("wave %d hit %s %d at 0x%x", wave, kind, b.num, b.addr)
	if b.cond != nil {
		s += " (" + b.cond.String() + ")"
	}
	return s
}

// breakThread parses the thread clause of break LOC [thread all] [if
// COND]: it returns whether the breakpoint stops any wave, and the rest.
func breakThread(args []string) (anyWave bool, rest []string, err error) {
	if len(args) == 0 || args[0] != "thread" {
		return false, args, nil
	}
	if len(args) < 2 {
		return false, nil, fmt.Errorf("want: thread all (any wave of the work-group)")
	}
	if args[1] != "all" {
		if _, err := strconv.Atoi(args[1]); err == nil {
			return false, nil, fmt.Errorf("thread %s: a breakpoint stops the selected wave, or with thread all any wave; the emulator cannot tie one to wave %s", args[1], args[1])
		}
		return false, nil, fmt.Errorf("thread %q: want thread all", args[1])
	}
	return true, args[2:], nil
}

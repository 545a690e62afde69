package emu

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// Cond is a breakpoint's condition, evaluated by the session each time
// the breakpoint is reached, on the wave that reached it: the run goes on
// when it does not hold. An error stops the run (it names the breakpoint).
type Cond interface {
	Holds(m *Machine) (bool, error)
	String() string
}

// Breakpoint is a session breakpoint: a stop before the instruction at PC
// of the selected wave (or, with AnyWave, of any wave).
type Breakpoint struct {
	ID       int
	PC       uint64
	Cond     Cond // nil: always
	Temp     bool // deleted when hit
	Disabled bool
	AnyWave  bool
	Hits     int // the times it stopped a run
}

// WatchKind is what a watchpoint watches.
type WatchKind uint8

const (
	// WatchScalar is a scalar register of one wave: a scalar operand code
	// (an SGPR, VCC, EXEC, M0, a TTMP, ...) or WatchSCC.
	WatchScalar WatchKind = iota
	WatchVGPR             // one lane of a VGPR of one wave
	WatchMemory           // a memory range, written by any wave
)

// WatchSCC is the Reg of a WatchScalar on SCC.
const WatchSCC = core.SlotSCC

// Watchpoint stops a run right after the instruction that changes the
// value it watches.
type Watchpoint struct {
	ID       int
	Kind     WatchKind
	Wave     int    // registers: the wave (index in the work-group)
	Reg      int    // WatchScalar: the code; WatchVGPR: the register
	Lane     int    // WatchVGPR
	Addr     uint64 // WatchMemory
	Size     int    // WatchMemory: bytes (1 to 4096)
	Disabled bool
	Hits     int
}

func (w *Watchpoint) String() string {
	switch w.Kind {
	case WatchScalar:
		if w.Reg == WatchSCC {
			return fmt.Sprintf("wave %d scc", w.Wave)
		}
		return fmt.Sprintf("wave %d scalar code %d", w.Wave, w.Reg)
	case WatchVGPR:
		return fmt.Sprintf("wave %d v%d lane %d", w.Wave, w.Reg, w.Lane)
	}
	return fmt.Sprintf("memory 0x%x, %d bytes", w.Addr, w.Size)
}

// Break adds breakpoint b (its ID is assigned) and returns it.
func (s *Session) Break(b Breakpoint) (*Breakpoint, error) {
	if _, ok := s.Prog.IndexOf(b.PC); !ok {
		return nil, fmt.Errorf("emu: breakpoint at 0x%x: no instruction there", b.PC)
	}
	s.ids++
	b.ID, b.Hits = s.ids, 0
	p := &b
	s.bps = append(s.bps, p)
	s.gen++
	return p, nil
}

// Watch adds watchpoint w (its ID is assigned) and returns it.
func (s *Session) Watch(w Watchpoint) (*Watchpoint, error) {
	switch w.Kind {
	case WatchScalar:
		if w.Reg < 0 || w.Reg > WatchSCC {
			return nil, fmt.Errorf("emu: watch: no scalar code %d", w.Reg)
		}
	case WatchVGPR:
		if w.Reg < 0 || w.Reg >= 256 || w.Lane < 0 || w.Lane >= 64 {
			return nil, fmt.Errorf("emu: watch: no VGPR v%d lane %d", w.Reg, w.Lane)
		}
	case WatchMemory:
		if w.Size < 1 || w.Size > 4096 {
			return nil, fmt.Errorf("emu: watch at 0x%x: %d bytes (watch 1 to 4096)", w.Addr, w.Size)
		}
		if ok, bad := s.Memory.Mapped(w.Addr, w.Size); !ok {
			return nil, fmt.Errorf("emu: watch at 0x%x: 0x%x is unmapped", w.Addr, bad)
		}
	default:
		return nil, fmt.Errorf("emu: watch: unknown kind %d", w.Kind)
	}
	if w.Kind != WatchMemory && (w.Wave < 0 || w.Wave >= len(s.waves)) {
		return nil, fmt.Errorf("emu: watch: the work-group has no wave %d", w.Wave)
	}
	s.ids++
	w.ID, w.Hits = s.ids, 0
	p := &w
	s.wps = append(s.wps, p)
	return p, nil
}

// Breakpoints returns the session's breakpoints, in the order set.
func (s *Session) Breakpoints() []*Breakpoint { return slices.Clone(s.bps) }

// Watchpoints returns the session's watchpoints, in the order set.
func (s *Session) Watchpoints() []*Watchpoint { return slices.Clone(s.wps) }

// Delete removes the breakpoint or watchpoint id; false when there is none.
func (s *Session) Delete(id int) bool {
	s.gen++
	n, m := len(s.bps), len(s.wps)
	s.bps = slices.DeleteFunc(s.bps, func(b *Breakpoint) bool { return b.ID == id })
	s.wps = slices.DeleteFunc(s.wps, func(w *Watchpoint) bool { return w.ID == id })
	return len(s.bps) < n || len(s.wps) < m
}

// Enable enables or disables the breakpoint or watchpoint id; false when
// there is none.
func (s *Session) Enable(id int, on bool) bool {
	s.gen++
	for _, b := range s.bps {
		if b.ID == id {
			b.Disabled = !on
			return true
		}
	}
	for _, w := range s.wps {
		if w.ID == id {
			w.Disabled = !on
			return true
		}
	}
	return false
}

// hitAt reports whether wave i, stopped at a machine breakpoint, stops
// the run: an enabled breakpoint there that applies to it and whose
// condition holds (its hit count grows; a temporary one is deleted), or
// one whose condition fails (the stop carries the error).
func (s *Session) hitAt(i int) (Stop, bool) {
	b, err := s.holding(i)
	if b == nil {
		return Stop{}, false
	}
	st := Stop{Reason: StopBreakpoint, Wave: i, PC: s.waves[i].PC(), Breakpoint: b.ID}
	if err != nil {
		st.Err = fmt.Errorf("breakpoint %d at 0x%x: condition %s: %w", b.ID, b.PC, b.Cond, err)
		return st, true
	}
	b.Hits++
	if b.Temp {
		s.Delete(b.ID)
	}
	return st, true
}

// breakAt reports whether an enabled breakpoint that applies to wave i is
// at its PC (whatever its condition).
func (s *Session) breakAt(i int) bool {
	pc := s.waves[i].PC()
	for _, b := range s.bps {
		if !b.Disabled && b.PC == pc && (b.AnyWave || i == s.sel) {
			return true
		}
	}
	return false
}

// holding returns the first enabled breakpoint at wave i's PC that
// applies to it and whose condition holds, or whose condition fails
// (with the error).
func (s *Session) holding(i int) (*Breakpoint, error) {
	m := s.waves[i]
	pc := m.PC()
	for _, b := range s.bps {
		if b.Disabled || b.PC != pc || !b.AnyWave && i != s.sel {
			continue
		}
		if b.Cond == nil {
			return b, nil
		}
		ok, err := b.Cond.Holds(m)
		if err != nil {
			return b, err
		}
		if ok {
			return b, nil
		}
	}
	return nil, nil
}

// watching reports whether an enabled watchpoint is set.
func (s *Session) watching() bool {
	for _, w := range s.wps {
		if !w.Disabled {
			return true
		}
	}
	return false
}

// value returns w's watched value, little-endian.
func (s *Session) value(w *Watchpoint) []byte {
	switch w.Kind {
	case WatchScalar:
		return binary.LittleEndian.AppendUint32(nil, s.waves[w.Wave].w.S[w.Reg])
	case WatchVGPR:
		return binary.LittleEndian.AppendUint32(nil, s.waves[w.Wave].w.V[w.Reg][w.Lane])
	}
	b := make([]byte, w.Size)
	s.Memory.ReadRaw(w.Addr, b)
	return b
}

// watchValues returns the enabled watchpoints' values, in order (nil for
// a disabled one).
func (s *Session) watchValues() [][]byte {
	if !s.watching() {
		return nil
	}
	out := make([][]byte, len(s.wps))
	for k, w := range s.wps {
		if !w.Disabled {
			out[k] = s.value(w)
		}
	}
	return out
}

// differs reports whether a watched value differs from old.
func (s *Session) differs(old [][]byte) bool {
	_, ok := s.watchChanged(0, old, false)
	return ok
}

// watchChanged compares the watched values with old (watchValues' before
// an instruction of wave i): the first that changed gives a watchpoint
// stop (with count, its hit count grows).
func (s *Session) watchChanged(i int, old [][]byte, count bool) (Stop, bool) {
	if old == nil || len(old) != len(s.wps) {
		return Stop{}, false
	}
	for k, w := range s.wps {
		if w.Disabled || old[k] == nil {
			continue
		}
		v := s.value(w)
		if bytes.Equal(v, old[k]) {
			continue
		}
		if count {
			w.Hits++
		}
		return Stop{Reason: StopWatchpoint, Wave: i, PC: s.waves[i].PC(), Watchpoint: w.ID, Old: old[k], New: v}, true
	}
	return Stop{}, false
}

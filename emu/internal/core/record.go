package core

import (
	"fmt"
	"github.com/wavedbg/wavedbg/isa"
)

// SRegChange is a scalar register or state slot that a step changed.
type SRegChange struct {
	Name string // "s5", "vcc_lo", "exec_hi", "m0", "scc", "pc", "mode", ...
	Code int    // scalar operand code (0–127), or -1 for other state
	Old  uint32
	New  uint32
	Slot int
}

// VRegChange is a VGPR that a step wrote; Lanes says which lanes.
type VRegChange struct {
	Reg   int
	Lanes uint64
	Old   [64]uint32
	New   [64]uint32
}

// MemWrite is a range of memory a step wrote (a store, an atomic or a cache
// write-back).
type MemWrite struct {
	Addr uint64
	Old  []byte
	New  []byte
	Why  string // "store", "atomic", "write-back"
}

// CacheEventKind is what happened to a scalar cache line.
type CacheEventKind uint8

const (
	CacheHit CacheEventKind = iota
	CacheMiss
	CacheEvict
	CacheWriteBack
	CacheInvalidate
	CacheDiscard
)

func (k CacheEventKind) String() string {
	return [...]string{"hit", "miss", "evict", "write-back", "invalidate", "discard"}[k]
}

// CacheEvent is one scalar-cache event of a step.
type CacheEvent struct {
	Kind  CacheEventKind
	Addr  uint64 // line address (64-byte aligned)
	Set   int
	Way   int
	Dirty bool // the line was dirty (evictions, invalidations)
	GLC   bool // caused by a GLC access
}

// LaneAddr is a memory address an instruction decoded, with its range-check
// outcome. Scalar accesses use Lane -1 and list one entry per dword.
type LaneAddr struct {
	Lane    int
	Addr    uint64
	Size    int
	InRange bool // false when a buffer range check dropped the access
	Mapped  bool // false when the address faulted
}

// Hazard is a read of a register whose load was still in flight: the
// instruction saw the old value (the missing s_waitcnt bug).
type Hazard struct {
	Reg       string // "s4"
	Code      int
	PC        uint64 // the reading instruction
	PendingPC uint64 // the load that will write it
	Done      uint64 // the cycle the load completes
}

// Counters are the wave's outstanding-operation counters.
type Counters struct {
	VM, LGKM, EXP int
}

// InFlight is an issued memory operation that has not completed.
type InFlight struct {
	ID      uint64
	PC      uint64 // the issuing instruction
	Index   int
	Op      isa.Op
	Counter isa.Counters // the counter it holds (CntVM, CntLGKM or CntEXP)
	Inc     int          // how much it adds to that counter
	Dest    []string     // destination registers ("s4", "s5"); nil when nothing returns
	Issue   uint64       // issue cycle
	Done    uint64       // completion cycle
}

// StepRecord describes one executed instruction.
type StepRecord struct {
	Seq    uint64 // 1 for the first step of the wave
	PC     uint64
	Index  int
	Inst   *isa.Inst
	NextPC uint64

	CycleBefore, CycleAfter uint64
	Stall                   uint64 // cycles spent waiting (s_waitcnt, s_sleep)

	SRegs []SRegChange
	VRegs []VRegChange
	Mem   []MemWrite

	CountersBefore, CountersAfter Counters
	Issued                        []InFlight
	Completed                     []InFlight

	Cache   []CacheEvent
	Addrs   []LaneAddr
	Hazards []Hazard
	// Stale lists the dwords a scalar load read from a clean cache line
	// that no longer matches memory (a vector store changed it).
	Stale []StaleRead
	Notes []string // rule notes (misaligned SDATA, out-of-range SBASE, ...)

	State RunState // the wave's state after the step
	Err   error    // the fault or execution error that stopped the wave, if any
}

// journal collects the current step's effects in reused buffers.
type journal struct {
	S       []sEnt
	V       []vEnt
	M       []mEnt
	c       []cEnt
	Ops     []opEnt
	Events  []CacheEvent
	Addrs   []LaneAddr
	Hazards []Hazard
	Stale   []StaleRead
	Notes   []string
	Stall   uint64
}

func (j *journal) Reset() {
	j.S, j.V, j.M, j.c, j.Ops = j.S[:0], j.V[:0], j.M[:0], j.c[:0], j.Ops[:0]
	j.Events, j.Addrs, j.Hazards, j.Notes = j.Events[:0], j.Addrs[:0], j.Hazards[:0], j.Notes[:0]
	j.Stale = j.Stale[:0]
	j.Stall = 0
}

type sEnt struct {
	Idx      uint16
	Old, New uint32
}

type vEnt struct {
	Reg  uint16
	Mask uint64
	Old  [64]uint32
}

type mEnt struct {
	Addr uint64
	N    uint8
	Why  uint8
	Old  [64]byte
	New  [64]byte
}

type cEnt struct {
	idx int32
	old CachedLine
}

// opEnt records a change to the in-flight list: an issue (undo removes the
// op) or a completion (undo reinserts it at pos).
type opEnt struct {
	Issued bool
	pos    int
	Op     PendingOp
}

// event and note helpers

func (w *Wave) CacheEvent(e CacheEvent) {
	if w.JOn {
		w.J.Events = append(w.J.Events, e)
	}
}

func (w *Wave) Note(s string) {
	if w.JOn {
		w.J.Notes = append(w.J.Notes, s)
	}
}

func (w *Wave) LaneAddr(a LaneAddr) {
	if w.JOn {
		w.J.Addrs = append(w.J.Addrs, a)
	}
}

// LaneUnmapped marks the address recorded back entries ago unmapped.
func (w *Wave) LaneUnmapped(back int) {
	if w.JOn {
		w.J.Addrs[len(w.J.Addrs)-back].Mapped = false
	}
}

// NoteStale records a stale read of dword v at addr from cache line i
// (checkStale).
func (w *Wave) NoteStale(i int, addr uint64, v uint32) {
	if w.JOn {
		w.checkStale(i, addr, v)
	}
}

// AddStall records c cycles the step waited.
func (w *Wave) AddStall(c uint64) {
	if w.JOn {
		w.J.Stall += c
	}
}

// NoteLines notes how many distinct 64-byte lines a vector access touched.
func (w *Wave) NoteLines(n int) {
	if w.JOn && n > 0 {
		w.J.Notes = append(w.J.Notes, fmt.Sprintf("%d distinct 64-byte lines", n))
	}
}

func (w *Wave) hazard(code int) {
	if !w.JOn {
		return
	}
	h := Hazard{Reg: ScalarName(w.Target, code), Code: code, PC: w.CurPC()}
	for i := range w.Pend {
		p := &w.Pend[i]
		if !p.Vec && p.N > 0 && code >= int(p.Dst) && code < int(p.Dst)+int(p.N) {
			h.PendingPC, h.Done = w.Code[p.Pc].Pc, p.Done
		}
	}
	for _, o := range w.J.Hazards {
		if o.Code == code {
			return
		}
	}
	w.J.Hazards = append(w.J.Hazards, h)
}

func (w *Wave) CurPC() uint64 {
	if i := w.CurIdx; i >= 0 && i < len(w.Code) {
		return w.Code[i].Pc
	}
	return 0
}

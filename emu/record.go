package emu

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
	slot int
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
	s       []sEnt
	v       []vEnt
	m       []mEnt
	c       []cEnt
	ops     []opEnt
	events  []CacheEvent
	addrs   []LaneAddr
	hazards []Hazard
	stale   []StaleRead
	notes   []string
	stall   uint64
}

func (j *journal) reset() {
	j.s, j.v, j.m, j.c, j.ops = j.s[:0], j.v[:0], j.m[:0], j.c[:0], j.ops[:0]
	j.events, j.addrs, j.hazards, j.notes = j.events[:0], j.addrs[:0], j.hazards[:0], j.notes[:0]
	j.stale = j.stale[:0]
	j.stall = 0
}

type sEnt struct {
	idx      uint16
	old, new uint32
}

type vEnt struct {
	reg  uint16
	mask uint64
	old  [64]uint32
}

type mEnt struct {
	addr uint64
	n    uint8
	why  uint8
	old  [64]byte
	new  [64]byte
}

type cEnt struct {
	idx int32
	old cacheLine
}

// opEnt records a change to the in-flight list: an issue (undo removes the
// op) or a completion (undo reinserts it at pos).
type opEnt struct {
	issued bool
	pos    int
	op     pendingOp
}

// event and note helpers

func (w *Wave) cacheEvent(e CacheEvent) {
	if w.jOn {
		w.j.events = append(w.j.events, e)
	}
}

func (w *Wave) note(s string) {
	if w.jOn {
		w.j.notes = append(w.j.notes, s)
	}
}

func (w *Wave) laneAddr(a LaneAddr) {
	if w.jOn {
		w.j.addrs = append(w.j.addrs, a)
	}
}

// ldsLaneAddr records lane's LDS access and counts its bank in b.
func (w *Wave) ldsLaneAddr(b *bankCounter, lane int, a uint32, size int, ok bool) {
	if w.jOn {
		w.j.addrs = append(w.j.addrs, LaneAddr{Lane: lane, Addr: SharedApertureBase + uint64(a), Size: size, InRange: ok, Mapped: true})
		b.add(lane, a)
	}
}

// noteBankConflicts notes the extra cycles of the LDS bank conflicts b
// counted.
func (w *Wave) noteBankConflicts(b *bankCounter) {
	if w.jOn {
		if c := b.conflicts(); c > 0 {
			w.j.notes = append(w.j.notes, fmt.Sprintf("LDS bank conflicts: %d extra cycles", c))
		}
	}
}

// vmemLaneAddr records lane's vector memory access (laneRecord) and
// counts its lines.
func (w *Wave) vmemLaneAddr(u *vmemUnit, o *vmOp, l *laneLoc, lane int, c *memCtx) {
	if w.jOn {
		la, _ := u.laneRecord(w, o, l, lane, c)
		w.j.addrs = append(w.j.addrs, la)
		u.lines.add(la.Addr, c.size)
	}
}

// laneUnmapped marks the address recorded back entries ago unmapped.
func (w *Wave) laneUnmapped(back int) {
	if w.jOn {
		w.j.addrs[len(w.j.addrs)-back].Mapped = false
	}
}

// noteStale records a stale read of dword v at addr from cache line i
// (checkStale).
func (w *Wave) noteStale(i int, addr uint64, v uint32) {
	if w.jOn {
		w.checkStale(i, addr, v)
	}
}

// addStall records c cycles the step waited.
func (w *Wave) addStall(c uint64) {
	if w.jOn {
		w.j.stall += c
	}
}

// noteLines notes how many distinct 64-byte lines a vector access touched.
func (w *Wave) noteLines(n int) {
	if w.jOn && n > 0 {
		w.j.notes = append(w.j.notes, fmt.Sprintf("%d distinct 64-byte lines", n))
	}
}

func (w *Wave) hazard(code int) {
	if !w.jOn {
		return
	}
	h := Hazard{Reg: scalarName(w.target, code), Code: code, PC: w.curPC()}
	for i := range w.pend {
		p := &w.pend[i]
		if !p.vec && p.n > 0 && code >= int(p.dst) && code < int(p.dst)+int(p.n) {
			h.PendingPC, h.Done = w.code[p.pc].pc, p.done
		}
	}
	for _, o := range w.j.hazards {
		if o.Code == code {
			return
		}
	}
	w.j.hazards = append(w.j.hazards, h)
}

func (w *Wave) curPC() uint64 {
	if i := w.curIdx; i >= 0 && i < len(w.code) {
		return w.code[i].pc
	}
	return 0
}

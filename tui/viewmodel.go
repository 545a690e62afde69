package tui

// This file holds the view models: small plain structs, one per pane, that
// the pure rendering helpers draw. The adapter over package emu fills them;
// tests fill them by hand.

import "github.com/wavedbg/wavedbg/isa"

// NumFormat is how register and memory values are shown.
type NumFormat uint8

const (
	FmtHex NumFormat = iota
	FmtSigned
	FmtUnsigned
	FmtFloat
	numFormats
)

func (f NumFormat) String() string {
	return [...]string{"hex", "signed", "unsigned", "float"}[f]
}

// DisasmLine is one instruction in the disassembly pane.
type DisasmLine struct {
	Addr   uint64
	Text   string // LLVM syntax
	Enc    string // encoding words in hex, shown on demand
	Label  string // a label defined at Addr, if any
	Target string // the branch target's label, if a branch
	Op     isa.Op // the decoded operation (zero when unknown): calls and returns
}

// DisasmView is the disassembly pane's model.
type DisasmView struct {
	Lines   []DisasmLine
	PC      uint64
	HasPC   bool // false once the wave has ended
	Cursor  int  // index into Lines
	Breaks  map[uint64]bool
	ShowEnc bool
	// Hazards marks the instructions of missing-s_waitcnt hazards in the
	// steps taken: each reading instruction and the load it raced.
	Hazards map[uint64]HazardMark
}

// HazardMark says why a disassembly line is marked.
type HazardMark struct {
	Read bool   // this instruction read a register too early
	Load bool   // this load was still in flight when it was read
	Text string // "read s8 early (load 0x150c)", "raced by 0x1514 (s8)"
}

// RegCell is one named 32-bit register value.
type RegCell struct {
	Name    string
	Value   uint32
	Changed bool // written by the last step
	Pending bool // a load in flight will write it
	Tour    bool // named by the tour's current claims
}

// SGPRView is the scalar-register pane's model.
type SGPRView struct {
	Regs   []RegCell
	Format NumFormat
	Cursor int
	Exec   uint64
	VCC    uint64
}

// VGPRView is the vector-register pane's model: Values[reg][lane].
type VGPRView struct {
	Values     [][]uint32
	Exec       uint64
	Changed    []uint64 // per register: lanes the last step wrote
	Pending    []bool   // per register: a load in flight will write it
	Tour       []bool   // per register: named by the tour's current claims
	Format     NumFormat
	RegCursor  int
	LaneCursor int
	AllLanes   bool // show RegCursor across all 64 lanes
}

// InFlight is an operation that has been issued and not yet completed.
type InFlight struct {
	Inst    string // instruction text
	Counter string // "vm", "lgkm" or "exp"
	Dests   string // destination registers
	Done    uint64 // cycle it completes
	Blocks  bool   // the current s_waitcnt waits for it
}

// CountersView is the counters pane's model.
type CountersView struct {
	Cycle         uint64
	VM, LGKM, EXP int
	Ops           []InFlight
	Wait          string // the s_waitcnt at PC, if any
	Stalled       bool   // the s_waitcnt at PC cannot retire yet
	StallUntil    uint64 // cycle it can retire
}

// CacheLine is one scalar-cache line.
type CacheLine struct {
	Index                  int
	Tag                    uint64 // line address
	Valid, Dirty, Volatile bool
	Age                    int // LRU age, 0 = most recent
	// Event is the last step's event on the line: "hit", "miss", "evict",
	// "write-back", "invalidate" or "discard".
	Event string
	// Last is the line's latest event in earlier steps ("miss @3"), when
	// the last step had none.
	Last string
	// Data is the line's dwords (nil once it is dropped). DirtyDwords and
	// StaleDwords mark them (bit k: dword k): written by scalar stores and
	// not yet written back; changed in memory underneath the line.
	Data                     []uint32
	DirtyDwords, StaleDwords uint16
	StaleRead                bool // the last step's load read a stale dword from it
}

// CacheNote is a line of the last step's cache activity: Kind is
// "invalidate", "write-back", "discard" or "stale".
type CacheNote struct{ Kind, Text string }

// CacheView is the scalar-cache pane's model.
type CacheView struct {
	LineSize             int
	Lines                []CacheLine
	Hits, Misses, Evicts uint64
	Evicted              []uint64 // tags evicted by the last step
	Notes                []CacheNote
}

// Field is a named value in the address decoder.
type Field struct{ Name, Value string }

// LaneAddr is one lane's computed address.
type LaneAddr struct {
	Lane    int // the lane (vector memory) or dword (SMEM)
	Addr    uint64
	Active  bool
	InRange bool
	Why     string // why not in range: "out of range: reads 0", "unmapped: faults", …
	Dest    string // SMEM: the SGPR the dword lands in
}

// AddrView is the address-decoder pane's model.
type AddrView struct {
	Inst   string
	Kind   string // SMEM, MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH, DS
	Fields []Field
	Steps  []string // the address formula, one step a line, with values
	Lanes  []LaneAddr
	// Unit names what Lanes are numbered by: "lane" for vector memory
	// (one address per active lane), "dword" for SMEM (one scalar access,
	// one address per dword loaded).
	Unit  string
	Lines []uint64 // distinct cache lines touched (not for LDS)
	// LDS marks a DS access; Conflicts is the extra cycles its LDS bank
	// conflicts cost (emu.BankConflicts).
	LDS       bool
	Conflicts int
}

// MemView is the memory pane's model.
type MemView struct {
	Title  string // buffer name, register followed, or "LDS"
	Base   uint64
	Data   []byte
	Valid  []bool // per byte; nil means all valid
	Format NumFormat
	Dwords bool // dword columns instead of bytes
	Mark   map[uint64]bool
}

// WaveRow is one wave in the waves pane.
type WaveRow struct {
	ID    int
	Group [3]int
	Wave  int
	PC    uint64
	State string
	Idle  bool // not loaded: another work-group is being debugged
}

// WavesView is the waves pane's model: a window of the dispatch's waves
// around the selected one. Selected and the rows' IDs are wave indices in
// the dispatch; Total counts all its waves.
type WavesView struct {
	Rows     []WaveRow
	Selected int
	Total    int
	Multi    bool // rows of several work-groups (when Rows is a window of them)
}

// First is the wave index of the window's first row.
func (v *WavesView) First() int {
	if len(v.Rows) == 0 {
		return 0
	}
	return v.Rows[0].ID
}

// Row returns wave i's row; ok is false when i lies outside the window.
func (v *WavesView) Row(i int) (r WaveRow, ok bool) {
	k := i - v.First()
	if k < 0 || k >= len(v.Rows) {
		return WaveRow{}, false
	}
	return v.Rows[k], true
}

// fresh reports whether moving from wave cur to wave i loads another
// work-group (a fresh dispatch): i lies outside the window or is idle, or
// cur is.
func (v *WavesView) fresh(cur, i int) bool {
	r, in := v.Row(i)
	c, _ := v.Row(cur)
	return !in || r.Idle || c.Idle
}

package core

import (
	"math/bits"

	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/isa"
)

// The scalar state lives in one array of 32-bit slots so that every write
// goes through one journaled path (ws). Slots 0–127 are the scalar operand
// codes of the encoding (SGPRs 0–101, FLAT_SCRATCH, XNACK_MASK, VCC, TBA/TMA
// or TTMPs, M0, EXEC); the rest hold the other wave state.
const (
	CodeFlatScratch = 102
	CodeXnackMask   = 104
	CodeVCC         = 106
	CodeTBA         = 108 // GFX8 only; GFX9 keeps TBA/TMA in slotTBA
	CodeTMA         = 110
	CodeTTMP8       = 112 // GFX8 ttmp0
	CodeTTMP9       = 108 // GFX9 ttmp0
	CodeM0          = 124
	CodeExec        = 126

	SlotSCC      = 128
	SlotPC       = 129 // instruction index
	SlotClock    = 130 // two slots
	SlotStatus   = 132 // RunState
	SlotMode     = 133
	SlotTrapSts  = 134
	SlotHWID     = 135
	SlotGPRAlloc = 136
	SlotLDSAlloc = 137
	SlotIBSts    = 138
	SlotTBA      = 139 // GFX9: TBA lo/hi, TMA lo/hi (4 slots)
	SlotRetired  = 143 // two slots
	SlotUse      = 145 // cache LRU clock, two slots
	slotOpID     = 147 // next in-flight op id, two slots
	slotSkip     = 149 // pending s_nop/s_sleep bookkeeping (unused)
	SlotHalt     = 150
	NumSlots     = 152
)

// RunState says whether a wave can run.
type RunState uint32

const (
	Running RunState = iota
	Ended            // executed s_endpgm
	Trapped          // executed s_trap; stepping resumes after it
	Halted           // s_sethalt 1; stepping resumes after it
	Faulted          // a memory fault stopped the wave
)

func (s RunState) String() string {
	switch s {
	case Running:
		return "running"
	case Ended:
		return "ended"
	case Trapped:
		return "trapped"
	case Halted:
		return "halted"
	case Faulted:
		return "faulted"
	}
	return "unknown"
}

// Wave is the state of one wave64.
type Wave struct {
	M      *Env
	Target isa.Target
	Code   []Instr

	S [NumSlots]uint32
	// v is the VGPR file; a compiled VGPR operand's index is below 256,
	// so the fast paths index it as uint8(reg), without a bounds check
	V [256][64]uint32

	Pend  []PendingOp // in flight, in issue order
	PendS [128]uint8  // in-flight writes per scalar code
	Npend int         // scalar codes with a pending write

	Cache ScalarCache

	JOn bool // journal the current step
	J   journal

	Fe     Fenv          // the VALU lane context, reused
	Tmp    [8][64]uint32 // scratch registers of the fast kernels
	CurIdx int           // the index of the instruction being executed
}

func (w *Wave) sgprCount() int { return 102 }

// TtmpCode returns the scalar code of ttmp n.
func (w *Wave) TtmpCode(n int) int {
	if w.Target == isa.GFX8 {
		return CodeTTMP8 + n
	}
	return CodeTTMP9 + n
}

func (w *Wave) TtmpCount() int {
	if w.Target == isa.GFX8 {
		return 12
	}
	return 16
}

func (w *Wave) Pc() int         { return int(w.S[SlotPC]) }
func (w *Wave) Clock() uint64   { return uint64(w.S[SlotClock]) | uint64(w.S[SlotClock+1])<<32 }
func (w *Wave) Exec() uint64    { return uint64(w.S[CodeExec]) | uint64(w.S[CodeExec+1])<<32 }
func (w *Wave) Vcc() uint64     { return uint64(w.S[CodeVCC]) | uint64(w.S[CodeVCC+1])<<32 }
func (w *Wave) Scc() bool       { return w.S[SlotSCC] != 0 }
func (w *Wave) mode() uint32    { return w.S[SlotMode] }
func (w *Wave) State() RunState { return RunState(w.S[SlotStatus]) }
func (w *Wave) Get64(i int) uint64 {
	return uint64(w.S[i]) | uint64(w.S[i+1])<<32
}

// Ws writes slot i, journaling the old value.
func (w *Wave) Ws(i int, v uint32) {
	if w.JOn {
		w.wsJournal(i, v)
		return
	}
	w.S[i] = v
}

// wsJournal is ws with the journal on: it records the write unless it
// leaves the slot as it was.
func (w *Wave) wsJournal(i int, v uint32) {
	old := w.S[i]
	if old == v {
		return
	}
	w.J.S = append(w.J.S, sEnt{Idx: uint16(i), Old: old, New: v})
	w.S[i] = v
}

func (w *Wave) Ws64(i int, v uint64) {
	if w.JOn {
		w.wsJournal(i, uint32(v))
		w.wsJournal(i+1, uint32(v>>32))
		return
	}
	w.S[i], w.S[i+1] = uint32(v), uint32(v>>32)
}

func (w *Wave) SetSCC(b bool) {
	if b {
		w.Ws(SlotSCC, 1)
	} else {
		w.Ws(SlotSCC, 0)
	}
}

func (w *Wave) SetClock(c uint64) { w.Ws64(SlotClock, c) }

// Rs reads scalar code i as an instruction source, recording a hazard if a
// load into it is still in flight.
func (w *Wave) Rs(i int) uint32 {
	if w.JOn { // only journaled steps record hazards
		w.readHazard(i)
	}
	return w.S[i]
}

// readHazard records a hazard when scalar code i has a load into it in
// flight.
func (w *Wave) readHazard(i int) {
	if w.Npend > 0 && i < 128 && w.PendS[i] > 0 {
		w.hazard(i)
	}
}

func (w *Wave) Rs64(i int) uint64 {
	if w.JOn {
		w.readHazard(i)
		w.readHazard(i + 1)
	}
	return uint64(w.S[i]) | uint64(w.S[i+1])<<32
}

// Wv writes the lanes of VGPR r selected by mask from vals.
func (w *Wave) Wv(r int, mask uint64, vals *[64]uint32) {
	if mask == 0 || r < 0 || r > 255 {
		return
	}
	dst := &w.V[r]
	if w.JOn {
		w.J.V = append(w.J.V, vEnt{Reg: uint16(r), Mask: mask, Old: *dst})
	}
	switch {
	case mask == ^uint64(0):
		*dst = *vals
	case mask&(mask+1) == 0: // lanes 0 to n-1
		n := LiveLanes(mask)
		copy(dst[:n], vals[:n])
	case bits.OnesCount64(mask) > 64-len(holeBuf{}):
		copyExcept(dst, vals, ^mask)
	case blendCheaper(mask):
		simd.Select(dst, dst, vals, mask, LiveLanes(mask))
	default:
		for m := mask; m != 0; m &= m - 1 {
			l := Tz(m)
			dst[l] = vals[l]
		}
	}
}

// WvAll is wv for every lane of VGPR r (0 to 255): unjournaled, a copy in
// YMM moves.
func (w *Wave) WvAll(r int, vals *[64]uint32) {
	if w.JOn {
		w.Wv(r, ^uint64(0), vals)
		return
	}
	simd.MoveRow(&w.V[uint8(r)], vals)
}

// blendCheaper reports whether wv should write a sparse mask's lanes by
// blending the quads up to the highest one (simd.Select, v_cndmask's row)
// rather than lane by lane: when the mask
// has more lanes than that many quads and a few more (the lane loop's
// mispredicted exit), as in a 16-lane wave's branches.
func blendCheaper(mask uint64) bool {
	return bits.OnesCount64(mask) > Nquads(LiveLanes(mask))+4
}

// holeBuf holds the lanes copyExcept keeps: a lane-by-lane copy is the
// cheaper one up to about 40 lanes.
type holeBuf [24]uint32

// copyExcept copies vals into dst except the lanes in holes (at most
// len(holeBuf)): it saves them, copies the whole register and puts them
// back.
func copyExcept(dst, vals *[64]uint32, holes uint64) {
	var keep holeBuf
	i := 0
	for m := holes; m != 0; m &= m - 1 {
		keep[i] = dst[Tz(m)]
		i++
	}
	*dst = *vals
	i = 0
	for m := holes; m != 0; m &= m - 1 {
		dst[Tz(m)] = keep[i]
		i++
	}
}

// WvLane writes one lane of VGPR r.
func (w *Wave) WvLane(r, lane int, v uint32) {
	if r < 0 || r > 255 {
		return
	}
	if w.JOn {
		w.J.V = append(w.J.V, vEnt{Reg: uint16(r), Mask: 1 << uint(lane), Old: w.V[r]})
	}
	w.V[r][lane] = v
}

// ModeGPRIdxEn is MODE.GPR_IDX_EN (GFX9 VGPR indexing, s_set_gpr_idx_on).
const ModeGPRIdxEn = 1 << 27

// StatusReg assembles the STATUS hardware register: SCC [0], EXECZ [9],
// VCCZ [10], HALT [13], TRAP [14], VALID [16].
func (w *Wave) StatusReg() uint32 {
	var v uint32 = 1 << 16
	if w.Scc() {
		v |= 1
	}
	if w.Exec() == 0 {
		v |= 1 << 9
	}
	if w.Vcc() == 0 {
		v |= 1 << 10
	}
	if w.S[SlotHalt] != 0 || w.State() == Halted {
		v |= 1 << 13
	}
	if w.State() == Trapped {
		v |= 1 << 14
	}
	return v
}

package emu

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
	codeFlatScratch = 102
	codeXnackMask   = 104
	codeVCC         = 106
	codeTBA         = 108 // GFX8 only; GFX9 keeps TBA/TMA in slotTBA
	codeTMA         = 110
	codeTTMP8       = 112 // GFX8 ttmp0
	codeTTMP9       = 108 // GFX9 ttmp0
	codeM0          = 124
	codeExec        = 126

	slotSCC      = 128
	slotPC       = 129 // instruction index
	slotClock    = 130 // two slots
	slotStatus   = 132 // RunState
	slotMode     = 133
	slotTrapSts  = 134
	slotHWID     = 135
	slotGPRAlloc = 136
	slotLDSAlloc = 137
	slotIBSts    = 138
	slotTBA      = 139 // GFX9: TBA lo/hi, TMA lo/hi (4 slots)
	slotRetired  = 143 // two slots
	slotUse      = 145 // cache LRU clock, two slots
	slotOpID     = 147 // next in-flight op id, two slots
	slotSkip     = 149 // pending s_nop/s_sleep bookkeeping (unused)
	slotHalt     = 150
	numSlots     = 152
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
	m      *env
	target isa.Target
	code   []instr

	s [numSlots]uint32
	// v is the VGPR file; a compiled VGPR operand's index is below 256,
	// so the fast paths index it as uint8(reg), without a bounds check
	v [256][64]uint32

	pend  []pendingOp // in flight, in issue order
	pendS [128]uint8  // in-flight writes per scalar code
	npend int         // scalar codes with a pending write

	cache scalarCache

	jOn bool // journal the current step
	j   journal

	fe     fenv          // the VALU lane context, reused
	tmp    [8][64]uint32 // scratch registers of the fast kernels
	curIdx int           // the index of the instruction being executed
}

func (w *Wave) sgprCount() int { return 102 }

// ttmpCode returns the scalar code of ttmp n.
func (w *Wave) ttmpCode(n int) int {
	if w.target == isa.GFX8 {
		return codeTTMP8 + n
	}
	return codeTTMP9 + n
}

func (w *Wave) ttmpCount() int {
	if w.target == isa.GFX8 {
		return 12
	}
	return 16
}

func (w *Wave) pc() int         { return int(w.s[slotPC]) }
func (w *Wave) clock() uint64   { return uint64(w.s[slotClock]) | uint64(w.s[slotClock+1])<<32 }
func (w *Wave) exec() uint64    { return uint64(w.s[codeExec]) | uint64(w.s[codeExec+1])<<32 }
func (w *Wave) vcc() uint64     { return uint64(w.s[codeVCC]) | uint64(w.s[codeVCC+1])<<32 }
func (w *Wave) scc() bool       { return w.s[slotSCC] != 0 }
func (w *Wave) mode() uint32    { return w.s[slotMode] }
func (w *Wave) state() RunState { return RunState(w.s[slotStatus]) }
func (w *Wave) get64(i int) uint64 {
	return uint64(w.s[i]) | uint64(w.s[i+1])<<32
}

// ws writes slot i, journaling the old value.
func (w *Wave) ws(i int, v uint32) {
	if w.jOn {
		w.wsJournal(i, v)
		return
	}
	w.s[i] = v
}

// wsJournal is ws with the journal on: it records the write unless it
// leaves the slot as it was.
func (w *Wave) wsJournal(i int, v uint32) {
	old := w.s[i]
	if old == v {
		return
	}
	w.j.s = append(w.j.s, sEnt{idx: uint16(i), old: old, new: v})
	w.s[i] = v
}

func (w *Wave) ws64(i int, v uint64) {
	if w.jOn {
		w.wsJournal(i, uint32(v))
		w.wsJournal(i+1, uint32(v>>32))
		return
	}
	w.s[i], w.s[i+1] = uint32(v), uint32(v>>32)
}

func (w *Wave) setSCC(b bool) {
	if b {
		w.ws(slotSCC, 1)
	} else {
		w.ws(slotSCC, 0)
	}
}

func (w *Wave) setClock(c uint64) { w.ws64(slotClock, c) }

// rs reads scalar code i as an instruction source, recording a hazard if a
// load into it is still in flight.
func (w *Wave) rs(i int) uint32 {
	if w.jOn { // only journaled steps record hazards
		w.readHazard(i)
	}
	return w.s[i]
}

// readHazard records a hazard when scalar code i has a load into it in
// flight.
func (w *Wave) readHazard(i int) {
	if w.npend > 0 && i < 128 && w.pendS[i] > 0 {
		w.hazard(i)
	}
}

func (w *Wave) rs64(i int) uint64 {
	if w.jOn {
		w.readHazard(i)
		w.readHazard(i + 1)
	}
	return uint64(w.s[i]) | uint64(w.s[i+1])<<32
}

// wv writes the lanes of VGPR r selected by mask from vals.
func (w *Wave) wv(r int, mask uint64, vals *[64]uint32) {
	if mask == 0 || r < 0 || r > 255 {
		return
	}
	dst := &w.v[r]
	if w.jOn {
		w.j.v = append(w.j.v, vEnt{reg: uint16(r), mask: mask, old: *dst})
	}
	switch {
	case mask == ^uint64(0):
		*dst = *vals
	case mask&(mask+1) == 0: // lanes 0 to n-1
		n := liveLanes(mask)
		copy(dst[:n], vals[:n])
	case bits.OnesCount64(mask) > 64-len(holeBuf{}):
		copyExcept(dst, vals, ^mask)
	case blendCheaper(mask):
		simd.Select(dst, dst, vals, mask, liveLanes(mask))
	default:
		for m := mask; m != 0; m &= m - 1 {
			l := tz(m)
			dst[l] = vals[l]
		}
	}
}

// wvAll is wv for every lane of VGPR r (0 to 255): unjournaled, a copy in
// YMM moves.
func (w *Wave) wvAll(r int, vals *[64]uint32) {
	if w.jOn {
		w.wv(r, ^uint64(0), vals)
		return
	}
	simd.MoveRow(&w.v[uint8(r)], vals)
}

// blendCheaper reports whether wv should write a sparse mask's lanes by
// blending the quads up to the highest one (simd.Select, v_cndmask's row)
// rather than lane by lane: when the mask
// has more lanes than that many quads and a few more (the lane loop's
// mispredicted exit), as in a 16-lane wave's branches.
func blendCheaper(mask uint64) bool {
	return bits.OnesCount64(mask) > nquads(liveLanes(mask))+4
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
		keep[i] = dst[tz(m)]
		i++
	}
	*dst = *vals
	i = 0
	for m := holes; m != 0; m &= m - 1 {
		dst[tz(m)] = keep[i]
		i++
	}
}

// wvLane writes one lane of VGPR r.
func (w *Wave) wvLane(r, lane int, v uint32) {
	if r < 0 || r > 255 {
		return
	}
	if w.jOn {
		w.j.v = append(w.j.v, vEnt{reg: uint16(r), mask: 1 << uint(lane), old: w.v[r]})
	}
	w.v[r][lane] = v
}

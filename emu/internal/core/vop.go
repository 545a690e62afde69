package core

import "math/bits"

// Fenv is the per-instruction context of a lane function: the MODE
// settings for the operation's float type, and per-lane carry bits.
type Fenv struct {
	Rm    int  // rounding mode for the op's type
	Din   bool // keep input denormals
	Dout  bool // keep output denormals
	Ieee  bool
	Dx10  bool
	Lane  int
	Carry uint64 // carry/borrow in (0 or 1) for this lane
	Cout  uint64 // carry/borrow out (0 or 1), or the lane's VCC bit
	W     *Wave
	Clamp bool // integer clamp (saturation) requested
	Live  int  // whole-register kernels compute lanes 0 to live-1 only
	// mode and ft are the MODE and float type fenvFor built rm, din,
	// dout, ieee and dx10 from (ft 0 once they may differ: Reset,
	// mixedTypes), so that fenvCached can reuse them.
	Mode uint32
	Ft   uint8
}

// LaneFn computes one lane: sources as 64-bit values (32-bit sources
// zero-extended), result of the op's destination width.
type LaneFn func(e *Fenv, a, b, c uint64) uint64

// Vop describes a vector ALU operation.
type Vop struct {
	Fn   LaneFn
	Nsrc uint8
	SrcW [3]uint8 // source widths in dwords
	DstW uint8
	Ft   uint8 // float type of the sources for abs/neg/denormals: 0, 16, 32, 64
	Oft  uint8 // float type of the result for clamp/omod/denormals (0: integer)
	Cout bool  // writes a carry/VCC mask (second destination or VCC)
	Cin  bool  // reads a carry mask (last source or VCC)
	Mac  bool  // the destination is also the addend (v_mac_*)
	Nofl bool  // no input-denormal flushing (moves and selects)
	Isrc uint8 // bit k: source k is an integer (no float modifiers)
}

// Fast kernels: whole-register loops for the common VALU operations when
// the instruction has no SDWA, DPP, modifiers or 64-bit operands and (for
// floats) MODE rounds to nearest even. They compute lanes 0 to e.live-1,
// and may compute the rest of the quad of lanes holding lane e.live-1
// (the commonest integer kernels run a quad a step); the write keeps only
// the EXEC lanes. Results equal the lane functions'.

type Kernel func(e *Fenv, d, a, b, c *[64]uint32)

// LiveLanes is the number of lanes a kernel computes under mask: those
// past the highest EXEC lane are inactive.
func LiveLanes(mask uint64) int { return bits.Len64(mask) }

// Nquads is the number of quads holding lanes 0 to n-1.
func Nquads(n int) int { return (n + 3) >> 2 }

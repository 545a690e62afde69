package emu

import (
	"math/bits"
	"unsafe"

	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/isa"
)

// Whole-register forms of the carry adds and subtracts, the 64-bit integer
// operations and v_cndmask_b32. Each computes every lane and writes the
// EXEC lanes, with results (carry masks included) equal to execVOP's;
// TestFastMatchesGeneric runs each against execVOP on random states.
// Instructions with SDWA, DPP, clamp, output modifiers or GPR indexing
// (checked when executed) take the generic path.

// plainVOP reports whether inst has none of SDWA, DPP, clamp and omod.
func plainVOP(inst *isa.Inst) bool {
	return inst.Variant != isa.VariantSDWA && inst.Variant != isa.VariantDPP && !inst.Mods.Clamp && inst.Mods.Omod == 0
}

// gprIdx reports whether MODE.GPR_IDX_EN is set (s_set_gpr_idx_on).
func (w *Wave) gprIdx() bool { return w.s[slotMode]>>27&1 != 0 }

// dstLanes returns the register a kernel that writes lanes 0 to n-1 only
// computes VGPR r's new value into: r itself when those are exactly the
// EXEC lanes, else scratch, which dstPut then copies back
// under mask.
func (w *Wave) dstLanes(r int, mask uint64, n int, scratch *[64]uint32) *[64]uint32 {
	if mask != 0 && mask == lowLanes(n) {
		return &w.v[uint8(r)]
	}
	return scratch
}

// dstQuads is dstLanes for a kernel that computes the quads holding the
// lanes up to the highest in mask: r itself also when mask is exactly the
// lanes of whole quads (a 16-lane wave's EXEC). r is a VGPR, below 256
// (uint8 spares the bounds checks).
func (w *Wave) dstQuads(r int, mask uint64, scratch *[64]uint32) *[64]uint32 {
	// mask+1 is then 2^(4k) (0 for a full EXEC): a nibble's low bit
	if p := mask + 1; mask == 0 || p&mask != 0 || p&0xEEEEEEEEEEEEEEEE != 0 {
		return scratch
	}
	return &w.v[uint8(r)]
}

// lowLanes is the mask of lanes 0 to n-1.
func lowLanes(n int) uint64 { return 1<<uint(n) - 1 }

// liveLanes is the number of lanes a kernel computes under mask: those
// past the highest EXEC lane are inactive.
func liveLanes(mask uint64) int { return bits.Len64(mask) }

// pairSteps is the number of steps a loop running lanes l and l+32 side
// by side needs to cover lanes 0 to n-1; a mask it builds from the top
// ends up in place after pairDown.
func pairSteps(n int) int { return min(n, 32) }

// pairDown moves the halves lo and hi of a mask built in h steps of a
// side-by-side loop to lanes 0 and 32.
func pairDown(lo, hi uint64, h int) uint64 {
	return lo>>uint(32-h) | hi>>uint(32-h)<<32
}

func (w *Wave) dstPut(r int, mask uint64, d *[64]uint32) {
	if d != &w.v[uint8(r)] {
		w.wv(r, mask, d)
	}
}

// fill sets every lane of buf to x (lanes.Fill: a YMM store a block of
// eight lanes).
func fill(buf *[64]uint32, x uint32) *[64]uint32 { return fillLanes(buf, x, 64) }

// fillLanes is fill for lanes 0 to n-1 and the rest of their block of
// eight.
func fillLanes(buf *[64]uint32, x uint32, n int) *[64]uint32 {
	simd.Fill(buf, x, n)
	return buf
}

// blockLanes is n rounded up to a whole block of eight lanes.
func blockLanes(n int) int { return (n + 7) &^ 7 }

// src64 returns 64-bit source k as its low and high halves: the VGPR pair
// itself, or lo and hi filled with a uniform value.
func (w *Wave) src64(in *instr, k int, lo, hi *[64]uint32) (*[64]uint32, *[64]uint32) {
	return w.src64Lanes(in, k, lo, hi, 64)
}

// src64Lanes is src64 for a kernel that reads lanes 0 to n-1 (and the
// rest of their block of eight), as srcLanes is src32's.
func (w *Wave) src64Lanes(in *instr, k int, lo, hi *[64]uint32, n int) (*[64]uint32, *[64]uint32) {
	o := &in.src[k]
	switch {
	case o.kind == okV:
		return &w.v[o.reg], &w.v[o.reg+1]
	case o.kind == okConst && in.cf != nil:
		return &in.cf[2*k], &in.cf[2*k+1]
	}
	x := w.sv64(o)
	return fillLanes(lo, uint32(x), n), fillLanes(hi, uint32(x>>32), n)
}

// srcQ is src32 for a kernel that reads the quads holding lanes 0 to n-1
// and has no v_mac accumulator.
func (w *Wave) srcQ(in *instr, k int, buf *[64]uint32, n int) *[64]uint32 {
	if o := &in.src[k]; o.kind == okV {
		return &w.v[uint8(o.reg)]
	}
	return w.srcLanes(in, k, buf, n)
}

// setMask writes a carry or compare mask to the instruction's SGPR-pair
// destination k, or to VCC when it has none: it stores the two SGPRs
// itself, as sd64 and ws64 would in an unjournaled step.
func (w *Wave) setMask(in *instr, k int, m uint64) {
	i := codeVCC
	if d := &in.dst[k]; int(in.ndst) > k && d.kind != okNone {
		if d.kind != okS || d.reg >= 127 {
			return // (sd64 writes nothing)
		}
		i = int(d.reg)
	}
	w.s[i], w.s[i+1] = uint32(m), uint32(m>>32)
}

// carryIn is the carry mask of v_addc/v_subb: the last source, or VCC.
func (w *Wave) carryIn(in *instr) uint64 {
	if k := int(in.nsrc) - 1; k >= 0 && in.src[k].kind != okV {
		return w.maskIn(&in.src[k])
	}
	return w.vcc()
}

// maskIn is sv64 for a lane-mask source: an SGPR pair is read directly
// (rs records hazards only in journaled steps, which fast forms never
// run).
func (w *Wave) maskIn(o *operand) uint64 {
	if o.kind == okS && o.reg < 127 {
		return uint64(w.s[o.reg]) | uint64(w.s[o.reg+1])<<32
	}
	return w.sv64(o)
}

// carryKernels are the carry-writing adds and subtracts (GFX8's v_add_u32
// … compile to the same operations).
var carryKernels = map[string]execFn{
	"v_add_co_u32": execAddCo, "v_sub_co_u32": execSubCo, "v_subrev_co_u32": execSubrevCo,
	"v_addc_co_u32": execAddcCo, "v_subb_co_u32": execSubbCo, "v_subbrev_co_u32": execSubbrevCo,
}

// carryEligible reports whether a carry operation can use its kernel: no
// SDWA, DPP, clamp or source modifiers and a VGPR destination.
func carryEligible(in *instr, inst *isa.Inst, cin bool) bool {
	if !plainVOP(inst) {
		return false
	}
	n := 2
	if cin {
		n = 3
	}
	if int(in.nsrc) < n || in.dst[0].kind != okV {
		return false
	}
	for k := 0; k < 2; k++ {
		if o := &in.src[k]; o.neg || o.abs || o.sext {
			return false
		}
	}
	return true
}

// carryOp runs a carry kernel: addLanes, or subLanes when sub, computes D
// and the carry-out of every lane from a, b and the carry-in mask; the
// common forms of address arithmetic have their own loops.
func carryOp(w *Wave, in *instr, rev, cin, sub bool) error {
	if w.gprIdx() {
		return execVOP(w, in)
	}
	t := &w.tmp
	var cm uint64
	if cin {
		cm = w.carryIn(in)
	}
	mask := w.exec()
	n := liveLanes(mask)
	r := int(in.dst[0].reg)
	d := w.dstQuads(r, mask, &t[3])
	var co uint64
	switch {
	case !sub && zeroConst(&in.src[0]): // v_addc_co_u32 d, 0, b: the high half of a 64-bit add
		co = incLanes(d, w.srcQ(in, 1, &t[1], n), cm, n)
	case !sub && cm == 0 && in.src[0].kind != okV: // an SGPR or constant base plus an offset
		co = addUniform0(d, w.sv(&in.src[0]), w.srcQ(in, 1, &t[1], n), n)
	default:
		a, b := w.srcQ(in, 0, &t[0], n), w.srcQ(in, 1, &t[1], n)
		if rev {
			a, b = b, a
		}
		if sub {
			co = subLanes(d, a, b, cm, n)
		} else {
			co = addLanes(d, a, b, cm, n)
		}
	}
	w.dstPut(r, mask, d)
	w.setMask(in, 1, co&mask)
	return nil
}

// The carry loops (package lanes, AVX2 with a Go definition) compute every
// lane of the quads (four consecutive lanes) holding lanes 0 to n-1, past
// n when n is not a multiple of 4: their D is scratch (dstQuads) unless
// EXEC is exactly the lanes of whole quads, and the caller masks the
// carries. The Go loops here that build a mask a quad a step shift each
// step's four bits in at the top (m = m>>4 | q<<60); quadDown then moves
// lane l's bit to bit l.

// quads views a register as 16 quads of lanes.
func quads(r *[64]uint32) *[16][4]uint32 { return (*[16][4]uint32)(unsafe.Pointer(r)) }

// nquads is the number of quads holding lanes 0 to n-1.
func nquads(n int) int { return (n + 3) >> 2 }

// quad packs four carry bits (each 0 or 1) into a nibble. The bits do not
// overlap, so adding them is or-ing them, in three LEAs.
func quad(c0, c1, c2, c3 uint64) uint64 { return (c0 + c1*2) + (c2+c3*2)*4 }

// quadDown moves a mask built from the top in g steps of a quad down to
// lane 0.
func quadDown(m uint64, g int) uint64 { return m >> uint(64-4*g) }

// addLanes adds with the carries cm in; without carries in (v_add_co, or
// v_addc with VCC zero) the loop is shorter.
func addLanes(d, a, b *[64]uint32, cm uint64, n int) uint64 {
	if cm == 0 {
		return addLanes0(d, a, b, n)
	}
	return simd.AddCarry(d, a, b, cm, n)
}

// addLanes0 is addLanes without carries in.
func addLanes0(d, a, b *[64]uint32, n int) uint64 { return simd.Add(d, a, b, n) }

// subLanes subtracts with the borrows cm in.
func subLanes(d, a, b *[64]uint32, cm uint64, n int) uint64 {
	if cm == 0 {
		return simd.Sub(d, a, b, n)
	}
	return simd.SubBorrow(d, a, b, cm, n)
}

// incLanes adds the carries cm to b: a copy, then an increment of the
// lanes with a carry in (often none). (A vector loop costs more: it
// handles every lane.)
func incLanes(d, b *[64]uint32, cm uint64, n int) uint64 {
	if d != b {
		copy(d[:n], b[:n])
	}
	var co uint64
	for m := cm & lowLanes(n); m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m) & 63
		d[l]++
		if d[l] == 0 {
			co |= 1 << uint(l)
		}
	}
	return co
}

// addUniform0 is the add of an SGPR or constant base x and a VGPR
// offset b.
func addUniform0(d *[64]uint32, x uint32, b *[64]uint32, n int) uint64 {
	return simd.AddUniform(d, x, b, n)
}

func execAddCo(w *Wave, in *instr) error     { return carryOp(w, in, false, false, false) }
func execSubCo(w *Wave, in *instr) error     { return carryOp(w, in, false, false, true) }
func execSubrevCo(w *Wave, in *instr) error  { return carryOp(w, in, true, false, true) }
func execAddcCo(w *Wave, in *instr) error    { return carryOp(w, in, false, true, false) }
func execSubbCo(w *Wave, in *instr) error    { return carryOp(w, in, false, true, true) }
func execSubbrevCo(w *Wave, in *instr) error { return carryOp(w, in, true, true, true) }

// execCndFast is v_cndmask_b32 without modifiers: D = mask[lane] ? S1 : S0.
// The mask is carryIn's, as in execVOP: a VGPR there reads VCC.
func execCndFast(w *Wave, in *instr) error {
	if in.nsrc < 3 || w.gprIdx() {
		return execVOP(w, in)
	}
	t := &w.tmp
	m := w.carryIn(in)
	mask := w.exec()
	n := liveLanes(mask)
	a, b := w.srcQ(in, 0, &t[0], n), w.srcQ(in, 1, &t[1], n)
	r := int(in.dst[0].reg)
	d := w.dstQuads(r, mask, &t[3])
	simd.Select(d, a, b, m, n)
	w.dstPut(r, mask, d)
	return nil
}

// pairs views a register as 16 quads of lanes, each two uint64s (lanes
// 4i and 4i+1, then 4i+2 and 4i+3, the first lane in the low half).
// Registers are 8-byte aligned (Wave.v, Wave.tmp, instr.cf; checkptr
// does not check the alignment of a pointer-free element type, but x86
// does not mind).
func pairs(r *[64]uint32) *[16][2]uint64 { return (*[16][2]uint64)(unsafe.Pointer(r)) }

// 64-bit integer kernels: shifts (S0 the amount, S1 the 64-bit value) and
// v_mad_u64_u32/v_mad_i64_i32 (S0×S1 + S2 with a carry-out mask).

const (
	k64Lshl = iota
	k64Lshr
	k64Ashr
	k64MadU
	k64MadI
)

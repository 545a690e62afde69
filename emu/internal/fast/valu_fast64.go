package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
	"math/bits"
	"unsafe"
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
func gprIdx(w *core.Wave) bool { return w.S[core.SlotMode]>>27&1 != 0 }

// dstLanes returns the register a kernel that writes lanes 0 to n-1 only
// computes VGPR r's new value into: r itself when those are exactly the
// EXEC lanes, else scratch, which dstPut then copies back
// under mask.
func dstLanes(w *core.Wave, r int, mask uint64, n int, scratch *[64]uint32) *[64]uint32 {
	if mask != 0 && mask == LowLanes(n) {
		return &w.V[uint8(r)]
	}
	return scratch
}

// dstQuads is dstLanes for a kernel that computes the quads holding the
// lanes up to the highest in mask: r itself also when mask is exactly the
// lanes of whole quads (a 16-lane wave's EXEC). r is a VGPR, below 256
// (uint8 spares the bounds checks).
func dstQuads(w *core.Wave, r int, mask uint64, scratch *[64]uint32) *[64]uint32 {
	// mask+1 is then 2^(4k) (0 for a full EXEC): a nibble's low bit
	if p := mask + 1; mask == 0 || p&mask != 0 || p&0xEEEEEEEEEEEEEEEE != 0 {
		return scratch
	}
	return &w.V[uint8(r)]
}

// LowLanes is the mask of lanes 0 to n-1.
func LowLanes(n int) uint64 { return 1<<uint(n) - 1 }

// pairSteps is the number of steps a loop running lanes l and l+32 side
// by side needs to cover lanes 0 to n-1; a mask it builds from the top
// ends up in place after pairDown.
func pairSteps(n int) int { return min(n, 32) }

// pairDown moves the halves lo and hi of a mask built in h steps of a
// side-by-side loop to lanes 0 and 32.
func pairDown(lo, hi uint64, h int) uint64 {
	return lo>>uint(32-h) | hi>>uint(32-h)<<32
}

func dstPut(w *core.Wave, r int, mask uint64, d *[64]uint32) {
	if d != &w.V[uint8(r)] {
		w.Wv(r, mask, d)
	}
}

// Fill sets every lane of buf to x (lanes.Fill: a YMM store a block of
// eight lanes).
func Fill(buf *[64]uint32, x uint32) *[64]uint32 { return fillLanes(buf, x, 64) }

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
func src64(w *core.Wave, in *core.Instr, k int, lo, hi *[64]uint32) (*[64]uint32, *[64]uint32) {
	return src64Lanes(w, in, k, lo, hi, 64)
}

// src64Lanes is src64 for a kernel that reads lanes 0 to n-1 (and the
// rest of their block of eight), as srcLanes is src32's.
func src64Lanes(w *core.Wave, in *core.Instr, k int, lo, hi *[64]uint32, n int) (*[64]uint32, *[64]uint32) {
	o := &in.Src[k]
	switch {
	case o.Kind == core.OkV:
		return &w.V[o.Reg], &w.V[o.Reg+1]
	case o.Kind == core.OkConst && in.Cf != nil:
		return &in.Cf[2*k], &in.Cf[2*k+1]
	}
	x := w.Sv64(o)
	return fillLanes(lo, uint32(x), n), fillLanes(hi, uint32(x>>32), n)
}

// srcQ is src32 for a kernel that reads the quads holding lanes 0 to n-1
// and has no v_mac accumulator.
func srcQ(w *core.Wave, in *core.Instr, k int, buf *[64]uint32, n int) *[64]uint32 {
	if o := &in.Src[k]; o.Kind == core.OkV {
		return &w.V[uint8(o.Reg)]
	}
	return srcLanes(w, in, k, buf, n)
}

// setMask writes a carry or compare mask to the instruction's SGPR-pair
// destination k, or to VCC when it has none: it stores the two SGPRs
// itself, as sd64 and ws64 would in an unjournaled step.
func setMask(w *core.Wave, in *core.Instr, k int, m uint64) {
	i := core.CodeVCC
	if d := &in.Dst[k]; int(in.Ndst) > k && d.Kind != core.OkNone {
		if d.Kind != core.OkS || d.Reg >= 127 {
			return // (sd64 writes nothing)
		}
		i = int(d.Reg)
	}
	w.S[i], w.S[i+1] = uint32(m), uint32(m>>32)
}

// carryIn is the carry mask of v_addc/v_subb: the last source, or VCC.
func carryIn(w *core.Wave, in *core.Instr) uint64 {
	if k := int(in.Nsrc) - 1; k >= 0 && in.Src[k].Kind != core.OkV {
		return maskIn(w, &in.Src[k])
	}
	return w.Vcc()
}

// maskIn is sv64 for a lane-mask source: an SGPR pair is read directly
// (rs records hazards only in journaled steps, which fast forms never
// run).
func maskIn(w *core.Wave, o *core.Operand) uint64 {
	if o.Kind == core.OkS && o.Reg < 127 {
		return uint64(w.S[o.Reg]) | uint64(w.S[o.Reg+1])<<32
	}
	return w.Sv64(o)
}

// carryKernels are the carry-writing adds and subtracts (GFX8's v_add_u32
// … compile to the same operations).
var carryKernels = map[string]core.ExecFn{
	"v_add_co_u32": execAddCo, "v_sub_co_u32": execSubCo, "v_subrev_co_u32": execSubrevCo,
	"v_addc_co_u32": execAddcCo, "v_subb_co_u32": execSubbCo, "v_subbrev_co_u32": execSubbrevCo,
}

// carryEligible reports whether a carry operation can use its kernel: no
// SDWA, DPP, clamp or source modifiers and a VGPR destination.
func carryEligible(in *core.Instr, inst *isa.Inst, cin bool) bool {
	if !plainVOP(inst) {
		return false
	}
	n := 2
	if cin {
		n = 3
	}
	if int(in.Nsrc) < n || in.Dst[0].Kind != core.OkV {
		return false
	}
	for k := 0; k < 2; k++ {
		if o := &in.Src[k]; o.Neg || o.Abs || o.Sext {
			return false
		}
	}
	return true
}

// carryOp runs a carry kernel: addLanes, or subLanes when sub, computes D
// and the carry-out of every lane from a, b and the carry-in mask; the
// common forms of address arithmetic have their own loops.
func carryOp(w *core.Wave, in *core.Instr, rev, cin, sub bool) error {
	if gprIdx(w) {
		return ref.ExecVOP(w, in)
	}
	t := &w.Tmp
	var cm uint64
	if cin {
		cm = carryIn(w, in)
	}
	mask := w.Exec()
	n := core.LiveLanes(mask)
	r := int(in.Dst[0].Reg)
	d := dstQuads(w, r, mask, &t[3])
	var co uint64
	switch {
	case !sub && zeroConst(&in.Src[0]): // v_addc_co_u32 d, 0, b: the high half of a 64-bit add
		co = incLanes(d, srcQ(w, in, 1, &t[1], n), cm, n)
	case !sub && cm == 0 && in.Src[0].Kind != core.OkV: // an SGPR or constant base plus an offset
		co = AddUniform0(d, w.Sv(&in.Src[0]), srcQ(w, in, 1, &t[1], n), n)
	default:
		a, b := srcQ(w, in, 0, &t[0], n), srcQ(w, in, 1, &t[1], n)
		if rev {
			a, b = b, a
		}
		if sub {
			co = SubLanes(d, a, b, cm, n)
		} else {
			co = AddLanes(d, a, b, cm, n)
		}
	}
	dstPut(w, r, mask, d)
	setMask(w, in, 1, co&mask)
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

// quad packs four carry bits (each 0 or 1) into a nibble. The bits do not
// overlap, so adding them is or-ing them, in three LEAs.
func quad(c0, c1, c2, c3 uint64) uint64 { return (c0 + c1*2) + (c2+c3*2)*4 }

// quadDown moves a mask built from the top in g steps of a quad down to
// lane 0.
func quadDown(m uint64, g int) uint64 { return m >> uint(64-4*g) }

// AddLanes adds with the carries cm in; without carries in (v_add_co, or
// v_addc with VCC zero) the loop is shorter.
func AddLanes(d, a, b *[64]uint32, cm uint64, n int) uint64 {
	if cm == 0 {
		return AddLanes0(d, a, b, n)
	}
	return simd.AddCarry(d, a, b, cm, n)
}

// AddLanes0 is addLanes without carries in.
func AddLanes0(d, a, b *[64]uint32, n int) uint64 { return simd.Add(d, a, b, n) }

// SubLanes subtracts with the borrows cm in.
func SubLanes(d, a, b *[64]uint32, cm uint64, n int) uint64 {
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
	for m := cm & LowLanes(n); m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m) & 63
		d[l]++
		if d[l] == 0 {
			co |= 1 << uint(l)
		}
	}
	return co
}

// AddUniform0 is the add of an SGPR or constant base x and a VGPR
// offset b.
func AddUniform0(d *[64]uint32, x uint32, b *[64]uint32, n int) uint64 {
	return simd.AddUniform(d, x, b, n)
}

func execAddCo(w *core.Wave, in *core.Instr) error     { return carryOp(w, in, false, false, false) }
func execSubCo(w *core.Wave, in *core.Instr) error     { return carryOp(w, in, false, false, true) }
func execSubrevCo(w *core.Wave, in *core.Instr) error  { return carryOp(w, in, true, false, true) }
func execAddcCo(w *core.Wave, in *core.Instr) error    { return carryOp(w, in, false, true, false) }
func execSubbCo(w *core.Wave, in *core.Instr) error    { return carryOp(w, in, false, true, true) }
func execSubbrevCo(w *core.Wave, in *core.Instr) error { return carryOp(w, in, true, true, true) }

// execCndFast is v_cndmask_b32 without modifiers: D = mask[lane] ? S1 : S0.
// The mask is carryIn's, as in execVOP: a VGPR there reads VCC.
func execCndFast(w *core.Wave, in *core.Instr) error {
	if in.Nsrc < 3 || gprIdx(w) {
		return ref.ExecVOP(w, in)
	}
	t := &w.Tmp
	m := carryIn(w, in)
	mask := w.Exec()
	n := core.LiveLanes(mask)
	a, b := srcQ(w, in, 0, &t[0], n), srcQ(w, in, 1, &t[1], n)
	r := int(in.Dst[0].Reg)
	d := dstQuads(w, r, mask, &t[3])
	simd.Select(d, a, b, m, n)
	dstPut(w, r, mask, d)
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

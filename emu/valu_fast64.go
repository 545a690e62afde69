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
// EXEC lanes (journaled first), else scratch, which dstPut then copies back
// under mask.
func (w *Wave) dstLanes(r int, mask uint64, n int, scratch *[64]uint32) *[64]uint32 {
	if mask != 0 && mask == lowLanes(n) {
		if w.jOn {
			w.j.v = append(w.j.v, vEnt{reg: uint16(r), mask: mask, old: w.v[r]})
		}
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
	if w.jOn {
		w.j.v = append(w.j.v, vEnt{reg: uint16(r), mask: mask, old: w.v[uint8(r)]})
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
// destination k, or to VCC when it has none; without the journal it stores
// the two SGPRs itself, as sd64 and ws64 would.
func (w *Wave) setMask(in *instr, k int, m uint64) {
	i := codeVCC
	if d := &in.dst[k]; int(in.ndst) > k && d.kind != okNone {
		if d.kind != okS || d.reg >= 127 {
			return // (sd64 writes nothing)
		}
		i = int(d.reg)
	}
	if w.jOn {
		w.ws64(i, m)
		return
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

// maskIn is sv64 for a lane-mask source: without the journal an SGPR
// pair is read directly (rs records hazards only in journaled steps).
func (w *Wave) maskIn(o *operand) uint64 {
	if o.kind == okS && o.reg < 127 && !w.jOn {
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
func execCndFast(w *Wave, in *instr) error {
	if in.nsrc < 3 || w.gprIdx() {
		return execVOP(w, in)
	}
	t := &w.tmp
	m := w.maskIn(&in.src[2])
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

var kernels64 = map[string]int{
	"v_lshlrev_b64": k64Lshl, "v_lshrrev_b64": k64Lshr, "v_ashrrev_i64": k64Ashr,
	"v_mad_u64_u32": k64MadU, "v_mad_i64_i32": k64MadI,
}

// fast64Eligible: no SDWA, DPP or omod, VGPR destinations and 64-bit VGPR
// operands that are whole pairs (v255 is not).
func fast64Eligible(in *instr, inst *isa.Inst, kind int) bool {
	if inst.Variant == isa.VariantSDWA || inst.Variant == isa.VariantDPP || inst.Mods.Omod != 0 {
		return false
	}
	if in.dst[0].kind != okV || in.dst[0].reg >= 255 {
		return false
	}
	// clamp does not change these in execVOP (oft 0: the lane functions
	// ignore it)
	wide, n := 1, 2 // the 64-bit source, the number of sources
	if kind >= k64MadU {
		wide, n = 2, 3
	}
	if int(in.nsrc) < n {
		return false
	}
	for k := 0; k < n; k++ {
		if o := &in.src[k]; o.sext || k == wide && o.kind == okV && o.reg >= 255 {
			return false
		}
	}
	return true
}

func execShift64(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOP(w, in)
	}
	t := &w.tmp
	mask := w.exec()
	r := int(in.dst[0].reg)
	n := liveLanes(mask)
	a := w.srcQ(in, 0, &t[0], n)
	blo, bhi := w.src64Lanes(in, 1, &t[1], &t[2], n)
	dlo, dhi := w.dstQuads(r, mask, &t[3]), w.dstQuads(r+1, mask, &t[4])
	shift64(in, dlo, dhi, a, blo, bhi, n)
	w.dstPut(r, mask, dlo)
	w.dstPut(r+1, mask, dhi)
	return nil
}

// shift64 runs in's 64-bit shift of the quads holding lanes 0 to n-1. The
// common shift by a constant has a scalar loop of its own; the vector loop
// is faster still.
func shift64(in *instr, dlo, dhi, a, blo, bhi *[64]uint32, n int) {
	if in.sub == k64Lshl && in.src[0].kind == okConst && !simd.SIMD {
		shlConstLanes(dlo, dhi, blo, bhi, uint(in.src[0].val&63), n)
		return
	}
	shift64Quads(dlo, dhi, a, blo, bhi, in.sub, n)
}

// shift64Quads shifts the quads holding lanes 0 to n-1 as kind says
// (k64Lshl, k64Lshr or k64Ashr) by the amounts a. D's rows may be the
// source rows, or one up (v[1:2] = v[0:1] shifted).
func shift64Quads(dlo, dhi, a, blo, bhi *[64]uint32, kind int32, n int) {
	switch kind {
	case k64Lshl:
		simd.ShiftLeft64(dlo, dhi, a, blo, bhi, n)
	case k64Lshr:
		simd.ShiftRight64(dlo, dhi, a, blo, bhi, n)
	default:
		simd.ShiftRightSigned64(dlo, dhi, a, blo, bhi, n)
	}
}

// shlConstLanes shifts lanes 0 to n-1 left by s, a quad of lanes a step
// and the last n%4 lanes one by one (dlo may be the destination register
// itself, whose lanes from n on are not to change).
func shlConstLanes(dlo, dhi, blo, bhi *[64]uint32, s uint, n int) {
	s &= 63
	qlo, qhi, qblo, qbhi := quads(dlo), quads(dhi), quads(blo), quads(bhi)
	for i := range qlo[:n>>2] {
		x, y := &qblo[i], &qbhi[i]
		s0 := (uint64(x[0]) | uint64(y[0])<<32) << s
		s1 := (uint64(x[1]) | uint64(y[1])<<32) << s
		s2 := (uint64(x[2]) | uint64(y[2])<<32) << s
		s3 := (uint64(x[3]) | uint64(y[3])<<32) << s
		qlo[i] = [4]uint32{uint32(s0), uint32(s1), uint32(s2), uint32(s3)}
		qhi[i] = [4]uint32{uint32(s0 >> 32), uint32(s1 >> 32), uint32(s2 >> 32), uint32(s3 >> 32)}
	}
	for l := n &^ 3; l < n; l++ {
		x := (uint64(blo[l&63]) | uint64(bhi[l&63])<<32) << s
		dlo[l&63], dhi[l&63] = uint32(x), uint32(x>>32)
	}
}

func execMad64(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOP(w, in)
	}
	t := &w.tmp
	mask := w.exec()
	n := liveLanes(mask)
	a := w.srcQ(in, 0, &t[0], n)
	r := int(in.dst[0].reg)
	dlo, dhi := w.dstQuads(r, mask, &t[3]), w.dstQuads(r+1, mask, &t[4])
	var co uint64
	switch {
	case in.sub == k64MadU && zeroConst(&in.src[2]): // a plain 32×32→64 multiply
		simd.MulWide(dlo, dhi, a, w.srcQ(in, 1, &t[1], n), n)
	case in.sub == k64MadU && sameLanes(&in.src[1]) && !simd.SIMD: // a factor the same in every lane (the vector loop is faster still)
		clo, chi := w.src64Lanes(in, 2, &t[2], &t[5], n)
		co = madU64Uniform(dlo, dhi, a, clo, chi, w.sv(&in.src[1]), n)
	case in.sub == k64MadU:
		clo, chi := w.src64Lanes(in, 2, &t[2], &t[5], n)
		co = madU64Lanes(dlo, dhi, a, w.srcQ(in, 1, &t[1], n), clo, chi, n)
	default:
		clo, chi := w.src64Lanes(in, 2, &t[2], &t[5], n)
		co = madI64Lanes(dlo, dhi, a, w.srcQ(in, 1, &t[1], n), clo, chi, n)
	}
	w.dstPut(r, mask, dlo)
	w.dstPut(r+1, mask, dhi)
	w.setMask(in, 1, co&mask)
	return nil
}

// madU64Lanes is v_mad_u64_u32 on the quads holding lanes 0 to n-1: D =
// S0×S1 + S2 and the carry-out mask.
func madU64Lanes(dlo, dhi, a, b, clo, chi *[64]uint32, n int) uint64 {
	return simd.MadWide(dlo, dhi, a, b, clo, chi, n)
}

// madU64Uniform is madU64Lanes with the same S1 in every lane: one fewer
// load a lane, and the loop fits in registers.
//
//go:noinline
func madU64Uniform(dlo, dhi, a, clo, chi *[64]uint32, b uint32, n int) uint64 {
	g := nquads(n)
	qlo, qhi, qclo, qchi := quads(dlo), quads(dhi), quads(clo), quads(chi)
	y := uint64(b)
	// No lane carries out when every addend's high dword is at most
	// 2^32-1-S1: then S0×S1 + S2 ≤ (2^32-1)·S1 + S2 < 2^32·(S1 + hi + 1)
	// ≤ 2^64. Address arithmetic (small offsets, S2 a zero-extended
	// index) nearly always passes, and the loop without carries is half
	// the work; the OR of the high dwords bounds every one of them.
	var hiOr uint32
	for i := range qchi[:g] {
		q := &qchi[i]
		hiOr |= q[0] | q[1] | q[2] | q[3]
	}
	if uint64(hiOr)+y < 1<<32 {
		madU64NoCarry(qlo, qhi, quads(a), qclo, qchi, y, g)
		return 0
	}
	var m uint64
	for i := range quads(a)[:g] {
		x, zlo, zhi := &quads(a)[i], &qclo[i], &qchi[i]
		s0, c0 := bits.Add64(uint64(x[0])*y, uint64(zlo[0])|uint64(zhi[0])<<32, 0)
		s1, c1 := bits.Add64(uint64(x[1])*y, uint64(zlo[1])|uint64(zhi[1])<<32, 0)
		s2, c2 := bits.Add64(uint64(x[2])*y, uint64(zlo[2])|uint64(zhi[2])<<32, 0)
		s3, c3 := bits.Add64(uint64(x[3])*y, uint64(zlo[3])|uint64(zhi[3])<<32, 0)
		qlo[i] = [4]uint32{uint32(s0), uint32(s1), uint32(s2), uint32(s3)}
		qhi[i] = [4]uint32{uint32(s0 >> 32), uint32(s1 >> 32), uint32(s2 >> 32), uint32(s3 >> 32)}
		m = m>>4 | quad(c0, c1, c2, c3)<<60
	}
	return quadDown(m, g)
}

// madU64NoCarry is madU64Uniform's loop when no lane carries out.
func madU64NoCarry(qlo, qhi, qa, qclo, qchi *[16][4]uint32, y uint64, g int) {
	for i := range qa[:g] {
		x, zlo, zhi := &qa[i], &qclo[i], &qchi[i]
		s0 := uint64(x[0])*y + (uint64(zlo[0]) | uint64(zhi[0])<<32)
		s1 := uint64(x[1])*y + (uint64(zlo[1]) | uint64(zhi[1])<<32)
		s2 := uint64(x[2])*y + (uint64(zlo[2]) | uint64(zhi[2])<<32)
		s3 := uint64(x[3])*y + (uint64(zlo[3]) | uint64(zhi[3])<<32)
		qlo[i] = [4]uint32{uint32(s0), uint32(s1), uint32(s2), uint32(s3)}
		qhi[i] = [4]uint32{uint32(s0 >> 32), uint32(s1 >> 32), uint32(s2 >> 32), uint32(s3 >> 32)}
	}
}

// sameLanes reports whether a VALU source is the same in every lane: an
// SGPR or a constant (src32 broadcasts it).
func sameLanes(o *operand) bool { return o.kind == okS || o.kind == okConst }

// zeroConst reports whether o is the inline constant 0.
func zeroConst(o *operand) bool { return o.kind == okConst && o.val == 0 }

// madI64Lanes is v_mad_i64_i32 on lanes 0 to n-1.
func madI64Lanes(dlo, dhi, a, b, clo, chi *[64]uint32, n int) uint64 {
	var co uint64
	for l := range dlo[:n] {
		c := uint64(clo[l]) | uint64(chi[l])<<32
		p := int64(int32(a[l])) * int64(int32(b[l]))
		s, cy := bits.Add64(uint64(p), c, 0)
		// bit 64 of the 65-bit signed sum
		cy = (uint64(p>>63) + uint64(int64(c)>>63) + cy) & 1
		dlo[l], dhi[l] = uint32(s), uint32(s>>32)
		co |= cy << uint(l)
	}
	return co
}

package emu

import (
	"math/bits"
	"unsafe"

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

// dstBuf returns the register a quad kernel (one that writes the quads
// holding lanes 0 to the highest EXEC lane) computes VGPR r's new value
// into: r itself when those quads are exactly the EXEC lanes (journaled
// first), else scratch, which dstPut then copies back under mask.
func (w *Wave) dstBuf(r int, mask uint64, scratch *[64]uint32) *[64]uint32 {
	return w.dstLanes(r, mask, 4*nquads(liveLanes(mask)), scratch)
}

// dstLanes is dstBuf for a kernel that writes lanes 0 to n-1 only: r
// itself also when those are exactly the EXEC lanes.
func (w *Wave) dstLanes(r int, mask uint64, n int, scratch *[64]uint32) *[64]uint32 {
	if mask != 0 && mask == lowLanes(n) {
		if w.jOn {
			w.j.v = append(w.j.v, vEnt{reg: uint16(r), mask: mask, old: w.v[r]})
		}
		return &w.v[r]
	}
	return scratch
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
	if d != &w.v[r] {
		w.wv(r, mask, d)
	}
}

// fill sets every lane of buf to x, two lanes a store: buf must be 8-byte
// aligned (a row of Wave.tmp or instr.cf; checkptr verifies this under
// -race).
func fill(buf *[64]uint32, x uint32) *[64]uint32 {
	p := (*[32]uint64)(unsafe.Pointer(buf))
	v := uint64(x) | uint64(x)<<32
	for i := 0; i < 32; i += 4 {
		p[i], p[i+1], p[i+2], p[i+3] = v, v, v, v
	}
	return buf
}

// src64 returns 64-bit source k as its low and high halves: the VGPR pair
// itself, or lo and hi filled with a uniform value.
func (w *Wave) src64(in *instr, k int, lo, hi *[64]uint32) (*[64]uint32, *[64]uint32) {
	o := &in.src[k]
	switch {
	case o.kind == okV:
		return &w.v[o.reg], &w.v[o.reg+1]
	case o.kind == okConst && in.cf != nil:
		return &in.cf[2*k], &in.cf[2*k+1]
	}
	x := w.sv64(o)
	return fill(lo, uint32(x)), fill(hi, uint32(x>>32))
}

// setMask writes a carry or compare mask to the instruction's SGPR-pair
// destination k, or to VCC when it has none.
func (w *Wave) setMask(in *instr, k int, m uint64) {
	if d := &in.dst[k]; int(in.ndst) > k && d.kind != okNone {
		w.sd64(d, m)
		return
	}
	w.ws64(codeVCC, m)
}

// carryIn is the carry mask of v_addc/v_subb: the last source, or VCC.
func (w *Wave) carryIn(in *instr) uint64 {
	if k := int(in.nsrc) - 1; k >= 0 && in.src[k].kind != okV {
		return w.sv64(&in.src[k])
	}
	return w.vcc()
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
	d := w.dstBuf(r, mask, &t[3])
	var co uint64
	switch {
	case !sub && zeroConst(&in.src[0]): // v_addc_co_u32 d, 0, b: the high half of a 64-bit add
		co = incLanes(d, w.src32(in, 1, &t[1]), cm, n)
	case !sub && cm == 0 && in.src[0].kind != okV: // an SGPR or constant base plus an offset
		co = addUniform0(d, w.sv(&in.src[0]), w.src32(in, 1, &t[1]), n)
	default:
		a, b := w.src32(in, 0, &t[0]), w.src32(in, 1, &t[1])
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

// The carry loops run four consecutive lanes (a quad) a step and shift
// each step's four carry bits in at the top of the mask (m = m>>4 |
// q<<60); quadDown then moves lane l's bit to bit l. They compute every
// lane of the quads holding lanes 0 to n-1, past n when n is not a
// multiple of 4: their D is scratch (dstBuf) unless EXEC is full, and the
// caller masks the carries.

// quads views a register as 16 quads of lanes.
func quads(r *[64]uint32) *[16][4]uint32 { return (*[16][4]uint32)(unsafe.Pointer(r)) }

// nquads is the number of quads holding lanes 0 to n-1.
func nquads(n int) int { return (n + 3) >> 2 }

// quad packs four carry bits (each 0 or 1) into a nibble.
func quad(c0, c1, c2, c3 uint64) uint64 { return c0 | c1<<1 | c2<<2 | c3<<3 }

// quadDown moves a mask built from the top in g steps of a quad down to
// lane 0.
func quadDown(m uint64, g int) uint64 { return m >> uint(64-4*g) }

// addLanes adds with the carries cm in; without carries in (v_add_co, or
// v_addc with VCC zero) the loop is shorter.
func addLanes(d, a, b *[64]uint32, cm uint64, n int) uint64 {
	if cm == 0 {
		return addLanes0(d, a, b, n)
	}
	g := nquads(n)
	qd, qb := quads(d), quads(b)
	var m uint64
	for i := range quads(a)[:g] {
		x, y, c := &quads(a)[i], &qb[i], cm>>uint(4*i)
		s0 := uint64(x[0]) + uint64(y[0]) + c&1
		s1 := uint64(x[1]) + uint64(y[1]) + c>>1&1
		s2 := uint64(x[2]) + uint64(y[2]) + c>>2&1
		s3 := uint64(x[3]) + uint64(y[3]) + c>>3&1
		qd[i] = [4]uint32{uint32(s0), uint32(s1), uint32(s2), uint32(s3)}
		m = m>>4 | quad(s0>>32, s1>>32, s2>>32, s3>>32)<<60
	}
	return quadDown(m, g)
}

// subLanes subtracts with the borrows cm in (bit 63 of the difference is
// the borrow out).
func subLanes(d, a, b *[64]uint32, cm uint64, n int) uint64 {
	if cm == 0 {
		return subLanes0(d, a, b, n)
	}
	g := nquads(n)
	qd, qb := quads(d), quads(b)
	var m uint64
	for i := range quads(a)[:g] {
		x, y, c := &quads(a)[i], &qb[i], cm>>uint(4*i)
		s0 := uint64(x[0]) - uint64(y[0]) - c&1
		s1 := uint64(x[1]) - uint64(y[1]) - c>>1&1
		s2 := uint64(x[2]) - uint64(y[2]) - c>>2&1
		s3 := uint64(x[3]) - uint64(y[3]) - c>>3&1
		qd[i] = [4]uint32{uint32(s0), uint32(s1), uint32(s2), uint32(s3)}
		m = m>>4 | quad(s0>>63, s1>>63, s2>>63, s3>>63)<<60
	}
	return quadDown(m, g)
}

// incLanes adds the carries cm to b: a copy, then an increment of the
// lanes with a carry in (often none).
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

// The adds without a carry in (addUniform0, addLanes0) first add and
// OR the operands together, one pass: when OR(a) + OR(b) < 2^32, which
// bounds every lane's sum, no lane carries — the common case of an index
// or offset added to an address — and the carry loop is skipped. Otherwise
// a second pass finds the lanes whose sum wrapped below an operand that D
// did not overwrite.

// addUniform0 is addLanes0 with every lane of a equal to x.
func addUniform0(d *[64]uint32, x uint32, b *[64]uint32, n int) uint64 {
	g := nquads(n)
	qd := quads(d)
	var or uint32
	for i := range quads(b)[:g] {
		y := &quads(b)[i]
		or |= y[0] | y[1] | y[2] | y[3]
		qd[i] = [4]uint32{x + y[0], x + y[1], x + y[2], x + y[3]}
	}
	if uint64(or)+uint64(x) < 1<<32 {
		return 0
	}
	var m uint64
	for i := range qd[:g] {
		s := &qd[i]
		m = m>>4 | quad(below(s[0], x), below(s[1], x), below(s[2], x), below(s[3], x))<<60
	}
	return quadDown(m, g)
}

// below is 1 when a < b, else 0.
func below(a, b uint32) uint64 { return (uint64(a) - uint64(b)) >> 63 }

func addLanes0(d, a, b *[64]uint32, n int) uint64 {
	if d == a && d == b { // v_add_co d, d, d: no operand is left to compare with
		return addCarryLanes0(d, a, b, n)
	}
	g := nquads(n)
	qd, qb := quads(d), quads(b)
	var oa, ob uint32
	for i := range quads(a)[:g] {
		x, y := &quads(a)[i], &qb[i]
		oa |= x[0] | x[1] | x[2] | x[3]
		ob |= y[0] | y[1] | y[2] | y[3]
		qd[i] = [4]uint32{x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]}
	}
	if uint64(oa)+uint64(ob) < 1<<32 {
		return 0
	}
	src := a
	if d == a {
		src = b
	}
	var m uint64
	for i, s := range qd[:g] {
		o := &quads(src)[i]
		m = m>>4 | quad(below(s[0], o[0]), below(s[1], o[1]), below(s[2], o[2]), below(s[3], o[3]))<<60
	}
	return quadDown(m, g)
}

// addCarryLanes0 is addLanes0 computing each lane's carry from the 64-bit
// sum.
func addCarryLanes0(d, a, b *[64]uint32, n int) uint64 {
	g := nquads(n)
	qd, qb := quads(d), quads(b)
	var m uint64
	for i := range quads(a)[:g] {
		x, y := &quads(a)[i], &qb[i]
		s0 := uint64(x[0]) + uint64(y[0])
		s1 := uint64(x[1]) + uint64(y[1])
		s2 := uint64(x[2]) + uint64(y[2])
		s3 := uint64(x[3]) + uint64(y[3])
		qd[i] = [4]uint32{uint32(s0), uint32(s1), uint32(s2), uint32(s3)}
		m = m>>4 | quad(s0>>32, s1>>32, s2>>32, s3>>32)<<60
	}
	return quadDown(m, g)
}

func subLanes0(d, a, b *[64]uint32, n int) uint64 {
	g := nquads(n)
	qd, qb := quads(d), quads(b)
	var m uint64
	for i := range quads(a)[:g] {
		x, y := &quads(a)[i], &qb[i]
		s0 := uint64(x[0]) - uint64(y[0])
		s1 := uint64(x[1]) - uint64(y[1])
		s2 := uint64(x[2]) - uint64(y[2])
		s3 := uint64(x[3]) - uint64(y[3])
		qd[i] = [4]uint32{uint32(s0), uint32(s1), uint32(s2), uint32(s3)}
		m = m>>4 | quad(s0>>63, s1>>63, s2>>63, s3>>63)<<60
	}
	return quadDown(m, g)
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
	a, b := w.src32(in, 0, &t[0]), w.src32(in, 1, &t[1])
	m := w.sv64(&in.src[2])
	mask := w.exec()
	r := int(in.dst[0].reg)
	d := w.dstBuf(r, mask, &t[3])
	cndLanes(d, a, b, m, liveLanes(mask))
	w.dstPut(r, mask, d)
	return nil
}

// cndLanes selects b's lane where m has its bit, else a's, a quad of
// lanes a step. (Inlined into execCndFast, its loop spills to the stack.)
//
//go:noinline
func cndLanes(d, a, b *[64]uint32, m uint64, n int) {
	qd, qb := quads(d), quads(b)
	for i := range quads(a)[:nquads(n)] {
		x, y, c := &quads(a)[i], &qb[i], uint32(m)
		m >>= 4
		// -(c&1) is all ones, selecting S1, when the lane's bit is set
		qd[i] = [4]uint32{x[0] ^ (x[0]^y[0])&-(c&1), x[1] ^ (x[1]^y[1])&-(c>>1&1),
			x[2] ^ (x[2]^y[2])&-(c>>2&1), x[3] ^ (x[3]^y[3])&-(c>>3&1)}
	}
}

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
	a := w.src32(in, 0, &t[0])
	blo, bhi := w.src64(in, 1, &t[1], &t[2])
	mask := w.exec()
	r := int(in.dst[0].reg)
	n := liveLanes(mask)
	dlo, dhi := w.dstLanes(r, mask, n, &t[3]), w.dstLanes(r+1, mask, n, &t[4])
	switch {
	case in.sub == k64Lshl && in.src[0].kind == okConst: // the common shift by a constant
		shlConstLanes(dlo, dhi, blo, bhi, uint(in.src[0].val&63), n)
	case in.sub == k64Lshl:
		for l := range dlo[:n] {
			x := (uint64(blo[l]) | uint64(bhi[l])<<32) << (a[l] & 63)
			dlo[l], dhi[l] = uint32(x), uint32(x>>32)
		}
	case in.sub == k64Lshr:
		for l := range dlo[:n] {
			x := (uint64(blo[l]) | uint64(bhi[l])<<32) >> (a[l] & 63)
			dlo[l], dhi[l] = uint32(x), uint32(x>>32)
		}
	default:
		for l := range dlo[:n] {
			x := int64(uint64(blo[l])|uint64(bhi[l])<<32) >> (a[l] & 63)
			dlo[l], dhi[l] = uint32(x), uint32(x>>32)
		}
	}
	w.dstPut(r, mask, dlo)
	w.dstPut(r+1, mask, dhi)
	return nil
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
	a := w.src32(in, 0, &t[0])
	clo, chi := w.src64(in, 2, &t[2], &t[5])
	mask := w.exec()
	r := int(in.dst[0].reg)
	dlo, dhi := w.dstBuf(r, mask, &t[3]), w.dstBuf(r+1, mask, &t[4])
	n := liveLanes(mask)
	var co uint64
	switch {
	case in.sub == k64MadU && zeroConst(&in.src[2]): // a plain 32×32→64 multiply
		mulU64Lanes(dlo, dhi, a, w.src32(in, 1, &t[1]), n)
	case in.sub == k64MadU && sameLanes(&in.src[1]): // a factor the same in every lane
		co = madU64Uniform(dlo, dhi, a, clo, chi, w.sv(&in.src[1]), n)
	case in.sub == k64MadU:
		co = madU64Lanes(dlo, dhi, a, w.src32(in, 1, &t[1]), clo, chi, n)
	default:
		co = madI64Lanes(dlo, dhi, a, w.src32(in, 1, &t[1]), clo, chi, n)
	}
	w.dstPut(r, mask, dlo)
	w.dstPut(r+1, mask, dhi)
	w.setMask(in, 1, co&mask)
	return nil
}

// madU64Lanes is v_mad_u64_u32 on the quads holding lanes 0 to n-1: D =
// S0×S1 + S2 and the carry-out mask. Inlined into execMad64, its loop
// spills to the stack.
//
//go:noinline
func madU64Lanes(dlo, dhi, a, b, clo, chi *[64]uint32, n int) uint64 {
	g := nquads(n)
	qlo, qhi, qb, qclo, qchi := quads(dlo), quads(dhi), quads(b), quads(clo), quads(chi)
	var m uint64
	for i := range quads(a)[:g] {
		x, y, zlo, zhi := &quads(a)[i], &qb[i], &qclo[i], &qchi[i]
		s0, c0 := bits.Add64(uint64(x[0])*uint64(y[0]), uint64(zlo[0])|uint64(zhi[0])<<32, 0)
		s1, c1 := bits.Add64(uint64(x[1])*uint64(y[1]), uint64(zlo[1])|uint64(zhi[1])<<32, 0)
		s2, c2 := bits.Add64(uint64(x[2])*uint64(y[2]), uint64(zlo[2])|uint64(zhi[2])<<32, 0)
		s3, c3 := bits.Add64(uint64(x[3])*uint64(y[3]), uint64(zlo[3])|uint64(zhi[3])<<32, 0)
		qlo[i] = [4]uint32{uint32(s0), uint32(s1), uint32(s2), uint32(s3)}
		qhi[i] = [4]uint32{uint32(s0 >> 32), uint32(s1 >> 32), uint32(s2 >> 32), uint32(s3 >> 32)}
		m = m>>4 | quad(c0, c1, c2, c3)<<60
	}
	return quadDown(m, g)
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

// mulU64Lanes is v_mad_u64_u32 with a zero addend on the quads holding
// lanes 0 to n-1: D = S0×S1, no carries.
func mulU64Lanes(dlo, dhi, a, b *[64]uint32, n int) {
	qlo, qhi, qb := quads(dlo), quads(dhi), quads(b)
	for i := range quads(a)[:nquads(n)] {
		x, y := &quads(a)[i], &qb[i]
		p0, p1 := uint64(x[0])*uint64(y[0]), uint64(x[1])*uint64(y[1])
		p2, p3 := uint64(x[2])*uint64(y[2]), uint64(x[3])*uint64(y[3])
		qlo[i] = [4]uint32{uint32(p0), uint32(p1), uint32(p2), uint32(p3)}
		qhi[i] = [4]uint32{uint32(p0 >> 32), uint32(p1 >> 32), uint32(p2 >> 32), uint32(p3 >> 32)}
	}
}

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

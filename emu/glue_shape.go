package emu

import simd "github.com/wavedbg/wavedbg/emu/internal/lanes"

// Operand shapes decided at compile time: the commonest VALU forms get a
// handler that knows its operands' kinds and its kernel's type, so it
// tests no source counts, float environment or mask operands when it
// runs. A source is a VGPR or a constant (prefilled in instr.cf), read in
// place, or an SGPR, which the handler's S form passes by value to a
// scalar row (execIntS0, execIntS1, execCmpS) or else fills into its scratch row
// before running the V form (shapeSrc).

// intShape reports whether in, whose sources are plain (plainVSources),
// runs an integer kernel of two sources, each a VGPR, an SGPR or a
// constant: execIntV's and execIntS's forms.
func intShape(in *instr) bool {
	v := in.def.v
	return in.kft == 0 && v.nsrc == 2 && !v.mac && shapeKind(in.src[0].kind) && shapeKind(in.src[1].kind)
}

// shapeKind reports whether a source of kind k has a shape.
func shapeKind(k uint8) bool { return k == okV || k == okS || k == okConst }

// intFn returns intShape's handler for in.
func intFn(in *instr) execFn {
	switch {
	case in.shape&shRowSrc1 != 0:
		return execIntS1
	case in.shape != 0:
		return execIntS0
	case in.src[0].kind == okS || in.src[1].kind == okS:
		return execIntS
	}
	return execIntV
}

// Scalar rows: an integer kernel with a uniform source (an SGPR or a
// constant) whose operation is one package lanes row with a scalar
// operand gets the row called directly with the value (execIntS0,
// execIntS1),
// sparing the fill of a scratch row or the kernel's closure. instr.shape
// holds the row's index in scalarRows (shape>>2) and:
const (
	shRowSrc1 uint8 = 1 // the uniform source is source 1 (else source 0)
	shRowNeg  uint8 = 2 // negate its value (a - x is a + -x)
)

// scalarRows are the rows d = a op x of a register a and a value x.
var scalarRows = [...]func(d, a *[64]uint32, x uint32, n int){nil, simd.AddS, simd.SubFromS, simd.MulLoS, simd.MulHiS,
	simd.ShiftLeftS, simd.ShiftRightS, simd.ShiftRightSignedS}

// scalarOps gives the scalar-row shape (without shRowSrc1) of the
// operations with scalar rows, for a uniform first and second source (0:
// none, as for a shift's uniform value).
var scalarOps = map[string][2]uint8{
	"v_add_u32":     {1 << 2, 1 << 2},
	"v_sub_u32":     {2 << 2, 1<<2 | shRowNeg}, // x - a; a - x
	"v_subrev_u32":  {1<<2 | shRowNeg, 2 << 2},
	"v_mul_lo_u32":  {3 << 2, 3 << 2},
	"v_mul_hi_u32":  {4 << 2, 4 << 2},
	"v_lshlrev_b32": {5 << 2, 0}, // by a uniform amount
	"v_lshrrev_b32": {6 << 2, 0},
	"v_ashrrev_i32": {7 << 2, 0},
}

// rowShape returns the instr.shape of execIntS0 or execIntS1 for in, an intShape form,
// when one source is an SGPR or constant and the other a VGPR and the
// operation has a scalar row for it; else 0.
func rowShape(in *instr, name string) uint8 {
	op, ok := scalarOps[name]
	if !ok || !intShape(in) {
		return 0
	}
	uni := func(k uint8) bool { return k == okS || k == okConst }
	switch a, b := in.src[0].kind, in.src[1].kind; {
	case uni(a) && b == okV:
		return op[0]
	case uni(b) && a == okV && op[1] != 0:
		return op[1] | shRowSrc1
	}
	return 0
}

// shapeSrc returns source k (0 or 1) of a shape handler: a VGPR (below
// 256: uint8 spares the bounds check) or a prefilled constant in place,
// an SGPR from scratch row k, which the S form filled.
func (w *Wave) shapeSrc(in *instr, k int) *[64]uint32 {
	o := &in.src[k]
	if o.kind == okV {
		return &w.v[uint8(o.reg)]
	}
	if o.kind == okConst {
		return &in.cf[2*k]
	}
	return &w.tmp[k]
}

// plainRun reports whether a shape handler may take its plain path: no
// GPR indexing (which takes execVOP).
func (w *Wave) plainRun() bool { return w.s[slotMode]&modeGPRIdxEn == 0 }

// quadPrefix reports whether mask is exactly the lanes of whole quads
// from lane 0 (a 16-lane wave's EXEC, a full one): a kernel that computes
// whole quads may then write its destination in place.
func quadPrefix(mask uint64) bool {
	// mask+1 is then 2^(4k) (0 for a full EXEC): a nibble's low bit
	p := mask + 1
	return mask != 0 && p&mask == 0 && p&0xEEEEEEEEEEEEEEEE == 0
}

// execIntV is execFastV for intShape's forms with a VGPR or constant
// first source, when EXEC is whole quads: the kernel writes the
// destination in place. Anything else takes intRest.
func execIntV(w *Wave, in *instr) error {
	mask := w.exec()
	if !w.plainRun() || !quadPrefix(mask) {
		return intRest(w, in, mask)
	}
	w.fe.live = liveLanes(mask)
	in.k(&w.fe, &w.v[uint8(in.dst[0].reg)], w.shapeSrc(in, 0), w.shapeSrc(in, 1), &w.tmp[2])
	return nil
}

// execIntS is execIntV with an SGPR source (or two), filled into scratch.
func execIntS(w *Wave, in *instr) error {
	mask := w.exec()
	if !w.plainRun() || !quadPrefix(mask) {
		return intRest(w, in, mask)
	}
	n := liveLanes(mask)
	w.fe.live = n
	w.fillShapes(in, n)
	in.k(&w.fe, &w.v[uint8(in.dst[0].reg)], w.shapeSrc(in, 0), w.shapeSrc(in, 1), &w.tmp[2])
	return nil
}

// execIntS0 runs a form with a scalar row (rowShape) whose uniform
// source is the first, when EXEC is whole quads: the row takes its value
// (uniValue) and the VGPR second source and writes the destination in
// place. Anything else takes scalarRest.
func execIntS0(w *Wave, in *instr) error {
	mask := w.exec()
	if !w.plainRun() || !quadPrefix(mask) {
		return scalarRest(w, in, mask)
	}
	scalarRows[in.shape>>2](&w.v[uint8(in.dst[0].reg)], &w.v[uint8(in.src[1].reg)], w.uniValue(in, 0), liveLanes(mask))
	return nil
}

// execIntS1 is execIntS0 for a uniform second source.
func execIntS1(w *Wave, in *instr) error {
	mask := w.exec()
	if !w.plainRun() || !quadPrefix(mask) {
		return scalarRest(w, in, mask)
	}
	scalarRows[in.shape>>2](&w.v[uint8(in.dst[0].reg)], &w.v[uint8(in.src[0].reg)], w.uniValue(in, 1), liveLanes(mask))
	return nil
}

// uniValue is the value of a scalar-row form's uniform source k, an SGPR
// (read directly: no journal) or a constant, negated for shRowNeg.
func (w *Wave) uniValue(in *instr, k int) uint32 {
	o := &in.src[k]
	x := uint32(o.val)
	if o.kind == okS {
		x = w.s[o.reg]
	}
	neg := uint32(in.shape >> 1 & 1)
	return x ^ -neg + neg
}

// scalarRest is execIntS0's and execIntS1's other cases: GPR indexing
// takes execFast; other masks run the row into
// scratch and copy the EXEC lanes back.
func scalarRest(w *Wave, in *instr, mask uint64) error {
	if !w.plainRun() {
		return execFast(w, in)
	}
	k := int(in.shape & shRowSrc1)
	d := &w.tmp[3]
	scalarRows[in.shape>>2](d, &w.v[uint8(in.src[k^1].reg)], w.uniValue(in, k), liveLanes(mask))
	w.wv(int(in.dst[0].reg), mask, d)
	return nil
}

// fillShapes fills scratch rows 0 and 1 with sources 0 and 1 that are
// SGPRs, for lanes 0 to n-1 (read directly: no journal).
func (w *Wave) fillShapes(in *instr, n int) {
	if o := &in.src[0]; o.kind == okS {
		fillLanes(&w.tmp[0], w.s[o.reg], n)
	}
	if o := &in.src[1]; o.kind == okS {
		fillLanes(&w.tmp[1], w.s[o.reg], n)
	}
}

// intRest is execIntV's and execIntS's other cases: GPR indexing takes
// execFast; other masks compute into scratch and copy
// the EXEC lanes back.
func intRest(w *Wave, in *instr, mask uint64) error {
	if !w.plainRun() {
		return execFast(w, in)
	}
	n := liveLanes(mask)
	w.fillShapes(in, n)
	w.fe.live = n
	d := &w.tmp[3]
	in.k(&w.fe, d, w.shapeSrc(in, 0), w.shapeSrc(in, 1), &w.tmp[2])
	w.wv(int(in.dst[0].reg), mask, d)
	return nil
}

// cmpShape reports whether a compare execCmpFast runs is a 32-bit integer
// one of a VGPR and a VGPR, SGPR or constant, writing VCC or an SGPR pair
// (which it sets in.mreg to): execCmpV's and execCmpS's forms. It sets
// in.shape to the compare's plan (cmpPlan).
func cmpShape(in *instr) bool {
	if k := in.sub >> 8 & 0xff; k != cmpI32 && k != cmpU32 || in.src[1].kind != okV || !shapeKind(in.src[0].kind) {
		return false
	}
	in.mreg = codeVCC
	if d := &in.dst[0]; in.ndst >= 1 && d.kind == okS {
		if d.reg >= 127 {
			return false
		}
		in.mreg = uint8(d.reg)
	}
	in.shape = cmpPlan(int(in.sub&0xff), in.sub>>8&0xff == cmpI32)
	return true
}

// A compare's plan (instr.shape): the lanes row that decides it, whether
// its sources swap and whether the mask inverts, as icmpMask32 decides.
const (
	cmpFalse uint8 = iota // no row: every lane false
	cmpLt                 // simd.Less
	cmpLtS                // simd.LessSigned
	cmpEq                 // simd.Equal
	cmpSwap  uint8 = 4    // compare b with a
	cmpInv   uint8 = 8    // invert the mask
)

// cmpPlan returns the plan of integer condition c (iconds), signed or not.
func cmpPlan(c int, signed bool) uint8 {
	var p uint8
	if c >= 4 { // gt, ne, ge, t: the complement of le, eq, lt, f
		c, p = 7-c, cmpInv
	}
	lt := cmpLt
	if signed {
		lt = cmpLtS
	}
	switch c {
	case 1:
		p |= lt
	case 2:
		p |= cmpEq
	case 3: // le: not b < a
		p ^= lt | cmpSwap | cmpInv
	}
	return p
}

// cmpFn returns cmpShape's handler for in.
func cmpFn(in *instr) execFn {
	if in.src[0].kind == okS {
		return execCmpS
	}
	return execCmpV
}

// execCmpV is execCmpFast for cmpShape's forms with a VGPR or constant
// first source; GPR indexing takes execCmpFast.
func execCmpV(w *Wave, in *instr) error {
	if !w.plainRun() {
		return execCmpFast(w, in)
	}
	exec := w.exec()
	w.putShapeMask(in, w.cmpRun(in, w.shapeSrc(in, 0), liveLanes(exec))&exec)
	return nil
}

// execCmpS is execCmpV with an SGPR first source, compared as a value.
func execCmpS(w *Wave, in *instr) error {
	if !w.plainRun() {
		return execCmpFast(w, in)
	}
	exec := w.exec()
	w.putShapeMask(in, w.cmpRunS(in, w.s[in.src[0].reg], liveLanes(exec))&exec)
	return nil
}

// cmpRunS is cmpRun for a scalar first source x: x < b is b > x, and
// swapped, b < x (the unsigned compares flip the sign bits).
func (w *Wave) cmpRunS(in *instr, x uint32, n int) uint64 {
	b, p := &w.v[uint8(in.src[1].reg)], in.shape
	flip := uint32(1 << 31)
	var r uint64
	switch p & 3 {
	case cmpLtS:
		flip = 0
		fallthrough
	case cmpLt:
		if p&cmpSwap != 0 {
			r = simd.LessS(b, x, flip, n)
		} else {
			r = simd.GreaterS(b, x, flip, n)
		}
	case cmpEq:
		r = simd.EqualS(b, x, n)
	}
	if p&cmpInv != 0 {
		r = ^r
	}
	return r
}

// cmpRun evaluates a cmpShape compare, of a and the second source
// (a VGPR), over lanes 0 to n-1 by its plan.
func (w *Wave) cmpRun(in *instr, a *[64]uint32, n int) uint64 {
	b, p := &w.v[uint8(in.src[1].reg)], in.shape
	if p&cmpSwap != 0 {
		a, b = b, a
	}
	var r uint64
	switch p & 3 {
	case cmpLt:
		r = simd.Less(a, b, n)
	case cmpLtS:
		r = simd.LessSigned(a, b, n)
	case cmpEq:
		r = simd.Equal(a, b, n)
	}
	if p&cmpInv != 0 {
		r = ^r
	}
	return r
}

// putShapeMask writes a compare's mask to the pair in.mreg, and to EXEC
// for v_cmpx, without the journal.
func (w *Wave) putShapeMask(in *instr, r uint64) {
	w.s[in.mreg&127], w.s[(in.mreg+1)&127] = uint32(r), uint32(r>>32)
	if in.sub>>16 != 0 { // v_cmpx
		w.s[codeExec], w.s[codeExec+1] = uint32(r), uint32(r>>32)
	}
}

// cndShape reports whether a v_cndmask_b32 execCndFast runs selects
// between VGPRs and constants by VCC or an SGPR pair (which it sets
// in.creg to): execCndV's form.
func cndShape(in *instr) bool {
	a, b, m := in.src[0].kind, in.src[1].kind, &in.src[2]
	if a != okV && a != okConst || b != okV && b != okConst || m.kind != okS || m.reg >= 127 {
		return false
	}
	in.creg = uint8(m.reg)
	return true
}

// execCndV is execCndFast for cndShape's form; GPR indexing takes
// execCndFast.
func execCndV(w *Wave, in *instr) error {
	if !w.plainRun() {
		return execCndFast(w, in)
	}
	mask := w.exec()
	m := uint64(w.s[in.creg&127]) | uint64(w.s[(in.creg+1)&127])<<32 // (below 127: &127 spares the bounds checks)
	r := uint8(in.dst[0].reg)
	if quadPrefix(mask) {
		simd.Select(&w.v[r], w.shapeSrc(in, 0), w.shapeSrc(in, 1), m, liveLanes(mask))
		return nil
	}
	d := &w.tmp[3]
	simd.Select(d, w.shapeSrc(in, 0), w.shapeSrc(in, 1), m, liveLanes(mask))
	w.wv(int(r), mask, d)
	return nil
}

// shift64Shape reports whether a 64-bit shift execShift64 runs shifts a
// VGPR pair by a VGPR or constant amount: execShift64V's form.
func shift64Shape(in *instr) bool {
	k := in.src[0].kind
	return (k == okV || k == okConst) && in.src[1].kind == okV
}

// execShift64V is execShift64 for shift64Shape's form, when EXEC is
// whole quads: the shift writes the destination pair in place. Anything
// else takes shift64Rest.
func execShift64V(w *Wave, in *instr) error {
	mask := w.exec()
	if !w.plainRun() || !quadPrefix(mask) {
		return shift64Rest(w, in, mask)
	}
	r, b := uint8(in.dst[0].reg), uint8(in.src[1].reg) // below 255 (fast64Eligible)
	shift64(in, &w.v[r], &w.v[r+1], w.shapeSrc(in, 0), &w.v[b], &w.v[b+1], liveLanes(mask))
	return nil
}

// shift64Rest is execShift64V's other cases: GPR indexing takes
// execShift64; other masks shift into scratch and copy the
// EXEC lanes back.
func shift64Rest(w *Wave, in *instr, mask uint64) error {
	if !w.plainRun() {
		return execShift64(w, in)
	}
	r, b := int(in.dst[0].reg), uint8(in.src[1].reg)
	t := &w.tmp
	shift64(in, &t[3], &t[4], w.shapeSrc(in, 0), &w.v[b], &w.v[b+1], liveLanes(mask))
	w.wv(r, mask, &t[3])
	w.wv(r+1, mask, &t[4])
	return nil
}

// mulWideShape reports whether a v_mad_u64_u32 execMad64 runs is a plain
// 32×32→64 product of two VGPRs (a zero addend, so no carries out):
// execMulWideV's form.
func mulWideShape(in *instr) bool {
	return in.sub == k64MadU && in.src[0].kind == okV && in.src[1].kind == okV && zeroConst(&in.src[2])
}

// execMulWideV is execMad64 for mulWideShape's form.
func execMulWideV(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOP(w, in)
	}
	mask := w.exec()
	r := int(in.dst[0].reg)
	t := &w.tmp
	dlo, dhi := w.dstQuads(r, mask, &t[3]), w.dstQuads(r+1, mask, &t[4])
	simd.MulWide(dlo, dhi, &w.v[uint8(in.src[0].reg)], &w.v[uint8(in.src[1].reg)], liveLanes(mask))
	if dlo == &t[3] { // scratch: copy the EXEC lanes back
		w.wv(r, mask, dlo)
		w.wv(r+1, mask, dhi)
	}
	w.setMask(in, 1, 0)
	return nil
}

package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

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
func intShape(in *core.Instr) bool {
	v := in.Def.V
	return in.Kft == 0 && v.Nsrc == 2 && !v.Mac && shapeKind(in.Src[0].Kind) && shapeKind(in.Src[1].Kind)
}

// shapeKind reports whether a source of kind k has a shape.
func shapeKind(k uint8) bool { return k == core.OkV || k == core.OkS || k == core.OkConst }

// intFn returns intShape's handler for in.
func intFn(in *core.Instr) core.ExecFn {
	switch {
	case in.Shape&shRowSrc1 != 0:
		return ExecIntS1
	case in.Shape != 0:
		return ExecIntS0
	case in.Src[0].Kind == core.OkS || in.Src[1].Kind == core.OkS:
		return ExecIntS
	}
	return ExecIntV
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
func rowShape(in *core.Instr, name string) uint8 {
	op, ok := scalarOps[name]
	if !ok || !intShape(in) {
		return 0
	}
	uni := func(k uint8) bool { return k == core.OkS || k == core.OkConst }
	switch a, b := in.Src[0].Kind, in.Src[1].Kind; {
	case uni(a) && b == core.OkV:
		return op[0]
	case uni(b) && a == core.OkV && op[1] != 0:
		return op[1] | shRowSrc1
	}
	return 0
}

// shapeSrc returns source k (0 or 1) of a shape handler: a VGPR (below
// 256: uint8 spares the bounds check) or a prefilled constant in place,
// an SGPR from scratch row k, which the S form filled.
func shapeSrc(w *core.Wave, in *core.Instr, k int) *[64]uint32 {
	o := &in.Src[k]
	if o.Kind == core.OkV {
		return &w.V[uint8(o.Reg)]
	}
	if o.Kind == core.OkConst {
		return &in.Cf[2*k]
	}
	return &w.Tmp[k]
}

// plainRun reports whether a shape handler may take its plain path: no
// GPR indexing (which takes execVOP).
func plainRun(w *core.Wave) bool { return w.S[core.SlotMode]&core.ModeGPRIdxEn == 0 }

// quadPrefix reports whether mask is exactly the lanes of whole quads
// from lane 0 (a 16-lane wave's EXEC, a full one): a kernel that computes
// whole quads may then write its destination in place.
func quadPrefix(mask uint64) bool {
	// mask+1 is then 2^(4k) (0 for a full EXEC): a nibble's low bit
	p := mask + 1
	return mask != 0 && p&mask == 0 && p&0xEEEEEEEEEEEEEEEE == 0
}

// ExecIntV is execFastV for intShape's forms with a VGPR or constant
// first source, when EXEC is whole quads: the kernel writes the
// destination in place. Anything else takes intRest.
func ExecIntV(w *core.Wave, in *core.Instr) error {
	mask := w.Exec()
	if !plainRun(w) || !quadPrefix(mask) {
		return intRest(w, in, mask)
	}
	w.Fe.Live = core.LiveLanes(mask)
	in.K(&w.Fe, &w.V[uint8(in.Dst[0].Reg)], shapeSrc(w, in, 0), shapeSrc(w, in, 1), &w.Tmp[2])
	return nil
}

// ExecIntS is execIntV with an SGPR source (or two), filled into scratch.
func ExecIntS(w *core.Wave, in *core.Instr) error {
	mask := w.Exec()
	if !plainRun(w) || !quadPrefix(mask) {
		return intRest(w, in, mask)
	}
	n := core.LiveLanes(mask)
	w.Fe.Live = n
	fillShapes(w, in, n)
	in.K(&w.Fe, &w.V[uint8(in.Dst[0].Reg)], shapeSrc(w, in, 0), shapeSrc(w, in, 1), &w.Tmp[2])
	return nil
}

// ExecIntS0 runs a form with a scalar row (rowShape) whose uniform
// source is the first, when EXEC is whole quads: the row takes its value
// (uniValue) and the VGPR second source and writes the destination in
// place. Anything else takes scalarRest.
func ExecIntS0(w *core.Wave, in *core.Instr) error {
	mask := w.Exec()
	if !plainRun(w) || !quadPrefix(mask) {
		return scalarRest(w, in, mask)
	}
	scalarRows[in.Shape>>2](&w.V[uint8(in.Dst[0].Reg)], &w.V[uint8(in.Src[1].Reg)], uniValue(w, in, 0), core.LiveLanes(mask))
	return nil
}

// ExecIntS1 is execIntS0 for a uniform second source.
func ExecIntS1(w *core.Wave, in *core.Instr) error {
	mask := w.Exec()
	if !plainRun(w) || !quadPrefix(mask) {
		return scalarRest(w, in, mask)
	}
	scalarRows[in.Shape>>2](&w.V[uint8(in.Dst[0].Reg)], &w.V[uint8(in.Src[0].Reg)], uniValue(w, in, 1), core.LiveLanes(mask))
	return nil
}

// uniValue is the value of a scalar-row form's uniform source k, an SGPR
// (read directly: no journal) or a constant, negated for shRowNeg.
func uniValue(w *core.Wave, in *core.Instr, k int) uint32 {
	o := &in.Src[k]
	x := uint32(o.Val)
	if o.Kind == core.OkS {
		x = w.S[o.Reg]
	}
	neg := uint32(in.Shape >> 1 & 1)
	return x ^ -neg + neg
}

// scalarRest is execIntS0's and execIntS1's other cases: GPR indexing
// takes execFast; other masks run the row into
// scratch and copy the EXEC lanes back.
func scalarRest(w *core.Wave, in *core.Instr, mask uint64) error {
	if !plainRun(w) {
		return execFast(w, in)
	}
	k := int(in.Shape & shRowSrc1)
	d := &w.Tmp[3]
	scalarRows[in.Shape>>2](d, &w.V[uint8(in.Src[k^1].Reg)], uniValue(w, in, k), core.LiveLanes(mask))
	w.Wv(int(in.Dst[0].Reg), mask, d)
	return nil
}

// fillShapes fills scratch rows 0 and 1 with sources 0 and 1 that are
// SGPRs, for lanes 0 to n-1 (read directly: no journal).
func fillShapes(w *core.Wave, in *core.Instr, n int) {
	if o := &in.Src[0]; o.Kind == core.OkS {
		fillLanes(&w.Tmp[0], w.S[o.Reg], n)
	}
	if o := &in.Src[1]; o.Kind == core.OkS {
		fillLanes(&w.Tmp[1], w.S[o.Reg], n)
	}
}

// intRest is execIntV's and execIntS's other cases: GPR indexing takes
// execFast; other masks compute into scratch and copy
// the EXEC lanes back.
func intRest(w *core.Wave, in *core.Instr, mask uint64) error {
	if !plainRun(w) {
		return execFast(w, in)
	}
	n := core.LiveLanes(mask)
	fillShapes(w, in, n)
	w.Fe.Live = n
	d := &w.Tmp[3]
	in.K(&w.Fe, d, shapeSrc(w, in, 0), shapeSrc(w, in, 1), &w.Tmp[2])
	w.Wv(int(in.Dst[0].Reg), mask, d)
	return nil
}

// cmpShape reports whether a compare execCmpFast runs is a 32-bit integer
// one of a VGPR and a VGPR, SGPR or constant, writing VCC or an SGPR pair
// (which it sets in.mreg to): execCmpV's and execCmpS's forms. It sets
// in.shape to the compare's plan (cmpPlan).
func cmpShape(in *core.Instr) bool {
	if k := in.Sub >> 8 & 0xff; k != ref.CmpI32 && k != ref.CmpU32 || in.Src[1].Kind != core.OkV || !shapeKind(in.Src[0].Kind) {
		return false
	}
	in.Mreg = core.CodeVCC
	if d := &in.Dst[0]; in.Ndst >= 1 && d.Kind == core.OkS {
		if d.Reg >= 127 {
			return false
		}
		in.Mreg = uint8(d.Reg)
	}
	in.Shape = cmpPlan(int(in.Sub&0xff), in.Sub>>8&0xff == ref.CmpI32)
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
func cmpFn(in *core.Instr) core.ExecFn {
	if in.Src[0].Kind == core.OkS {
		return ExecCmpS
	}
	return ExecCmpV
}

// ExecCmpV is execCmpFast for cmpShape's forms with a VGPR or constant
// first source; GPR indexing takes execCmpFast.
func ExecCmpV(w *core.Wave, in *core.Instr) error {
	if !plainRun(w) {
		return execCmpFast(w, in)
	}
	exec := w.Exec()
	putShapeMask(w, in, cmpRun(w, in, shapeSrc(w, in, 0), core.LiveLanes(exec))&exec)
	return nil
}

// ExecCmpS is execCmpV with an SGPR first source, compared as a value.
func ExecCmpS(w *core.Wave, in *core.Instr) error {
	if !plainRun(w) {
		return execCmpFast(w, in)
	}
	exec := w.Exec()
	putShapeMask(w, in, cmpRunS(w, in, w.S[in.Src[0].Reg], core.LiveLanes(exec))&exec)
	return nil
}

// cmpRunS is cmpRun for a scalar first source x: x < b is b > x, and
// swapped, b < x (the unsigned compares flip the sign bits).
func cmpRunS(w *core.Wave, in *core.Instr, x uint32, n int) uint64 {
	b, p := &w.V[uint8(in.Src[1].Reg)], in.Shape
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
func cmpRun(w *core.Wave, in *core.Instr, a *[64]uint32, n int) uint64 {
	b, p := &w.V[uint8(in.Src[1].Reg)], in.Shape
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
func putShapeMask(w *core.Wave, in *core.Instr, r uint64) {
	w.S[in.Mreg&127], w.S[(in.Mreg+1)&127] = uint32(r), uint32(r>>32)
	if in.Sub>>16 != 0 { // v_cmpx
		w.S[core.CodeExec], w.S[core.CodeExec+1] = uint32(r), uint32(r>>32)
	}
}

// cndShape reports whether a v_cndmask_b32 execCndFast runs selects
// between VGPRs and constants by VCC or an SGPR pair (which it sets
// in.creg to): execCndV's form.
func cndShape(in *core.Instr) bool {
	a, b, m := in.Src[0].Kind, in.Src[1].Kind, &in.Src[2]
	if a != core.OkV && a != core.OkConst || b != core.OkV && b != core.OkConst || m.Kind != core.OkS || m.Reg >= 127 {
		return false
	}
	in.Creg = uint8(m.Reg)
	return true
}

// ExecCndV is execCndFast for cndShape's form; GPR indexing takes
// execCndFast.
func ExecCndV(w *core.Wave, in *core.Instr) error {
	if !plainRun(w) {
		return execCndFast(w, in)
	}
	mask := w.Exec()
	m := uint64(w.S[in.Creg&127]) | uint64(w.S[(in.Creg+1)&127])<<32 // (below 127: &127 spares the bounds checks)
	r := uint8(in.Dst[0].Reg)
	if quadPrefix(mask) {
		simd.Select(&w.V[r], shapeSrc(w, in, 0), shapeSrc(w, in, 1), m, core.LiveLanes(mask))
		return nil
	}
	d := &w.Tmp[3]
	simd.Select(d, shapeSrc(w, in, 0), shapeSrc(w, in, 1), m, core.LiveLanes(mask))
	w.Wv(int(r), mask, d)
	return nil
}

// shift64Shape reports whether a 64-bit shift execShift64 runs shifts a
// VGPR pair by a VGPR or constant amount: execShift64V's form.
func shift64Shape(in *core.Instr) bool {
	k := in.Src[0].Kind
	return (k == core.OkV || k == core.OkConst) && in.Src[1].Kind == core.OkV
}

// ExecShift64V is execShift64 for shift64Shape's form, when EXEC is
// whole quads: the shift writes the destination pair in place. Anything
// else takes shift64Rest.
func ExecShift64V(w *core.Wave, in *core.Instr) error {
	mask := w.Exec()
	if !plainRun(w) || !quadPrefix(mask) {
		return shift64Rest(w, in, mask)
	}
	r, b := uint8(in.Dst[0].Reg), uint8(in.Src[1].Reg) // below 255 (fast64Eligible)
	shift64(in, &w.V[r], &w.V[r+1], shapeSrc(w, in, 0), &w.V[b], &w.V[b+1], core.LiveLanes(mask))
	return nil
}

// shift64Rest is execShift64V's other cases: GPR indexing takes
// execShift64; other masks shift into scratch and copy the
// EXEC lanes back.
func shift64Rest(w *core.Wave, in *core.Instr, mask uint64) error {
	if !plainRun(w) {
		return execShift64(w, in)
	}
	r, b := int(in.Dst[0].Reg), uint8(in.Src[1].Reg)
	t := &w.Tmp
	shift64(in, &t[3], &t[4], shapeSrc(w, in, 0), &w.V[b], &w.V[b+1], core.LiveLanes(mask))
	w.Wv(r, mask, &t[3])
	w.Wv(r+1, mask, &t[4])
	return nil
}

// mulWideShape reports whether a v_mad_u64_u32 execMad64 runs is a plain
// 32×32→64 product of two VGPRs (a zero addend, so no carries out):
// execMulWideV's form.
func mulWideShape(in *core.Instr) bool {
	return in.Sub == k64MadU && in.Src[0].Kind == core.OkV && in.Src[1].Kind == core.OkV && zeroConst(&in.Src[2])
}

// ExecMulWideV is execMad64 for mulWideShape's form.
func ExecMulWideV(w *core.Wave, in *core.Instr) error {
	if gprIdx(w) {
		return ref.ExecVOP(w, in)
	}
	mask := w.Exec()
	r := int(in.Dst[0].Reg)
	t := &w.Tmp
	dlo, dhi := dstQuads(w, r, mask, &t[3]), dstQuads(w, r+1, mask, &t[4])
	simd.MulWide(dlo, dhi, &w.V[uint8(in.Src[0].Reg)], &w.V[uint8(in.Src[1].Reg)], core.LiveLanes(mask))
	if dlo == &t[3] { // scratch: copy the EXEC lanes back
		w.Wv(r, mask, dlo)
		w.Wv(r+1, mask, dhi)
	}
	setMask(w, in, 1, 0)
	return nil
}

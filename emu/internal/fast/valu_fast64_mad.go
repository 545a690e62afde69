package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
	"math/bits"
)

var kernels64 = map[string]int{
	"v_lshlrev_b64": k64Lshl, "v_lshrrev_b64": k64Lshr, "v_ashrrev_i64": k64Ashr,
	"v_mad_u64_u32": k64MadU, "v_mad_i64_i32": k64MadI,
}

// fast64Eligible: no SDWA, DPP or omod, VGPR destinations and 64-bit VGPR
// operands that are whole pairs (v255 is not).
func fast64Eligible(in *core.Instr, inst *isa.Inst, kind int) bool {
	if inst.Variant == isa.VariantSDWA || inst.Variant == isa.VariantDPP || inst.Mods.Omod != 0 {
		return false
	}
	if in.Dst[0].Kind != core.OkV || in.Dst[0].Reg >= 255 {
		return false
	}
	// clamp does not change these in execVOP (oft 0: the lane functions
	// ignore it)
	wide, n := 1, 2 // the 64-bit source, the number of sources
	if kind >= k64MadU {
		wide, n = 2, 3
	}
	if int(in.Nsrc) < n {
		return false
	}
	for k := 0; k < n; k++ {
		if o := &in.Src[k]; o.Sext || k == wide && o.Kind == core.OkV && o.Reg >= 255 {
			return false
		}
	}
	return true
}

func execShift64(w *core.Wave, in *core.Instr) error {
	if gprIdx(w) {
		return ref.ExecVOP(w, in)
	}
	t := &w.Tmp
	mask := w.Exec()
	r := int(in.Dst[0].Reg)
	n := core.LiveLanes(mask)
	a := srcQ(w, in, 0, &t[0], n)
	blo, bhi := src64Lanes(w, in, 1, &t[1], &t[2], n)
	dlo, dhi := dstQuads(w, r, mask, &t[3]), dstQuads(w, r+1, mask, &t[4])
	shift64(in, dlo, dhi, a, blo, bhi, n)
	dstPut(w, r, mask, dlo)
	dstPut(w, r+1, mask, dhi)
	return nil
}

// shift64 runs in's 64-bit shift of the quads holding lanes 0 to n-1. The
// common shift by a constant has a scalar loop of its own; the vector loop
// is faster still.
func shift64(in *core.Instr, dlo, dhi, a, blo, bhi *[64]uint32, n int) {
	if in.Sub == k64Lshl && in.Src[0].Kind == core.OkConst && !simd.SIMD {
		ShlConstLanes(dlo, dhi, blo, bhi, uint(in.Src[0].Val&63), n)
		return
	}
	shift64Quads(dlo, dhi, a, blo, bhi, in.Sub, n)
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

// ShlConstLanes shifts lanes 0 to n-1 left by s, a quad of lanes a step
// and the last n%4 lanes one by one (dlo may be the destination register
// itself, whose lanes from n on are not to change).
func ShlConstLanes(dlo, dhi, blo, bhi *[64]uint32, s uint, n int) {
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

func execMad64(w *core.Wave, in *core.Instr) error {
	if gprIdx(w) {
		return ref.ExecVOP(w, in)
	}
	t := &w.Tmp
	mask := w.Exec()
	n := core.LiveLanes(mask)
	a := srcQ(w, in, 0, &t[0], n)
	r := int(in.Dst[0].Reg)
	dlo, dhi := dstQuads(w, r, mask, &t[3]), dstQuads(w, r+1, mask, &t[4])
	var co uint64
	switch {
	case in.Sub == k64MadU && zeroConst(&in.Src[2]): // a plain 32×32→64 multiply
		simd.MulWide(dlo, dhi, a, srcQ(w, in, 1, &t[1], n), n)
	case in.Sub == k64MadU && sameLanes(&in.Src[1]) && !simd.SIMD: // a factor the same in every lane (the vector loop is faster still)
		clo, chi := src64Lanes(w, in, 2, &t[2], &t[5], n)
		co = MadU64Uniform(dlo, dhi, a, clo, chi, w.Sv(&in.Src[1]), n)
	case in.Sub == k64MadU:
		clo, chi := src64Lanes(w, in, 2, &t[2], &t[5], n)
		co = MadU64Lanes(dlo, dhi, a, srcQ(w, in, 1, &t[1], n), clo, chi, n)
	default:
		clo, chi := src64Lanes(w, in, 2, &t[2], &t[5], n)
		co = madI64Lanes(dlo, dhi, a, srcQ(w, in, 1, &t[1], n), clo, chi, n)
	}
	dstPut(w, r, mask, dlo)
	dstPut(w, r+1, mask, dhi)
	setMask(w, in, 1, co&mask)
	return nil
}

// MadU64Lanes is v_mad_u64_u32 on the quads holding lanes 0 to n-1: D =
// S0×S1 + S2 and the carry-out mask.
func MadU64Lanes(dlo, dhi, a, b, clo, chi *[64]uint32, n int) uint64 {
	return simd.MadWide(dlo, dhi, a, b, clo, chi, n)
}

// MadU64Uniform is madU64Lanes with the same S1 in every lane: one fewer
// load a lane, and the loop fits in registers.
//
//go:noinline
func MadU64Uniform(dlo, dhi, a, clo, chi *[64]uint32, b uint32, n int) uint64 {
	g := core.Nquads(n)
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
func sameLanes(o *core.Operand) bool { return o.Kind == core.OkS || o.Kind == core.OkConst }

// zeroConst reports whether o is the inline constant 0.
func zeroConst(o *core.Operand) bool { return o.Kind == core.OkConst && o.Val == 0 }

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

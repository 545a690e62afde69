package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// Whole-register VOPC: 32- and 64-bit integer and float compares build
// their lane mask in one loop over the sources, with the same operands,
// modifiers, input-denormal flushing and destinations as execVOPC.
// Conditions come in complementary pairs (integer c and 7-c, float c and
// 15-c), so each loop computes one of the first half.

// cmpEligible: a 32/64-bit integer or float compare without SDWA or DPP,
// whose 64-bit VGPR sources are whole pairs.
func cmpEligible(in *core.Instr, inst *isa.Inst) bool {
	if inst.Variant == isa.VariantSDWA || inst.Variant == isa.VariantDPP || in.Nsrc < 2 {
		return false
	}
	switch in.Sub >> 8 & 0xff {
	case ref.CmpI32, ref.CmpU32, ref.CmpF32:
	case ref.CmpClass32:
	case ref.CmpI64, ref.CmpU64, ref.CmpF64, ref.CmpClass64:
		for k := 0; k < 2; k++ {
			if o := &in.Src[k]; o.Kind == core.OkV && o.Reg >= 255 {
				return false
			}
		}
	default:
		return false
	}
	for k := 0; k < 2; k++ {
		if in.Src[k].Sext {
			return false
		}
	}
	return true
}

// bit64 is 1 for true.
func bit64(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func execCmpFast(w *core.Wave, in *core.Instr) error {
	if gprIdx(w) {
		return ref.ExecVOPC(w, in)
	}
	kind, c := int(in.Sub>>8&0xff), int(in.Sub&0xff)
	t := &w.Tmp
	m := w.S[core.SlotMode]
	exec := w.Exec()
	n := core.LiveLanes(exec) // compares of inactive lanes are 0
	var r uint64
	switch kind {
	case ref.CmpI32, ref.CmpU32:
		a, b := srcQ(w, in, 0, &t[0], n), srcQ(w, in, 1, &t[1], n)
		var bias uint32
		if kind == ref.CmpI32 {
			bias = 1 << 31
		}
		r = icmpMask32(a, b, c, bias, n)
	case ref.CmpF32:
		din := m>>4&1 != 0
		a, b := srcF32(w, in, 0, din, &t[0]), srcF32(w, in, 1, din, &t[1])
		r = fcmpMask32(a, b, c, n)
	case ref.CmpI64, ref.CmpU64:
		alo, ahi := src64Lanes(w, in, 0, &t[0], &t[1], n)
		blo, bhi := src64Lanes(w, in, 1, &t[2], &t[3], n)
		r = icmpMask64(alo, ahi, blo, bhi, c, kind == ref.CmpI64, n)
	case ref.CmpClass32: // no input flushing
		a, b := srcF32(w, in, 0, true, &t[0]), srcF32(w, in, 1, true, &t[1])
		for l := range n {
			u := a[l]
			r |= uint64(b[l]) >> class32(u) & 1 << uint(l)
		}
	case ref.CmpClass64:
		alo, ahi := srcF64(w, in, 0, true, &t[0], &t[1])
		b := src32(w, in, 1, &t[2]) // (abs and neg act on bit 63 of the zero-extended mask)
		for l := range n {
			r |= uint64(b[l]) >> class64(uint64(alo[l])|uint64(ahi[l])<<32) & 1 << uint(l)
		}
	default: // cmpF64
		din := m>>6&1 != 0
		a := srcRegsF64(w, in, 0, din, (*F64Regs)(t[0:2]))
		b := srcRegsF64(w, in, 1, din, (*F64Regs)(t[2:4]))
		r = simd.CmpF64(a.rows(), b.rows(), c, n)
	}
	r &= exec
	ref.PutCmpMask(w, in, r, in.Sub>>16 != 0)
	return nil
}

// srcF32 returns f32 source k with abs, neg and input flushing applied
// (vfetch's order) in buf when any applies.
func srcF32(w *core.Wave, in *core.Instr, k int, din bool, buf *[64]uint32) *[64]uint32 {
	o := &in.Src[k]
	src := src32(w, in, k, buf)
	if !o.Abs && !o.Neg && din {
		return src
	}
	var am, nm uint32
	if o.Abs {
		am = 1 << 31
	}
	if o.Neg {
		nm = 1 << 31
	}
	for l := range buf {
		x := src[l]&^am ^ nm
		if !din && x&0x7f800000 == 0 {
			x &= 0x80000000
		}
		buf[l] = x
	}
	return buf
}

// srcF64 is srcF32 for an f64 source, in halves (the low one the
// source's own unless flushed).
func srcF64(w *core.Wave, in *core.Instr, k int, din bool, lo, hi *[64]uint32) (*[64]uint32, *[64]uint32) {
	o := &in.Src[k]
	slo, shi := src64(w, in, k, lo, hi)
	if !o.Abs && !o.Neg && din {
		return slo, shi
	}
	var am, nm uint32
	if o.Abs {
		am = 1 << 31
	}
	if o.Neg {
		nm = 1 << 31
	}
	if din { // only the high dwords (the signs) change
		for l := range hi {
			hi[l] = shi[l]&^am ^ nm
		}
		return slo, hi
	}
	for l := range lo {
		x, y := slo[l], shi[l]&^am^nm
		if !din && y&0x7ff00000 == 0 {
			x, y = 0, y&0x80000000
		}
		lo[l], hi[l] = x, y
	}
	return lo, hi
}

// The mask loops run lanes l and l+32 side by side (two independent
// chains), each half built from the top as in the carry loops.

// icmpMask32 evaluates integer condition c (iconds) on every lane; bias
// 1<<31 makes the order signed.
func icmpMask32(a, b *[64]uint32, c int, bias uint32, n int) uint64 {
	inv := c >= 4
	if inv {
		c = 7 - c
	}
	var r uint64
	switch c {
	case 1: // lt
		r = ltMask32(a, b, bias, n)
	case 2: // eq
		r = simd.Equal(a, b, n)
	case 3: // le: not b < a
		r = ^ltMask32(b, a, bias, n)
	}
	if inv {
		r = ^r
	}
	return r
}

// ltMask32 is the lt compare, signed when bias is 1<<31.
func ltMask32(a, b *[64]uint32, bias uint32, n int) uint64 {
	if bias == 0 {
		return simd.Less(a, b, n)
	}
	return simd.LessSigned(a, b, n)
}

// icmpMask64 is icmpMask32 for 64-bit lanes, signed or not.
func icmpMask64(alo, ahi, blo, bhi *[64]uint32, c int, signed bool, n int) uint64 {
	inv := c >= 4
	if inv {
		c = 7 - c
	}
	var r uint64
	switch c {
	case 1:
		r = ltMask64(alo, ahi, blo, bhi, signed, n)
	case 2:
		r = simd.Equal64(alo, ahi, blo, bhi, n)
	case 3:
		r = ^ltMask64(blo, bhi, alo, ahi, signed, n)
	}
	if inv {
		r = ^r
	}
	return r
}

func ltMask64(alo, ahi, blo, bhi *[64]uint32, signed bool, n int) uint64 {
	if signed {
		return simd.LessSigned64(alo, ahi, blo, bhi, n)
	}
	return simd.Less64(alo, ahi, blo, bhi, n)
}

// fcmp1 evaluates ordered float condition c (1–7 of fconds).
func fcmp1(c int, x, y float64) uint64 {
	switch c {
	case 1:
		return bit64(x < y)
	case 2:
		return bit64(x == y)
	case 3:
		return bit64(x <= y)
	case 4:
		return bit64(x > y)
	case 5:
		return bit64(x < y) | bit64(x > y)
	case 6:
		return bit64(x >= y)
	case 7:
		return bit64(x == x) & bit64(y == y)
	}
	return 0
}

// fcmpMask32 evaluates float condition c (fconds) on every lane.
func fcmpMask32(a, b *[64]uint32, c int, n int) uint64 {
	h := pairSteps(n)
	inv := c >= 8
	if inv {
		c = 15 - c
	}
	var lo, hi uint64
	switch c {
	case 1:
		for l := range h {
			lo = lo>>1 | bit64(core.F32(a[l]) < core.F32(b[l]))<<31
			hi = hi>>1 | bit64(core.F32(a[l+32]) < core.F32(b[l+32]))<<31
		}
	case 2:
		for l := range h {
			lo = lo>>1 | bit64(core.F32(a[l]) == core.F32(b[l]))<<31
			hi = hi>>1 | bit64(core.F32(a[l+32]) == core.F32(b[l+32]))<<31
		}
	case 3:
		for l := range h {
			lo = lo>>1 | bit64(core.F32(a[l]) <= core.F32(b[l]))<<31
			hi = hi>>1 | bit64(core.F32(a[l+32]) <= core.F32(b[l+32]))<<31
		}
	case 4:
		for l := range h {
			lo = lo>>1 | bit64(core.F32(a[l]) > core.F32(b[l]))<<31
			hi = hi>>1 | bit64(core.F32(a[l+32]) > core.F32(b[l+32]))<<31
		}
	case 6:
		for l := range h {
			lo = lo>>1 | bit64(core.F32(a[l]) >= core.F32(b[l]))<<31
			hi = hi>>1 | bit64(core.F32(a[l+32]) >= core.F32(b[l+32]))<<31
		}
	case 0:
	default:
		for l := range h {
			lo = lo>>1 | fcmp1(c, float64(core.F32(a[l])), float64(core.F32(b[l])))<<31
			hi = hi>>1 | fcmp1(c, float64(core.F32(a[l+32])), float64(core.F32(b[l+32])))<<31
		}
	}
	r := pairDown(lo, hi, h)
	if inv {
		r = ^r
	}
	return r
}

// class32 is fclass for f32 bits: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal,
// 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
func class32(u uint32) uint {
	e, m, neg := u>>23&0xff, u&0x7fffff, u>>31 != 0
	var c uint
	switch {
	case e == 0xff && m != 0:
		return uint(m >> 22) // quiet bit
	case e == 0xff:
		c = 9
	case e == 0 && m == 0:
		c = 6
	case e == 0:
		c = 7
	default:
		c = 8
	}
	if neg {
		c = 11 - c
	}
	return c
}

func class64(u uint64) uint {
	e, m, neg := u>>52&0x7ff, u&(1<<52-1), u>>63 != 0
	var c uint
	switch {
	case e == 0x7ff && m != 0:
		return uint(m >> 51)
	case e == 0x7ff:
		c = 9
	case e == 0 && m == 0:
		c = 6
	case e == 0:
		c = 7
	default:
		c = 8
	}
	if neg {
		c = 11 - c
	}
	return c
}

package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"math"
)

// Integer VOP3 operations that honour the clamp bit. For these, clamp means
// saturate: the exact result is computed wide and, with clamp set, pinned
// to the range of the destination type before it is truncated. The set is
// the one llvm-mc-19 accepts "clamp" on for gfx803/gfx900 (RATIONALE.md
// "Integer clamp"); the carry-writing add/sub family (v_add_co_u32 …,
// GFX8's v_add_u32 …) is in valu_defs.go because it also writes a carry,
// and the packed ones (v_pk_add_u16 …) in valu_pk.go.

// satOp is one saturating integer operation.
type satOp struct {
	Name   string
	Nsrc   uint8
	Bits   uint8 // destination width: 16 or 32
	Signed bool
	Exact  func(a, b, c uint64) int64 // the unbounded result
}

// u16 and i16 read the low half of a source.
func u16(x uint64) int64 { return int64(uint16(x)) }
func i16(x uint64) int64 { return int64(int16(x)) }
func u32(x uint64) int64 { return int64(uint32(x)) }

func absd(x, y int64) int64 {
	if x > y {
		return x - y
	}
	return y - x
}

// sadBytes sums |a.byte[i] − b.byte[i]|, skipping bytes where b is 0 when
// masked (v_msad_u8).
func sadBytes(a, b uint64, masked bool) int64 {
	var s int64
	for i := uint(0); i < 32; i += 8 {
		x, y := int64(a>>i&0xff), int64(b>>i&0xff)
		if masked && y == 0 {
			continue
		}
		s += absd(x, y)
	}
	return s
}

var SatOps = []satOp{
	{"v_add_u16", 2, 16, false, func(a, b, c uint64) int64 { return u16(a) + u16(b) }},
	{"v_sub_u16", 2, 16, false, func(a, b, c uint64) int64 { return u16(a) - u16(b) }},
	{"v_subrev_u16", 2, 16, false, func(a, b, c uint64) int64 { return u16(b) - u16(a) }},
	{"v_add_i16", 2, 16, true, func(a, b, c uint64) int64 { return i16(a) + i16(b) }},
	{"v_sub_i16", 2, 16, true, func(a, b, c uint64) int64 { return i16(a) - i16(b) }},
	// GFX9 carry-less 32-bit add/sub
	{"v_add_u32", 2, 32, false, func(a, b, c uint64) int64 { return u32(a) + u32(b) }},
	{"v_sub_u32", 2, 32, false, func(a, b, c uint64) int64 { return u32(a) - u32(b) }},
	{"v_subrev_u32", 2, 32, false, func(a, b, c uint64) int64 { return u32(b) - u32(a) }},
	{"v_add_i32", 2, 32, true, func(a, b, c uint64) int64 { return int64(i32(a)) + int64(i32(b)) }},
	{"v_sub_i32", 2, 32, true, func(a, b, c uint64) int64 { return int64(i32(a)) - int64(i32(b)) }},
	// multiply-add
	{"v_mad_u16", 3, 16, false, func(a, b, c uint64) int64 { return u16(a)*u16(b) + u16(c) }},
	{"v_mad_i16", 3, 16, true, func(a, b, c uint64) int64 { return i16(a)*i16(b) + i16(c) }},
	{"v_mad_legacy_u16", 3, 16, false, func(a, b, c uint64) int64 { return u16(a)*u16(b) + u16(c) }},
	{"v_mad_legacy_i16", 3, 16, true, func(a, b, c uint64) int64 { return i16(a)*i16(b) + i16(c) }},
	{"v_mad_u32_u16", 3, 32, false, func(a, b, c uint64) int64 { return u16(a)*u16(b) + u32(c) }},
	{"v_mad_i32_i16", 3, 32, true, func(a, b, c uint64) int64 { return i16(a)*i16(b) + int64(i32(c)) }},
	{"v_mad_u32_u24", 3, 32, false, func(a, b, c uint64) int64 { return int64(a&0xffffff)*int64(b&0xffffff) + u32(c) }},
	{"v_mad_i32_i24", 3, 32, true, func(a, b, c uint64) int64 { return sext24(a)*sext24(b) + int64(i32(c)) }},
	{"v_mul_u32_u24", 2, 32, false, func(a, b, c uint64) int64 { return int64(a&0xffffff) * int64(b&0xffffff) }},
	{"v_mul_i32_i24", 2, 32, true, func(a, b, c uint64) int64 { return sext24(a) * sext24(b) }},
	// sums of absolute differences accumulate into a u32
	{"v_sad_u8", 3, 32, false, func(a, b, c uint64) int64 { return sadBytes(a, b, false) + u32(c) }},
	{"v_sad_hi_u8", 3, 32, false, func(a, b, c uint64) int64 { return sadBytes(a, b, false)<<16 + u32(c) }},
	{"v_sad_u16", 3, 32, false, func(a, b, c uint64) int64 {
		return absd(u16(a), u16(b)) + absd(u16(a>>16), u16(b>>16)) + u32(c)
	}},
	{"v_sad_u32", 3, 32, false, func(a, b, c uint64) int64 { return absd(u32(a), u32(b)) + u32(c) }},
	{"v_msad_u8", 3, 32, false, func(a, b, c uint64) int64 { return sadBytes(a, b, true) + u32(c) }},
}

// SatRange is the range of an integer type.
func SatRange(bits uint8, signed bool) (lo, hi int64) {
	switch {
	case bits == 16 && signed:
		return math.MinInt16, math.MaxInt16
	case bits == 16:
		return 0, math.MaxUint16
	case signed:
		return math.MinInt32, math.MaxInt32
	}
	return 0, math.MaxUint32
}

func init() {
	for _, o := range SatOps {
		lo, hi := SatRange(o.Bits, o.Signed)
		mask := uint64(1)<<o.Bits - 1
		f := o.Exact
		defV(o.Name, core.CVALU, core.Vop{Nsrc: o.Nsrc, Fn: func(e *core.Fenv, a, b, c uint64) uint64 {
			r := f(a, b, c)
			if e.Clamp {
				r = Sat(r, lo, hi)
			}
			return uint64(r) & mask
		}})
	}
}

package emu

import (
	"math/bits"

	"github.com/wavedbg/wavedbg/isa"
)

// SOP2 operations.
const (
	sAddU32 = iota
	sSubU32
	sAddI32
	sSubI32
	sAddcU32
	sSubbU32
	sMinI32
	sMinU32
	sMaxI32
	sMaxU32
	sCselect32
	sCselect64
	sAnd32
	sAnd64
	sOr32
	sOr64
	sXor32
	sXor64
	sAndn2_32
	sAndn2_64
	sOrn2_32
	sOrn2_64
	sNand32
	sNand64
	sNor32
	sNor64
	sXnor32
	sXnor64
	sLshl32
	sLshl64
	sLshr32
	sLshr64
	sAshr32
	sAshr64
	sBfm32
	sBfm64
	sMulI32
	sBfeU32
	sBfeI32
	sBfeU64
	sBfeI64
	sAbsdiffI32
	sMulHiU32
	sMulHiI32
	sLshl1Add
	sLshl2Add
	sLshl3Add
	sLshl4Add
	sPackLL
	sPackLH
	sPackHH
)

func init() {
	for i, n := range sop2Names {
		ty := srcType(n)
		switch int32(i) {
		case sCselect64, sAnd64, sOr64, sXor64, sAndn2_64, sOrn2_64, sNand64, sNor64, sXnor64:
			def(n, execSOP2Bit64, int32(i), 1, ty, cSALU)
		default:
			def(n, execSOP2, int32(i), 1, ty, cSALU)
		}
	}
}

// srcType is the emulator type of the named scalar operation's first
// register source, from isa's tables (OpInfo.Src): tyB64 for s_and_b64,
// tyB32 for s_bfm_b64, tyB32 when the tables give none.
func srcType(name string) uint8 {
	op, _ := isa.OpByName(name)
	return isaType(op.Info().Src, tyB32)
}

// execSOP2Bit64 executes the 64-bit bitwise SOP2 operations and
// s_cselect_b64, the scalar unit's mask arithmetic around divergent code.
// Its accessors (ssrc64, sdst64, sccOut) read and write SGPR pairs inline
// when the step is not journaled.
func execSOP2Bit64(w *Wave, in *instr) error {
	if in.nsrc < 2 {
		return execBadOperands(w, in)
	}
	a, b := &in.src[0], &in.src[1]
	x, y := w.ssrc64(a), w.ssrc64(b)
	if in.sub == sCselect64 {
		r := y
		if w.s[slotSCC] != 0 {
			r = x
		}
		w.sdst64(&in.dst[0], r)
		return nil
	}
	r := bitop64(in.sub, x, y)
	w.sdst64(&in.dst[0], r)
	w.sccOut(r != 0)
	return nil
}

// execSOP2Bit64Fast is execSOP2Bit64's fast form: SGPR pairs read and
// written in place (the accessors do not inline into it).
func execSOP2Bit64Fast(w *Wave, in *instr) error {
	if in.nsrc < 2 {
		return execBadOperands(w, in)
	}
	a, b, d := &in.src[0], &in.src[1], &in.dst[0]
	var x, y uint64
	if r := a.reg; a.kind == okS && r < 127 {
		x = uint64(w.s[r&127]) | uint64(w.s[(r+1)&127])<<32
	} else {
		x = w.sv64(a)
	}
	if r := b.reg; b.kind == okS && r < 127 {
		y = uint64(w.s[r&127]) | uint64(w.s[(r+1)&127])<<32
	} else {
		y = w.sv64(b)
	}
	if in.sub == sCselect64 {
		if w.s[slotSCC] != 0 {
			y = x
		}
		w.sdst64(d, y)
		return nil
	}
	r := bitop64(in.sub, x, y)
	if d.kind == okS && d.reg < 127 {
		w.s[d.reg&127], w.s[(d.reg+1)&127] = uint32(r), uint32(r>>32)
		w.s[slotSCC] = b2u(r != 0)
		return nil
	}
	w.sd64(d, r)
	w.setSCC(r != 0)
	return nil
}

// bitop64 computes the 64-bit bitwise SOP2 operation sub.
func bitop64(sub int32, x, y uint64) uint64 {
	switch sub {
	case sAnd64:
		return x & y
	case sOr64:
		return x | y
	case sXor64:
		return x ^ y
	case sAndn2_64:
		return x &^ y
	case sOrn2_64:
		return x | ^y
	case sNand64:
		return ^(x & y)
	case sNor64:
		return ^(x | y)
	case sXnor64:
		return ^(x ^ y)
	}
	return 0
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// execSOP2 executes two-source scalar ALU operations.
func execSOP2(w *Wave, in *instr) error {
	if in.nsrc < 2 {
		return execBadOperands(w, in)
	}
	d, a, b := &in.dst[0], &in.src[0], &in.src[1]
	switch in.sub {
	case sCselect64, sAnd64, sOr64, sXor64, sAndn2_64, sOrn2_64, sNand64, sNor64, sXnor64, sBfeU64, sBfeI64:
		x, y := w.ssrc64(a), w.ssrc64(b)
		var r uint64
		switch in.sub {
		case sCselect64:
			r = y
			if w.scc() {
				r = x
			}
			w.sdst64(d, r)
			return nil
		case sBfeU64, sBfeI64:
			off, width := y&63, (y>>16)&0x7f
			r = bfe64(x, uint(off), uint(width), in.sub == sBfeI64)
		default:
			r = bitop64(in.sub, x, y)
		}
		w.sdst64(d, r)
		w.sccOut(r != 0)
		return nil
	case sLshl64, sLshr64, sAshr64:
		x, s := w.ssrc64(a), uint(w.ssrc(b)&63)
		var r uint64
		switch in.sub {
		case sLshl64:
			r = x << s
		case sLshr64:
			r = x >> s
		default:
			r = uint64(int64(x) >> s)
		}
		w.sdst64(d, r)
		w.sccOut(r != 0)
		return nil
	case sBfm64:
		x, y := w.ssrc(a)&63, w.ssrc(b)&63
		w.sdst64(d, ((uint64(1)<<x)-1)<<y)
		return nil
	}
	r, scc, sets := sop2x32(in.sub, w.ssrc(a), w.ssrc(b), w.s[slotSCC])
	if sets {
		w.sccOut(scc)
	}
	w.sdst(d, r)
	return nil
}

// sop2x32 computes the 32-bit SOP2 operation sub of x and y (and SCC as
// carry-in): the result and, when the operation sets it, SCC.
func sop2x32(sub int32, x, y, sccIn uint32) (r uint32, scc, sets bool) {
	switch sub {
	case sAddU32:
		s, c := bits.Add32(x, y, 0)
		return s, c != 0, true
	case sSubU32:
		s, c := bits.Sub32(x, y, 0)
		return s, c != 0, true
	case sAddI32:
		r = x + y
		return r, int32(x) >= 0 == (int32(y) >= 0) && (int32(r) >= 0) != (int32(x) >= 0), true
	case sSubI32:
		r = x - y
		return r, (int32(x) >= 0) != (int32(y) >= 0) && (int32(r) >= 0) != (int32(x) >= 0), true
	case sAddcU32:
		s, c := bits.Add32(x, y, sccIn&1)
		return s, c != 0, true
	case sSubbU32:
		s, c := bits.Sub32(x, y, sccIn&1)
		return s, c != 0, true
	case sMinI32:
		if int32(x) < int32(y) {
			return x, true, true
		}
		return y, false, true
	case sMinU32:
		return min(x, y), x < y, true
	case sMaxI32:
		if int32(x) > int32(y) {
			return x, true, true
		}
		return y, false, true
	case sMaxU32:
		return max(x, y), x > y, true
	case sCselect32:
		if sccIn != 0 {
			return x, false, false
		}
		return y, false, false
	case sAnd32, sOr32, sXor32, sAndn2_32, sOrn2_32, sNand32, sNor32, sXnor32:
		r = uint32(bitop64(sub+1, uint64(x), uint64(y))) // each 64-bit form follows its 32-bit one
	case sLshl32:
		r = x << (y & 31)
	case sLshr32:
		r = x >> (y & 31)
	case sAshr32:
		r = uint32(int32(x) >> (y & 31))
	case sBfm32:
		return ((uint32(1) << (x & 31)) - 1) << (y & 31), false, false
	case sMulI32:
		return x * y, false, false
	case sBfeU32, sBfeI32:
		off, width := y&31, (y>>16)&0x7f
		r = uint32(bfe64(uint64(x), uint(off), uint(min(width, 32)), sub == sBfeI32))
	case sAbsdiffI32:
		t := int32(x) - int32(y)
		if t < 0 {
			t = -t
		}
		r = uint32(t)
	case sMulHiU32:
		return uint32(uint64(x) * uint64(y) >> 32), false, false
	case sMulHiI32:
		return uint32(uint64(int64(int32(x))*int64(int32(y))) >> 32), false, false
	case sLshl1Add, sLshl2Add, sLshl3Add, sLshl4Add:
		wide := uint64(x)<<uint(sub-sLshl1Add+1) + uint64(y)
		return uint32(wide), wide>>32 != 0, true
	case sPackLL:
		return x&0xffff | y<<16, false, false
	case sPackLH:
		return x&0xffff | y&0xffff0000, false, false
	case sPackHH:
		return x>>16 | y&0xffff0000, false, false
	default:
		return 0, false, false
	}
	return r, r != 0, true
}

// bfe64 extracts width bits at off, sign-extending if signed.
func bfe64(x uint64, off, width uint, signed bool) uint64 {
	if width == 0 {
		return 0
	}
	if width > 64 {
		width = 64
	}
	v := x >> off
	if width < 64 {
		v &= 1<<width - 1
		if signed && v>>(width-1)&1 != 0 {
			v |= ^uint64(0) << width
		}
	}
	return v
}

// sop2Names are the SOP2 operations in the order of their sub-operation
// numbers (sAdd32 …).
var sop2Names = []string{"s_add_u32", "s_sub_u32", "s_add_i32", "s_sub_i32", "s_addc_u32", "s_subb_u32",
	"s_min_i32", "s_min_u32", "s_max_i32", "s_max_u32", "s_cselect_b32", "s_cselect_b64",
	"s_and_b32", "s_and_b64", "s_or_b32", "s_or_b64", "s_xor_b32", "s_xor_b64", "s_andn2_b32", "s_andn2_b64",
	"s_orn2_b32", "s_orn2_b64", "s_nand_b32", "s_nand_b64", "s_nor_b32", "s_nor_b64", "s_xnor_b32", "s_xnor_b64",
	"s_lshl_b32", "s_lshl_b64", "s_lshr_b32", "s_lshr_b64", "s_ashr_i32", "s_ashr_i64", "s_bfm_b32", "s_bfm_b64",
	"s_mul_i32", "s_bfe_u32", "s_bfe_i32", "s_bfe_u64", "s_bfe_i64", "s_absdiff_i32", "s_mul_hi_u32", "s_mul_hi_i32",
	"s_lshl1_add_u32", "s_lshl2_add_u32", "s_lshl3_add_u32", "s_lshl4_add_u32",
	"s_pack_ll_b32_b16", "s_pack_lh_b32_b16", "s_pack_hh_b32_b16"}

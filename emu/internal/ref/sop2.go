package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
	"math/bits"
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
	SCselect64
	sAnd32
	SAnd64
	sOr32
	SOr64
	sXor32
	SXor64
	sAndn2_32
	SAndn2_64
	sOrn2_32
	SOrn2_64
	sNand32
	SNand64
	sNor32
	SNor64
	sXnor32
	SXnor64
	sLshl32
	SLshl64
	sLshr32
	SLshr64
	sAshr32
	SAshr64
	sBfm32
	SBfm64
	sMulI32
	sBfeU32
	sBfeI32
	SBfeU64
	SBfeI64
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
	for i, n := range Sop2Names {
		ty := srcType(n)
		switch int32(i) {
		case SCselect64, SAnd64, SOr64, SXor64, SAndn2_64, SOrn2_64, SNand64, SNor64, SXnor64:
			def(n, execSOP2Bit64, int32(i), 1, ty, core.CSALU)
		default:
			def(n, ExecSOP2, int32(i), 1, ty, core.CSALU)
		}
	}
}

// srcType is the emulator type of the named scalar operation's first
// register source, from isa's tables (OpInfo.Src): tyB64 for s_and_b64,
// tyB32 for s_bfm_b64, tyB32 when the tables give none.
func srcType(name string) uint8 {
	op, _ := isa.OpByName(name)
	return core.IsaType(op.Info().Src, core.TyB32)
}

// execSOP2Bit64 executes the 64-bit bitwise SOP2 operations and
// s_cselect_b64, the scalar unit's mask arithmetic around divergent code.
// Its accessors (ssrc64, sdst64, sccOut) read and write SGPR pairs inline
// when the step is not journaled.
func execSOP2Bit64(w *core.Wave, in *core.Instr) error {
	if in.Nsrc < 2 {
		return ExecBadOperands(w, in)
	}
	a, b := &in.Src[0], &in.Src[1]
	x, y := w.Ssrc64(a), w.Ssrc64(b)
	if in.Sub == SCselect64 {
		r := y
		if w.S[core.SlotSCC] != 0 {
			r = x
		}
		w.Sdst64(&in.Dst[0], r)
		return nil
	}
	r := Bitop64(in.Sub, x, y)
	w.Sdst64(&in.Dst[0], r)
	w.SccOut(r != 0)
	return nil
}

// Bitop64 computes the 64-bit bitwise SOP2 operation sub.
func Bitop64(sub int32, x, y uint64) uint64 {
	switch sub {
	case SAnd64:
		return x & y
	case SOr64:
		return x | y
	case SXor64:
		return x ^ y
	case SAndn2_64:
		return x &^ y
	case SOrn2_64:
		return x | ^y
	case SNand64:
		return ^(x & y)
	case SNor64:
		return ^(x | y)
	case SXnor64:
		return ^(x ^ y)
	}
	return 0
}

// ExecSOP2 executes two-source scalar ALU operations.
func ExecSOP2(w *core.Wave, in *core.Instr) error {
	if in.Nsrc < 2 {
		return ExecBadOperands(w, in)
	}
	d, a, b := &in.Dst[0], &in.Src[0], &in.Src[1]
	switch in.Sub {
	case SCselect64, SAnd64, SOr64, SXor64, SAndn2_64, SOrn2_64, SNand64, SNor64, SXnor64, SBfeU64, SBfeI64:
		x, y := w.Ssrc64(a), w.Ssrc64(b)
		var r uint64
		switch in.Sub {
		case SCselect64:
			r = y
			if w.Scc() {
				r = x
			}
			w.Sdst64(d, r)
			return nil
		case SBfeU64, SBfeI64:
			off, width := y&63, (y>>16)&0x7f
			r = Bfe64(x, uint(off), uint(width), in.Sub == SBfeI64)
		default:
			r = Bitop64(in.Sub, x, y)
		}
		w.Sdst64(d, r)
		w.SccOut(r != 0)
		return nil
	case SLshl64, SLshr64, SAshr64:
		x, s := w.Ssrc64(a), uint(w.Ssrc(b)&63)
		var r uint64
		switch in.Sub {
		case SLshl64:
			r = x << s
		case SLshr64:
			r = x >> s
		default:
			r = uint64(int64(x) >> s)
		}
		w.Sdst64(d, r)
		w.SccOut(r != 0)
		return nil
	case SBfm64:
		x, y := w.Ssrc(a)&63, w.Ssrc(b)&63
		w.Sdst64(d, ((uint64(1)<<x)-1)<<y)
		return nil
	}
	r, scc, sets := Sop2x32(in.Sub, w.Ssrc(a), w.Ssrc(b), w.S[core.SlotSCC])
	if sets {
		w.SccOut(scc)
	}
	w.Sdst(d, r)
	return nil
}

// Sop2x32 computes the 32-bit SOP2 operation sub of x and y (and SCC as
// carry-in): the result and, when the operation sets it, SCC.
func Sop2x32(sub int32, x, y, sccIn uint32) (r uint32, scc, sets bool) {
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
		r = uint32(Bitop64(sub+1, uint64(x), uint64(y))) // each 64-bit form follows its 32-bit one
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
		r = uint32(Bfe64(uint64(x), uint(off), uint(min(width, 32)), sub == sBfeI32))
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

// Bfe64 extracts width bits at off, sign-extending if signed.
func Bfe64(x uint64, off, width uint, signed bool) uint64 {
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

// Sop2Names are the SOP2 operations in the order of their sub-operation
// numbers (sAdd32 …).
var Sop2Names = []string{"s_add_u32", "s_sub_u32", "s_add_i32", "s_sub_i32", "s_addc_u32", "s_subb_u32",
	"s_min_i32", "s_min_u32", "s_max_i32", "s_max_u32", "s_cselect_b32", "s_cselect_b64",
	"s_and_b32", "s_and_b64", "s_or_b32", "s_or_b64", "s_xor_b32", "s_xor_b64", "s_andn2_b32", "s_andn2_b64",
	"s_orn2_b32", "s_orn2_b64", "s_nand_b32", "s_nand_b64", "s_nor_b32", "s_nor_b64", "s_xnor_b32", "s_xnor_b64",
	"s_lshl_b32", "s_lshl_b64", "s_lshr_b32", "s_lshr_b64", "s_ashr_i32", "s_ashr_i64", "s_bfm_b32", "s_bfm_b64",
	"s_mul_i32", "s_bfe_u32", "s_bfe_i32", "s_bfe_u64", "s_bfe_i64", "s_absdiff_i32", "s_mul_hi_u32", "s_mul_hi_i32",
	"s_lshl1_add_u32", "s_lshl2_add_u32", "s_lshl3_add_u32", "s_lshl4_add_u32",
	"s_pack_ll_b32_b16", "s_pack_lh_b32_b16", "s_pack_hh_b32_b16"}

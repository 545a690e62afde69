package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"math/bits"
)

// SOP1 operations.
const (
	S1Mov32 = iota
	S1Mov64
	s1Cmov32
	s1Cmov64
	s1Not32
	s1Not64
	s1Wqm32
	s1Wqm64
	s1Brev32
	s1Brev64
	s1Bcnt0_32
	s1Bcnt0_64
	s1Bcnt1_32
	s1Bcnt1_64
	s1Ff0_32
	s1Ff0_64
	s1Ff1_32
	s1Ff1_64
	s1Flbit32
	s1Flbit64
	s1FlbitI32
	s1FlbitI64
	s1Sext8
	s1Sext16
	s1Bitset0_32
	s1Bitset0_64
	s1Bitset1_32
	s1Bitset1_64
	s1Quadmask32
	s1Quadmask64
	s1Abs
	s1Movrels32
	s1Movrels64
	s1Movreld32
	s1Movreld64
	s1Bitrep
)

// saveexec operations: D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0.
const (
	SeAnd = iota
	seOr
	seXor
	seAndn2
	seOrn2
	seNand
	seNor
	seXnor
	SeAndn1
	SeOrn1
	SeAndn1Wr
	SeAndn2Wr
)

func init() {
	for i, n := range Sop1Names {
		ty := srcType(n)
		def(n, ExecSOP1, int32(i), 1, ty, core.CSALU)
	}
	for i, n := range SaveexecNames {
		def(n, ExecSaveexec, int32(i), 1, core.TyB64, core.CSALU)
	}
}

// ExecSOP1 executes one-source scalar ALU operations.
func ExecSOP1(w *core.Wave, in *core.Instr) error {
	if in.Nsrc < 1 {
		return ExecBadOperands(w, in)
	}
	d, a := &in.Dst[0], &in.Src[0]
	switch in.Sub {
	case S1Mov32:
		w.Sdst(d, w.Ssrc(a))
	case S1Mov64:
		w.Sdst64(d, w.Ssrc64(a))
	case s1Cmov32:
		if v := w.Ssrc(a); w.Scc() {
			w.Sdst(d, v)
		}
	case s1Cmov64:
		if v := w.Ssrc64(a); w.Scc() {
			w.Sdst64(d, v)
		}
	case s1Not32:
		r := ^w.Ssrc(a)
		w.Sdst(d, r)
		w.SccOut(r != 0)
	case s1Not64:
		r := ^w.Ssrc64(a)
		w.Sdst64(d, r)
		w.SccOut(r != 0)
	case s1Wqm32, s1Wqm64:
		x := w.Ssrc64(a)
		if in.Sub == s1Wqm32 {
			x &= 0xffffffff
		}
		var r uint64
		for q := 0; q < 64; q += 4 {
			if x>>uint(q)&0xf != 0 {
				r |= 0xf << uint(q)
			}
		}
		if in.Sub == s1Wqm32 {
			w.Sdst(d, uint32(r))
		} else {
			w.Sdst64(d, r)
		}
		w.SccOut(r != 0)
	case s1Brev32:
		w.Sdst(d, bits.Reverse32(w.Ssrc(a)))
	case s1Brev64:
		w.Sdst64(d, bits.Reverse64(w.Ssrc64(a)))
	case s1Bcnt0_32, s1Bcnt1_32:
		n := bits.OnesCount32(w.Ssrc(a))
		if in.Sub == s1Bcnt0_32 {
			n = 32 - n
		}
		w.Sdst(d, uint32(n))
		w.SccOut(n != 0)
	case s1Bcnt0_64, s1Bcnt1_64:
		n := bits.OnesCount64(w.Ssrc64(a))
		if in.Sub == s1Bcnt0_64 {
			n = 64 - n
		}
		w.Sdst(d, uint32(n))
		w.SccOut(n != 0)
	case s1Ff0_32, s1Ff1_32:
		x := w.Ssrc(a)
		if in.Sub == s1Ff0_32 {
			x = ^x
		}
		r := uint32(0xffffffff)
		if x != 0 {
			r = uint32(bits.TrailingZeros32(x))
		}
		w.Sdst(d, r)
	case s1Ff0_64, s1Ff1_64:
		x := w.Ssrc64(a)
		if in.Sub == s1Ff0_64 {
			x = ^x
		}
		r := uint32(0xffffffff)
		if x != 0 {
			r = uint32(bits.TrailingZeros64(x))
		}
		w.Sdst(d, r)
	case s1Flbit32:
		x := w.Ssrc(a)
		r := uint32(0xffffffff)
		if x != 0 {
			r = uint32(bits.LeadingZeros32(x))
		}
		w.Sdst(d, r)
	case s1Flbit64:
		x := w.Ssrc64(a)
		r := uint32(0xffffffff)
		if x != 0 {
			r = uint32(bits.LeadingZeros64(x))
		}
		w.Sdst(d, r)
	case s1FlbitI32:
		w.Sdst(d, flbitSigned(uint64(int64(int32(w.Ssrc(a)))), 32))
	case s1FlbitI64:
		w.Sdst(d, flbitSigned(w.Ssrc64(a), 64))
	case s1Sext8:
		w.Sdst(d, uint32(int32(int8(w.Ssrc(a)))))
	case s1Sext16:
		w.Sdst(d, uint32(int32(int16(w.Ssrc(a)))))
	case s1Bitset0_32, s1Bitset1_32:
		b := w.Ssrc(a) & 31
		v := w.Rs(int(d.Reg))
		if in.Sub == s1Bitset0_32 {
			v &^= 1 << b
		} else {
			v |= 1 << b
		}
		w.Sdst(d, v)
	case s1Bitset0_64, s1Bitset1_64:
		b := w.Ssrc(a) & 63
		v := w.Rs64(int(d.Reg) &^ 0)
		if in.Sub == s1Bitset0_64 {
			v &^= 1 << b
		} else {
			v |= 1 << b
		}
		w.Sdst64(d, v)
	case s1Quadmask32, s1Quadmask64:
		x := w.Ssrc64(a)
		n := 8
		if in.Sub == s1Quadmask64 {
			n = 16
		}
		var r uint64
		for q := 0; q < n; q++ {
			if x>>uint(4*q)&0xf != 0 {
				r |= 1 << uint(q)
			}
		}
		if in.Sub == s1Quadmask32 {
			w.Sdst(d, uint32(r))
		} else {
			w.Sdst64(d, r)
		}
		w.SccOut(r != 0)
	case s1Abs:
		x := int32(w.Ssrc(a))
		if x < 0 {
			x = -x
		}
		w.Sdst(d, uint32(x))
		w.SccOut(x != 0)
	case s1Movrels32, s1Movrels64:
		if a.Kind != core.OkS {
			return ExecBadOperands(w, in)
		}
		src := int(a.Reg) + int(w.Rs(core.CodeM0))
		n := 1
		if in.Sub == s1Movrels64 {
			n = 2
		}
		if src+n > 102 {
			w.Note("s_movrels: source index out of range; read as 0")
			for k := 0; k < n; k++ {
				w.Ws(int(d.Reg)+k, 0)
			}
			return nil
		}
		for k := 0; k < n; k++ {
			w.Ws(int(d.Reg)+k, w.Rs(src+k))
		}
	case s1Movreld32, s1Movreld64:
		dst := int(d.Reg) + int(w.Rs(core.CodeM0))
		n := 1
		if in.Sub == s1Movreld64 {
			n = 2
		}
		if dst+n > 102 {
			w.Note("s_movreld: destination index out of range; write dropped")
			return nil
		}
		v := w.Ssrc64(a)
		for k := 0; k < n; k++ {
			w.Ws(dst+k, uint32(v>>(32*uint(k))))
		}
	case s1Bitrep:
		x := w.Ssrc(a)
		var r uint64
		for i := 0; i < 32; i++ {
			if x>>uint(i)&1 != 0 {
				r |= 3 << uint(2*i)
			}
		}
		w.Sdst64(d, r)
	}
	return nil
}

// flbitSigned counts the leading bits equal to the sign bit (excluding it);
// all-zero and all-one inputs give -1.
func flbitSigned(x uint64, n int) uint32 {
	if n == 32 {
		x &= 0xffffffff
		if x == 0 || x == 0xffffffff {
			return 0xffffffff
		}
		if x>>31 != 0 {
			x = ^x & 0xffffffff
		}
		return uint32(bits.LeadingZeros32(uint32(x)))
	}
	if x == 0 || x == ^uint64(0) {
		return 0xffffffff
	}
	if x>>63 != 0 {
		x = ^x
	}
	return uint32(bits.LeadingZeros64(x))
}

// ExecSaveexec executes s_*_saveexec_b64 and s_*_wrexec_b64.
func ExecSaveexec(w *core.Wave, in *core.Instr) error {
	if in.Nsrc < 1 {
		return ExecBadOperands(w, in)
	}
	s0 := w.Ssrc64(&in.Src[0])
	ex := w.Exec()
	var r uint64
	switch in.Sub {
	case SeAnd, seOr, seXor, seAndn2, seOrn2, seNand, seNor, seXnor:
		// in the order of the 64-bit bitwise SOP2 operations
		r = Bitop64(SAnd64+2*(in.Sub-SeAnd), s0, ex)
	case SeAndn1:
		r = ^s0 & ex
	case SeOrn1:
		r = ^s0 | ex
	case SeAndn1Wr, SeAndn2Wr:
		if in.Sub == SeAndn1Wr {
			r = ^s0 & ex
		} else {
			r = s0 &^ ex
		}
		w.Exec64(r)
		w.Sdst64(&in.Dst[0], r)
		w.SccOut(r != 0)
		return nil
	}
	w.Sdst64(&in.Dst[0], ex)
	w.Exec64(r)
	w.SccOut(r != 0)
	return nil
}

// Sop1Names are the SOP1 operations executed by execSOP1, in the order of
// their sub-operation numbers (s1Mov32 …).
var Sop1Names = []string{"s_mov_b32", "s_mov_b64", "s_cmov_b32", "s_cmov_b64", "s_not_b32", "s_not_b64",
	"s_wqm_b32", "s_wqm_b64", "s_brev_b32", "s_brev_b64", "s_bcnt0_i32_b32", "s_bcnt0_i32_b64",
	"s_bcnt1_i32_b32", "s_bcnt1_i32_b64", "s_ff0_i32_b32", "s_ff0_i32_b64", "s_ff1_i32_b32", "s_ff1_i32_b64",
	"s_flbit_i32_b32", "s_flbit_i32_b64", "s_flbit_i32", "s_flbit_i32_i64", "s_sext_i32_i8", "s_sext_i32_i16",
	"s_bitset0_b32", "s_bitset0_b64", "s_bitset1_b32", "s_bitset1_b64", "s_quadmask_b32", "s_quadmask_b64",
	"s_abs_i32", "s_movrels_b32", "s_movrels_b64", "s_movreld_b32", "s_movreld_b64", "s_bitreplicate_b64_b32"}

// SaveexecNames are the saveexec and wrexec operations in the order of
// their sub-operation numbers.
var SaveexecNames = []string{"s_and_saveexec_b64", "s_or_saveexec_b64", "s_xor_saveexec_b64", "s_andn2_saveexec_b64",
	"s_orn2_saveexec_b64", "s_nand_saveexec_b64", "s_nor_saveexec_b64", "s_xnor_saveexec_b64",
	"s_andn1_saveexec_b64", "s_orn1_saveexec_b64", "s_andn1_wrexec_b64", "s_andn2_wrexec_b64"}

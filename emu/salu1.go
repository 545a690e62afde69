package emu

import "math/bits"

// SOP1 operations.
const (
	s1Mov32 = iota
	s1Mov64
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
	seAnd = iota
	seOr
	seXor
	seAndn2
	seOrn2
	seNand
	seNor
	seXnor
	seAndn1
	seOrn1
	seAndn1Wr
	seAndn2Wr
)

func init() {
	for i, n := range sop1Names {
		ty := srcType(n)
		def(n, execSOP1, int32(i), 1, ty, cSALU)
	}
	for i, n := range saveexecNames {
		def(n, execSaveexec, int32(i), 1, tyB64, cSALU)
	}
}

// execSOP1 executes one-source scalar ALU operations.
func execSOP1(w *Wave, in *instr) error {
	if in.nsrc < 1 {
		return execBadOperands(w, in)
	}
	d, a := &in.dst[0], &in.src[0]
	switch in.sub {
	case s1Mov32:
		w.sdst(d, w.ssrc(a))
	case s1Mov64:
		w.sdst64(d, w.ssrc64(a))
	case s1Cmov32:
		if v := w.ssrc(a); w.scc() {
			w.sdst(d, v)
		}
	case s1Cmov64:
		if v := w.ssrc64(a); w.scc() {
			w.sdst64(d, v)
		}
	case s1Not32:
		r := ^w.ssrc(a)
		w.sdst(d, r)
		w.sccOut(r != 0)
	case s1Not64:
		r := ^w.ssrc64(a)
		w.sdst64(d, r)
		w.sccOut(r != 0)
	case s1Wqm32, s1Wqm64:
		x := w.ssrc64(a)
		if in.sub == s1Wqm32 {
			x &= 0xffffffff
		}
		var r uint64
		for q := 0; q < 64; q += 4 {
			if x>>uint(q)&0xf != 0 {
				r |= 0xf << uint(q)
			}
		}
		if in.sub == s1Wqm32 {
			w.sdst(d, uint32(r))
		} else {
			w.sdst64(d, r)
		}
		w.sccOut(r != 0)
	case s1Brev32:
		w.sdst(d, bits.Reverse32(w.ssrc(a)))
	case s1Brev64:
		w.sdst64(d, bits.Reverse64(w.ssrc64(a)))
	case s1Bcnt0_32, s1Bcnt1_32:
		n := bits.OnesCount32(w.ssrc(a))
		if in.sub == s1Bcnt0_32 {
			n = 32 - n
		}
		w.sdst(d, uint32(n))
		w.sccOut(n != 0)
	case s1Bcnt0_64, s1Bcnt1_64:
		n := bits.OnesCount64(w.ssrc64(a))
		if in.sub == s1Bcnt0_64 {
			n = 64 - n
		}
		w.sdst(d, uint32(n))
		w.sccOut(n != 0)
	case s1Ff0_32, s1Ff1_32:
		x := w.ssrc(a)
		if in.sub == s1Ff0_32 {
			x = ^x
		}
		r := uint32(0xffffffff)
		if x != 0 {
			r = uint32(bits.TrailingZeros32(x))
		}
		w.sdst(d, r)
	case s1Ff0_64, s1Ff1_64:
		x := w.ssrc64(a)
		if in.sub == s1Ff0_64 {
			x = ^x
		}
		r := uint32(0xffffffff)
		if x != 0 {
			r = uint32(bits.TrailingZeros64(x))
		}
		w.sdst(d, r)
	case s1Flbit32:
		x := w.ssrc(a)
		r := uint32(0xffffffff)
		if x != 0 {
			r = uint32(bits.LeadingZeros32(x))
		}
		w.sdst(d, r)
	case s1Flbit64:
		x := w.ssrc64(a)
		r := uint32(0xffffffff)
		if x != 0 {
			r = uint32(bits.LeadingZeros64(x))
		}
		w.sdst(d, r)
	case s1FlbitI32:
		w.sdst(d, flbitSigned(uint64(int64(int32(w.ssrc(a)))), 32))
	case s1FlbitI64:
		w.sdst(d, flbitSigned(w.ssrc64(a), 64))
	case s1Sext8:
		w.sdst(d, uint32(int32(int8(w.ssrc(a)))))
	case s1Sext16:
		w.sdst(d, uint32(int32(int16(w.ssrc(a)))))
	case s1Bitset0_32, s1Bitset1_32:
		b := w.ssrc(a) & 31
		v := w.rs(int(d.reg))
		if in.sub == s1Bitset0_32 {
			v &^= 1 << b
		} else {
			v |= 1 << b
		}
		w.sdst(d, v)
	case s1Bitset0_64, s1Bitset1_64:
		b := w.ssrc(a) & 63
		v := w.rs64(int(d.reg) &^ 0)
		if in.sub == s1Bitset0_64 {
			v &^= 1 << b
		} else {
			v |= 1 << b
		}
		w.sdst64(d, v)
	case s1Quadmask32, s1Quadmask64:
		x := w.ssrc64(a)
		n := 8
		if in.sub == s1Quadmask64 {
			n = 16
		}
		var r uint64
		for q := 0; q < n; q++ {
			if x>>uint(4*q)&0xf != 0 {
				r |= 1 << uint(q)
			}
		}
		if in.sub == s1Quadmask32 {
			w.sdst(d, uint32(r))
		} else {
			w.sdst64(d, r)
		}
		w.sccOut(r != 0)
	case s1Abs:
		x := int32(w.ssrc(a))
		if x < 0 {
			x = -x
		}
		w.sdst(d, uint32(x))
		w.sccOut(x != 0)
	case s1Movrels32, s1Movrels64:
		if a.kind != okS {
			return execBadOperands(w, in)
		}
		src := int(a.reg) + int(w.rs(codeM0))
		n := 1
		if in.sub == s1Movrels64 {
			n = 2
		}
		if src+n > 102 {
			w.note("s_movrels: source index out of range; read as 0")
			for k := 0; k < n; k++ {
				w.ws(int(d.reg)+k, 0)
			}
			return nil
		}
		for k := 0; k < n; k++ {
			w.ws(int(d.reg)+k, w.rs(src+k))
		}
	case s1Movreld32, s1Movreld64:
		dst := int(d.reg) + int(w.rs(codeM0))
		n := 1
		if in.sub == s1Movreld64 {
			n = 2
		}
		if dst+n > 102 {
			w.note("s_movreld: destination index out of range; write dropped")
			return nil
		}
		v := w.ssrc64(a)
		for k := 0; k < n; k++ {
			w.ws(dst+k, uint32(v>>(32*uint(k))))
		}
	case s1Bitrep:
		x := w.ssrc(a)
		var r uint64
		for i := 0; i < 32; i++ {
			if x>>uint(i)&1 != 0 {
				r |= 3 << uint(2*i)
			}
		}
		w.sdst64(d, r)
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

// execSaveexec executes s_*_saveexec_b64 and s_*_wrexec_b64.
func execSaveexec(w *Wave, in *instr) error {
	if in.nsrc < 1 {
		return execBadOperands(w, in)
	}
	s0 := w.ssrc64(&in.src[0])
	ex := w.exec()
	var r uint64
	switch in.sub {
	case seAnd, seOr, seXor, seAndn2, seOrn2, seNand, seNor, seXnor:
		// in the order of the 64-bit bitwise SOP2 operations
		r = bitop64(sAnd64+2*(in.sub-seAnd), s0, ex)
	case seAndn1:
		r = ^s0 & ex
	case seOrn1:
		r = ^s0 | ex
	case seAndn1Wr, seAndn2Wr:
		if in.sub == seAndn1Wr {
			r = ^s0 & ex
		} else {
			r = s0 &^ ex
		}
		w.exec64(r)
		w.sdst64(&in.dst[0], r)
		w.sccOut(r != 0)
		return nil
	}
	w.sdst64(&in.dst[0], ex)
	w.exec64(r)
	w.sccOut(r != 0)
	return nil
}

// execSaveexecFast is execSaveexec's fast form for the saveexec
// instructions with an SGPR-pair source and destination (the wrexec ones,
// and other operands, take execSaveexec).
func execSaveexecFast(w *Wave, in *instr) error {
	if in.nsrc < 1 || in.sub == seAndn1Wr || in.sub == seAndn2Wr {
		return execSaveexec(w, in)
	}
	a, d := &in.src[0], &in.dst[0]
	if a.kind != okS || a.reg >= 127 || d.kind != okS || d.reg >= 127 {
		return execSaveexec(w, in)
	}
	s0 := uint64(w.s[a.reg&127]) | uint64(w.s[(a.reg+1)&127])<<32
	ex := w.exec()
	var r uint64
	switch in.sub {
	case seAndn1:
		r = ^s0 & ex
	case seOrn1:
		r = ^s0 | ex
	default:
		r = bitop64(sAnd64+2*(in.sub-seAnd), s0, ex)
	}
	w.s[d.reg&127], w.s[(d.reg+1)&127] = uint32(ex), uint32(ex>>32)
	w.s[codeExec], w.s[codeExec+1] = uint32(r), uint32(r>>32)
	w.s[slotSCC] = b2u(r != 0)
	return nil
}

// sop1Names are the SOP1 operations executed by execSOP1, in the order of
// their sub-operation numbers (s1Mov32 …).
var sop1Names = []string{"s_mov_b32", "s_mov_b64", "s_cmov_b32", "s_cmov_b64", "s_not_b32", "s_not_b64",
	"s_wqm_b32", "s_wqm_b64", "s_brev_b32", "s_brev_b64", "s_bcnt0_i32_b32", "s_bcnt0_i32_b64",
	"s_bcnt1_i32_b32", "s_bcnt1_i32_b64", "s_ff0_i32_b32", "s_ff0_i32_b64", "s_ff1_i32_b32", "s_ff1_i32_b64",
	"s_flbit_i32_b32", "s_flbit_i32_b64", "s_flbit_i32", "s_flbit_i32_i64", "s_sext_i32_i8", "s_sext_i32_i16",
	"s_bitset0_b32", "s_bitset0_b64", "s_bitset1_b32", "s_bitset1_b64", "s_quadmask_b32", "s_quadmask_b64",
	"s_abs_i32", "s_movrels_b32", "s_movrels_b64", "s_movreld_b32", "s_movreld_b64", "s_bitreplicate_b64_b32"}

// saveexecNames are the saveexec and wrexec operations in the order of
// their sub-operation numbers.
var saveexecNames = []string{"s_and_saveexec_b64", "s_or_saveexec_b64", "s_xor_saveexec_b64", "s_andn2_saveexec_b64",
	"s_orn2_saveexec_b64", "s_nand_saveexec_b64", "s_nor_saveexec_b64", "s_xnor_saveexec_b64",
	"s_andn1_saveexec_b64", "s_orn1_saveexec_b64", "s_andn1_wrexec_b64", "s_andn2_wrexec_b64"}

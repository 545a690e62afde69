package emu

import "github.com/wavedbg/wavedbg/isa"

// SOPK and SOPC operations.
const (
	kMovk = iota
	kCmovk
	kAddk
	kMulk
	kGetreg
	kSetreg
	kSetregImm
	kCall
	kCmpk // + cmp condition
)

// compare conditions (SOPC and s_cmpk)
const (
	cmpEQ = iota
	cmpLG
	cmpGT
	cmpGE
	cmpLT
	cmpLE
)

const (
	cBitcmp0_32 = 100 + iota
	cBitcmp1_32
	cBitcmp0_64
	cBitcmp1_64
	cEqU64
	cLgU64
	cSetvskip
	cGprIdxOn
)

func init() {
	def("s_movk_i32", execSOPK, kMovk, 1, tyB32, cSALU)
	def("s_cmovk_i32", execSOPK, kCmovk, 1, tyB32, cSALU)
	def("s_addk_i32", execSOPK, kAddk, 1, tyB32, cSALU)
	def("s_mulk_i32", execSOPK, kMulk, 1, tyB32, cSALU)
	def("s_getreg_b32", execSOPK, kGetreg, 1, tyB32, cSALU)
	def("s_setreg_b32", execSOPK, kSetreg, 0, tyB32, cSALU)
	def("s_setreg_imm32_b32", execSOPK, kSetregImm, 0, tyB32, cSALU)
	def("s_call_b64", execSOPK, kCall, 1, tyB32, cSALU)
	for i, c := range []string{"eq", "lg", "gt", "ge", "lt", "le"} {
		def("s_cmpk_"+c+"_i32", execCmp, int32(i), 0, tyB32, cSALU)
		def("s_cmpk_"+c+"_u32", execCmp, int32(i)|0x10, 0, tyB32, cSALU)
		def("s_cmp_"+c+"_i32", execCmp, int32(i), 0, tyB32, cSALU)
		def("s_cmp_"+c+"_u32", execCmp, int32(i)|0x10, 0, tyB32, cSALU)
	}
	def("s_bitcmp0_b32", execCmp, cBitcmp0_32, 0, tyB32, cSALU)
	def("s_bitcmp1_b32", execCmp, cBitcmp1_32, 0, tyB32, cSALU)
	def("s_bitcmp0_b64", execCmp, cBitcmp0_64, 0, tyB64, cSALU)
	def("s_bitcmp1_b64", execCmp, cBitcmp1_64, 0, tyB64, cSALU)
	def("s_cmp_eq_u64", execCmp, cEqU64, 0, tyB64, cSALU)
	def("s_cmp_lg_u64", execCmp, cLgU64, 0, tyB64, cSALU)
	def("s_setvskip", execCmp, cSetvskip, 0, tyB32, cSALU)
}

// execCmp executes SOPC compares and s_cmpk_*: SCC = the comparison.
func execCmp(w *Wave, in *instr) error {
	if in.sub == cSetvskip {
		w.note("s_setvskip: VSKIP is not modelled")
		return nil
	}
	if in.nsrc < 2 {
		return execBadOperands(w, in)
	}
	a, b := &in.src[0], &in.src[1]
	switch in.sub {
	case cBitcmp0_32, cBitcmp1_32:
		bit := w.ssrc(a) >> (w.ssrc(b) & 31) & 1
		w.sccOut(bit == uint32(in.sub-cBitcmp0_32))
		return nil
	case cBitcmp0_64, cBitcmp1_64:
		bit := w.ssrc64(a) >> (w.ssrc(b) & 63) & 1
		w.sccOut(bit == uint64(in.sub-cBitcmp0_64))
		return nil
	case cEqU64:
		w.sccOut(w.ssrc64(a) == w.ssrc64(b))
		return nil
	case cLgU64:
		w.sccOut(w.ssrc64(a) != w.ssrc64(b))
		return nil
	}
	x := w.ssrc(a)
	var y uint32
	if b.kind == okConst && in.in != nil && in.in.Enc == isa.EncSOPK {
		// simm16: signed compares sign-extend it, unsigned ones zero-extend
		y = uint32(int32(int16(b.val)))
		if in.sub&0x10 != 0 {
			y = uint32(uint16(b.val))
		}
	} else {
		y = w.ssrc(b)
	}
	var r bool
	if in.sub&0x10 != 0 {
		r = cmpOrd(in.sub&0xf, x < y, x == y)
	} else {
		r = cmpOrd(in.sub&0xf, int32(x) < int32(y), x == y)
	}
	w.sccOut(r)
	return nil
}

func cmpOrd(c int32, lt, eq bool) bool {
	switch c {
	case cmpEQ:
		return eq
	case cmpLG:
		return !eq
	case cmpGT:
		return !lt && !eq
	case cmpGE:
		return !lt
	case cmpLT:
		return lt
	case cmpLE:
		return lt || eq
	}
	return false
}

// execSOPK executes the other SOPK operations.
func execSOPK(w *Wave, in *instr) error {
	simm := int32(int16(in.imm))
	switch in.sub {
	case kMovk:
		w.sdst(&in.dst[0], uint32(simm))
	case kCmovk:
		if w.scc() {
			w.sdst(&in.dst[0], uint32(simm))
		}
	case kAddk:
		x := w.rs(int(in.dst[0].reg))
		r := x + uint32(simm)
		w.sdst(&in.dst[0], r)
		w.sccOut((int32(x) >= 0) == (simm >= 0) && (int32(r) >= 0) != (int32(x) >= 0))
	case kMulk:
		w.sdst(&in.dst[0], w.rs(int(in.dst[0].reg))*uint32(simm))
	case kGetreg:
		id, off, size := hwregFields(uint16(in.imm))
		v, ok := w.hwreg(id)
		if !ok {
			w.note("s_getreg: unknown hardware register; read as 0")
		}
		w.sdst(&in.dst[0], (v>>off)&mask32(size))
	case kSetreg, kSetregImm:
		if in.nsrc < 2 {
			return execBadOperands(w, in)
		}
		id, off, size := hwregFields(uint16(in.src[0].val))
		v := w.ssrc(&in.src[1])
		old, _ := w.hwreg(id)
		m := mask32(size) << off
		w.setHwreg(id, old&^m|(v<<off)&m)
	case kCall:
		ret := in.pc + 4
		w.sdst64(&in.dst[0], ret)
		return w.branch(in)
	}
	return nil
}

func mask32(n uint32) uint32 {
	if n >= 32 {
		return 0xffffffff
	}
	return 1<<n - 1
}

// hwregFields splits a hwreg simm16: id [5:0], offset [10:6], size-1 [15:11].
func hwregFields(s uint16) (id int, off, size uint32) {
	return int(s & 0x3f), uint32(s>>6) & 0x1f, uint32(s>>11&0x1f) + 1
}

// Hardware register ids.
const (
	hwMode     = 1
	hwStatus   = 2
	hwTrapSts  = 3
	hwHWID     = 4
	hwGPRAlloc = 5
	hwLDSAlloc = 6
	hwIBSts    = 7
	hwMemBases = 15 // GFX9: SH_MEM_BASES
	hwTBALo    = 16 // GFX9
	hwTBAHi    = 17
	hwTMALo    = 18
	hwTMAHi    = 19
)

// shMemBases is SH_MEM_BASES: bits 31:16 the shared (LDS) aperture's
// address bits 63:48, bits 15:0 the private aperture's. LLVM 15 reads a
// 16-bit field of it and shifts it left by 16 to get the aperture's high
// dword when it casts an LDS or private pointer to a flat one on GFX9.
func shMemBases() uint32 {
	return uint32(SharedApertureBase>>48)<<16 | uint32(PrivateApertureBase>>48)
}

func (w *Wave) hwreg(id int) (uint32, bool) {
	switch id {
	case hwMode:
		return w.s[slotMode], true
	case hwStatus:
		return w.statusReg(), true
	case hwTrapSts:
		return w.s[slotTrapSts], true
	case hwHWID:
		return w.s[slotHWID], true
	case hwGPRAlloc:
		return w.s[slotGPRAlloc], true
	case hwLDSAlloc:
		return w.s[slotLDSAlloc], true
	case hwIBSts:
		return w.s[slotIBSts], true
	case hwTBALo, hwTBAHi, hwTMALo, hwTMAHi:
		if w.target == isa.GFX9 {
			return w.s[slotTBA+id-hwTBALo], true
		}
	case hwMemBases:
		if w.target == isa.GFX9 {
			return shMemBases(), true
		}
	}
	return 0, false
}

// setHwreg writes a hardware register. MODE, TRAPSTS and IB_STS are
// writable; STATUS, HW_ID and the allocation registers are read-only to the
// shader, and writes to them are noted and dropped.
func (w *Wave) setHwreg(id int, v uint32) {
	switch id {
	case hwMode:
		w.ws(slotMode, v)
	case hwTrapSts:
		w.ws(slotTrapSts, v)
	case hwIBSts:
		w.ws(slotIBSts, v)
	case hwTBALo, hwTBAHi, hwTMALo, hwTMAHi:
		if w.target == isa.GFX9 {
			w.ws(slotTBA+id-hwTBALo, v)
		}
	default:
		w.note("s_setreg: hardware register is read-only or unknown; write dropped")
	}
}

package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

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
	def("s_movk_i32", execSOPK, kMovk, 1, core.TyB32, core.CSALU)
	def("s_cmovk_i32", execSOPK, kCmovk, 1, core.TyB32, core.CSALU)
	def("s_addk_i32", execSOPK, kAddk, 1, core.TyB32, core.CSALU)
	def("s_mulk_i32", execSOPK, kMulk, 1, core.TyB32, core.CSALU)
	def("s_getreg_b32", execSOPK, kGetreg, 1, core.TyB32, core.CSALU)
	def("s_setreg_b32", execSOPK, kSetreg, 0, core.TyB32, core.CSALU)
	def("s_setreg_imm32_b32", execSOPK, kSetregImm, 0, core.TyB32, core.CSALU)
	def("s_call_b64", execSOPK, kCall, 1, core.TyB32, core.CSALU)
	for i, c := range []string{"eq", "lg", "gt", "ge", "lt", "le"} {
		def("s_cmpk_"+c+"_i32", execCmp, int32(i), 0, core.TyB32, core.CSALU)
		def("s_cmpk_"+c+"_u32", execCmp, int32(i)|0x10, 0, core.TyB32, core.CSALU)
		def("s_cmp_"+c+"_i32", execCmp, int32(i), 0, core.TyB32, core.CSALU)
		def("s_cmp_"+c+"_u32", execCmp, int32(i)|0x10, 0, core.TyB32, core.CSALU)
	}
	def("s_bitcmp0_b32", execCmp, cBitcmp0_32, 0, core.TyB32, core.CSALU)
	def("s_bitcmp1_b32", execCmp, cBitcmp1_32, 0, core.TyB32, core.CSALU)
	def("s_bitcmp0_b64", execCmp, cBitcmp0_64, 0, core.TyB64, core.CSALU)
	def("s_bitcmp1_b64", execCmp, cBitcmp1_64, 0, core.TyB64, core.CSALU)
	def("s_cmp_eq_u64", execCmp, cEqU64, 0, core.TyB64, core.CSALU)
	def("s_cmp_lg_u64", execCmp, cLgU64, 0, core.TyB64, core.CSALU)
	def("s_setvskip", execCmp, cSetvskip, 0, core.TyB32, core.CSALU)
}

// execCmp executes SOPC compares and s_cmpk_*: SCC = the comparison.
func execCmp(w *core.Wave, in *core.Instr) error {
	if in.Sub == cSetvskip {
		w.Note("s_setvskip: VSKIP is not modelled")
		return nil
	}
	if in.Nsrc < 2 {
		return ExecBadOperands(w, in)
	}
	a, b := &in.Src[0], &in.Src[1]
	switch in.Sub {
	case cBitcmp0_32, cBitcmp1_32:
		bit := w.Ssrc(a) >> (w.Ssrc(b) & 31) & 1
		w.SccOut(bit == uint32(in.Sub-cBitcmp0_32))
		return nil
	case cBitcmp0_64, cBitcmp1_64:
		bit := w.Ssrc64(a) >> (w.Ssrc(b) & 63) & 1
		w.SccOut(bit == uint64(in.Sub-cBitcmp0_64))
		return nil
	case cEqU64:
		w.SccOut(w.Ssrc64(a) == w.Ssrc64(b))
		return nil
	case cLgU64:
		w.SccOut(w.Ssrc64(a) != w.Ssrc64(b))
		return nil
	}
	x := w.Ssrc(a)
	var y uint32
	if b.Kind == core.OkConst && in.In != nil && in.In.Enc == isa.EncSOPK {
		// simm16: signed compares sign-extend it, unsigned ones zero-extend
		y = uint32(int32(int16(b.Val)))
		if in.Sub&0x10 != 0 {
			y = uint32(uint16(b.Val))
		}
	} else {
		y = w.Ssrc(b)
	}
	var r bool
	if in.Sub&0x10 != 0 {
		r = cmpOrd(in.Sub&0xf, x < y, x == y)
	} else {
		r = cmpOrd(in.Sub&0xf, int32(x) < int32(y), x == y)
	}
	w.SccOut(r)
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
func execSOPK(w *core.Wave, in *core.Instr) error {
	simm := int32(int16(in.Imm))
	switch in.Sub {
	case kMovk:
		w.Sdst(&in.Dst[0], uint32(simm))
	case kCmovk:
		if w.Scc() {
			w.Sdst(&in.Dst[0], uint32(simm))
		}
	case kAddk:
		x := w.Rs(int(in.Dst[0].Reg))
		r := x + uint32(simm)
		w.Sdst(&in.Dst[0], r)
		w.SccOut((int32(x) >= 0) == (simm >= 0) && (int32(r) >= 0) != (int32(x) >= 0))
	case kMulk:
		w.Sdst(&in.Dst[0], w.Rs(int(in.Dst[0].Reg))*uint32(simm))
	case kGetreg:
		id, off, size := HwregFields(uint16(in.Imm))
		v, ok := hwreg(w, id)
		if !ok {
			w.Note("s_getreg: unknown hardware register; read as 0")
		}
		w.Sdst(&in.Dst[0], (v>>off)&mask32(size))
	case kSetreg, kSetregImm:
		if in.Nsrc < 2 {
			return ExecBadOperands(w, in)
		}
		id, off, size := HwregFields(uint16(in.Src[0].Val))
		v := w.Ssrc(&in.Src[1])
		old, _ := hwreg(w, id)
		m := mask32(size) << off
		setHwreg(w, id, old&^m|(v<<off)&m)
	case kCall:
		ret := in.Pc + 4
		w.Sdst64(&in.Dst[0], ret)
		return branch(w, in)
	}
	return nil
}

func mask32(n uint32) uint32 {
	if n >= 32 {
		return 0xffffffff
	}
	return 1<<n - 1
}

// HwregFields splits a hwreg simm16: id [5:0], offset [10:6], size-1 [15:11].
func HwregFields(s uint16) (id int, off, size uint32) {
	return int(s & 0x3f), uint32(s>>6) & 0x1f, uint32(s>>11&0x1f) + 1
}

// Hardware register ids.
const (
	HwMode     = 1
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
	return uint32(core.SharedApertureBase>>48)<<16 | uint32(core.PrivateApertureBase>>48)
}

func hwreg(w *core.Wave, id int) (uint32, bool) {
	switch id {
	case HwMode:
		return w.S[core.SlotMode], true
	case hwStatus:
		return w.StatusReg(), true
	case hwTrapSts:
		return w.S[core.SlotTrapSts], true
	case hwHWID:
		return w.S[core.SlotHWID], true
	case hwGPRAlloc:
		return w.S[core.SlotGPRAlloc], true
	case hwLDSAlloc:
		return w.S[core.SlotLDSAlloc], true
	case hwIBSts:
		return w.S[core.SlotIBSts], true
	case hwTBALo, hwTBAHi, hwTMALo, hwTMAHi:
		if w.Target == isa.GFX9 {
			return w.S[core.SlotTBA+id-hwTBALo], true
		}
	case hwMemBases:
		if w.Target == isa.GFX9 {
			return shMemBases(), true
		}
	}
	return 0, false
}

// setHwreg writes a hardware register. MODE, TRAPSTS and IB_STS are
// writable; STATUS, HW_ID and the allocation registers are read-only to the
// shader, and writes to them are noted and dropped.
func setHwreg(w *core.Wave, id int, v uint32) {
	switch id {
	case HwMode:
		w.Ws(core.SlotMode, v)
	case hwTrapSts:
		w.Ws(core.SlotTrapSts, v)
	case hwIBSts:
		w.Ws(core.SlotIBSts, v)
	case hwTBALo, hwTBAHi, hwTMALo, hwTMAHi:
		if w.Target == isa.GFX9 {
			w.Ws(core.SlotTBA+id-hwTBALo, v)
		}
	default:
		w.Note("s_setreg: hardware register is read-only or unknown; write dropped")
	}
}

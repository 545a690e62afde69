package emu

import "github.com/wavedbg/wavedbg/isa"

// The SMEM operations the emulator registers: the loads, stores and
// atomics from isa's table facts (MemInfo: kind, size, atomic operation,
// buffer or scratch), the rest by name.

func init() {
	// The loads, stores and atomics, from their table facts.
	for op := range isa.Ops() {
		if op.Info().Class != isa.ClassSMEM {
			continue
		}
		mi := op.Mem()
		if sub, ndst, ok := smemSubOf(&mi); ok {
			ty := tyB32
			if mi.Kind == isa.MemAtomic && mi.Size == 8 {
				ty = tyB64
			}
			def(op.String(), execSMEM, sub, ndst, ty, cSMEM)
		}
	}
	// The operations without memory data.
	def("s_dcache_inv", execSMEM, mDcacheInv, 0, tyB32, cSMEM)
	def("s_dcache_inv_vol", execSMEM, mDcacheInvVol, 0, tyB32, cSMEM)
	def("s_dcache_wb", execSMEM, mDcacheWb, 0, tyB32, cSMEM)
	def("s_dcache_wb_vol", execSMEM, mDcacheWbVol, 0, tyB32, cSMEM)
	def("s_dcache_discard", execSMEM, smemSub(mDiscard, 1, 0), 0, tyB32, cSMEM)
	def("s_dcache_discard_x2", execSMEM, smemSub(mDiscard, 2, 0), 0, tyB32, cSMEM)
	def("s_memtime", execSMEM, smemSub(mMemtime, 2, 0), 1, tyB64, cSMEM)
	def("s_memrealtime", execSMEM, smemSub(mMemrealtime, 2, 0), 1, tyB64, cSMEM)
	def("s_atc_probe", execSMEM, mAtcProbe, 0, tyB32, cSMEM)
	def("s_atc_probe_buffer", execSMEM, mAtcProbeBuf, 0, tyB32, cSMEM)
}

// smemAtoms maps the tables' atomic operations to the scalar unit's.
var smemAtoms = map[isa.AtomicOp]int{isa.AtomSwap: aSwap, isa.AtomCmpSwap: aCmpswap, isa.AtomAdd: aAdd,
	isa.AtomSub: aSub, isa.AtomSMin: aSmin, isa.AtomUMin: aUmin, isa.AtomSMax: aSmax, isa.AtomUMax: aUmax,
	isa.AtomAnd: aAnd, isa.AtomOr: aOr, isa.AtomXor: aXor, isa.AtomInc: aInc, isa.AtomDec: aDec}

// smemSubOf returns the sub field and destination count of an SMEM load,
// store or atomic with table facts mi; ok is false for other operations.
func smemSubOf(mi *isa.MemInfo) (sub int32, ndst int, ok bool) {
	n := int(mi.Size) / 4
	switch mi.Kind {
	case isa.MemLoad:
		switch {
		case mi.Buffer:
			return smemSub(mBufLoad, n, 0), 1, true
		case mi.Scratch:
			return smemSub(mScratchLoad, n, 0), 1, true
		}
		return smemSub(mLoad, n, 0), 1, true
	case isa.MemStore:
		switch {
		case mi.Buffer:
			return smemSub(mBufStore, n, 0), 0, true
		case mi.Scratch:
			return smemSub(mStore, n, 0) | smemScratch, 0, true
		}
		return smemSub(mStore, n, 0), 0, true
	case isa.MemAtomic:
		a, ok := smemAtoms[mi.Atomic]
		if mi.Buffer {
			return smemSub(mBufAtomic, n, a), 0, ok
		}
		return smemSub(mAtomic, n, a), 0, ok
	}
	return 0, 0, false
}

package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

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
		if sub, ndst, ok := SmemSubOf(&mi); ok {
			ty := core.TyB32
			if mi.Kind == isa.MemAtomic && mi.Size == 8 {
				ty = core.TyB64
			}
			def(op.String(), ExecSMEM, sub, ndst, ty, core.CSMEM)
		}
	}
	// The operations without memory data.
	def("s_dcache_inv", ExecSMEM, mDcacheInv, 0, core.TyB32, core.CSMEM)
	def("s_dcache_inv_vol", ExecSMEM, mDcacheInvVol, 0, core.TyB32, core.CSMEM)
	def("s_dcache_wb", ExecSMEM, mDcacheWb, 0, core.TyB32, core.CSMEM)
	def("s_dcache_wb_vol", ExecSMEM, mDcacheWbVol, 0, core.TyB32, core.CSMEM)
	def("s_dcache_discard", ExecSMEM, SmemSub(mDiscard, 1, 0), 0, core.TyB32, core.CSMEM)
	def("s_dcache_discard_x2", ExecSMEM, SmemSub(mDiscard, 2, 0), 0, core.TyB32, core.CSMEM)
	def("s_memtime", ExecSMEM, SmemSub(mMemtime, 2, 0), 1, core.TyB64, core.CSMEM)
	def("s_memrealtime", ExecSMEM, SmemSub(mMemrealtime, 2, 0), 1, core.TyB64, core.CSMEM)
	def("s_atc_probe", ExecSMEM, mAtcProbe, 0, core.TyB32, core.CSMEM)
	def("s_atc_probe_buffer", ExecSMEM, mAtcProbeBuf, 0, core.TyB32, core.CSMEM)
}

// SmemSubOf returns the sub field and destination count of an SMEM load,
// store or atomic with table facts mi; ok is false for other operations.
func SmemSubOf(mi *isa.MemInfo) (sub int32, ndst int, ok bool) {
	n := int(mi.Size) / 4
	switch mi.Kind {
	case isa.MemLoad:
		switch {
		case mi.Buffer:
			return SmemSub(MBufLoad, n, 0), 1, true
		case mi.Scratch:
			return SmemSub(MScratchLoad, n, 0), 1, true
		}
		return SmemSub(MLoad, n, 0), 1, true
	case isa.MemStore:
		switch {
		case mi.Buffer:
			return SmemSub(MBufStore, n, 0), 0, true
		case mi.Scratch:
			return SmemSub(MStore, n, 0) | SmemScratch, 0, true
		}
		return SmemSub(MStore, n, 0), 0, true
	case isa.MemAtomic:
		a, ok := atomOps[mi.Atomic]
		if mi.Buffer {
			return SmemSub(MBufAtomic, n, a), 0, ok
		}
		return SmemSub(MAtomic, n, a), 0, ok
	}
	return 0, 0, false
}

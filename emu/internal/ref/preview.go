package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
	"slices"
)

// Rule is the rule that puts an access out of range, or InRange.
type Rule uint8

const (
	InRange       Rule = iota
	OutNumRecords      // STRIDE 0: BUFOFFSET ≥ NUM_RECORDS − SOFFSET
	OutIndex           // STRIDE ≠ 0: AINDEX ≥ NUM_RECORDS
	OutStride          // STRIDE ≠ 0 with IDXEN or ADD_TID: AOFFSET ≥ STRIDE
	OutLDS             // beyond the work-group's LDS (on GFX8 also at or above M0)
	OutSBuffer         // an S_BUFFER dword not wholly below NUM_RECORDS (× STRIDE)
)

func (r Rule) String() string {
	return [...]string{"in range", "offset ≥ num_records − soffset", "index ≥ num_records",
		"offset ≥ stride", "beyond the LDS allocation", "beyond the buffer's size"}[r]
}

// Space is where an access goes.
type Space uint8

const (
	SpaceGlobal  Space = iota // global memory (GLOBAL, FLAT outside the apertures)
	SpaceBuffer               // global memory through a V# (MUBUF, MTBUF)
	SpaceScratch              // the wave's private memory (SCRATCH, FLAT in the private aperture)
	SpaceLDS                  // the work-group's LDS (DS, FLAT in the shared aperture)
	SpaceScalar               // global memory through the scalar cache (SMEM)
)

// PreviewAddr is one access of the next instruction.
type PreviewAddr struct {
	core.LaneAddr        // exactly what the step will record
	Why           Rule   // the rule that drops the first dword when !InRange
	Space         Space  // where the access goes
	Offset        uint64 // LDS: the LDS byte offset; scratch: the private offset; SMEM: the offset from the base
	Linear        uint64 // buffers: the address before swizzling (Addr when not swizzled)
	Index         uint32 // buffers: AINDEX (with ADD_TID's lane)
	AOffset       uint32 // buffers: AOFFSET (the instruction's offset plus the VGPR offset)
	Dest          string // SMEM loads: the register the dword lands in
}

// MemPreview is the next memory instruction's accesses.
type MemPreview struct {
	Addrs     []PreviewAddr // in the order the step records them
	Lines     []uint64      // the 64-byte global-memory lines they touch, sorted
	Size      int           // bytes per lane (a format access: one element of its data format)
	VSharp    *VSharp       // MUBUF, MTBUF and S_BUFFER: the resource, as the step decodes it
	SOffset   uint32        // MUBUF, MTBUF: the SOFFSET value
	Base      uint64        // SMEM: the base address (48 bits, low two bits clear)
	SOff      uint64        // SMEM: the offset: each component with its low two bits clear
	Conflicts int           // DS: the bank-conflict cycles the step notes
	LDSSize   uint32        // DS and FLAT: the work-group's LDS bytes
	LDSLimit  uint32        // DS: the first out-of-range LDS address (LDSSize, or M0 on GFX8 when lower)
}

// WaitPreview is an s_waitcnt's fields, decoded for the wave's generation.
type WaitPreview struct {
	VM, EXP, LGKM          int // wait until each count is at most this
	VMMax, EXPMax, LGKMMax int // a field at its maximum waits for nothing
}

// BranchPreview is a SOPP branch.
type BranchPreview struct {
	Target uint64         // the byte address it jumps to
	Taken  bool           // whether it jumps, from the registers as they are now
	Cond   isa.BranchCond // what it tests (s_cbranch_cdbg*: never taken, no debugger sets the bits)
}

// Preview is the predicted effect of a wave's next instruction. At most one
// of Mem, Wait and Branch is set; Err says why a memory instruction's
// accesses could not be worked out (the step will fail the same way).
type Preview struct {
	Index   int // the instruction's index in the program
	PC      uint64
	Inst    *isa.Inst
	Mem     *MemPreview
	Wait    *WaitPreview
	Branch  *BranchPreview
	Barrier bool // s_barrier: waits for every wave of the work-group
	Err     error
}

// lines lists the 64-byte lines the accesses in global memory touch.
func (p *MemPreview) lines() {
	for _, a := range p.Addrs {
		if a.Space == SpaceLDS {
			continue
		}
		for l := a.Addr &^ 63; l < a.Addr+uint64(max(a.Size, 1)); l += 64 {
			p.Lines = append(p.Lines, l)
		}
	}
	slices.Sort(p.Lines)
	p.Lines = slices.Compact(p.Lines)
}

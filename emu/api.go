package emu

// The names below live in the engine's internal packages (doc.go); emu
// exports them as aliases so that its API stays one package.

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// Allocation is a named, mapped range of the address space.
type Allocation = core.Allocation

// BankConflicts returns the extra LDS cycles a DS access pattern costs:
// addrs[lane] is each active lane's byte address (lanes absent from active
// are skipped).
func BankConflicts(addrs [64]uint32, active uint64) int { return ref.BankConflicts(addrs, active) }

// BranchPreview is a SOPP branch.
type BranchPreview = ref.BranchPreview

// CacheConfig sizes the scalar data cache. Lines are always 64 bytes.
type CacheConfig = core.CacheConfig

// CacheEvent is one scalar-cache event of a step.
type CacheEvent = core.CacheEvent

// CacheEventKind is what happened to a scalar cache line.
type CacheEventKind = core.CacheEventKind

// CacheLine is a scalar-cache line as snapshots show it.
type CacheLine = core.CacheLine

// Config configures a Machine.
type Config = core.Config

// Counters are the wave's outstanding-operation counters.
type Counters = core.Counters

// DecodeVSharp decodes the four dwords of a buffer resource for target t.
func DecodeVSharp(words [4]uint32, t isa.Target) VSharp { return ref.DecodeVSharp(words, t) }

// DefaultConfig returns the defaults for target t.
func DefaultConfig(t isa.Target) Config { return core.DefaultConfig(t) }

// DefaultLatency returns the documented default latencies.
func DefaultLatency() Latency { return core.DefaultLatency() }

// DistinctLines returns how many distinct 64-byte lines the addresses
// touch: how many cache-line requests the access coalesces into.
func DistinctLines(addrs []LaneAddr) int { return core.DistinctLines(addrs) }

// ErrEnded is returned by Step and Run once the wave has executed
// s_endpgm.
var ErrEnded = core.ErrEnded

// ErrFaulted is returned by Step and Run after a fault stopped the wave;
// StepBack undoes the faulting step's partial effects and resumes.
var ErrFaulted = core.ErrFaulted

// ErrGDS is the error of GDS and GWS operations, which the emulator does not
// model.
var ErrGDS = ref.ErrGDS

// ErrNoHistory is returned by StepBack when no earlier step is recorded.
var ErrNoHistory = core.ErrNoHistory

// ExecError reports an instruction the emulator cannot execute: an opcode
// it does not implement, an operand it cannot use, or a jump outside the
// program. It names the PC and the operation.
type ExecError = core.ExecError

// Fault is a memory violation: an access to an address no allocation maps.
// Like a GPU memory violation it stops the wave; it names the instruction,
// the lane (-1 for a scalar access) and the address.
type Fault = core.Fault

// Hazard is a read of a register whose load was still in flight: the
// instruction saw the old value (the missing s_waitcnt bug).
type Hazard = core.Hazard

// InFlight is an issued memory operation that has not completed.
type InFlight = core.InFlight

// LaneAddr is a memory address an instruction decoded, with its range-check
// outcome. Scalar accesses use Lane -1 and list one entry per dword.
type LaneAddr = core.LaneAddr

// Latency is the cycle cost model. Every instruction advances the wave's
// clock by its issue cost; memory operations complete a fixed number of
// cycles after issue. The defaults (DefaultLatency) are illustrative figures
// of GCN's order of magnitude, not measurements of one chip.
type Latency = core.Latency

// MemPreview is the next memory instruction's accesses.
type MemPreview = ref.MemPreview

// MemWrite is a range of memory a step wrote (a store, an atomic or a cache
// write-back).
type MemWrite = core.MemWrite

// Memory is a sparse, paged 64-bit address space made of named allocations.
// Bytes outside every allocation are unmapped: accessing them is a fault.
// Pages are allocated lazily; unwritten mapped memory reads as zero.
//
// A Memory is for one goroutine. A grid run gives each worker a view
// (groupView) that shares the page table — safe for concurrent use, see
// pageTable — and has its own LDS window; Map and Alloc are not called
// while views are in use.
type Memory = core.Memory

// NewMemory returns an empty address space. Alloc hands out addresses from
// 0x1_0000_0000 upward.
func NewMemory() *Memory { return core.NewMemory() }

// OpPrecision says whether the emulator's result for the named operation
// is bit-exact or approximate (and how), and whether it is implemented.
func OpPrecision(name string) (string, bool) { return ref.OpPrecision(name) }

// Preview is the predicted effect of a wave's next instruction. At most one
// of Mem, Wait and Branch is set; Err says why a memory instruction's
// accesses could not be worked out (the step will fail the same way).
type Preview = ref.Preview

// PreviewAddr is one access of the next instruction.
type PreviewAddr = ref.PreviewAddr

// Program is a code section decoded once into a flat slice: instruction i
// starts at Addrs[i]. Branch targets are resolved to indexes when the
// program is built, so stepping never decodes.
type Program = core.Program

// Rule is the rule that puts an access out of range, or InRange.
type Rule = ref.Rule

// RunState says whether a wave can run.
type RunState = core.RunState

// SRegChange is a scalar register or state slot that a step changed.
type SRegChange = core.SRegChange

// Space is where an access goes.
type Space = ref.Space

// StaleRead is a dword a scalar load read from a clean cache line whose
// copy differs from memory: the load returned Cached, not Memory.
type StaleRead = core.StaleRead

// StepRecord describes one executed instruction.
type StepRecord = core.StepRecord

// SupportedOps lists the operations the emulator implements.
func SupportedOps() []string { return ref.SupportedOps() }

// VMemConfig configures the vector memory unit of a grid run.
type VMemConfig = ref.VMemConfig

// VRegChange is a VGPR that a step wrote; Lanes says which lanes.
type VRegChange = core.VRegChange

// VSharp is the exported view of a V# (for front ends and tests).
type VSharp = ref.VSharp

// VectorMemory executes vector memory instructions (MUBUF, MTBUF, FLAT,
// GLOBAL, SCRATCH, DS, MIMG). A grid run provides one; without one those
// instructions stop the wave with an ExecError. Execute issues the
// operation (through Wave.IssueVector so that VM_CNT counts it in order);
// Complete delivers the result of operation id when it completes.
type VectorMemory = core.VectorMemory

// WaitPreview is an s_waitcnt's fields, decoded for the wave's generation.
type WaitPreview = ref.WaitPreview

// Wave is the state of one wave64.
type Wave = core.Wave

// A wave's run states (RunState).
const (
	Running = core.Running
	Ended   = core.Ended   // executed s_endpgm
	Trapped = core.Trapped // executed s_trap; stepping resumes after it
	Halted  = core.Halted  // s_sethalt 1; stepping resumes after it
	Faulted = core.Faulted // a memory fault stopped the wave
)

// What happened to a scalar cache line (CacheEventKind).
const (
	CacheHit        = core.CacheHit
	CacheMiss       = core.CacheMiss
	CacheEvict      = core.CacheEvict
	CacheWriteBack  = core.CacheWriteBack
	CacheInvalidate = core.CacheInvalidate
	CacheDiscard    = core.CacheDiscard
)

// Where an access goes (Space).
const (
	SpaceScalar  = ref.SpaceScalar  // global memory through the scalar cache (SMEM)
	SpaceBuffer  = ref.SpaceBuffer  // global memory through a V# (MUBUF, MTBUF)
	SpaceGlobal  = ref.SpaceGlobal  // global memory (GLOBAL, FLAT outside the apertures)
	SpaceScratch = ref.SpaceScratch // the wave's private memory (SCRATCH, FLAT in the private aperture)
	SpaceLDS     = ref.SpaceLDS     // the work-group's LDS (DS, FLAT in the shared aperture)
)

// The rules that put an access out of range (Rule).
const (
	InRange       = ref.InRange
	OutNumRecords = ref.OutNumRecords // STRIDE 0: BUFOFFSET ≥ NUM_RECORDS − SOFFSET
	OutIndex      = ref.OutIndex      // STRIDE ≠ 0: AINDEX ≥ NUM_RECORDS
	OutStride     = ref.OutStride     // STRIDE ≠ 0 with IDXEN or ADD_TID: AOFFSET ≥ STRIDE
	OutSBuffer    = ref.OutSBuffer    // an S_BUFFER dword not wholly below NUM_RECORDS (× STRIDE)
	OutLDS        = ref.OutLDS        // beyond the work-group's LDS (on GFX8 also at or above M0)
)

// The flat address space's apertures: the high dword of their bases is
// what src_shared_base and src_private_base read on GFX9 and what
// amd_queue_t carries for GFX8. Each aperture spans 4 GiB.
const (
	SharedApertureBase  = core.SharedApertureBase
	PrivateApertureBase = core.PrivateApertureBase
)

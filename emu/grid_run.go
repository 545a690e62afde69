package emu

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"unsafe"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// ArgKind is the kind of an explicit kernel argument in a Launch.
type ArgKind uint8

const (
	ArgBuffer ArgKind = iota // a global buffer: Data is its initial contents
	ArgValue                 // a by-value argument: Data is its bytes
	ArgLocal                 // a __local pointer: Size bytes of dynamic LDS
	ArgAlias                 // a pointer into argument Ref's buffer (an ArgBuffer)
)

// LaunchArg is one explicit kernel argument.
type LaunchArg struct {
	Kind ArgKind
	Data []byte
	Size uint32 // ArgLocal

	// Placement of an ArgBuffer (or, for Offset and Ref, an ArgAlias); the
	// zero values give a fresh allocation and a pointer to its start.
	Addr     uint64          // ArgBuffer: a fixed device address (0: the emulator picks)
	Offset   uint64          // the argument points Offset bytes into the buffer
	Ref      int             // ArgAlias: the argument whose buffer it points into
	Pointers []BufferPointer // ArgBuffer: other buffers' addresses written into it once placed
}

// Launch is one kernel dispatch over a grid.
type Launch struct {
	Target   isa.Target
	Features isa.Features // the processor's decoding features (isa.FeaturesOf)
	Version  int          // code object version
	Kernel   *loader.Kernel
	// Text is the code section and TextAddr its address; the program is
	// decoded from it once (v3+ from its start, so that called functions
	// are included; v2 from the kernel's entry).
	Text     []byte
	TextAddr uint64
	// Segments are the code object's loadable segments, mapped at their
	// addresses so that PC-relative data loads work.
	Segments []Segment

	Grid, Block, Offset [3]uint32
	Dims                int
	// Args are the explicit arguments. RunGrid takes ownership of buffer
	// data: the emulator's memory uses it in place (Memory.Adopt) and the
	// Data slices are dropped (set to nil); GridResult.Buffers returns the
	// same arrays with the final contents.
	Args []LaunchArg
}

// Segment is a loadable range of the code object.
type Segment struct {
	Addr uint64
	Data []byte
	Size uint64 // memory size (≥ len(Data); the rest is zero)
}

// GridConfig configures RunGrid.
type GridConfig struct {
	Config   Config // per-wave machine configuration
	MaxSteps int64  // per wave; 0 means no limit
	// Trace, when set, receives every step record of the waves Select
	// accepts (nil Select: wave 0), with the wave's number in dispatch order.
	Trace  func(wave uint64, rec *StepRecord) error
	Select func(wave uint64) bool
	// VMem configures the vector memory unit.
	VMem VMemConfig
	// Workers is how many work-groups run at once (0: GOMAXPROCS). With a
	// Trace they run one at a time.
	Workers int
	// SiblingSteps bounds how far PrepareWave runs each other wave of the
	// chosen wave's work-group towards its first s_barrier (0:
	// DefaultSiblingSteps; MaxSteps, when smaller, bounds it too).
	SiblingSteps int64
	// SiblingsAtEntry leaves the chosen work-group's other waves at the
	// kernel's entry: PrepareWave does not run them.
	SiblingsAtEntry bool
	// Engine executes the waves' instructions (EngineFast by default).
	Engine Engine
	// WaveEnd, when set, sees every wave of each work-group run, once the
	// work-group has ended or stopped (on a fault, the step budget or
	// cancellation; not on an internal error), in wave order, with its
	// machine (valid during the call only). It is called from the worker's
	// goroutine: with several workers, concurrently. It must not change
	// the machine.
	WaveEnd func(wave uint64, m *Machine)
	// Progress, when set, is told how the run of work-groups advances
	// (RunGrid's whole grid; PrepareWave's work-groups before the chosen
	// one) about every ProgressInterval. It is called on a goroutine the
	// run starts, never concurrently with itself; the last call, with the
	// final counts (WorkGroups == Total when every work-group ran), returns
	// before RunGrid or PrepareWave does. It should return quickly.
	Progress func(p GridProgress)
}

// DefaultSiblingSteps is PrepareWave's default budget for each other wave
// of the chosen work-group: a few milliseconds of unrecorded steps.
const DefaultSiblingSteps = 1 << 22

// GridResult reports a completed (or stopped) grid run.
//
// The counts cover the work-groups run: the whole grid, or, when a fault or
// an error stopped the run, exactly the work-groups up to and including the
// first one in dispatch order that faulted or failed, whatever the number
// of workers (work-groups after it that other workers were running are not
// counted; a run canceled between work-groups counts those before the first
// it did not start). Within a counted work-group, every wave counts the
// instructions it executed (the faulting one included) and its clock, up to
// where the work-group stopped.
type GridResult struct {
	WorkGroups   uint64
	Waves        uint64
	Instructions uint64
	Cycles       uint64 // the sum of every wave's clock
	MaxCycles    uint64 // the longest wave
	// Faults are the faults and execution errors of the first faulting
	// work-group (a work-group stops at its first faulting wave).
	Faults   []WaveError
	Buffers  [][]byte // final contents of every ArgBuffer, by argument index
	Dispatch *Dispatch
}

// WaveError is an error that stopped one wave.
type WaveError struct {
	Wave  uint64    // number in dispatch order
	Group [3]uint32 // work-group id
	Index int       // wave within the work-group
	PC    uint64
	Err   error
}

func (e WaveError) Error() string {
	return fmt.Sprintf("wave %d (work-group %d,%d,%d wave %d) at pc %#x: %v",
		e.Wave, e.Group[0], e.Group[1], e.Group[2], e.Index, e.PC, e.Err)
}

func (e WaveError) Unwrap() error { return e.Err }

// ErrStepBudget is returned when a wave exceeds GridConfig.MaxSteps.
var ErrStepBudget = errors.New("emu: step budget exhausted (the kernel may never end)")

// gridRun is the state of one RunGrid call.
type gridRun struct {
	l     *Launch
	cfg   GridConfig
	d     *Dispatch
	mem   *Memory
	prog  *Program
	bufs  []uint64 // address of each ArgBuffer
	data  [][]byte // each ArgBuffer's data, adopted by mem
	bar   []bool   // instruction index → s_barrier
	entry int      // index of the kernel's first instruction
	res   *GridResult

	nworkers int            // work-groups run concurrently (1: in order, on mem)
	ws       []*groupWorker // nworkers workers
}

// RunGrid runs launch l over its whole grid. Work-groups run concurrently
// on GridConfig.Workers goroutines (see grid_par.go); with a Trace, one at a
// time in dispatch order.
func RunGrid(ctx context.Context, l *Launch, cfg GridConfig) (*GridResult, error) {
	g := &gridRun{l: l, cfg: cfg, mem: core.NewMemory(), res: &GridResult{}}
	if err := g.setup(); err != nil {
		return nil, err
	}
	g.res.Dispatch = g.d
	if err := g.runGroups(ctx, g.d.GroupCount()); err != nil {
		return g.res, err
	}
	g.res.Buffers = make([][]byte, len(l.Args))
	for i, a := range l.Args {
		if a.Kind != ArgBuffer {
			continue
		}
		b := g.data[i]
		if b == nil {
			b = []byte{}
		}
		if err := g.mem.Read(g.bufs[i], b); err != nil { // copies the pages not adopted
			return g.res, err
		}
		g.res.Buffers[i] = b
	}
	return g.res, nil
}

// setup decodes the program and lays out memory: code segments, buffers,
// kernarg, the AQL packet, the queue and scratch.
func (g *gridRun) setup() error {
	l := g.l
	abi, err := ABIOf(l.Kernel, l.Version)
	if err != nil {
		return err
	}
	if l.Kernel.Meta == nil {
		return fmt.Errorf("emu: kernel %s has no metadata", l.Kernel.Name)
	}
	d := &Dispatch{Target: l.Target, ABI: abi, Grid: l.Grid, Block: l.Block, Offset: l.Offset, Dims: l.Dims, DispatchID: 1}
	for i := range d.Groups {
		if d.Block[i] == 0 || d.Grid[i] == 0 {
			return fmt.Errorf("emu: dimension %d: grid %d, block %d: sizes must be 1 to 2^32-1", i, d.Grid[i], d.Block[i])
		}
		d.Groups[i] = (d.Grid[i] + d.Block[i] - 1) / d.Block[i]
	}
	items := d.Block[0] * d.Block[1] * d.Block[2]
	d.WavesPerGroup = int(items+63) / 64
	g.d = d

	// Program.
	start := uint64(0)
	if l.Version < 3 {
		start = l.Kernel.Entry - l.TextAddr
	}
	if l.Kernel.Entry < l.TextAddr || l.Kernel.Entry-l.TextAddr >= uint64(len(l.Text)) {
		return fmt.Errorf("emu: kernel entry %#x is outside the code section", l.Kernel.Entry)
	}
	g.prog = DecodeProgramWith(l.Target, l.Features, l.TextAddr+start, l.Text[start:])
	g.bar = make([]bool, len(g.prog.Insts))
	for i := range g.prog.Insts {
		g.bar[i] = g.prog.Insts[i].Op == isa.S_BARRIER
	}
	entry, ok := g.prog.IndexOf(l.Kernel.Entry)
	if !ok {
		return fmt.Errorf("emu: kernel entry %#x does not start an instruction", l.Kernel.Entry)
	}
	g.entry = entry

	mem := g.mem
	if err := mem.Map("lds", core.SharedApertureBase, 1<<16, false); err != nil {
		return err
	}
	for i, s := range l.Segments {
		if s.Size == 0 {
			continue
		}
		if err := mem.Map(fmt.Sprintf("segment%d", i), s.Addr, s.Size, false); err != nil {
			return err
		}
		if err := mem.Write(s.Addr, s.Data); err != nil {
			return err
		}
	}

	// Explicit argument values.
	vals, dyn, err := g.placeArgs(uint64(abi.GroupSegmentFixedSize))
	if err != nil {
		return err
	}
	if dyn > 65536 {
		return fmt.Errorf("emu: the kernel needs %d bytes of LDS per work-group (at most 65536)", dyn)
	}
	d.GroupLDS = uint32(dyn)

	// Scratch: one slot per wave of a work-group, each 64 lanes of the
	// per-work-item size in 1 KiB granules. This is worker 0's backing;
	// other workers get their own after every other allocation (workers),
	// so the layout a wave sees does not depend on the worker count.
	per := uint64(abi.PrivateSegmentFixedSize)
	if abi.DynamicStack {
		per += 16 << 10
	}
	d.ScratchPerItem = uint32((per + 3) &^ 3)
	d.ScratchPerWave = (uint64(d.ScratchPerItem)*64 + 1023) &^ 1023
	d.ScratchSlots = d.WavesPerGroup
	d.ScratchBytes = d.ScratchPerWave * uint64(d.ScratchSlots)
	if d.ScratchBytes > 0 {
		if d.ScratchAddr, err = mem.Alloc("scratch", d.ScratchBytes, 1<<16); err != nil {
			return err
		}
	}

	kernarg, err := d.BuildKernarg(l.Kernel.Meta, vals)
	if err != nil {
		return err
	}
	if d.KernargAddr, err = mem.Alloc("kernarg", uint64(max(len(kernarg), 64)), 64); err != nil {
		return err
	}
	if err := mem.Write(d.KernargAddr, kernarg); err != nil {
		return err
	}
	if d.PacketAddr, err = mem.Alloc("aql_packet", 64, 64); err != nil {
		return err
	}
	if d.QueueAddr, err = mem.Alloc("amd_queue", 256, 256); err != nil {
		return err
	}
	if err := mem.Write(d.PacketAddr, d.aqlPacket(l.Kernel.DescriptorAddr)); err != nil {
		return err
	}
	if err := mem.Write(d.QueueAddr, d.amdQueue()); err != nil {
		return err
	}
	return g.workers()
}

// placeBuffer stores a buffer argument's data at addr and returns the
// array its final contents are read back into: data itself, adopted by the
// memory, unless it shares bytes with an earlier buffer's (the caller
// passed one slice twice), which adopting would alias; then data is
// copied and the result gets an array of its own.
func (g *gridRun) placeBuffer(addr uint64, data []byte, earlier [][]byte) ([]byte, error) {
	for _, e := range earlier {
		if overlap(data, e) {
			return make([]byte, len(data)), g.mem.Write(addr, data)
		}
	}
	return data, g.mem.Adopt(addr, data)
}

// overlap reports whether a and b share bytes.
func overlap(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	pa, pb := uintptr(unsafe.Pointer(&a[0])), uintptr(unsafe.Pointer(&b[0]))
	return pa < pb+uintptr(len(b)) && pb < pa+uintptr(len(a))
}

func le64(v uint64) []byte {
	b := make([]byte, 8)
	binary.LittleEndian.PutUint64(b, v)
	return b
}

func le32(v uint32) []byte {
	b := make([]byte, 4)
	binary.LittleEndian.PutUint32(b, v)
	return b
}

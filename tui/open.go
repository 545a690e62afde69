package tui

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/emu/manifest"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// This file opens a code object for the debugger. The dispatch itself is
// package emu's (emu.PrepareWave): it lays out the kernel arguments, the
// AQL packet, the queue and scratch by the ABI, runs every work-group before
// the chosen wave's, and hands over that work-group's waves with their vector
// memory units and LDS. This file finds the kernel, builds the emu.Launch
// from a run manifest (the one `wavedbg run` reads, or a default) and keeps
// the listing.

// Launch says what to open and how to launch it.
type Launch struct {
	Kernel string // kernel name; empty for the manifest's or the first kernel
	// Manifest is the launch: grid, block and every argument, as for
	// `wavedbg run`. Nil means DefaultManifest.
	Manifest *manifest.Manifest
	// Wave is the wave to debug, in dispatch order; the debugger loads its
	// work-group after earlier work-groups have run, and lists the grid.
	Wave   uint64
	Config *emu.Config    // nil for emu.DefaultConfig
	VMem   emu.VMemConfig // vector memory and LDS latencies
	// Progress, when set, is told how the work-groups before Wave's run
	// (emu.GridConfig.Progress, on a goroutine of the run's).
	Progress func(emu.GridProgress)
}

// kernelCode is a kernel found in a code object.
type kernelCode struct {
	name    string
	target  isa.Target
	proc    string
	base    uint64 // address of the first instruction
	text    []byte // the kernel's code
	desc    *loader.KernelDescriptor
	meta    *loader.KernelMeta
	symbols map[uint64]string
	lines   *loader.LineTable // DWARF lines, nil without -g
}

// findKernel locates kernel name (or the first kernel) in f.
func findKernel(f *loader.File, name string) (*kernelCode, error) {
	tgt, err := f.Target()
	if err != nil {
		return nil, err
	}
	t, ok := isa.TargetOf(tgt.Processor)
	if !ok {
		return nil, isa.CheckSupported(tgt.Processor)
	}
	syms, err := f.Symbols()
	if err != nil {
		return nil, err
	}
	byName := map[string]loader.Symbol{}
	var kernels []string
	for _, s := range syms {
		byName[s.Name] = s
		if strings.HasSuffix(s.Name, ".kd") {
			kernels = append(kernels, strings.TrimSuffix(s.Name, ".kd"))
		}
	}
	sort.Strings(kernels)
	if name == "" {
		if len(kernels) == 0 {
			return nil, fmt.Errorf("no kernels (no NAME.kd symbols)")
		}
		name = kernels[0]
	}
	fn, ok := byName[name]
	if !ok {
		return nil, fmt.Errorf("no kernel %q (kernels: %s)", name, strings.Join(kernels, ", "))
	}
	k := &kernelCode{name: name, target: t, proc: tgt.Processor, symbols: map[uint64]string{}}
	sec := sectionOf(f, fn.Value)
	if sec == nil {
		return nil, fmt.Errorf("kernel %s at 0x%x is in no section", name, fn.Value)
	}
	data, err := sec.Data()
	if err != nil {
		return nil, err
	}
	start := fn.Value - sec.Addr
	end := uint64(len(data))
	if fn.Size > 0 && start+fn.Size <= end {
		end = start + fn.Size
	} else {
		// Up to the next symbol in the section.
		for _, s := range syms {
			if s.Value > fn.Value && s.Value-sec.Addr < end && int(s.Section) == sec.Index {
				end = s.Value - sec.Addr
			}
		}
	}
	k.base, k.text = fn.Value, data[start:end]
	for _, s := range syms {
		// The listing covers the whole code section (called functions and
		// other kernels too), so every symbol in it names a line.
		if int(s.Section) == sec.Index && s.Value >= sec.Addr && s.Value < sec.Addr+sec.Size && s.Name != "" && !strings.HasPrefix(s.Name, ".L") {
			k.symbols[s.Value] = s.Name
		}
	}
	if kd, ok := byName[name+".kd"]; ok {
		if ks := sectionOf(f, kd.Value); ks != nil {
			if b, err := ks.Data(); err == nil && kd.Value-ks.Addr+64 <= uint64(len(b)) {
				k.desc, _ = loader.DecodeKernelDescriptor(b[kd.Value-ks.Addr:][:64])
			}
		}
	}
	if md, err := f.Metadata(); err == nil && md != nil {
		k.meta = md.Kernel(name)
	}
	return k, nil
}

func sectionOf(f *loader.File, addr uint64) *loader.Section {
	for _, s := range f.Sections {
		if s.Addr != 0 && addr >= s.Addr && addr < s.Addr+s.Size {
			return s
		}
	}
	return nil
}

// Open opens the code object in data for debugging.
func Open(data []byte, l Launch) (*EmuDebuggee, error) {
	co, err := loader.NewCodeObject(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	return OpenCodeObject(co, l)
}

// OpenCodeObject opens an already loaded code object (for instance one that
// loader.Load took out of an offload bundle or a fat binary). co may be
// closed once OpenCodeObject returns.
func OpenCodeObject(co *loader.CodeObject, l Launch) (*EmuDebuggee, error) {
	return OpenCodeObjectContext(context.Background(), co, l)
}

// OpenCodeObjectContext is OpenCodeObject stopped by ctx: a cancellation
// stops the run of the work-groups before the wave with an error that
// wraps ctx.Err().
func OpenCodeObjectContext(ctx context.Context, co *loader.CodeObject, l Launch) (*EmuDebuggee, error) {
	name := l.Kernel
	if name == "" && l.Manifest != nil {
		name = l.Manifest.Kernel
	}
	k, err := findKernel(co.File, name)
	if err != nil {
		return nil, err
	}
	k.lines = lineTableOf(co.File)
	lk := co.Kernel(k.name)
	if lk == nil {
		return nil, fmt.Errorf("kernel %s has no descriptor", k.name)
	}
	if lk.Meta == nil {
		return nil, fmt.Errorf("kernel %s has no metadata: the debugger cannot dispatch it", k.name)
	}
	m := l.Manifest
	if m == nil {
		m = DefaultManifest(lk, manifest.Dim{}, manifest.Dim{})
	}
	if m.Kernel == "" || l.Kernel != "" {
		m.Kernel = k.name
	}
	return launch(ctx, co, k, lk, m, l)
}

// DefaultManifest is the launch the debugger uses when it is given none:
// grid and block as given (zero Dims: one work-group of the kernel's
// required size, else of 64 work-items; a grid alone: blocks of up to 64); each global buffer holds 4 bytes per
// work-item of the grid counting 0, 1, 2, ...; each by-value argument is 3 (of its
// size: uchar, ushort, uint or ulong; other sizes are zero bytes); each
// __local pointer gets 256 bytes of LDS.
func DefaultManifest(k *loader.Kernel, grid, block manifest.Dim) *manifest.Manifest {
	if r := k.Meta; block.Dims == 0 && r != nil && len(r.ReqdWorkgroupSize) == 3 && r.ReqdWorkgroupSize[0] > 0 {
		block = manifest.Dim{V: [3]uint64{r.ReqdWorkgroupSize[0], max(r.ReqdWorkgroupSize[1], 1), max(r.ReqdWorkgroupSize[2], 1)}, Dims: 1}
		if block.V[2] > 1 {
			block.Dims = 3
		} else if block.V[1] > 1 {
			block.Dims = 2
		}
	}
	if grid.Dims == 0 {
		grid = manifest.Dim{V: [3]uint64{64, 1, 1}, Dims: 1}
		if block.Dims > 0 {
			grid = block
		}
	}
	if block.Dims == 0 {
		block = manifest.Dim{V: [3]uint64{min(grid.V[0], 64), 1, 1}, Dims: grid.Dims}
		for i := 1; i < 3; i++ {
			block.V[i] = 1
		}
	}
	m := &manifest.Manifest{Kernel: k.Name, Dir: ".", Grid: grid, Block: block}
	items := int64(max(grid.V[0], 1) * max(grid.V[1], 1) * max(grid.V[2], 1))
	if k.Meta == nil {
		return m
	}
	for _, a := range k.Meta.Args {
		if a.ValueKind.Hidden() {
			continue
		}
		ma := manifest.Arg{Name: a.Name}
		switch a.ValueKind {
		case loader.GlobalBuffer:
			ma.Kind, ma.Type, ma.Size, ma.Fill = manifest.Buffer, "uint", items*4, "iota"
		case loader.DynamicSharedPointer:
			ma.Kind, ma.Size = manifest.Local, 256
		default:
			ma.Kind = manifest.Scalar
			if t := manifest.MetaType(a); t != "" {
				ma.Type, ma.Value = t, "3" // 3 in the declared type: 3.0f for a float
				break
			}
			switch a.Size {
			case 1:
				ma.Type, ma.Value = "uchar", "3"
			case 2:
				ma.Type, ma.Value = "ushort", "3"
			case 8:
				ma.Type, ma.Value = "ulong", "3"
			case 4:
				ma.Type, ma.Value = "uint", "3"
			default:
				ma.Kind = manifest.Struct
				for range a.Size {
					ma.Fields = append(ma.Fields, manifest.Field{Type: "uchar", Value: "0"})
				}
			}
		}
		m.Args = append(m.Args, ma)
	}
	return m
}

package tui

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// This file opens a code object for the debugger: it finds the kernel,
// decodes its code once, lays out kernel arguments and buffers in emulator
// memory and creates one emu.Machine per wave with the registers the
// hardware would preload. Multi-wave dispatch belongs in package emu later;
// until then this is the debugger's own minimal launcher.

// Launch says what to open and how to launch it.
type Launch struct {
	Kernel string            // kernel name; empty for the first kernel
	Block  int               // work-items per work-group (default 64)
	Groups int               // work-groups (default 1)
	Args   map[string]string // kernel argument values by name (by-value arguments)
	Data   map[string][]byte // initial contents by argument name (buffers, or by-value bytes)
	Config *emu.Config       // nil for emu.DefaultConfig
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
}

// findKernel locates kernel name (or the first kernel) in f.
func findKernel(f *loader.File, name string) (*kernelCode, error) {
	tgt, err := f.Target()
	if err != nil {
		return nil, err
	}
	t, ok := isa.TargetOf(tgt.Processor)
	if !ok {
		return nil, fmt.Errorf("processor %s is not GFX8 or GFX9", tgt.Processor)
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
		if int(s.Section) == sec.Index && s.Value >= fn.Value && s.Value < fn.Value+uint64(len(k.text)) && s.Name != "" {
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

// decodeAll decodes a kernel's code; words that do not decode become
// 4-byte invalid instructions, which the emulator refuses to execute.
func decodeAll(k *kernelCode) []isa.Inst {
	var out []isa.Inst
	for off := 0; off+4 <= len(k.text); {
		in, err := isa.Decode(k.text[off:], k.target)
		if err != nil || in.Len <= 0 {
			in = isa.Inst{Len: 4, Target: k.target}
			in.Words[0] = binary.LittleEndian.Uint32(k.text[off:])
		}
		out = append(out, in)
		off += in.Len
	}
	return out
}

// branchTarget returns a SOPP branch's target address.
func branchTarget(in *isa.Inst, pc uint64) (uint64, bool) {
	if in.Enc != isa.EncSOPP || in.Form == nil {
		return 0, false
	}
	if in.Op.Info() == nil || in.Op.Info().Class != isa.ClassBranch {
		return 0, false
	}
	off := int64(int16(in.Words[0] & 0xffff))
	return uint64(int64(pc) + 4 + off*4), true
}

// Open opens the code object in data for debugging.
func Open(data []byte, l Launch) (*EmuDebuggee, error) {
	f, err := loader.NewFile(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return OpenFile(f, l)
}

// OpenFile opens an already parsed code object (for instance one that
// loader.Load took out of an offload bundle or a fat binary). f may be
// closed once OpenFile returns.
func OpenFile(f *loader.File, l Launch) (*EmuDebuggee, error) {
	k, err := findKernel(f, l.Kernel)
	if err != nil {
		return nil, err
	}
	return launch(k, l)
}

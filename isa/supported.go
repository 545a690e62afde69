package isa

import (
	"slices"
	"strconv"
	"strings"

	"github.com/wavedbg/wavedbg/loader"
)

// An UnsupportedTargetError says that a processor is not one wavedbg
// decodes and emulates, and which ones it does.
type UnsupportedTargetError struct {
	Processor string // "gfx90a"
}

func (e *UnsupportedTargetError) Error() string {
	list := "supported: " + strings.Join(SupportedProcessors(), ", ")
	if _, known := loader.MachByName(e.Processor); !known {
		return strconv.Quote(e.Processor) + " is not an AMDGPU processor; " + list
	}
	name := e.Processor
	if f := loader.Family(e.Processor); f != "" {
		name += " (" + f + ")"
	}
	return name + " is not supported; " + list
}

// CheckSupported returns nil if proc (a processor name or target ID) is
// one this package decodes, else an *UnsupportedTargetError.
func CheckSupported(proc string) error {
	if _, ok := TargetOf(proc); ok {
		return nil
	}
	if t, err := loader.ParseTargetID(proc); err == nil {
		proc = t.Processor
	}
	return &UnsupportedTargetError{Processor: proc}
}

// SupportedProcessors lists, sorted and without repeats, the processors
// LLVM names that this package decodes.
func SupportedProcessors() []string {
	var out []string
	for _, n := range loader.ProcessorNames() {
		if _, ok := TargetOf(n); ok {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

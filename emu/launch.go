package emu

import (
	"fmt"

	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// NewLaunch starts a Launch of kernel k from code object co: target,
// decoding features, code object version, code section and loadable
// segments. The caller adds the grid, block, offset and arguments.
func NewLaunch(co *loader.CodeObject, k *loader.Kernel) (*Launch, error) {
	t, ok := isa.TargetOf(co.Target.Processor)
	if !ok {
		return nil, fmt.Errorf("emu: %w", isa.CheckSupported(co.Target.Processor))
	}
	if co.Text == nil {
		return nil, fmt.Errorf("emu: %s has no .text section", co.Target.Processor)
	}
	text, err := co.Text.Data()
	if err != nil {
		return nil, err
	}
	l := &Launch{
		Target:   t,
		Features: isa.FeaturesOf(co.Target.Processor),
		Version:  co.Version,
		Kernel:   k,
		Text:     text,
		TextAddr: co.Text.Addr,
	}
	for _, p := range co.File.Progs {
		if p.Type != loader.PT_LOAD || p.Memsz == 0 {
			continue
		}
		data, err := p.Data()
		if err != nil {
			return nil, err
		}
		l.Segments = append(l.Segments, Segment{Addr: p.Vaddr, Data: data, Size: p.Memsz})
	}
	return l, nil
}

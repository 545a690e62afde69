package asm

import (
	"strings"
)

// An Object is an assembled file before linking: the .text and .rodata
// bytes, the symbols, the kernel descriptors and the metadata note.
type Object struct {
	Target  string // the target ID, as .amdgcn_target spells it
	Version int    // code object version
	Text    []byte
	Rodata  []byte

	tgt         targetInfo
	textAlign   uint64
	rodataAlign uint64
	syms        []*symbol // in creation order
	kernels     []*kernel
	metadata    []byte // msgpack; nil: no note
	textSec     *section
	rodataSec   *section
	textAddr    uint64 // .text's address, once linked
}

// Kernels names the kernels, in file order.
func (o *Object) Kernels() []string {
	var n []string
	for _, k := range o.kernels {
		n = append(n, k.name)
	}
	return n
}

// Labels gives each label of .text, .L ones (which the code object does
// not keep) included, its address in the code object Link made, or its
// offset in .text before Link.
func (o *Object) Labels() map[string]uint64 {
	m := map[string]uint64{}
	for _, s := range o.syms {
		if s.defined && !s.isSet && s.val.sec == o.textSec {
			m[s.name] = o.textAddr + uint64(s.val.v)
		}
	}
	return m
}

// object gathers the last pass's results, checking what only the whole
// file can show.
func (a *assembler) object() (*Object, error) {
	o := &Object{Target: a.tgt.id, Version: a.version, tgt: a.tgt, syms: a.symOrder, kernels: a.kernels}
	if o.Version == 0 {
		o.Version = 5
	}
	if s := a.sections[".text"]; s != nil {
		o.Text, o.textAlign, o.textSec = s.data, s.align, s
	}
	if s := a.sections[".rodata"]; s != nil {
		o.Rodata, o.rodataAlign, o.rodataSec = s.data, s.align, s
	}
	for _, k := range a.kernels {
		s := a.syms[k.name]
		if s == nil || !s.defined || s.isSet {
			a.addErr(k.line, strings.LastIndex(a.raw[k.line], k.name)+1, "undefined symbol '"+k.name+"': the kernel's code needs a label")
		} else if s.val.sec != o.textSec {
			a.addErr(s.line, 1, "kernel '"+k.name+"' must be a label in .text")
		}
	}
	if len(a.errs) > 0 {
		return nil, a.errs
	}
	switch {
	case a.metadata != nil:
		o.metadata = a.metadata.msgpack(nil)
	case len(a.kernels) > 0:
		o.metadata = a.generatedMetadata(o.Version).msgpack(nil)
	}
	return o, nil
}

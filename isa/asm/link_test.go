package asm

import (
	"bytes"
	"debug/elf"
	"testing"
)

// TestLinkLabelInEmptySection: a label in a section with no bytes (found
// by FuzzAssembleFile) links: the empty section is written for it.
func TestLinkLabelInEmptySection(t *testing.T) {
	for _, src := range []string{"a:\n", ".rodata\nb:\n", "a:\n.rodata\nb:\n"} {
		co, err := Assemble("e.s", []byte(src), Options{Target: "gfx900"})
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		f, err := elf.NewFile(bytes.NewReader(co))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		syms, _ := f.Symbols()
		for _, s := range syms {
			if s.Name != "_DYNAMIC" && (int(s.Section) >= len(f.Sections) || f.Sections[s.Section].Size != 0) {
				t.Errorf("%q: symbol %s in section %d", src, s.Name, s.Section)
			}
		}
	}
}

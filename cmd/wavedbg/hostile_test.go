package main

// Helpers that build hostile code objects by patching real ones, for the
// disasm regression tests and the fuzz seeds.

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"os"
	"testing"
)

// scaleCO is the debugger's bundled sample: a small gfx900 kernel "scale"
// whose .text holds one symbol.
const scaleCO = "../../tui/sample/scale.co"

// readFile returns a committed test input.
func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("committed test input: %v", err)
	}
	return b
}

// withSymbolValue returns a copy of the ELF data whose .symtab symbol name
// has st_value v.
func withSymbolValue(t testing.TB, data []byte, name string, v uint64) []byte {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	out := bytes.Clone(data)
	for _, s := range f.Sections {
		if s.Type != elf.SHT_SYMTAB || int(s.Link) >= len(f.Sections) {
			continue
		}
		strs, err := f.Sections[s.Link].Data()
		if err != nil {
			t.Fatal(err)
		}
		for off := s.Offset; off+elf.Sym64Size <= s.Offset+s.Size; off += elf.Sym64Size {
			n := binary.LittleEndian.Uint32(out[off:])
			if end := bytes.IndexByte(strs[n:], 0); end >= 0 && string(strs[n:n+uint32(end)]) == name {
				binary.LittleEndian.PutUint64(out[off+8:], v) // st_value
				return out
			}
		}
	}
	t.Fatalf("no .symtab symbol %q", name)
	return nil
}

// withSectionSize returns a copy of the ELF data whose section name has
// sh_size size.
func withSectionSize(t testing.TB, data []byte, name string, size uint64) []byte {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	shoff := binary.LittleEndian.Uint64(data[0x28:]) // e_shoff
	for i, s := range f.Sections {
		if s.Name == name {
			out := bytes.Clone(data)
			binary.LittleEndian.PutUint64(out[shoff+uint64(i)*64+32:], size) // sh_size
			return out
		}
	}
	t.Fatalf("no section %s", name)
	return nil
}

// textRange returns the address and size of the .text section of ELF data.
func textRange(t testing.TB, data []byte) (addr, size uint64) {
	t.Helper()
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	s := f.Section(".text")
	if s == nil {
		t.Fatal("no .text section")
	}
	return s.Addr, s.Size
}

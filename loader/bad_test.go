package loader

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// mutate returns a copy of b with fn applied.
func mutate(b []byte, fn func([]byte) []byte) []byte {
	return fn(append([]byte(nil), b...))
}

// TestBadELF feeds broken files to the reader: each must give a
// *FormatError that names the structure, never a panic.
func TestBadELF(t *testing.T) {
	good := mustRead(t, "testdata/co/vadd-gfx900-v4.co")
	shoff := le.Uint64(good[40:])
	tests := []struct {
		name   string
		data   []byte
		access func(*File) error // nil: NewFile itself must fail
		want   string            // in the error's Struct or Msg
	}{
		{"empty", nil, nil, "too short"},
		{"not ELF", []byte("#!/bin/sh\necho hello, this is not an ELF file at all\n"), nil, "bad magic"},
		{"ELF32", mutate(good, func(b []byte) []byte { b[4] = 1; return b }), nil, "ELFCLASS32"},
		{"big-endian", mutate(good, func(b []byte) []byte { b[5] = 2; return b }), nil, "byte order"},
		{"truncated header", good[:40], nil, "too short"},
		{"truncated section table", good[:shoff+10], nil, "section header"},
		{"section offset past EOF", mutate(good, func(b []byte) []byte {
			le.PutUint64(b[shoff+shdrSize+24:], 1<<40)
			return b
		}), nil, "past the end"},
		{"section claims 2^63 bytes", mutate(good, func(b []byte) []byte {
			le.PutUint64(b[shoff+shdrSize+32:], 1<<63)
			return b
		}), nil, "past the end"},
		{"huge phnum", mutate(good, func(b []byte) []byte { le.PutUint16(b[56:], 0xffff); return b }), nil, "program header table"},
		{"bad phentsize", mutate(good, func(b []byte) []byte { le.PutUint16(b[54:], 32); return b }), nil, "e_phentsize"},
		{"shstrndx out of range", mutate(good, func(b []byte) []byte { le.PutUint16(b[62:], 999); return b }), nil, "e_shstrndx"},
		{"shstrndx not strtab", mutate(good, func(b []byte) []byte { le.PutUint16(b[62:], 1); return b }), nil, "not SHT_STRTAB"},
		{"wrong machine", mutate(good, func(b []byte) []byte { le.PutUint16(b[18:], uint16(EM_X86_64)); return b }),
			func(f *File) error { _, err := f.Target(); return err }, "EM_AMDGPU"},
		{"unknown ABI version", mutate(good, func(b []byte) []byte { b[8] = 9; return b }),
			func(f *File) error { _, err := f.CodeObjectVersion(); return err }, "EI_ABIVERSION"},
		{"symtab linked to itself", mutate(good, func(b []byte) []byte {
			f, _ := NewFile(bytes.NewReader(b))
			s := f.SectionByType(SHT_SYMTAB)
			le.PutUint32(b[shoff+uint64(s.Index)*shdrSize+40:], uint32(s.Index))
			return b
		}), func(f *File) error { _, err := f.Symbols(); return err }, "not SHT_STRTAB"},
		{"symtab entsize", mutate(good, func(b []byte) []byte {
			f, _ := NewFile(bytes.NewReader(b))
			s := f.SectionByType(SHT_SYMTAB)
			le.PutUint64(b[shoff+uint64(s.Index)*shdrSize+56:], 0)
			return b
		}), func(f *File) error { _, err := f.Symbols(); return err }, "sh_entsize"},
		{"note name past end", mutate(good, func(b []byte) []byte {
			f, _ := NewFile(bytes.NewReader(b))
			s := f.SectionByType(SHT_NOTE)
			le.PutUint32(b[s.Offset:], 0xfffffff0)
			return b
		}), func(f *File) error { _, err := f.Notes(); return err }, "run past the end of the notes"},
		{"metadata with a bad msgpack byte", mutate(good, func(b []byte) []byte {
			f, _ := NewFile(bytes.NewReader(b))
			s := f.SectionByType(SHT_NOTE)
			b[s.Offset+20] = 0xc1 // "AMDGPU\0" pads to 8: the descriptor's first byte
			return b
		}), func(f *File) error { _, err := f.Metadata(); return err }, "NT_AMDGPU_METADATA"},
		{"ET_REL relocations linked to no symbol table", mutate(mustRead(t, "testdata/co/vadd-gfx900-v4.o"), func(b []byte) []byte {
			f, _ := NewFile(bytes.NewReader(b))
			s := f.Section(".rela.rodata")
			le.PutUint32(b[f.Shoff+uint64(s.Index)*shdrSize+40:], 0xffff)
			return b
		}), func(f *File) error { _, err := f.Kernels(); return err }, "does not name a symbol table"},
		{"descriptor outside its section", mutate(good, func(b []byte) []byte {
			f, _ := NewFile(bytes.NewReader(b))
			s := f.SectionByType(SHT_SYMTAB)
			data, _ := s.Data()
			for i := symSize; i+symSize <= len(data); i += symSize {
				le.PutUint64(b[s.Offset+uint64(i)+8:], 1<<62) // every st_value
			}
			return b
		}), func(f *File) error { _, err := f.Kernels(); return err }, "outside section"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := NewFile(bytes.NewReader(tt.data))
			if tt.access != nil {
				if err != nil {
					t.Fatalf("NewFile: %v", err)
				}
				err = tt.access(f)
			}
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v (%T), want a *FormatError", err, err)
			}
			if !strings.Contains(fe.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", fe, tt.want)
			}
		})
	}
}

// TestErrorsNameTheFile checks that Open's errors carry the path.
func TestErrorsNameTheFile(t *testing.T) {
	_, err := Open("testdata/src/vadd.cl")
	var fe *FormatError
	if !errors.As(err, &fe) || fe.File != "testdata/src/vadd.cl" || !strings.Contains(err.Error(), "testdata/src/vadd.cl") {
		t.Fatalf("Open(vadd.cl) = %v, want a *FormatError naming the file", err)
	}
	_, err = Load("testdata/src/vadd.cl", LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "testdata/src/vadd.cl") {
		t.Fatalf("Load(vadd.cl) = %v, want an error naming the file", err)
	}
}

// TestTruncatedFiles cuts every committed file and container at many
// points: each prefix either parses or gives *FormatErrors, from every
// accessor.
func TestTruncatedFiles(t *testing.T) {
	files := elfFiles(t)
	bundles, _ := filepath.Glob("testdata/bundle/*")
	for _, p := range append(files, bundles...) {
		data := mustRead(t, p)
		for _, cut := range []int{0, 4, 16, 63, 64, 100, len(data) / 8, len(data) / 4, len(data) / 2, len(data) * 3 / 4, len(data) - 1} {
			prefix := data[:max(0, min(cut, len(data)))]
			exerciseFile(prefix, func(err error) { structural(t, err) })
			c, err := NewContainer(bytes.NewReader(prefix), int64(len(prefix)))
			structural(t, err)
			if err == nil {
				for i := range c.Entries {
					if c.Entries[i].Size > 0 {
						_, err := c.Entries[i].Load()
						structural(t, err)
					}
				}
			}
		}
	}
}

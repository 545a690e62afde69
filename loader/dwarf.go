package loader

import (
	"bytes"
	"compress/zlib"
	"debug/dwarf"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/zstd"
)

// dwarfSections are the sections handed to debug/dwarf: the ones New takes,
// then the DWARF 5 ones AddSection takes. Others (.debug_loclists,
// .debug_frame) are not read by debug/dwarf and are left out.
var dwarfSections = []string{
	".debug_abbrev", ".debug_aranges", ".debug_frame", ".debug_info", ".debug_line",
	".debug_pubnames", ".debug_ranges", ".debug_str",
	".debug_addr", ".debug_line_str", ".debug_str_offsets", ".debug_rnglists",
}

// shfCompressed is SHF_COMPRESSED: the section starts with an Elf64_Chdr.
const shfCompressed SectionFlag = 0x800

// HasDWARF reports whether the file has a .debug_info section.
func (f *File) HasDWARF() bool { return f.Section(".debug_info") != nil }

// DWARF returns the file's debug information, read by debug/dwarf from its
// .debug_* sections, decompressed if SHF_COMPRESSED. In an ET_REL object the R_AMDGPU_ABS32 and
// R_AMDGPU_ABS64 relocations of those sections are applied first (linked
// code objects need none). Errors name the file and the section.
func (f *File) DWARF() (d *dwarf.Data, err error) {
	if !f.HasDWARF() {
		return nil, nameErr(formatErr(".debug_info", -1, "no DWARF debug information (build with -g)"), f.name)
	}
	data := make(map[string][]byte)
	for _, name := range dwarfSections {
		s := f.Section(name)
		if s == nil {
			continue
		}
		b, err := s.Data()
		if err != nil {
			return nil, err
		}
		if s.Flags&shfCompressed != 0 {
			if b, err = decompressSection(s, b); err != nil {
				return nil, nameErr(err, f.name)
			}
		}
		if f.Type == ET_REL {
			if b, err = f.relocateDebug(s, b); err != nil {
				return nil, err
			}
		}
		data[name] = b
	}
	defer func() {
		if r := recover(); r != nil {
			d, err = nil, nameErr(formatErr(".debug_info", -1, "malformed DWARF: %v", r), f.name)
		}
	}()
	d, err = dwarf.New(data[".debug_abbrev"], data[".debug_aranges"], nil,
		data[".debug_info"], data[".debug_line"], data[".debug_pubnames"], data[".debug_ranges"], data[".debug_str"])
	if err != nil {
		return nil, dwarfErr(f, err)
	}
	for _, name := range dwarfSections[7:] {
		if b, ok := data[name]; ok {
			if err := d.AddSection(name, b); err != nil {
				return nil, dwarfErr(f, err)
			}
		}
	}
	return d, nil
}

// ELF compression types (Elf64_Chdr.ch_type).
const (
	elfCompressZlib = 1
	elfCompressZstd = 2
)

// decompressSection inflates SHF_COMPRESSED section s (clang -gz, ld.lld
// --compress-debug-sections), whose contents b start with an Elf64_Chdr.
func decompressSection(s *Section, b []byte) ([]byte, error) {
	st := s.structure()
	if len(b) < 24 {
		return nil, formatErr(st, int64(s.Offset), "compressed section of %d bytes has no Elf64_Chdr", len(b))
	}
	typ, size := le.Uint32(b), le.Uint64(b[8:])
	if size > uint64(len(b)-24)*maxDecompressRatio+4096 {
		return nil, formatErr(st, int64(s.Offset)+8, "uncompressed size %d is implausible for %d compressed bytes", size, len(b)-24)
	}
	var dec io.Reader
	switch typ {
	case elfCompressZlib:
		zr, err := zlib.NewReader(bytes.NewReader(b[24:]))
		if err != nil {
			return nil, formatErr(st, int64(s.Offset)+24, "zlib: %v", err)
		}
		defer zr.Close()
		dec = zr
	case elfCompressZstd:
		zr, err := zstd.NewReader(bytes.NewReader(b[24:]), zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(size+1<<20))
		if err != nil {
			return nil, formatErr(st, int64(s.Offset)+24, "zstd: %v", err)
		}
		defer zr.Close()
		dec = zr
	default:
		return nil, formatErr(st, int64(s.Offset), "unknown compression type %d", typ)
	}
	data, err := readCapped(dec, size)
	if err != nil {
		return nil, formatErr(st, int64(s.Offset)+24, "decompressing: %v", err)
	}
	if uint64(len(data)) != size {
		return nil, formatErr(st, int64(s.Offset)+24, "decompresses to %d bytes, Elf64_Chdr says %d", len(data), size)
	}
	return data, nil
}

// DWARF returns the code object's debug information; see File.DWARF.
func (co *CodeObject) DWARF() (*dwarf.Data, error) { return co.File.DWARF() }

// dwarfErr turns a debug/dwarf error into a *FormatError naming the file
// and, for a DecodeError, the section and offset.
func dwarfErr(f *File, err error) error {
	if de, ok := err.(dwarf.DecodeError); ok {
		sec := ".debug_" + de.Name
		if s := f.Section(sec); s != nil {
			return nameErr(formatErr(s.structure(), int64(s.Offset)+int64(de.Offset), "%s", de.Err), f.name)
		}
		return nameErr(formatErr(sec, int64(de.Offset), "%s", de.Err), f.name)
	}
	msg := strings.TrimPrefix(err.Error(), "decoding dwarf section ")
	return nameErr(formatErr("DWARF", -1, "%s", msg), f.name)
}

// relocateDebug applies the RELA sections that target debug section s to
// its contents b (a copy is returned).
func (f *File) relocateDebug(s *Section, b []byte) ([]byte, error) {
	rs := f.RelocationSections(s)
	if len(rs) == 0 {
		return b, nil
	}
	syms, err := f.Symbols()
	if err != nil {
		return nil, err
	}
	b = append([]byte(nil), b...)
	for _, rsec := range rs {
		rels, err := f.Relocations(rsec)
		if err != nil {
			return nil, err
		}
		for i, r := range rels {
			where := fmt.Sprintf("%s relocation %d", rsec.structure(), i)
			var sv uint64
			if n := r.Sym(); n != 0 {
				// Symbols() omits the null symbol 0.
				if int(n) > len(syms) {
					return nil, nameErr(formatErr(where, -1, "symbol index %d out of range", n), f.name)
				}
				sv = syms[n-1].Value
			}
			v := sv + uint64(r.Addend)
			switch r.Type() {
			case R_AMDGPU_NONE:
			case R_AMDGPU_ABS32:
				if r.Off > uint64(len(b)) || uint64(len(b))-r.Off < 4 {
					return nil, nameErr(formatErr(where, -1, "offset %#x outside %s", r.Off, s.Name), f.name)
				}
				le.PutUint32(b[r.Off:], uint32(v))
			case R_AMDGPU_ABS64:
				if r.Off > uint64(len(b)) || uint64(len(b))-r.Off < 8 {
					return nil, nameErr(formatErr(where, -1, "offset %#x outside %s", r.Off, s.Name), f.name)
				}
				le.PutUint64(b[r.Off:], v)
			default:
				return nil, nameErr(formatErr(where, -1, "relocation type %d is not supported in %s", r.Type(), s.Name), f.name)
			}
		}
	}
	return b, nil
}

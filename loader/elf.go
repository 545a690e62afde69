package loader

import (
	"encoding/binary"
	"io"
	"os"
)

var le = binary.LittleEndian

// FileHeader is the ELF64 file header.
type FileHeader struct {
	Class      Class
	Data       Data
	Version    uint8 // EI_VERSION
	OSABI      OSABI
	ABIVersion uint8
	Type       Type
	Machine    Machine
	Entry      uint64
	Phoff      uint64
	Shoff      uint64
	Flags      uint32 // e_flags; for EM_AMDGPU see Target
	Ehsize     uint16
	Phentsize  uint16
	Phnum      uint16
	Shentsize  uint16
	Shnum      uint16 // e_shnum as stored (0 when the count is in section 0)
	Shstrndx   uint32 // the section name table index, also when it is in section 0
}

// SectionHeader is one ELF64 section header with its name resolved.
type SectionHeader struct {
	Name      string
	NameOff   uint32
	Type      SectionType
	Flags     SectionFlag
	Addr      uint64
	Offset    uint64
	Size      uint64
	Link      uint32
	Info      uint32
	Addralign uint64
	Entsize   uint64
}

// A Section is one section of a File.
type Section struct {
	SectionHeader
	Index int
	f     *File
}

// ProgHeader is one ELF64 program header.
type ProgHeader struct {
	Type   ProgType
	Flags  ProgFlag
	Off    uint64
	Vaddr  uint64
	Paddr  uint64
	Filesz uint64
	Memsz  uint64
	Align  uint64
}

// A Prog is one program header (segment) of a File.
type Prog struct {
	ProgHeader
	f *File
}

// A File is an open ELF64 little-endian file.
type File struct {
	FileHeader
	Sections []*Section
	Progs    []*Prog

	r      io.ReaderAt
	size   int64 // size of r's data, -1 when unknown
	name   string
	closer io.Closer
}

// maxHeaders caps the number of section or program headers we accept;
// ELF cannot express more than 2^32 and real files have a few thousand.
const maxHeaders = 1 << 20

// Open opens the named file and reads its ELF headers. Errors name the file.
func Open(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	f, err := newFile(io.NewSectionReader(fh, 0, st.Size()), st.Size(), path)
	if err != nil {
		fh.Close()
		return nil, err
	}
	f.closer = fh
	return f, nil
}

// NewFile reads the ELF headers of the file in r. When r has a
// Size() int64 method (bytes.Reader, io.SectionReader) or is an *os.File,
// every offset is checked against that size.
func NewFile(r io.ReaderAt) (*File, error) {
	return newFile(r, sizeOf(r), "")
}

// Close closes the underlying file if the File was made by Open.
func (f *File) Close() error {
	if f.closer == nil {
		return nil
	}
	err := f.closer.Close()
	f.closer = nil
	return err
}

// Name is the file name given to Open (or Load), or "".
func (f *File) Name() string { return f.name }

// Size is the size of the file's data, or -1 if unknown.
func (f *File) Size() int64 { return f.size }

// ReaderAt gives the file's underlying data.
func (f *File) ReaderAt() io.ReaderAt { return f.r }

func (f *File) read(off uint64, n uint64, structure string) ([]byte, error) {
	if off > 1<<62 {
		return nil, formatErr(structure, -1, "offset %#x out of range", off)
	}
	b, err := readAt(f.r, f.size, int64(off), n, structure)
	return b, nameErr(err, f.name)
}

func newFile(r io.ReaderAt, size int64, fname string) (*File, error) {
	f := &File{r: r, size: size, name: fname}
	err := f.readHeaders()
	return f, nameErr(err, fname)
}

func (f *File) readHeaders() error {
	var h [ehdrSize]byte
	if n, err := f.r.ReadAt(h[:], 0); n < 16 {
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return err
		}
		return formatErr("ELF header", int64(n), "file is too short for an ELF header (%d bytes)", n)
	} else if string(h[:4]) != "\x7fELF" {
		return formatErr("ELF header", 0, "bad magic %q", h[:4])
	} else if Class(h[4]) != ELFCLASS64 {
		return formatErr("ELF header", 4, "unsupported class %v (only ELF64)", Class(h[4]))
	} else if Data(h[5]) != ELFDATA2LSB {
		return formatErr("ELF header", 5, "unsupported byte order %v (only little-endian)", Data(h[5]))
	} else if n < ehdrSize {
		return formatErr("ELF header", int64(n), "file is too short for an ELF64 header (%d bytes)", n)
	}
	fh := &f.FileHeader
	fh.Class, fh.Data, fh.Version, fh.OSABI, fh.ABIVersion = Class(h[4]), Data(h[5]), h[6], OSABI(h[7]), h[8]
	if fh.Version != 1 {
		return formatErr("ELF header", 6, "unknown EI_VERSION %d", fh.Version)
	}
	fh.Type = Type(le.Uint16(h[16:]))
	fh.Machine = Machine(le.Uint16(h[18:]))
	if v := le.Uint32(h[20:]); v != 1 {
		return formatErr("ELF header", 20, "unknown e_version %d", v)
	}
	fh.Entry = le.Uint64(h[24:])
	fh.Phoff = le.Uint64(h[32:])
	fh.Shoff = le.Uint64(h[40:])
	fh.Flags = le.Uint32(h[48:])
	fh.Ehsize = le.Uint16(h[52:])
	fh.Phentsize = le.Uint16(h[54:])
	fh.Phnum = le.Uint16(h[56:])
	fh.Shentsize = le.Uint16(h[58:])
	fh.Shnum = le.Uint16(h[60:])
	fh.Shstrndx = uint32(le.Uint16(h[62:]))

	if err := f.readProgs(); err != nil {
		return err
	}
	return f.readSections()
}

func (f *File) readProgs() error {
	fh := &f.FileHeader
	if fh.Phnum == 0 {
		return nil
	}
	if fh.Phentsize != phdrSize {
		return formatErr("ELF header", 54, "e_phentsize %d, want %d", fh.Phentsize, phdrSize)
	}
	b, err := f.read(fh.Phoff, uint64(fh.Phnum)*phdrSize, "program header table")
	if err != nil {
		return err
	}
	f.Progs = make([]*Prog, fh.Phnum)
	for i := range f.Progs {
		p := b[i*phdrSize:]
		f.Progs[i] = &Prog{f: f, ProgHeader: ProgHeader{
			Type: ProgType(le.Uint32(p)), Flags: ProgFlag(le.Uint32(p[4:])),
			Off: le.Uint64(p[8:]), Vaddr: le.Uint64(p[16:]), Paddr: le.Uint64(p[24:]),
			Filesz: le.Uint64(p[32:]), Memsz: le.Uint64(p[40:]), Align: le.Uint64(p[48:]),
		}}
	}
	return nil
}

func (f *File) readSections() error {
	fh := &f.FileHeader
	if fh.Shoff == 0 {
		if fh.Shnum != 0 {
			return formatErr("ELF header", 60, "e_shnum %d with e_shoff 0", fh.Shnum)
		}
		return nil
	}
	if fh.Shentsize != shdrSize {
		return formatErr("ELF header", 58, "e_shentsize %d, want %d", fh.Shentsize, shdrSize)
	}
	// Section 0 carries the real count and string-table index when they
	// do not fit the header fields.
	s0, err := f.read(fh.Shoff, shdrSize, "section header 0")
	if err != nil {
		return err
	}
	n := uint64(fh.Shnum)
	if n == 0 {
		n = le.Uint64(s0[32:])
		if n > maxHeaders {
			return formatErr("section header 0", int64(fh.Shoff), "section count %d is too large", n)
		}
	}
	if fh.Shstrndx == uint32(SHN_XINDEX) {
		fh.Shstrndx = le.Uint32(s0[40:])
	}
	if n == 0 {
		return nil
	}
	b, err := f.read(fh.Shoff, n*shdrSize, "section header table")
	if err != nil {
		return err
	}
	f.Sections = make([]*Section, n)
	for i := range f.Sections {
		p := b[i*shdrSize:]
		s := &Section{f: f, Index: i, SectionHeader: SectionHeader{
			NameOff: le.Uint32(p), Type: SectionType(le.Uint32(p[4:])), Flags: SectionFlag(le.Uint64(p[8:])),
			Addr: le.Uint64(p[16:]), Offset: le.Uint64(p[24:]), Size: le.Uint64(p[32:]),
			Link: le.Uint32(p[40:]), Info: le.Uint32(p[44:]), Addralign: le.Uint64(p[48:]), Entsize: le.Uint64(p[56:]),
		}}
		if s.Type != SHT_NOBITS && s.Type != SHT_NULL && f.size >= 0 &&
			(s.Offset > uint64(f.size) || s.Size > uint64(f.size)-s.Offset) {
			return formatErr("section header "+itoa(i), int64(fh.Shoff)+int64(i)*shdrSize,
				"section data [%#x, +%#x) runs past the end of the file (%d bytes)", s.Offset, s.Size, f.size)
		}
		f.Sections[i] = s
	}
	if fh.Shstrndx == 0 {
		return nil
	}
	if uint64(fh.Shstrndx) >= n {
		return formatErr("ELF header", 62, "e_shstrndx %d out of range (%d sections)", fh.Shstrndx, n)
	}
	shstr := f.Sections[fh.Shstrndx]
	if shstr.Type != SHT_STRTAB {
		return formatErr("ELF header", 62, "e_shstrndx %d names a %v section, not SHT_STRTAB", fh.Shstrndx, shstr.Type)
	}
	names, err := shstr.Data()
	if err != nil {
		return err
	}
	for i, s := range f.Sections {
		name, ok := cstring(names, s.NameOff)
		if !ok {
			return formatErr("section header "+itoa(i), int64(fh.Shoff)+int64(i)*shdrSize,
				"sh_name %#x outside the section name table (%d bytes)", s.NameOff, len(names))
		}
		s.Name = name
	}
	return nil
}

// cstring returns the NUL-terminated string at off in tab.
func cstring(tab []byte, off uint32) (string, bool) {
	if uint64(off) >= uint64(len(tab)) {
		return "", off == 0 && len(tab) == 0
	}
	for i := int(off); i < len(tab); i++ {
		if tab[i] == 0 {
			return string(tab[off:i]), true
		}
	}
	return "", false
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			break
		}
	}
	return string(b[n:])
}

// Section returns the first section with the given name, or nil.
func (f *File) Section(name string) *Section {
	for _, s := range f.Sections {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// SectionByType returns the first section of type t, or nil.
func (f *File) SectionByType(t SectionType) *Section {
	for _, s := range f.Sections {
		if s.Type == t {
			return s
		}
	}
	return nil
}

func (s *Section) structure() string { return "section " + itoa(s.Index) + " (" + s.Name + ")" }

// Data reads and returns the section's contents (empty for SHT_NOBITS).
func (s *Section) Data() ([]byte, error) {
	if s.Type == SHT_NOBITS || s.Type == SHT_NULL {
		return []byte{}, nil
	}
	return s.f.read(s.Offset, s.Size, s.structure())
}

// Open returns a reader over the section's contents.
func (s *Section) Open() *io.SectionReader {
	if s.Type == SHT_NOBITS || s.Type == SHT_NULL || s.Offset > 1<<62 || s.Size > 1<<62 {
		return io.NewSectionReader(s.f.r, 0, 0)
	}
	return io.NewSectionReader(s.f.r, int64(s.Offset), int64(s.Size))
}

// Data reads and returns the segment's bytes in the file (p_filesz of them).
func (p *Prog) Data() ([]byte, error) {
	return p.f.read(p.Off, p.Filesz, "segment "+p.Type.String())
}

// Open returns a reader over the segment's bytes in the file.
func (p *Prog) Open() *io.SectionReader {
	if p.Off > 1<<62 || p.Filesz > 1<<62 {
		return io.NewSectionReader(p.f.r, 0, 0)
	}
	return io.NewSectionReader(p.f.r, int64(p.Off), int64(p.Filesz))
}

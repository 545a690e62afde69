package loader

// A Symbol is one entry of .symtab or .dynsym.
type Symbol struct {
	Name    string
	Info    byte
	Other   byte
	Section SectionIndex
	Value   uint64
	Size    uint64

	off int64 // file offset of the symbol table entry, for errors
}

// Bind is the symbol's binding.
func (s Symbol) Bind() SymBind { return SymBind(s.Info >> 4) }

// Type is the symbol's type.
func (s Symbol) Type() SymType { return SymType(s.Info & 0xf) }

// Symbols returns the symbols of the SHT_SYMTAB section, without the null
// symbol at index 0 (as debug/elf does). A file without one gives none.
func (f *File) Symbols() ([]Symbol, error) {
	return f.symbols(SHT_SYMTAB)
}

// DynamicSymbols returns the symbols of the SHT_DYNSYM section.
func (f *File) DynamicSymbols() ([]Symbol, error) {
	return f.symbols(SHT_DYNSYM)
}

func (f *File) symbols(t SectionType) ([]Symbol, error) {
	s := f.SectionByType(t)
	if s == nil {
		return nil, nil
	}
	return f.sectionSymbols(s)
}

// sectionSymbols decodes the symbol table s.
func (f *File) sectionSymbols(s *Section) ([]Symbol, error) {
	if s.Entsize != symSize {
		return nil, nameErr(formatErr(s.structure(), int64(s.Offset), "sh_entsize %d, want %d", s.Entsize, symSize), f.name)
	}
	if s.Size%symSize != 0 {
		return nil, nameErr(formatErr(s.structure(), int64(s.Offset), "size %d is not a multiple of %d", s.Size, symSize), f.name)
	}
	strs, err := f.linkedStrtab(s)
	if err != nil {
		return nil, err
	}
	data, err := s.Data()
	if err != nil {
		return nil, err
	}
	if len(data) < symSize {
		return nil, nil
	}
	n := len(data)/symSize - 1
	syms := make([]Symbol, n)
	for i := range syms {
		p := data[(i+1)*symSize:]
		sym := Symbol{
			Info: p[4], Other: p[5], Section: SectionIndex(le.Uint16(p[6:])),
			Value: le.Uint64(p[8:]), Size: le.Uint64(p[16:]),
			off: int64(s.Offset) + int64(i+1)*symSize,
		}
		nameOff := le.Uint32(p)
		name, ok := cstring(strs, nameOff)
		if !ok {
			return nil, nameErr(formatErr(s.structure(), int64(s.Offset)+int64(i+1)*symSize,
				"symbol %d: st_name %#x outside its string table (%d bytes)", i+1, nameOff, len(strs)), f.name)
		}
		sym.Name = name
		syms[i] = sym
	}
	return syms, nil
}

// linkedStrtab returns the string table named by s.Link.
func (f *File) linkedStrtab(s *Section) ([]byte, error) {
	if s.Link == 0 || uint64(s.Link) >= uint64(len(f.Sections)) {
		return nil, nameErr(formatErr(s.structure(), int64(s.Offset), "sh_link %d does not name a section", s.Link), f.name)
	}
	st := f.Sections[s.Link]
	if st.Type != SHT_STRTAB {
		return nil, nameErr(formatErr(s.structure(), int64(s.Offset), "sh_link %d names a %v section, not SHT_STRTAB", s.Link, st.Type), f.name)
	}
	return st.Data()
}

// A Rela is one ELF64 relocation with addend.
type Rela struct {
	Off    uint64
	Info   uint64
	Addend int64
}

// Sym is the relocation's symbol index.
func (r Rela) Sym() uint32 { return uint32(r.Info >> 32) }

// Type is the relocation's type (R_AMDGPU_* or R_X86_64_*).
func (r Rela) Type() uint32 { return uint32(r.Info) }

// Relocations decodes the SHT_RELA section s.
func (f *File) Relocations(s *Section) ([]Rela, error) {
	if s.Type != SHT_RELA {
		return nil, nameErr(formatErr(s.structure(), int64(s.Offset), "%v section holds no relocations with addends", s.Type), f.name)
	}
	if s.Entsize != relaSize || s.Size%relaSize != 0 {
		return nil, nameErr(formatErr(s.structure(), int64(s.Offset), "sh_entsize %d and size %d do not describe %d-byte entries", s.Entsize, s.Size, relaSize), f.name)
	}
	data, err := s.Data()
	if err != nil {
		return nil, err
	}
	rels := make([]Rela, len(data)/relaSize)
	for i := range rels {
		p := data[i*relaSize:]
		rels[i] = Rela{Off: le.Uint64(p), Info: le.Uint64(p[8:]), Addend: int64(le.Uint64(p[16:]))}
	}
	return rels, nil
}

// RelocationSections returns the SHT_RELA sections that apply to section
// target (by sh_info).
func (f *File) RelocationSections(target *Section) []*Section {
	var out []*Section
	for _, s := range f.Sections {
		if s.Type == SHT_RELA && int(s.Info) == target.Index {
			out = append(out, s)
		}
	}
	return out
}

// A Dyn is one entry of the dynamic section.
type Dyn struct {
	Tag DynTag
	Val uint64
}

// Dynamic returns the entries of the SHT_DYNAMIC section (or of the
// PT_DYNAMIC segment when there are no section headers), up to and
// including DT_NULL.
func (f *File) Dynamic() ([]Dyn, error) {
	var data []byte
	var err error
	var off uint64
	if s := f.SectionByType(SHT_DYNAMIC); s != nil {
		data, err = s.Data()
		off = s.Offset
	} else {
		for _, p := range f.Progs {
			if p.Type == PT_DYNAMIC {
				data, err = p.Data()
				off = p.Off
				break
			}
		}
	}
	if err != nil || data == nil {
		return nil, err
	}
	if len(data)%dynSize != 0 {
		return nil, nameErr(formatErr("dynamic section", int64(off), "size %d is not a multiple of %d", len(data), dynSize), f.name)
	}
	var out []Dyn
	for i := 0; i < len(data); i += dynSize {
		d := Dyn{Tag: DynTag(le.Uint64(data[i:])), Val: le.Uint64(data[i+8:])}
		out = append(out, d)
		if d.Tag == DT_NULL {
			break
		}
	}
	return out, nil
}

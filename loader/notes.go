package loader

// A Note is one ELF note.
type Note struct {
	Name string
	Type uint32
	Desc []byte
	Off  int64 // file offset of the note's header
}

// Notes returns every note of the file: from its SHT_NOTE sections, or,
// when it has none, from its PT_NOTE segments.
func (f *File) Notes() ([]Note, error) {
	var out []Note
	found := false
	for _, s := range f.Sections {
		if s.Type != SHT_NOTE {
			continue
		}
		found = true
		data, err := s.Data()
		if err != nil {
			return out, err
		}
		ns, err := ParseNotes(data, int64(s.Offset), s.Addralign)
		out = append(out, ns...)
		if err != nil {
			return out, nameErr(err, f.name)
		}
	}
	if found {
		return out, nil
	}
	for _, p := range f.Progs {
		if p.Type != PT_NOTE {
			continue
		}
		data, err := p.Data()
		if err != nil {
			return out, err
		}
		ns, err := ParseNotes(data, int64(p.Off), p.Align)
		out = append(out, ns...)
		if err != nil {
			return out, nameErr(err, f.name)
		}
	}
	return out, nil
}

// ParseNotes decodes a sequence of notes from data, which starts at file
// offset base. align is the note alignment (8, or else 4). Notes decoded
// before an error are returned with it.
func ParseNotes(data []byte, base int64, align uint64) ([]Note, error) {
	pad := uint64(4)
	if align == 8 {
		pad = 8
	}
	var out []Note
	for off := uint64(0); off < uint64(len(data)); {
		rest := uint64(len(data)) - off
		if rest < 12 {
			if allZero(data[off:]) {
				break // trailing padding
			}
			return out, formatErr("note", base+int64(off), "truncated note header (%d bytes left)", rest)
		}
		namesz := uint64(le.Uint32(data[off:]))
		descsz := uint64(le.Uint32(data[off+4:]))
		typ := le.Uint32(data[off+8:])
		nameEnd := 12 + alignUp(namesz, pad)
		descEnd := nameEnd + alignUp(descsz, pad)
		if nameEnd > rest || nameEnd+descsz > rest {
			return out, formatErr("note", base+int64(off), "name (%d bytes) and descriptor (%d bytes) run past the end of the notes (%d bytes left)", namesz, descsz, rest)
		}
		name := data[off+12 : off+12+namesz]
		if n := len(name); n > 0 && name[n-1] == 0 {
			name = name[:n-1]
		}
		out = append(out, Note{Name: string(name), Type: typ, Desc: data[off+nameEnd : off+nameEnd+descsz], Off: base + int64(off)})
		off += min(descEnd, rest)
	}
	return out, nil
}

func alignUp(v, a uint64) uint64 { return (v + a - 1) &^ (a - 1) }

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

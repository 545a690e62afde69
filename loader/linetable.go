package loader

import (
	"debug/dwarf"
	"errors"
	"io"
	"path"
	"sort"
	"strings"
)

// A LineRow is one row of a DWARF line table.
type LineRow struct {
	Addr   uint64
	File   string // as llvm-symbolizer names it, but with . and .. cleaned away
	Line   int    // 0 for code with no source line
	Column int
	IsStmt bool // a recommended breakpoint location
}

// A LineTable maps code addresses to source lines and back, and addresses
// to the function (or inlined function) they belong to. It is built from
// the file's DWARF by debug/dwarf.
type LineTable struct {
	seqs  []lineSeq // sorted by lo, not overlapping
	funcs []funcRange
}

// lineSeq is one sequence of rows: addresses lo (its first row) up to hi
// (the end_sequence address, exclusive).
type lineSeq struct {
	lo, hi uint64
	rows   []LineRow
}

// funcRange is an address range of a subprogram or inlined subroutine;
// depth is its nesting in the DIE tree (deeper is more inlined).
type funcRange struct {
	lo, hi uint64
	depth  int
	name   string
}

// LineTable reads the file's DWARF line tables and function ranges.
func (f *File) LineTable() (t *LineTable, err error) {
	d, err := f.DWARF()
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, nameErr(formatErr(".debug_line", -1, "malformed DWARF: %v", r), f.name)
		}
	}()
	t = &LineTable{}
	r := d.Reader()
	depth := 0
	for {
		e, err := r.Next()
		if err != nil {
			return nil, dwarfErr(f, err)
		}
		if e == nil {
			break
		}
		if e.Tag == 0 {
			depth--
			continue
		}
		switch e.Tag {
		case dwarf.TagCompileUnit:
			if err := t.addUnit(d, e); err != nil {
				return nil, dwarfErr(f, err)
			}
		case dwarf.TagSubprogram, dwarf.TagInlinedSubroutine:
			rs, err := d.Ranges(e)
			if err != nil {
				return nil, dwarfErr(f, err)
			}
			name := subroutineName(d, e, 0)
			for _, rg := range rs {
				t.funcs = append(t.funcs, funcRange{rg[0], rg[1], depth, name})
			}
		}
		if e.Children {
			depth++
		}
	}
	sort.SliceStable(t.seqs, func(i, j int) bool { return t.seqs[i].lo < t.seqs[j].lo })
	return t, nil
}

// addUnit reads the line table of compile unit cu.
func (t *LineTable) addUnit(d *dwarf.Data, cu *dwarf.Entry) error {
	lr, err := d.LineReader(cu)
	if err != nil || lr == nil {
		return err
	}
	// debug/dwarf joins a DWARF 5 file's name to its directory but not a
	// relative directory to the compilation directory; LLVM does.
	compDir, _ := cu.Val(dwarf.AttrCompDir).(string)
	var cur []LineRow
	for {
		var le dwarf.LineEntry
		if err := lr.Next(&le); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if le.EndSequence {
			if len(cur) > 0 && le.Address > cur[0].Addr {
				t.seqs = append(t.seqs, lineSeq{cur[0].Addr, le.Address, cur})
			}
			cur = nil
			continue
		}
		name := ""
		if le.File != nil {
			name = le.File.Name
			if compDir != "" && name != "" && !path.IsAbs(name) {
				name = strings.TrimSuffix(compDir, "/") + "/" + name
			}
		}
		cur = append(cur, LineRow{Addr: le.Address, File: name, Line: le.Line, Column: le.Column, IsStmt: le.IsStmt})
	}
}

// subroutineName is the linkage name or else the name of e, following
// DW_AT_abstract_origin and DW_AT_specification as LLVM does.
func subroutineName(d *dwarf.Data, e *dwarf.Entry, hops int) string {
	for _, a := range []dwarf.Attr{dwarf.AttrLinkageName, dwarf.AttrName} {
		if s, ok := e.Val(a).(string); ok && s != "" {
			return s
		}
	}
	if hops > 8 {
		return ""
	}
	for _, a := range []dwarf.Attr{dwarf.AttrAbstractOrigin, dwarf.AttrSpecification} {
		if off, ok := e.Val(a).(dwarf.Offset); ok {
			r := d.Reader()
			r.Seek(off)
			if o, err := r.Next(); err == nil && o != nil {
				return subroutineName(d, o, hops+1)
			}
		}
	}
	return ""
}

// Lookup returns the row that covers addr: the last row at or before addr
// in the sequence holding it. ok is false when no sequence holds addr.
func (t *LineTable) Lookup(addr uint64) (row LineRow, ok bool) {
	i := sort.Search(len(t.seqs), func(i int) bool { return t.seqs[i].lo > addr }) - 1
	if i < 0 || addr >= t.seqs[i].hi {
		return LineRow{}, false
	}
	rows := t.seqs[i].rows
	j := sort.Search(len(rows), func(j int) bool { return rows[j].Addr > addr }) - 1
	return rows[j], true
}

// Func returns the name of the innermost function or inlined function
// whose code holds addr, or "".
func (t *LineTable) Func(addr uint64) string {
	best, depth := "", -1
	for _, fr := range t.funcs {
		if fr.lo <= addr && addr < fr.hi && fr.depth > depth {
			best, depth = fr.name, fr.depth
		}
	}
	return best
}

// Files returns the source file names of the table, sorted.
func (t *LineTable) Files() []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range t.seqs {
		for _, r := range s.rows {
			if r.File != "" && !seen[r.File] {
				seen[r.File] = true
				out = append(out, r.File)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Addrs returns the addresses where code for file:line starts (statement
// rows whose line is line, after a row of another line), sorted. file
// matches a row's file name in whole or as its trailing path elements
// ("loops.cl" matches "src/loops.cl").
func (t *LineTable) Addrs(file string, line int) []uint64 {
	var out []uint64
	for _, s := range t.seqs {
		prev := -1
		for _, r := range s.rows {
			if r.Line == line && r.IsStmt && prev != line && sameFile(r.File, file) {
				if len(out) == 0 || out[len(out)-1] != r.Addr {
					out = append(out, r.Addr)
				}
			}
			prev = r.Line
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func sameFile(have, want string) bool {
	have, want = path.Clean(have), path.Clean(want)
	return have == want || strings.HasSuffix(have, "/"+want)
}

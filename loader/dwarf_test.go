package loader

import (
	"bytes"
	"debug/dwarf"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// dwarfObjects is every linked -g code object in testdata/dwarf.
func dwarfObjects(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/dwarf/*.co")
	if err != nil || len(files) < 12 {
		t.Fatalf("want the -g code objects in testdata/dwarf (run testdata/dwarf/build.sh), have %d: %v", len(files), err)
	}
	return files
}

// goLineRows reads the line rows of every unit with debug/elf and
// debug/dwarf, the oracle for LineTable, and makes relative names relative
// to DW_AT_comp_dir as LLVM does (TestLineTableRelativeDirectory).
func goLineRows(t *testing.T, data []byte) []LineRow {
	t.Helper()
	ef, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	d, err := ef.DWARF()
	if err != nil {
		t.Fatal(err)
	}
	var rows []LineRow
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if e == nil {
			return rows
		}
		if e.Tag != dwarf.TagCompileUnit {
			r.SkipChildren()
			continue
		}
		lr, err := d.LineReader(e)
		if err != nil {
			t.Fatal(err)
		}
		dir, _ := e.Val(dwarf.AttrCompDir).(string)
		var le dwarf.LineEntry
		for lr.Next(&le) == nil {
			if !le.EndSequence {
				name := le.File.Name
				if dir != "" && !strings.HasPrefix(name, "/") {
					name = dir + "/" + name
				}
				rows = append(rows, LineRow{le.Address, name, le.Line, le.Column, le.IsStmt})
			}
		}
	}
}

// ourRows is every row of t, in sequence order.
func ourRows(t *LineTable) []LineRow {
	var rows []LineRow
	for _, s := range t.seqs {
		rows = append(rows, s.rows...)
	}
	return rows
}

func TestLineTableMatchesGoDWARF(t *testing.T) {
	for _, p := range dwarfObjects(t) {
		data := mustRead(t, p)
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		lt, err := f.LineTable()
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		got, want := ourRows(lt), goLineRows(t, data)
		if len(got) == 0 || len(got) != len(want) {
			t.Fatalf("%s: %d rows, debug/elf reads %d", p, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: row %d = %+v, debug/elf reads %+v", p, i, got[i], want[i])
			}
			// Lookup of a row's own address finds that row or a later
			// one at the same address.
			if r, ok := lt.Lookup(got[i].Addr); !ok || r.Addr != got[i].Addr {
				t.Errorf("%s: Lookup(%#x) = %+v, %v", p, got[i].Addr, r, ok)
			}
		}
	}
}

func TestLineTableFacts(t *testing.T) {
	f, err := Open("testdata/dwarf/loops-gfx900-v5.co")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lt, err := f.LineTable()
	if err != nil {
		t.Fatal(err)
	}
	// llvm-objdump-19 -d -l: "; loops():" then "; loops.cl:6" at 0x1900,
	// "; loops.cl:7" at 0x1938 and 0x1974, "; loops.cl:9" at 0x1984.
	for _, c := range []struct {
		addr uint64
		line int
	}{{0x1900, 6}, {0x1904, 6}, {0x1938, 7}, {0x1974, 7}, {0x1984, 9}} {
		r, ok := lt.Lookup(c.addr)
		if !ok || r.File != "loops.cl" || r.Line != c.line {
			t.Errorf("Lookup(%#x) = %+v, %v; want loops.cl:%d", c.addr, r, ok, c.line)
		}
	}
	if _, ok := lt.Lookup(0x18fc); ok {
		t.Error("Lookup(0x18fc) before .text found a row")
	}
	if _, ok := lt.Lookup(0x1d2c); ok {
		t.Error("Lookup(0x1d2c) at the end of the sequence found a row")
	}
	if got := lt.Func(0x1900); got != "loops" {
		t.Errorf("Func(0x1900) = %q, want loops", got)
	}
	if got := lt.Addrs("loops.cl", 9); len(got) == 0 || got[0] != 0x1984 {
		t.Errorf("Addrs(loops.cl, 9) = %#x, want 0x1984 first", got)
	}
	if got := lt.Addrs("./loops.cl", 7); len(got) == 0 || got[0] != 0x1938 {
		t.Errorf("Addrs(./loops.cl, 7) = %#x, want 0x1938 first", got)
	}
	if got := lt.Addrs("other.cl", 7); len(got) != 0 {
		t.Errorf("Addrs(other.cl, 7) = %#x, want none", got)
	}
	if fs := lt.Files(); len(fs) == 0 || fs[len(fs)-1] != "loops.cl" {
		t.Errorf("Files() = %q", fs)
	}
}

// TestLineTableRelativeDirectory reads a file whose line table names it by
// a relative directory ("sub") under DW_AT_comp_dir "/build": the name is
// llvm-objdump's /build/sub/loops.cl, where debug/dwarf alone says
// sub/loops.cl.
func TestLineTableRelativeDirectory(t *testing.T) {
	f, err := Open("testdata/dwarf/loops-gfx900-v4-subdir.co")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lt, err := f.LineTable()
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := lt.Lookup(0x1800); !ok || r.File != "/build/sub/loops.cl" || r.Line != 6 {
		t.Errorf("Lookup(0x1800) = %+v, %v; want /build/sub/loops.cl:6", r, ok)
	}
	if got := lt.Addrs("sub/loops.cl", 6); len(got) == 0 || got[0] != 0x1800 {
		t.Errorf("Addrs(sub/loops.cl, 6) = %#x", got)
	}
}

// TestLineTableRelocatableObject reads the ET_REL object: its debug
// sections' relocations are applied, so its rows are those of the linked
// code object less the .text address.
func TestLineTableRelocatableObject(t *testing.T) {
	read := func(p string) *LineTable {
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		lt, err := f.LineTable()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		return lt
	}
	rel, linked := ourRows(read("testdata/dwarf/loops-gfx900-v5.o")), ourRows(read("testdata/dwarf/loops-gfx900-v5.co"))
	if len(rel) == 0 || len(rel) != len(linked) {
		t.Fatalf("%d rows in the object, %d linked", len(rel), len(linked))
	}
	for i := range rel {
		want := linked[i]
		want.Addr -= 0x1900
		if rel[i] != want {
			t.Fatalf("row %d = %+v, want %+v", i, rel[i], want)
		}
	}
}

// dwarfMutants are hostile copies of a -g code object: its .debug_line (or
// .debug_info) cut short, its unit length made huge, its header garbled.
func dwarfMutants(t testing.TB) map[string][]byte {
	data := mustRead(t, "testdata/dwarf/loops-gfx900-v5.co")
	f, err := NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	line, info := f.Section(".debug_line"), f.Section(".debug_info")
	// shdrOff is where section s's header is.
	shdrOff := func(s *Section) uint64 { return f.Shoff + uint64(s.Index)*shdrSize }
	mut := func(fn func(b []byte)) []byte {
		b := bytes.Clone(data)
		fn(b)
		return b
	}
	return map[string][]byte{
		"line truncated":      mut(func(b []byte) { le.PutUint64(b[shdrOff(line)+32:], 20) }),
		"line length huge":    mut(func(b []byte) { le.PutUint32(b[line.Offset:], 0xfffffff0) }),
		"line version 9":      mut(func(b []byte) { le.PutUint16(b[line.Offset+4:], 9) }),
		"line header garbled": mut(func(b []byte) { copy(b[line.Offset+6:line.Offset+40], bytes.Repeat([]byte{0xff}, 34)) }),
		"line program garbled": mut(func(b []byte) {
			for i := line.Offset + line.Size/2; i < line.Offset+line.Size; i++ {
				b[i] = 0x02 // DW_LNS_advance_pc with endless ULEB
			}
		}),
		"info truncated": mut(func(b []byte) { le.PutUint64(b[shdrOff(info)+32:], 9) }),
	}
}

func TestLineTableHostileDWARF(t *testing.T) {
	for name, data := range dwarfMutants(t) {
		t.Run(name, func(t *testing.T) {
			f, err := NewFile(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			f.name = "k.co"
			_, err = f.LineTable()
			var fe *FormatError
			if err == nil || !errors.As(err, &fe) {
				// A garbled program may still decode to rows; it
				// must not panic, and must not read outside the file.
				if err == nil && strings.Contains(name, "program") {
					return
				}
				t.Fatalf("LineTable() error = %v, want a *FormatError", err)
			}
			if !strings.Contains(err.Error(), "k.co") || !strings.Contains(err.Error(), ".debug_") {
				t.Errorf("error %q does not name the file and section", err)
			}
		})
	}
}

func TestDWARFMissing(t *testing.T) {
	f, err := Open("testdata/co/vadd-gfx900-v4.co")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = f.LineTable()
	if err == nil || !strings.Contains(err.Error(), "vadd-gfx900-v4.co") || !strings.Contains(err.Error(), "-g") {
		t.Errorf("LineTable() on a file without DWARF: %v", err)
	}
}

// TestDWARFBuildReproducible reruns testdata/dwarf/build.sh into a
// temporary directory: it must remake every committed object byte for byte.
func TestDWARFBuildReproducible(t *testing.T) {
	for _, tool := range []string{"clang-15", "ld.lld-15", "llvm-objcopy-19", "dpkg"} {
		needTool(t, tool)
	}
	out := t.TempDir()
	cmd := exec.Command("bash", "testdata/dwarf/build.sh")
	cmd.Env = append(os.Environ(), "OUT="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build.sh: %v\n%s", err, b)
	}
	committed, _ := filepath.Glob("testdata/dwarf/*.[co]*")
	n := 0
	for _, p := range committed {
		if strings.HasSuffix(p, ".cl") {
			continue
		}
		n++
		got, err := os.ReadFile(filepath.Join(out, filepath.Base(p)))
		if err != nil || !bytes.Equal(got, mustRead(t, p)) {
			t.Errorf("build.sh makes a different %s (err %v; rerun testdata/dwarf/build.sh and commit)", p, err)
		}
	}
	if made, _ := filepath.Glob(filepath.Join(out, "*")); len(made) != n {
		t.Errorf("build.sh made %d files, %d are committed", len(made), n)
	}
}

// TestLineTableCompressedSections reads SHF_COMPRESSED debug sections
// (zlib and zstd): the rows are those of the uncompressed build; a bad
// Elf64_Chdr is a FormatError naming the section.
func TestLineTableCompressedSections(t *testing.T) {
	rows := func(data []byte) ([]LineRow, error) {
		f, err := NewFile(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		f.name = "k.co"
		lt, err := f.LineTable()
		if err != nil {
			return nil, err
		}
		return ourRows(lt), nil
	}
	want, err := rows(mustRead(t, "testdata/dwarf/loops-gfx900-v5.co"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"testdata/dwarf/loops-gfx900-v5-zlib.co", "testdata/dwarf/loops-gfx900-v5-zstd.co"} {
		data := mustRead(t, p)
		got, err := rows(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: rows differ from the uncompressed build", p)
		}
		f, _ := NewFile(bytes.NewReader(data))
		line := f.Section(".debug_line")
		if line.Flags&shfCompressed == 0 {
			t.Fatalf("%s: .debug_line is not compressed", p)
		}
		for name, fn := range map[string]func(b []byte){
			"type 9":       func(b []byte) { le.PutUint32(b[line.Offset:], 9) },
			"size huge":    func(b []byte) { le.PutUint64(b[line.Offset+8:], 1<<40) },
			"size short":   func(b []byte) { le.PutUint64(b[line.Offset+8:], 10) },
			"data garbled": func(b []byte) { copy(b[line.Offset+24:], bytes.Repeat([]byte{0xa5}, 16)) },
		} {
			b := bytes.Clone(data)
			fn(b)
			_, err := rows(b)
			var fe *FormatError
			if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), "k.co") || !strings.Contains(err.Error(), ".debug_line") {
				t.Errorf("%s %s: error %v, want a FormatError naming k.co and .debug_line", p, name, err)
			}
		}
	}
}

// TestLineTableCorruptionNeverPanics overwrites bytes of each debug section
// of a -g code object (a fixed pseudo-random sequence): LineTable and its
// lookups must return rows or a *FormatError, never panic.
func TestLineTableCorruptionNeverPanics(t *testing.T) {
	data := mustRead(t, "testdata/dwarf/calls_O0-gfx900-v5.co")
	f, err := NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	rng := uint64(0x9e3779b97f4a7c15)
	next := func(n uint64) uint64 {
		rng ^= rng << 13
		rng ^= rng >> 7
		rng ^= rng << 17
		return rng % n
	}
	for _, name := range dwarfSections {
		s := f.Section(name)
		if s == nil || s.Size == 0 {
			continue
		}
		for i := 0; i < 300; i++ {
			b := bytes.Clone(data)
			for k := next(4) + 1; k > 0; k-- {
				b[s.Offset+next(s.Size)] = byte(next(256))
			}
			g, err := NewFile(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			lt, err := g.LineTable()
			structural(t, err)
			if err == nil {
				lt.Lookup(0x1a00)
				lt.Func(0x1a00)
				lt.Addrs("calls_O0.cl", 5)
			}
		}
	}
}

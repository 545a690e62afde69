package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/wavedbg/wavedbg/loader"
)

// sourceOpts are disasm's -l and -S flags.
type sourceOpts struct {
	lines  bool // -l: "; file:line" (and "; func():") before instructions
	source bool // -S: the source line itself
}

// on reports whether any source annotation was asked for.
func (o sourceOpts) on() bool { return o.lines || o.source }

// lineInfo is what llvm-objdump's symbolizer says about one address.
type lineInfo struct {
	file, fn string // "" when unknown
	line     int
}

// sourcePrinter annotates a listing with source lines from a code object's
// DWARF, by llvm-objdump-19's rules (SourcePrinter::printSourceLine): before
// an instruction, "; func():" (-l) when the function changes, "; file:line"
// (-l) and the source text (-S) when the line or file changes. The function
// is the symbol holding the address, else the DWARF subprogram; addresses
// with no line row, and rows of line 0, print no line but count as one.
type sourcePrinter struct {
	opts   sourceOpts
	lt     *loader.LineTable
	funcs  []funcSym // sorted by addr, then size
	old    lineInfo
	stderr io.Writer
	object string              // the code object's name, for warnings
	files  map[string][]string // source lines by file name; nil if unreadable
}

// funcSym is a function or object symbol, as llvm-symbolizer keeps them.
type funcSym struct {
	addr, size uint64
	name       string
}

// newSourcePrinter reads co's line table. A code object without DWARF
// still gets "; func():" lines from its symbols, as with llvm-objdump; bad
// DWARF gets a warning and no annotations.
func newSourcePrinter(opts sourceOpts, co *loader.CodeObject, syms []loader.Symbol, object string, stderr io.Writer) *sourcePrinter {
	if !opts.on() {
		return nil
	}
	lt := &loader.LineTable{}
	if co.File.HasDWARF() {
		var err error
		if lt, err = co.File.LineTable(); err != nil {
			fmt.Fprintf(stderr, "wavedbg: warning: failed to parse debug information: %v\n", err)
			return nil
		}
	}
	s := &sourcePrinter{opts: opts, lt: lt, stderr: stderr, object: object, files: map[string][]string{}}
	for _, sym := range syms {
		if (sym.Type() == loader.STT_FUNC || sym.Type() == loader.STT_OBJECT) && sym.Section != 0 {
			s.funcs = append(s.funcs, funcSym{sym.Value, sym.Size, sym.Name})
		}
	}
	sort.SliceStable(s.funcs, func(i, j int) bool {
		a, b := s.funcs[i], s.funcs[j]
		return a.addr < b.addr || a.addr == b.addr && a.size < b.size
	})
	return s
}

// function names the code at pc as llvm-symbolizer does: the last symbol
// at or before pc unless pc is past its (nonzero) size, else the
// innermost DWARF subprogram.
func (s *sourcePrinter) function(pc uint64) string {
	i := sort.Search(len(s.funcs), func(i int) bool { return s.funcs[i].addr > pc }) - 1
	if i >= 0 && (s.funcs[i].size == 0 || pc-s.funcs[i].addr < s.funcs[i].size) {
		return s.funcs[i].name
	}
	return s.lt.Func(pc)
}

// before writes the annotations for the instruction at pc.
func (s *sourcePrinter) before(w *bufio.Writer, pc uint64) {
	row, _ := s.lt.Lookup(pc)
	li := lineInfo{file: row.File, fn: s.function(pc), line: row.Line}
	newFn := li.fn != "" && li.fn != s.old.fn
	changed := li.line != s.old.line || li.file != s.old.file
	if s.opts.lines {
		if newFn {
			fmt.Fprintf(w, "; %s():\n", li.fn)
		}
		if li.file != "" && li.line != 0 && (changed || newFn) {
			fmt.Fprintf(w, "; %s:%d\n", li.file, li.line)
		}
	}
	if s.opts.source && li.file != "" && li.line != 0 && changed {
		s.printSource(w, li)
	}
	s.old = li
}

// printSource writes "; " and line li.line of li.file, read once and kept.
func (s *sourcePrinter) printSource(w *bufio.Writer, li lineInfo) {
	lines, seen := s.files[li.file]
	if !seen {
		b, err := os.ReadFile(li.file)
		if err != nil {
			fmt.Fprintf(s.stderr, "wavedbg: warning: %s: failed to find source %s\n", s.object, li.file)
		} else {
			lines = splitSourceLines(b)
		}
		s.files[li.file] = lines
	}
	if lines == nil {
		return
	}
	if li.line > len(lines) {
		fmt.Fprintf(s.stderr, "wavedbg: warning: %s: debug info line number %d exceeds the number of lines in %s\n",
			s.object, li.line, li.file)
		return
	}
	fmt.Fprintf(w, "; %s\n", lines[li.line-1])
}

// splitSourceLines splits b at newlines as llvm-objdump does: a "\r"
// before the "\n" is dropped, and a last line without "\n" is kept.
func splitSourceLines(b []byte) []string {
	lines := []string{}
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			lines = append(lines, string(b))
			break
		}
		lines = append(lines, string(bytes.TrimSuffix(b[:i], []byte("\r"))))
		b = b[i+1:]
	}
	return lines
}

package asm

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/wavedbg/wavedbg/isa"
)

// Options choose the target and code object version of a file.
type Options struct {
	// Target is a processor or target ID ("gfx900", "gfx906:xnack-").
	// Empty means the file's .amdgcn_target.
	Target string
	// CodeObjectVersion is 4, 5 or 6; 0 means the file's
	// .amdhsa_code_object_version, else 5 as llvm-mc-19 defaults.
	CodeObjectVersion int
}

// Assemble assembles the file named name (the name is only used in
// errors) and links it into a code object, as llvm-mc-19 -filetype=obj
// followed by ld.lld -shared would. A failure is an ErrorList.
func Assemble(name string, src []byte, opts Options) ([]byte, error) {
	o, err := Parse(name, src, opts)
	if err != nil {
		return nil, err
	}
	return o.Link()
}

// maxPasses bounds the passes made to settle label values.
const maxPasses = 8

// Parse assembles a file into an Object, not yet linked.
func Parse(name string, src []byte, opts Options) (*Object, error) {
	if v := opts.CodeObjectVersion; v != 0 && (v < 4 || v > 6) {
		return nil, fmt.Errorf("%s: code object version %d is not supported: want 4, 5 or 6", name, v)
	}
	a := &assembler{file: name, opts: opts}
	a.split(src)
	if err := a.setTarget(); err != nil {
		return nil, err
	}
	for pass := 0; ; pass++ {
		a.pass = pass
		a.reset()
		a.run()
		if !a.forward || pass > 0 && (a.settled() || len(a.errs) >= maxErrors) {
			break
		}
		if pass == maxPasses-1 {
			return nil, fmt.Errorf("%s: label values still change after %d passes", name, maxPasses)
		}
		a.snapshot()
	}
	if len(a.errs) > 0 {
		return nil, a.errs
	}
	return a.object()
}

// assembler is the state of one file's passes.
type assembler struct {
	file  string
	opts  Options
	lines []string // comments blanked
	raw   []string // as written, for error carets

	tgt targetInfo

	// Per pass.
	pass      int
	line      int // index into lines
	sections  map[string]*section
	cur       *section
	syms      map[string]*symbol
	symOrder  []*symbol
	kernels   []*kernel
	kd        *kdParser // inside .amdhsa_kernel
	meta      *strings.Builder
	metaLine  int
	metadata  *node
	version   int
	sizes     []pendingSize
	errs      ErrorList
	forward   bool // a symbol was used before its definition
	nextVGPR  int64
	nextSGPR  int64
	insnCache []insnCache
	arena     []uint32 // the words of every instruction of pass 0

	prev map[string]value // label and .set values of the last pass
}

// insnCache keeps an instruction line's result between passes when no
// symbol went into it: its words (arena[start:end]) and the registers it
// names. A line with a label is replayed by statement; one without,
// directly by run.
type insnCache struct {
	start, end int32
	vgpr, sgpr int32 // next free VGPR and SGPR after it, -1 for none
	ok, label  bool
}

// pendingSize is a .size evaluated at the end of the pass; "." in it is
// where the directive was.
type pendingSize struct {
	sym  *symbol
	text string
	pos  int
	line int
	dot  value
}

// A section is one output section's bytes so far.
type section struct {
	name    string
	data    []byte
	align   uint64
	code    bool
	discard bool // not loaded: its contents are skipped (discarded)
}

// discarded reports whether a section holds nothing a code object needs
// to run: DWARF (.debug_*), the compiler's notes and statistics. Its
// statements are skipped, so a clang -g -S listing assembles (without
// its line table).
func discarded(name string) bool {
	return strings.HasPrefix(name, ".debug_") || strings.HasPrefix(name, ".AMDGPU.") ||
		name == ".note.GNU-stack" || name == ".comment" || name == ".llvm_addrsig"
}

// A symbol is a label, a .set symbol or a name given attributes.
type symbol struct {
	name    string
	val     value
	defined bool
	isSet   bool // .set: may be redefined
	global  bool
	weak    bool
	vis     byte // ELF STV_*
	typ     byte // ELF STT_*
	size    int64
	hasSize bool
	line    int
}

// split cuts the source into lines and blanks comments.
func (a *assembler) split(src []byte) {
	s := string(bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")))
	a.raw = strings.Split(s, "\n")
	if n := len(a.raw); n > 0 && a.raw[n-1] == "" {
		a.raw = a.raw[:n-1]
	}
	a.lines = make([]string, len(a.raw))
	block := false
	for i, l := range a.raw {
		a.lines[i] = stripComments(l, &block)
	}
	a.insnCache = make([]insnCache, len(a.lines))
}

// reset starts a pass.
func (a *assembler) reset() {
	// Sections keep their identity from pass to pass: a label's value
	// from the last pass is in the same section as this pass's labels.
	if a.sections == nil {
		a.sections = map[string]*section{}
	}
	for _, s := range a.sections {
		s.data, s.align = s.data[:0], 1
		if s.code {
			s.align = 4
		}
	}
	a.cur = a.section(".text")
	a.syms = map[string]*symbol{}
	a.symOrder = nil
	a.kernels = nil
	a.kd, a.meta, a.metadata = nil, nil, nil
	a.version = a.opts.CodeObjectVersion
	a.sizes = nil
	a.errs = nil
	a.forward = false
	a.nextVGPR, a.nextSGPR = 0, 0
}

// snapshot records this pass's symbol values for the next pass.
func (a *assembler) snapshot() {
	a.prev = make(map[string]value, len(a.syms))
	for n, s := range a.syms {
		if s.defined {
			a.prev[n] = s.val
		}
	}
}

// settled reports whether every symbol has the value the last pass gave it.
func (a *assembler) settled() bool {
	for n, s := range a.syms {
		if s.defined {
			if p, ok := a.prev[n]; !ok || p != s.val {
				return false
			}
		}
	}
	return true
}

// section returns (creating it) the output section for a section name:
// .text.* goes to .text and .rodata.* to .rodata, as ld.lld places them.
func (a *assembler) section(name string) *section {
	switch {
	case strings.HasPrefix(name, ".text."):
		name = ".text"
	case strings.HasPrefix(name, ".rodata."):
		name = ".rodata"
	}
	if s, ok := a.sections[name]; ok {
		return s
	}
	s := &section{name: name, align: 1, code: name == ".text", discard: discarded(name)}
	if name == ".text" {
		s.align = 4
	}
	a.sections[name] = s
	return s
}

// sym returns (creating it) the symbol name.
func (a *assembler) sym(name string) *symbol {
	if s, ok := a.syms[name]; ok {
		return s
	}
	s := &symbol{name: name}
	a.syms[name] = s
	a.symOrder = append(a.symOrder, s)
	return s
}

// lookup resolves a name for expressions: the value defined so far in
// this pass, else the last pass's value (a forward reference).
func (a *assembler) lookup(name string) (value, bool) {
	switch name {
	case ".":
		return value{int64(len(a.cur.data)), a.cur}, true
	case ".amdgcn.next_free_vgpr":
		return value{v: a.nextVGPR}, true
	case ".amdgcn.next_free_sgpr":
		return value{v: a.nextSGPR}, true
	}
	if s, ok := a.syms[name]; ok && s.defined {
		return s.val, true
	}
	a.forward = true
	if v, ok := a.prev[name]; ok {
		return v, true
	}
	if a.pass == 0 {
		// Settled by the next pass; here, so that a branch to it is in
		// range.
		return value{int64(len(a.cur.data)), a.cur}, true
	}
	return value{}, false
}

// errorf records an error at a column of the current line.
func (a *assembler) errorf(col int, format string, args ...any) {
	a.addErr(a.line, col, fmt.Sprintf(format, args...))
}

func (a *assembler) addErr(line, col int, msg string) {
	if len(a.errs) >= maxErrors {
		return
	}
	src := "" // the line after the last: the end of the file
	if line < len(a.raw) {
		src = a.raw[line]
	}
	a.errs = append(a.errs, &Error{File: a.file, Line: line + 1, Col: col, Msg: msg, Source: src})
}

// report records err, placing a posError at its column.
func (a *assembler) report(err error, col int) {
	var pe *posError
	if errors.As(err, &pe) {
		col = pe.col
	}
	a.errorf(col, "%s", err.Error())
}

// run makes one pass over the lines.
func (a *assembler) run() {
	for i, s := range a.lines {
		a.line = i
		if a.kd != nil {
			a.kdLine(s)
			continue
		}
		if a.meta != nil {
			a.metaLineText(s)
			continue
		}
		if c := &a.insnCache[i]; c.ok && !c.label && a.pass > 0 {
			a.replay(c)
			continue
		}
		a.statement(s)
	}
	switch {
	case a.kd != nil:
		a.addErr(len(a.lines), 1, "expected .amdhsa_ directive or .end_amdhsa_kernel")
	case a.meta != nil:
		a.addErr(len(a.lines), 1, "expected directive .end_amdgpu_metadata not found")
	}
	for _, p := range a.sizes {
		a.line = p.line
		sc := scanner{s: p.text, pos: p.pos}
		v, err := sc.absExpr(func(name string) (value, bool) {
			if name == "." {
				return p.dot, true
			}
			return a.lookup(name)
		})
		if err != nil {
			a.report(err, p.pos+1)
			continue
		}
		p.sym.size, p.sym.hasSize = v, true
	}
}

// statement handles one line outside the kernel and metadata blocks.
func (a *assembler) statement(s string) {
	off := 0
	for off < len(s) && (s[off] == ' ' || s[off] == '\t') {
		off++
	}
	for off < len(s) {
		label, rest := splitLabel(s, off)
		if label == "" {
			break
		}
		a.defineLabel(label, off+1)
		for off = rest; off < len(s) && (s[off] == ' ' || s[off] == '\t'); off++ {
		}
	}
	if strings.TrimSpace(s[off:]) == "" {
		return
	}
	sc := &scanner{s: s, pos: off}
	name := sc.ident()
	if a.cur.discard && (name == "" || name[0] != '.' || dataDirectives[strings.ToLower(name)]) {
		return // instructions and data of a section that is not kept
	}
	if name != "" && sc.peek() == '=' && (sc.pos+1 >= len(s) || s[sc.pos+1] != '=') {
		sc.pos++
		a.assign(name, off+1, sc, true)
		return
	}
	if name != "" && name[0] == '.' {
		a.directive(name, off+1, sc)
		return
	}
	a.instruction(strings.TrimRight(s[off:], " \t\r"), off, off > len(s)-len(strings.TrimLeft(s, " \t")))
}

// defineLabel defines a label at the current position.
func (a *assembler) defineLabel(name string, col int) {
	sym := a.sym(name)
	if sym.defined {
		a.errorf(col, "symbol '%s' is already defined", name)
		return
	}
	sym.defined, sym.line = true, a.line
	sym.val = value{int64(len(a.cur.data)), a.cur}
}

// assign handles "name = expr" and .set.
func (a *assembler) assign(name string, col int, sc *scanner, redefine bool) {
	sc.skipSpace()
	col = sc.col()
	v, err := sc.expr(a.lookup)
	if err == nil {
		err = sc.expectEOL()
	}
	if err != nil {
		a.report(err, col)
		return
	}
	sym := a.sym(name)
	if sym.defined && (!sym.isSet || !redefine) {
		a.errorf(col, "redefinition of '%s'", name)
		return
	}
	sym.defined, sym.isSet, sym.val, sym.line = true, true, v, a.line
}

// instruction assembles one instruction at column off+1 of the line.
func (a *assembler) instruction(text string, off int, label bool) {
	c := &a.insnCache[a.line]
	if a.pass > 0 && c.ok {
		a.replay(c)
		return
	}
	v, s := a.nextVGPR, a.nextSGPR
	a.trackRegs(text)
	if !a.holdsData(off + 1) {
		return
	}
	sec := a.cur
	regs := func(now, before int64) int32 {
		if now == before {
			return -1
		}
		return int32(now)
	}
	usedSym, missing := false, ""
	orig := text
	folded := a.foldOperands(text)
	if folded != "" {
		text, usedSym = folded, true
	}
	env := isa.AsmEnv{PC: uint64(len(sec.data)), Symbol: func(name string) (int64, bool) {
		usedSym = true
		v, ok := a.lookup(name)
		if !ok {
			missing = name
		}
		return v.v, ok
	}}
	start := len(a.arena)
	words, err := isa.Assemble(a.arena, text, a.tgt.gen, a.tgt.feat, &env)
	if err != nil && missing != "" && isBranch(text) {
		a.errorf(off+1, "undefined label '%s'", missing)
		return
	}
	if err != nil && folded != "" {
		// Errors are located in the text as written, when it has one.
		if _, e := isa.Assemble(nil, orig, a.tgt.gen, a.tgt.feat, &env); e != nil {
			err = e
		} else {
			err = errors.New(errMessage(err) + " (with its expressions folded: " + folded + ")")
		}
	}
	if err != nil {
		col := 1
		msg := err.Error()
		var ae *isa.AsmError
		if errors.As(err, &ae) {
			col, msg = ae.Col, ae.Msg
		}
		a.errorf(off+col, "%s", msg)
		return
	}
	if a.pass > 0 || usedSym {
		// Words that may change are not kept.
		a.emitWords(sec, words[start:])
		a.arena = words[:start]
		return
	}
	a.arena = words
	*c = insnCache{start: int32(start), end: int32(len(words)), vgpr: regs(a.nextVGPR, v), sgpr: regs(a.nextSGPR, s),
		ok: true, label: label}
	a.emitWords(sec, words[start:])
}

// replay repeats a cached instruction line.
func (a *assembler) replay(c *insnCache) {
	if c.vgpr >= 0 {
		a.nextVGPR = max(a.nextVGPR, int64(c.vgpr))
	}
	if c.sgpr >= 0 {
		a.nextSGPR = max(a.nextSGPR, int64(c.sgpr))
	}
	a.emitWords(a.cur, a.arena[c.start:c.end])
}

// holdsData reports whether the current section may hold bytes, and
// reports an error at col if not: the code object has only .text and
// .rodata.
func (a *assembler) holdsData(col int) bool {
	if n := a.cur.name; n == ".text" || n == ".rodata" {
		return true
	}
	a.errorf(col, "section '%s' cannot hold data here: only .text and .rodata go into the code object", a.cur.name)
	return false
}

// emitWords appends instruction words to sec.
func (a *assembler) emitWords(sec *section, words []uint32) {
	for _, w := range words {
		sec.data = append(sec.data, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
	}
}

// trackRegs raises .amdgcn.next_free_vgpr and .amdgcn.next_free_sgpr past
// the highest v and s registers text names, as llvm-mc does.
func (a *assembler) trackRegs(text string) {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != 'v' && c != 's' || i > 0 && isIdentChar(text[i-1]) || i+1 >= len(text) {
			continue
		}
		j, hi := i+1, int64(-1)
		if text[j] == '[' {
			j++
			lo, k := digits(text, j)
			if k == j || k >= len(text) || text[k] != ':' {
				continue
			}
			h, m := digits(text, k+1)
			if m == k+1 || m >= len(text) || text[m] != ']' || h < lo {
				continue
			}
			hi = h
		} else if n, k := digits(text, j); k > j && (k == len(text) || !isIdentChar(text[k])) {
			hi = n
		}
		if hi < 0 {
			continue
		}
		if c == 'v' {
			a.nextVGPR = max(a.nextVGPR, hi+1)
		} else {
			a.nextSGPR = max(a.nextSGPR, hi+1)
		}
	}
}

// digits reads a decimal number at s[i:], returning it and where it ends.
func digits(s string, i int) (int64, int) {
	var n int64
	j := i
	for ; j < len(s) && s[j] >= '0' && s[j] <= '9' && j-i < 9; j++ {
		n = n*10 + int64(s[j]-'0')
	}
	return n, j
}

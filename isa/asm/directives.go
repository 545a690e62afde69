package asm

import (
	"bytes"
	"strings"
)

// ELF symbol types and visibilities the directives set.
const (
	sttNotype    = 0
	sttObject    = 1
	sttFunc      = 2
	stvDefault   = 0
	stvInternal  = 1
	stvHidden    = 2
	stvProtected = 3
)

// directiveFunc handles a directive; sc is just past its name.
type directiveFunc func(a *assembler, sc *scanner) error

var directives map[string]directiveFunc

func init() {
	directives = map[string]directiveFunc{
		".text":                       func(a *assembler, sc *scanner) error { a.cur = a.section(".text"); return nil },
		".rodata":                     func(a *assembler, sc *scanner) error { a.cur = a.section(".rodata"); return nil },
		".data":                       func(a *assembler, sc *scanner) error { a.cur = a.section(".data"); return nil },
		".bss":                        func(a *assembler, sc *scanner) error { a.cur = a.section(".bss"); return nil },
		".section":                    (*assembler).dirSection,
		".globl":                      symList(func(s *symbol) { s.global = true }),
		".global":                     symList(func(s *symbol) { s.global = true }),
		".weak":                       symList(func(s *symbol) { s.weak = true }),
		".local":                      symList(func(s *symbol) { s.global = false }),
		".hidden":                     symList(func(s *symbol) { s.vis = stvHidden }),
		".protected":                  symList(func(s *symbol) { s.vis = stvProtected }),
		".internal":                   symList(func(s *symbol) { s.vis = stvInternal }),
		".type":                       (*assembler).dirType,
		".size":                       (*assembler).dirSize,
		".set":                        setDirective(true),
		".equ":                        setDirective(true),
		".equiv":                      setDirective(false),
		".p2align":                    alignDirective(true),
		".balign":                     alignDirective(false),
		".align":                      alignDirective(false),
		".byte":                       dataDirective(1),
		".short":                      dataDirective(2),
		".hword":                      dataDirective(2),
		".2byte":                      dataDirective(2),
		".value":                      dataDirective(2),
		".long":                       dataDirective(4),
		".int":                        dataDirective(4),
		".4byte":                      dataDirective(4),
		".quad":                       dataDirective(8),
		".8byte":                      dataDirective(8),
		".zero":                       (*assembler).dirSpace,
		".space":                      (*assembler).dirSpace,
		".skip":                       (*assembler).dirSpace,
		".ascii":                      stringDirective(false),
		".asciz":                      stringDirective(true),
		".string":                     stringDirective(true),
		".amdgcn_target":              (*assembler).dirTarget,
		".amdhsa_code_object_version": (*assembler).dirVersion,
		".amdhsa_kernel":              (*assembler).dirKernel,
		".amdgpu_metadata":            (*assembler).dirMetadata,
	}
	// Directives that leave no trace in a linked code object.
	for _, d := range []string{".ident", ".addrsig", ".addrsig_sym", ".file", ".loc", ".text_end",
		".cfi_sections", ".cfi_startproc", ".cfi_endproc", ".amdgpu_lds"} {
		directives[d] = func(a *assembler, sc *scanner) error { return nil }
	}
}

// dataDirectives place bytes; a discarded section skips them (and the
// DWARF-only .uleb128 and .sleb128).
var dataDirectives = map[string]bool{
	".byte": true, ".short": true, ".hword": true, ".2byte": true, ".value": true, ".long": true, ".int": true,
	".4byte": true, ".quad": true, ".8byte": true, ".zero": true, ".space": true, ".skip": true, ".ascii": true,
	".asciz": true, ".string": true, ".uleb128": true, ".sleb128": true, ".p2align": true, ".balign": true, ".align": true,
}

// directive runs the directive name, which starts at column col.
func (a *assembler) directive(name string, col int, sc *scanner) {
	f, ok := directives[strings.ToLower(name)]
	if !ok {
		a.errorf(col, "unknown directive")
		return
	}
	if err := f(a, sc); err != nil {
		if pe, ok := err.(*posError); ok && pe.col == 1 {
			pe.col = col
		}
		a.report(err, col)
	}
}

// dirSection switches to a named section; flags and type are ignored.
func (a *assembler) dirSection(sc *scanner) error {
	var name string
	if sc.peek() == '"' {
		s, err := sc.str()
		if err != nil {
			return err
		}
		name = s
	} else {
		sc.skipSpace()
		start := sc.pos
		for sc.pos < len(sc.s) && sc.s[sc.pos] != ',' && sc.s[sc.pos] != ' ' && sc.s[sc.pos] != '\t' {
			sc.pos++
		}
		name = sc.s[start:sc.pos]
	}
	if name == "" {
		return errAt(sc.col(), "expected identifier in directive")
	}
	a.cur = a.section(name)
	return nil
}

// symList makes a directive that applies f to a comma-separated list of
// symbol names.
func symList(f func(*symbol)) directiveFunc {
	return func(a *assembler, sc *scanner) error {
		for {
			n := sc.ident()
			if n == "" {
				return errAt(sc.col(), "expected identifier")
			}
			f(a.sym(n))
			if sc.eol() {
				return nil
			}
			if err := sc.expectComma(); err != nil {
				return err
			}
		}
	}
}

// dirType handles ".type sym,@function" (or %function, "function").
func (a *assembler) dirType(sc *scanner) error {
	n := sc.ident()
	if n == "" {
		return errAt(sc.col(), "expected identifier")
	}
	if err := sc.expectComma(); err != nil {
		return err
	}
	sc.skipSpace()
	if c := sc.peek(); c == '@' || c == '%' || c == '"' {
		sc.pos++
	}
	col := sc.col()
	kind := sc.ident()
	sc.accept('"')
	s := a.sym(n)
	switch kind {
	case "function", "STT_FUNC":
		s.typ = sttFunc
	case "object", "STT_OBJECT":
		s.typ = sttObject
	case "notype", "STT_NOTYPE":
		s.typ = sttNotype
	default:
		return errAt(col, "unsupported attribute")
	}
	return sc.expectEOL()
}

// dirSize records ".size sym, expr", evaluated when the pass ends.
func (a *assembler) dirSize(sc *scanner) error {
	n := sc.ident()
	if n == "" {
		return errAt(sc.col(), "expected identifier")
	}
	if err := sc.expectComma(); err != nil {
		return err
	}
	sc.skipSpace()
	dot := value{int64(len(a.cur.data)), a.cur}
	a.sizes = append(a.sizes, pendingSize{sym: a.sym(n), text: sc.s, pos: sc.pos, line: a.line, dot: dot})
	return nil
}

// setDirective makes .set and .equ (redefinable) and .equiv (not).
func setDirective(redefine bool) directiveFunc {
	return func(a *assembler, sc *scanner) error {
		col := sc.col()
		n := sc.ident()
		if n == "" {
			return errAt(col, "expected identifier after '.set' directive")
		}
		if err := sc.expectComma(); err != nil {
			return err
		}
		a.assign(n, col+1, sc, redefine)
		return nil
	}
}

// alignDirective makes .p2align (a power of two) and .balign/.align
// (bytes). Code sections pad with s_nop 0, others with the fill byte.
func alignDirective(pow2 bool) directiveFunc {
	return func(a *assembler, sc *scanner) error {
		col := sc.col()
		n, err := sc.absExpr(a.lookup)
		if err != nil {
			return err
		}
		align := n
		if pow2 {
			if n < 0 || n > 32 {
				return errAt(col, "invalid alignment value")
			}
			if n > 24 {
				return errAt(col, "alignment 2^%d is more than wavedbg supports (2^24)", n)
			}
			align = 1 << n
		} else if n <= 0 || n&(n-1) != 0 {
			return errAt(col, "alignment must be a power of 2")
		}
		fill, hasFill, maxSkip := int64(0), false, int64(-1)
		if sc.accept(',') {
			if sc.peek() != ',' {
				if fill, err = sc.absExpr(a.lookup); err != nil {
					return err
				}
				hasFill = true
			}
			if sc.accept(',') {
				if maxSkip, err = sc.absExpr(a.lookup); err != nil {
					return err
				}
			}
		}
		if err := sc.expectEOL(); err != nil {
			return err
		}
		s := a.cur
		s.align = max(s.align, uint64(align))
		pad := (align - int64(len(s.data))%align) % align
		if pad == 0 || maxSkip >= 0 && pad > maxSkip {
			return nil
		}
		if s.code && !hasFill {
			s.data = append(s.data, make([]byte, pad%4)...)
			for i := int64(0); i < pad/4; i++ {
				s.data = append(s.data, 0x00, 0x00, 0x80, 0xbf) // s_nop 0
			}
			return nil
		}
		s.data = append(s.data, bytes.Repeat([]byte{byte(fill)}, int(pad))...)
		return nil
	}
}

// dataDirective makes .byte, .short, .long and .quad: comma-separated
// absolute expressions stored little-endian in size bytes.
func dataDirective(size int) directiveFunc {
	return func(a *assembler, sc *scanner) error {
		if !a.holdsData(sc.col()) {
			return nil
		}
		for {
			col := sc.col()
			v, err := sc.absExpr(a.lookup)
			if err != nil {
				return err
			}
			if size < 8 {
				if lim := int64(1) << (8 * size); v >= lim || v < -lim/2 {
					return errAt(col, "out of range literal value")
				}
			}
			for i := 0; i < size; i++ {
				a.cur.data = append(a.cur.data, byte(v>>(8*i)))
			}
			if sc.eol() {
				return nil
			}
			if err := sc.expectComma(); err != nil {
				return err
			}
		}
	}
}

// maxSpace bounds .zero and friends: a code object is not that big.
const maxSpace = 1 << 24

// dirSpace handles .zero/.space/.skip N[, fill].
func (a *assembler) dirSpace(sc *scanner) error {
	col := sc.col()
	n, err := sc.absExpr(a.lookup)
	if err != nil {
		return err
	}
	fill := int64(0)
	if sc.accept(',') {
		if fill, err = sc.absExpr(a.lookup); err != nil {
			return err
		}
	}
	if err := sc.expectEOL(); err != nil {
		return err
	}
	if n < 0 || n > maxSpace {
		return errAt(col, "invalid number of bytes: want 0 to %d", maxSpace)
	}
	if n > 0 && a.holdsData(col) {
		a.cur.data = append(a.cur.data, bytes.Repeat([]byte{byte(fill)}, int(n))...)
	}
	return nil
}

// stringDirective makes .ascii (no terminator) and .asciz/.string.
func stringDirective(zero bool) directiveFunc {
	return func(a *assembler, sc *scanner) error {
		if !a.holdsData(sc.col()) {
			return nil
		}
		for {
			s, err := sc.str()
			if err != nil {
				return err
			}
			a.cur.data = append(a.cur.data, s...)
			if zero {
				a.cur.data = append(a.cur.data, 0)
			}
			if sc.eol() {
				return nil
			}
			if err := sc.expectComma(); err != nil {
				return err
			}
		}
	}
}

// dirTarget checks .amdgcn_target against the target being assembled for.
func (a *assembler) dirTarget(sc *scanner) error {
	col := sc.col()
	s, err := sc.str()
	if err != nil {
		return err
	}
	if s != a.tgt.id {
		return errAt(col, ".amdgcn_target directive's target id %s does not match the specified target id %s", s, a.tgt.id)
	}
	return sc.expectEOL()
}

// dirVersion handles .amdhsa_code_object_version.
func (a *assembler) dirVersion(sc *scanner) error {
	col := sc.col()
	v, err := sc.absExpr(a.lookup)
	if err != nil {
		return err
	}
	if v < 4 || v > 6 {
		return errAt(col, "code object version %d is not supported: want 4, 5 or 6", v)
	}
	if a.opts.CodeObjectVersion == 0 {
		a.version = int(v)
	}
	return sc.expectEOL()
}

// dirMetadata starts collecting the YAML of .amdgpu_metadata.
func (a *assembler) dirMetadata(sc *scanner) error {
	if err := sc.expectEOL(); err != nil {
		return err
	}
	a.meta, a.metaLine = &strings.Builder{}, a.line
	return nil
}

// metaLineText adds a line to the metadata, or ends it.
func (a *assembler) metaLineText(s string) {
	if t := strings.TrimSpace(s); strings.EqualFold(t, ".end_amdgpu_metadata") {
		doc, err := parseYAML(a.meta.String(), a.metaLine+2)
		if err == nil {
			err = verifyMetadata(doc)
		}
		a.meta = nil
		// llvm-mc reports bad metadata just past .end_amdgpu_metadata.
		col := len(strings.TrimRight(s, " \t\r")) + 1
		if err != nil {
			a.errorf(col, "invalid HSA metadata: %v", err)
			return
		}
		if a.metadata != nil {
			a.errorf(col, "a file has one .amdgpu_metadata")
			return
		}
		a.metadata = doc
		return
	}
	// The YAML keeps its indentation; only the comments go.
	a.meta.WriteString(s)
	a.meta.WriteByte('\n')
}

package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

func init() {
	register(command{name: "disasm", summary: "disassemble a code object like llvm-objdump -d", run: runDisasm})
}

func runDisasm(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("disasm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kernel := fs.String("kernel", "", "disassemble only the kernel (symbol) `NAME`, from whichever bundle defines it")
	target := fs.String("target", "", "disassemble every code object for `gfxNNN` or target ID; with --raw, the processor")
	var bundle *int
	bundleFlag(fs, &bundle)
	raw := fs.Bool("raw", false, "decode hex words from the arguments (or standard input) instead of a file")
	var src sourceOpts
	fs.BoolVar(&src.lines, "l", false, "show source file:line before instructions, from the DWARF line table (as llvm-objdump -l)")
	fs.BoolVar(&src.lines, "line-numbers", false, "the same as -l")
	fs.BoolVar(&src.source, "S", false, "show source lines before instructions, when the source file is found (as llvm-objdump -S)")
	fs.BoolVar(&src.source, "source", false, "the same as -S")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: wavedbg disasm FILE [--kernel NAME] [--target gfxNNN] [--bundle N] [-l] [-S]\n"+
			"       wavedbg disasm --raw --target gfx900 HEX...   (or hex words on standard input)\n\n"+
			"Print a code object's .text in llvm-objdump -d's listing format, so the two can be\n"+
			"diffed. In a bundle or fat binary, every code object for the target is printed, each\n"+
			"after a line \"; bundle N at 0xOFFSET: ENTRY-ID\".\n"+
			"With -l and -S (code built with -g), source lines from the DWARF line table are\n"+
			"shown as llvm-objdump -l and -S show them; -S reads source files by the paths\n"+
			"the DWARF names, relative to the current directory.\n"+
			"With --raw, print one instruction per line and <invalid> for words LLVM rejects.\n\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	defer w.Flush()
	if *raw {
		t, ok := isa.TargetOf(*target)
		if !ok {
			if *target == "" {
				return usageError{"disasm --raw: want --target, one of " + strings.Join(isa.SupportedProcessors(), ", ")}
			}
			return usageError{"disasm --raw: --target " + isa.CheckSupported(*target).Error()}
		}
		var words []string
		if len(pos) == 0 {
			b, err := io.ReadAll(os.Stdin)
			if err != nil {
				return err
			}
			words = strings.Fields(string(b))
		} else {
			for _, p := range pos {
				words = append(words, strings.Fields(strings.ReplaceAll(p, ",", " "))...)
			}
		}
		code := make([]byte, 0, 4*len(words))
		for _, h := range words {
			v, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimPrefix(h, "0x"), "0X"), 16, 32)
			if err != nil {
				return usageError{fmt.Sprintf("disasm --raw: bad hex word %q", h)}
			}
			code = binary.LittleEndian.AppendUint32(code, uint32(v))
		}
		l := lister{w: w, t: t, feat: isa.FeaturesOf(*target), invalid: "<invalid>"}
		l.region(code, 0, len(code), 0)
		return nil
	}
	if len(pos) != 1 {
		fs.Usage()
		return usageError{"disasm: want exactly one FILE"}
	}
	c, err := openInput(pos[0], *target)
	if err != nil {
		return err
	}
	defer c.Close()
	es, err := chooseEntries(c, *target, *kernel, bundle)
	if err != nil {
		return fmt.Errorf("loader: %s: %w", pos[0], err)
	}
	for _, e := range es {
		if c.Kind != loader.KindCodeObject {
			fmt.Fprintf(w, "%s\n", entryHeader(e))
		}
		if err := disasmEntry(w, pos[0], c, e, *kernel, src, stderr); err != nil {
			return err
		}
	}
	return nil
}

// disasmEntry prints the listing of code object e of c.
func disasmEntry(w *bufio.Writer, file string, c *loader.Container, e *loader.BundleEntry, kernel string,
	src sourceOpts, stderr io.Writer) error {
	co, err := loadEntry(c, e)
	if err != nil {
		return err
	}
	t, ok := isa.TargetOf(co.Target.Processor)
	if !ok {
		return fmt.Errorf("disasm: %s: %w", co.File.Name(), isa.CheckSupported(co.Target.Processor))
	}
	if co.Text == nil {
		return fmt.Errorf("disasm: %s: no .text section", co.File.Name())
	}
	text, err := co.Text.Data()
	if err != nil {
		return err
	}
	syms, err := co.File.Symbols()
	if err != nil {
		return err
	}
	sp := newSourcePrinter(src, co, syms, file, stderr)
	return writeListing(w, file, t, isa.FeaturesOf(co.Target.Processor), text, co.Text.Addr, co.Text.Index, syms, kernel, sp)
}

// label is a symbol that starts a block of the listing.
type label struct {
	name string
	addr uint64
}

// writeListing prints .text as llvm-objdump -d does: a header, then for
// each symbol "ADDR <name>:" and one line per instruction. Like
// llvm-objdump, it lists only symbols that start inside the section.
func writeListing(w *bufio.Writer, file string, t isa.Target, feat isa.Features, text []byte, base uint64, secIndex int,
	syms []loader.Symbol, only string, src *sourcePrinter) error {
	var labels []label
	for _, s := range syms {
		if int(s.Section) != secIndex || s.Name == "" || s.Value < base || s.Value-base >= uint64(len(text)) {
			continue
		}
		switch s.Type() {
		case loader.STT_SECTION, loader.STT_FILE:
			continue
		}
		labels = append(labels, label{s.Name, s.Value})
	}
	sort.SliceStable(labels, func(i, j int) bool { return labels[i].addr < labels[j].addr })
	if len(labels) == 0 || labels[0].addr > base {
		labels = append([]label{{".text", base}}, labels...)
	}
	if only != "" && !slices.ContainsFunc(labels, func(l label) bool { return l.name == only }) {
		return fmt.Errorf("disasm: %s: no kernel or symbol %q", file, only)
	}
	fmt.Fprintf(w, "\n%s:\tfile format elf64-amdgpu\n\nDisassembly of section .text:\n", file)
	l := lister{w: w, t: t, feat: feat, labels: labels, invalid: ".long", skipZeros: true, src: src}
	for i, lb := range labels {
		if only != "" && lb.name != only {
			continue
		}
		// Every label lies in the section, so the offsets are in range.
		start, stop := lb.addr-base, uint64(len(text))
		if i+1 < len(labels) {
			stop = labels[i+1].addr - base
		}
		fmt.Fprintf(w, "\n%016x <%s>:\n", lb.addr, lb.name)
		l.region(text, int(start), int(stop), base)
	}
	return nil
}

// lister prints instruction lines.
type lister struct {
	w       *bufio.Writer
	t       isa.Target
	feat    isa.Features // gfx904/gfx906 extensions
	labels  []label      // sorted; names branch targets
	invalid string       // "<invalid>" (raw mode) or ".long" (objdump's form)
	// skipZeros prints runs of zero bytes as llvm-objdump does.
	skipZeros bool
	src       *sourcePrinter // -l/-S annotations, or nil
	inst      isa.Inst
	buf       []byte
}

// region prints the instructions of code[start:stop]; code starts at
// address base. As in llvm-objdump, an instruction may run past stop (into
// the next symbol's bytes) but not past the end of code.
func (l *lister) region(code []byte, start, stop int, base uint64) {
	for off := start; off < stop; {
		pc := base + uint64(off)
		if l.skipZeros {
			// llvm-objdump prints a run of 8 or more zero bytes as "...",
			// skipping it in whole words.
			z := 0
			for off+z < stop && code[off+z] == 0 {
				z++
			}
			if z >= 8 {
				l.w.WriteString("\t\t...\n")
				off += z &^ 3
				continue
			}
		}
		if l.src != nil {
			l.src.before(l.w, pc)
		}
		b := l.buf[:0]
		b = append(b, '\t')
		err := isa.DecodeWith(code[off:], l.t, l.feat, &l.inst)
		n := l.inst.Len
		if err != nil || n == 0 {
			n = min(4, len(code)-off)
			switch {
			case l.invalid != ".long":
				b = append(b, l.invalid...)
			case n == 4:
				b = append(b, ".long 0x"...)
				b = appendHex(b, uint64(binary.LittleEndian.Uint32(code[off:])), 8, false)
			default: // a cut-off word at the end of the section
				b = append(b, ".byte "...)
				for k, c := range code[off : off+n] {
					if k > 0 {
						b = append(b, ", "...)
					}
					b = append(b, "0x"...)
					b = appendHex(b, uint64(c), 2, false)
				}
			}
		} else {
			b = l.inst.AppendText(b, pc-base, nil)
		}
		for len(b) < 60 {
			b = append(b, ' ')
		}
		b = append(b, "// "...)
		b = appendHex(b, pc, 12, true)
		b = append(b, ':')
		if n%4 == 0 {
			for k := 0; k < n; k += 4 {
				b = append(b, ' ')
				b = appendHex(b, uint64(binary.LittleEndian.Uint32(code[off+k:])), 8, true)
			}
		} else {
			for _, c := range code[off : off+n] {
				b = append(b, ' ')
				b = appendHex(b, uint64(c), 2, true)
			}
		}
		if err == nil && l.labels != nil && l.inst.Enc == isa.EncSOPP {
			if tgt, ok := l.inst.BranchTarget(pc); ok {
				b = l.appendTarget(b, tgt)
			}
		}
		b = append(b, '\n')
		l.w.Write(b)
		l.buf = b
		off += n
	}
}

// appendTarget appends " <sym+0xOFF>" for a branch target.
func (l *lister) appendTarget(b []byte, tgt uint64) []byte {
	i := sort.Search(len(l.labels), func(i int) bool { return l.labels[i].addr > tgt }) - 1
	if i < 0 {
		return b
	}
	b = append(b, " <"...)
	b = append(b, l.labels[i].name...)
	if d := tgt - l.labels[i].addr; d != 0 {
		b = append(b, "+0x"...)
		b = strconv.AppendUint(b, d, 16)
	}
	return append(b, '>')
}

// appendHex appends v in hex, zero-padded to width digits.
func appendHex(b []byte, v uint64, width int, upper bool) []byte {
	digits := "0123456789abcdef"
	if upper {
		digits = "0123456789ABCDEF"
	}
	for i := width - 1; i >= 0; i-- {
		b = append(b, digits[v>>(4*uint(i))&0xf])
	}
	return b
}

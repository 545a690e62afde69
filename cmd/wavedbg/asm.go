package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/isa/asm"
	"github.com/wavedbg/wavedbg/loader"
	"github.com/wavedbg/wavedbg/tui"
)

func init() {
	register(command{name: "asm", summary: "assemble a .s file into a code object (as llvm-mc and ld.lld do)", run: runAsm})
}

func runAsm(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("asm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the code object to `FILE` (default: the source with .co for .s)")
	target := fs.String("target", "", "assemble for `gfxNNN` or target ID (default: the file's .amdgcn_target)")
	version := fs.Int("code-object-version", 0, "code object version `N`, 4, 5 or 6 (default: the file's .amdhsa_code_object_version, else 5)")
	raw := fs.Bool("raw", false, "assemble single instructions from the arguments (or standard input, one a line) and print their words")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: wavedbg asm FILE.s [-o FILE.co] [--target gfx900] [--code-object-version N]\n"+
			"       wavedbg asm --raw --target gfx900 [INSN...]   (or one instruction a line on standard input)\n\n"+
			"Assemble GCN assembly in LLVM's AMDGPU syntax (GFX8 and GFX9) into a code object,\n"+
			"as llvm-mc -filetype=obj followed by ld.lld -shared would: labels, .text, .rodata,\n"+
			".globl, .p2align, .byte/.short/.long/.quad, .set, .amdgcn_target,\n"+
			".amdhsa_code_object_version, .amdhsa_kernel … .end_amdhsa_kernel (the kernel\n"+
			"descriptor) and .amdgpu_metadata … .end_amdgpu_metadata. Without .amdgpu_metadata,\n"+
			"metadata is made from each kernel's descriptor: every 8 bytes of\n"+
			".amdhsa_kernarg_size a global buffer argument. Errors read file:line:col: error: ...\n"+
			"as llvm-mc prints them.\n"+
			"A .s file may also be given wherever a code object is (wavedbg K.s, run, trace,\n"+
			"info, disasm): it is assembled in memory.\n"+
			"With --raw, print each instruction's words as hex on one line, the form\n"+
			"'wavedbg disasm --raw' reads, so the two commands are inverses.\n\n")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if *raw {
		return asmRaw(pos, *target, os.Stdin, stdout)
	}
	if len(pos) != 1 {
		fs.Usage()
		return usageError{"asm: want exactly one FILE.s"}
	}
	co, err := assembleFile(pos[0], asm.Options{Target: *target, CodeObjectVersion: *version})
	if err != nil {
		return err
	}
	dst := *out
	if dst == "" {
		dst = strings.TrimSuffix(pos[0], ".s") + ".co"
	}
	return os.WriteFile(dst, co, 0o644)
}

// asmError prints an assembly failure as llvm-mc does: each error with
// its source line and a caret.
type asmError struct{ list asm.ErrorList }

func (e asmError) Error() string {
	return strings.TrimSuffix(e.list.Caret(), "\n") + fmt.Sprintf("\n%d error(s)", len(e.list))
}

// assembleFile assembles a .s file into a code object.
func assembleFile(path string, opts asm.Options) ([]byte, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	co, err := asm.Assemble(path, src, opts)
	var el asm.ErrorList
	if errors.As(err, &el) {
		return nil, asmError{el}
	}
	return co, err
}

// isAsmSource reports whether path names assembly source.
func isAsmSource(path string) bool {
	return strings.HasSuffix(path, ".s") || strings.HasSuffix(path, ".S") || strings.HasSuffix(path, ".asm")
}

// openInput opens a code object, bundle or fat binary like
// loader.OpenContainer; a .s file is assembled in memory for target (or
// its .amdgcn_target) first.
func openInput(path, target string) (*loader.Container, error) {
	if !isAsmSource(path) {
		return loader.OpenContainer(path)
	}
	co, err := assembleFile(path, asm.Options{Target: target})
	if err != nil {
		return nil, err
	}
	c, err := loader.NewContainer(bytes.NewReader(co), int64(len(co)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	c.Name = path
	return c, nil
}

// loadInput is loader.Load for openInput's inputs.
func loadInput(path string, opts loader.LoadOptions) (*loader.CodeObject, error) {
	if !isAsmSource(path) {
		return loader.Load(path, opts)
	}
	c, err := openInput(path, opts.Target)
	if err != nil {
		return nil, err
	}
	co, err := loader.LoadFrom(c, opts)
	if err != nil {
		c.Close()
	}
	return co, err
}

// reassemble is the debugger's :edit reload: assemble o.file again and
// open the same launch; the labels are the source's, .L ones included.
func reassemble(o *debugOptions) tui.Reload {
	return func() (tui.Debuggee, map[string]uint64, error) {
		labels, err := sourceLabels(o.file, o.target)
		if err != nil {
			return nil, nil, err
		}
		d, err := openDebuggee(o)
		if err != nil {
			return nil, nil, err
		}
		return d, labels, nil
	}
}

// attachSource gives a debugger session opened from a .s file its
// source: the labels (.L ones too) for LOC and, when interactive, :edit.
func attachSource(m *tui.Model, o *debugOptions, interactive bool) error {
	if !isAsmSource(o.file) {
		return nil
	}
	labels, err := sourceLabels(o.file, o.target)
	if err != nil {
		return err
	}
	var reload tui.Reload
	if interactive {
		reload = reassemble(o)
	}
	m.SetSource(o.file, labels, reload)
	return nil
}

// sourceLabels assembles a .s file for its labels' addresses in the code
// object.
func sourceLabels(path, target string) (map[string]uint64, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	o, err := asm.Parse(path, src, asm.Options{Target: target})
	var el asm.ErrorList
	if errors.As(err, &el) {
		return nil, asmError{el}
	} else if err != nil {
		return nil, err
	}
	if _, err := o.Link(); err != nil {
		return nil, err
	}
	return o.Labels(), nil
}

// asmRaw assembles one instruction per argument (or per line of in) and
// prints each one's words on a line, as disasm --raw reads them.
func asmRaw(args []string, target string, in io.Reader, stdout io.Writer) error {
	t, ok := isa.TargetOf(target)
	if !ok {
		if target == "" {
			return usageError{"asm --raw: want --target, one of " + strings.Join(isa.SupportedProcessors(), ", ")}
		}
		return usageError{"asm --raw: --target " + isa.CheckSupported(target).Error()}
	}
	feat := isa.FeaturesOf(target)
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	var errs []string
	var words []uint32
	one := func(name string, line int, text string) {
		// Comments go: ";" and "//" (disasm's listing puts the address
		// and words there).
		if i := strings.IndexByte(text, ';'); i >= 0 {
			text = text[:i]
		}
		if i := strings.Index(text, "//"); i >= 0 {
			text = text[:i]
		}
		lead := len(text) - len(strings.TrimLeft(text, " \t"))
		text = strings.TrimSpace(text)
		if text == "" {
			return
		}
		var err error
		words, err = isa.Assemble(words[:0], text, t, feat, nil)
		if err != nil {
			col, msg := 1, err.Error()
			var ae *isa.AsmError
			if errors.As(err, &ae) {
				col, msg = ae.Col, ae.Msg
			}
			errs = append(errs, fmt.Sprintf("%s:%d:%d: error: %s", name, line, lead+col, msg))
			return
		}
		for i, v := range words {
			if i > 0 {
				w.WriteByte(' ')
			}
			fmt.Fprintf(w, "0x%08x", v)
		}
		w.WriteByte('\n')
	}
	if len(args) > 0 {
		for i, a := range args {
			one(fmt.Sprintf("<arg%d>", i+1), 1, a)
		}
	} else {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 1<<16), 1<<24)
		for n := 1; sc.Scan(); n++ {
			one("<stdin>", n, sc.Text())
		}
		if err := sc.Err(); err != nil {
			return err
		}
	}
	if len(errs) > 0 {
		w.Flush()
		return fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return nil
}

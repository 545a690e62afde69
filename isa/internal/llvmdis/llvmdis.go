// Package llvmdis runs LLVM's disassembler over many instruction cases at
// once, keeping each case's text aligned with its input.
//
// llvm-mc -disassemble reads one byte stream and resynchronises after an
// invalid word where it likes, so cases are instead written at a fixed
// stride into an object file (llvm-mc -filetype=obj of .long directives)
// and disassembled with llvm-objdump, whose `// ADDRESS: WORDS` comments
// say where each line came from. Every case is padded with s_nop words.
package llvmdis

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Version is the LLVM major version the tools come from.
const Version = 19

// Tools names the LLVM 19 binaries.
var (
	MC      = "llvm-mc-19"
	Objdump = "llvm-objdump-19"
)

// Available reports whether the LLVM tools are installed.
func Available() bool {
	_, err1 := exec.LookPath(MC)
	_, err2 := exec.LookPath(Objdump)
	return err1 == nil && err2 == nil
}

// Result is LLVM's reading of one case.
type Result struct {
	Text    string // the instruction text; "" when LLVM rejected the first word
	Words   int    // words consumed (0 when rejected)
	Invalid bool
	Crashed bool // llvm-objdump crashed on this case (LLVM bug); Invalid is set too
}

// stride is the bytes reserved for one case: up to 12 bytes of instruction
// and at least one s_nop after it.
const stride = 16

const snop = 0xbf800000

// Disasm disassembles each case (one instruction's words, at most 3) for
// the processor mcpu ("gfx803", "gfx900"). When llvm-objdump crashes on a
// batch, the batch is split until the crashing cases are isolated; those
// come back with Crashed set.
func Disasm(mcpu string, cases [][]uint32) ([]Result, error) {
	res, err := disasm(mcpu, cases)
	if err == nil || !errors.Is(err, errCrash) {
		return res, err
	}
	if len(cases) == 1 {
		// The crash may come from words after the instruction, which
		// llvm-objdump decodes as the next one: retry with them replaced by
		// s_nop and keep the answer when LLVM did not consume them.
		// GFX8/GFX9 instructions are at most 8 bytes, so two words decide.
		c := cases[0]
		for keep := min(len(c)-1, 2); keep >= 1; keep-- {
			r, err := disasm(mcpu, [][]uint32{c[:keep]})
			if err == nil && (keep == 2 || !r[0].Invalid && r[0].Words <= keep) {
				return r, nil
			}
		}
		return []Result{{Crashed: true, Invalid: true}}, nil
	}
	h := len(cases) / 2
	a, err := Disasm(mcpu, cases[:h])
	if err != nil {
		return nil, err
	}
	b, err := Disasm(mcpu, cases[h:])
	if err != nil {
		return nil, err
	}
	return append(a, b...), nil
}

var errCrash = errors.New("llvmdis: llvm-objdump crashed")

func disasm(mcpu string, cases [][]uint32) ([]Result, error) {
	dir, err := os.MkdirTemp("", "llvmdis")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var src bytes.Buffer
	src.WriteString(".text\n")
	for _, c := range cases {
		if len(c) > 3 {
			return nil, errors.New("llvmdis: case longer than 3 words")
		}
		src.WriteString(".long ")
		for i := 0; i < stride/4; i++ {
			w := uint32(snop)
			if i < len(c) {
				w = c[i]
			}
			if i > 0 {
				src.WriteString(",")
			}
			fmt.Fprintf(&src, "%#x", w)
		}
		src.WriteString("\n")
	}
	s := filepath.Join(dir, "in.s")
	o := filepath.Join(dir, "in.o")
	if err := os.WriteFile(s, src.Bytes(), 0o644); err != nil {
		return nil, err
	}
	if out, err := exec.Command(MC, "-triple=amdgcn-amd-amdhsa", "-mcpu="+mcpu, "-filetype=obj", s, "-o", o).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("llvmdis: %s: %v\n%s", MC, err, out)
	}
	out, err := exec.Command(Objdump, "-d", "--mcpu="+mcpu, o).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok && !ee.Exited() {
			return nil, errCrash
		}
		return nil, fmt.Errorf("llvmdis: %s: %v", Objdump, err)
	}
	res := make([]Result, len(cases))
	for i := range res {
		res[i].Invalid = true
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		text, addr, words, ok := ParseLine(sc.Text())
		if !ok || addr%stride != 0 {
			continue
		}
		i := int(addr / stride)
		if i >= len(res) {
			continue
		}
		if strings.HasPrefix(text, ".long ") {
			continue
		}
		res[i] = Result{Text: text, Words: words}
	}
	return res, sc.Err()
}

// ParseLine splits one instruction line of llvm-objdump -d output,
// "\tTEXT<spaces>// ADDRESS: WORD WORD [<symbol+0xN>]", into its text
// (trailing padding removed), address and word count.
func ParseLine(line string) (text string, addr uint64, words int, ok bool) {
	if !strings.HasPrefix(line, "\t") {
		return "", 0, 0, false
	}
	i := strings.LastIndex(line, "// ")
	if i < 0 {
		return "", 0, 0, false
	}
	c := line[i+3:]
	j := strings.IndexByte(c, ':')
	if j < 0 {
		return "", 0, 0, false
	}
	a, err := strconv.ParseUint(c[:j], 16, 64)
	if err != nil {
		return "", 0, 0, false
	}
	for _, f := range strings.Fields(c[j+1:]) {
		if len(f) != 8 {
			break
		}
		words++
	}
	return strings.TrimRight(line[1:i], " "), a, words, true
}

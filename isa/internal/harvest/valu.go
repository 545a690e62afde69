// The valu family distils the VALU rows of isa/tables/valu.txt (VOP1,
// VOP2, VOPC, VOP3, VOP3P, VINTRP) from LLVM 19's disassembler:
//
//	go run ./isa/internal/harvest valu
//
// For gfx803 (GFX8) and gfx900 (GFX9) it disassembles every opcode of
// every encoding with distinct registers in each field (vdst v10, src0
// v20, src1 v30, src2 v40, VOP3b sdst s[50:51]) and reads the mnemonic,
// the operand order and the register widths from LLVM's text. It then
// flips each modifier bit of the VOP3, SDWA and DPP forms one at a time and
// records which bits LLVM prints, ignores or rejects; those facts become
// flag words. Operand data types come from the mnemonic (typeRules below).
package main

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/wavedbg/wavedbg/isa/internal/llvmdis"
)

const (
	dstReg  = 10
	src0Reg = 20
	src1Reg = 30
	src2Reg = 40
	sdstReg = 50
	literal = 0x12345678
)

func v(n uint32) uint32 { return 256 + n }

// valuGens lists the generations and the processor that stands for each.
var valuGens = []struct {
	gen  int
	mcpu string
}{{8, "gfx803"}, {9, "gfx900"}}

// row is one table row before rows of equal content are merged across
// generations.
type row struct {
	enc      string
	gen      int
	opcode   int
	mnemonic string
	flags    []string
	operands []string
}

func (r row) key() string {
	return fmt.Sprintf("%s %#x %s %s %s", r.enc, r.opcode, r.mnemonic, strings.Join(r.flags, ","), strings.Join(r.operands, " "))
}

func must[T any](x T, err error) T {
	if err != nil {
		fmt.Fprintln(os.Stderr, "harvest:", err)
		os.Exit(1)
	}
	return x
}

func disasm(mcpu string, cases [][]uint32) []llvmdis.Result {
	if len(cases) == 0 {
		return nil
	}
	r, err := llvmdis.Disasm(mcpu, cases)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s %x\n", mcpu, cases[:min(4, len(cases))])
	}
	return must(r, err)
}

func init() { families["valu"] = harvestVALU }

func harvestVALU() (string, error) {
	var rows []row
	for _, g := range valuGens {
		rows = append(rows, harvestGen(g.gen, g.mcpu)...)
	}
	return emit(rows), nil
}

// tok is one printed operand.
type tok struct {
	text  string
	kind  byte // 'v', 's', 'c' (vcc), 'l' (literal), 'a' (attr), 'p' (interp param), '?'
	reg   int
	width int
}

var valuRegRE = regexp.MustCompile(`^([vs])(?:(\d+)|\[(\d+):(\d+)\])$`)

func parseTok(t string) tok {
	t = strings.TrimSpace(t)
	if i := strings.Index(t, "/*"); i >= 0 {
		t = t[:i]
	}
	if m := valuRegRE.FindStringSubmatch(t); m != nil {
		if m[2] != "" {
			n, _ := strconv.Atoi(m[2])
			return tok{t, m[1][0], n, 1}
		}
		a, _ := strconv.Atoi(m[3])
		b, _ := strconv.Atoi(m[4])
		return tok{t, m[1][0], a, b - a + 1}
	}
	switch {
	case t == "vcc":
		return tok{t, 'c', 0, 2}
	case strings.HasPrefix(t, "0x"):
		return tok{t, 'l', 0, 1}
	case strings.HasPrefix(t, "attr"):
		return tok{t, 'a', 0, 0}
	case t == "p10" || t == "p20" || t == "p0" || strings.HasPrefix(t, "invalid_param"):
		return tok{t, 'p', 0, 0}
	}
	return tok{t, '?', 0, 0}
}

// splitText splits LLVM's text into the mnemonic, the comma-separated
// operands and the trailing space-separated modifiers.
func splitText(s string) (mn string, ops []tok, mods []string) {
	mn, rest, _ := strings.Cut(s, " ")
	if rest == "" {
		return mn, nil, nil
	}
	parts := strings.Split(rest, ", ")
	last := parts[len(parts)-1]
	if f := strings.Fields(last); len(f) > 1 {
		parts[len(parts)-1] = f[0]
		mods = f[1:]
	}
	for _, p := range parts {
		ops = append(ops, parseTok(p))
	}
	return mn, ops, mods
}

func stripSuffix(mn string) (string, string) {
	for _, s := range []string{"_e32", "_e64", "_sdwa", "_dpp"} {
		if b, ok := strings.CutSuffix(mn, s); ok {
			return b, s[1:]
		}
	}
	return mn, ""
}

// valid reports whether LLVM decoded the case, with its text.
func valid(r llvmdis.Result) bool { return !r.Invalid && r.Text != "" }

type valuProbe struct {
	opcode int
	words  []uint32
}

// firstValid runs the templates in order and keeps, per opcode, the first
// template LLVM decodes without an "Invalid register" remark.
func firstValid(mcpu string, opcodes []int, templates []func(op int) []uint32) map[int]valuProbe {
	best := map[int]valuProbe{}
	fallback := map[int]valuProbe{}
	texts := map[int]string{}
	for _, t := range templates {
		var cases [][]uint32
		var ops []int
		for _, op := range opcodes {
			if _, ok := best[op]; ok {
				continue
			}
			cases = append(cases, t(op))
			ops = append(ops, op)
		}
		if len(cases) == 0 {
			break
		}
		for i, r := range disasm(mcpu, cases) {
			if !valid(r) {
				continue
			}
			p := valuProbe{ops[i], cases[i][:r.Words]}
			if strings.Contains(r.Text, "Invalid register") || strings.Contains(r.Text, "invalid_param") {
				if _, ok := fallback[ops[i]]; !ok {
					fallback[ops[i]] = p
				}
				continue
			}
			best[ops[i]] = p
			texts[ops[i]] = r.Text
		}
	}
	for op, p := range fallback {
		if _, ok := best[op]; !ok {
			best[op] = p
		}
	}
	return best
}

func textOf(mcpu string, ps map[int]valuProbe) map[int]string {
	var ops []int
	var cases [][]uint32
	for op, p := range ps {
		ops = append(ops, op)
		cases = append(cases, p.words)
	}
	out := map[int]string{}
	for i, r := range disasm(mcpu, cases) {
		out[ops[i]] = r.Text
	}
	return out
}

// flips disassembles the probe with each of bits (0–63 over the first two
// words) set in turn and returns one status letter per bit: P (LLVM prints
// something different), I (ignored: same text), X (rejected).
func flips(mcpu string, ps map[int]valuProbe, bits []int) map[int]string {
	var ops []int
	var cases [][]uint32
	base := textOf(mcpu, ps)
	for op, p := range ps {
		for _, b := range bits {
			w := append([]uint32(nil), p.words...)
			for len(w) < 2 {
				w = append(w, 0)
			}
			w[b/32] ^= 1 << (b % 32)
			ops = append(ops, op)
			cases = append(cases, w)
		}
	}
	out := map[int]string{}
	for i, r := range disasm(mcpu, cases) {
		s := "X"
		if valid(r) {
			s = "P"
			if r.Text == base[ops[i]] {
				s = "I"
			}
		}
		out[ops[i]] += s
	}
	return out
}

func rng(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

func sortedKeys[V any](m map[int]V) []int {
	var k []int
	for x := range m {
		k = append(k, x)
	}
	sort.Ints(k)
	return k
}

const (
	vop1Base = 0x7e000000
	vopcBase = 0x7c000000
	vop3Base = 0x34 << 26
	vop3pBas = 0x1a7 << 23
	sdwaSrc  = 0xf9
	dppSrc   = 0xfa
)

func harvestGen(gen int, mcpu string) []row {
	var rows []row
	// VOP1, VOP2, VOPC: the e32 forms, with a literal word after for madmk/madak.
	vop1 := firstValid(mcpu, rng(256), []func(int) []uint32{
		func(op int) []uint32 { return []uint32{vop1Base | dstReg<<17 | uint32(op)<<9 | v(src0Reg), literal} },
		func(op int) []uint32 { return []uint32{vop1Base | uint32(op)<<9, literal} },
	})
	vop2 := firstValid(mcpu, rng(0x3e), []func(int) []uint32{
		func(op int) []uint32 { return []uint32{uint32(op)<<25 | dstReg<<17 | src1Reg<<9 | v(src0Reg), literal} },
	})
	vopc := firstValid(mcpu, rng(256), []func(int) []uint32{
		func(op int) []uint32 { return []uint32{vopcBase | uint32(op)<<17 | src1Reg<<9 | v(src0Reg), literal} },
	})
	rows = append(rows, e32Rows(gen, mcpu, "VOP1", vop1)...)
	rows = append(rows, e32Rows(gen, mcpu, "VOP2", vop2)...)
	rows = append(rows, e32Rows(gen, mcpu, "VOPC", vopc)...)

	// VOP3: every opcode, sources tried as VGPRs, SGPRs and absent.
	w3 := func(s0, s1, s2 uint32) func(int) []uint32 {
		return func(op int) []uint32 {
			return []uint32{vop3Base | uint32(op)<<16 | dstReg, s0 | s1<<9 | s2<<18}
		}
	}
	attr := uint32(src0Reg | 1<<6)
	vop3 := firstValid(mcpu, rng(0x380), []func(int) []uint32{
		w3(v(src0Reg), v(src1Reg), v(src2Reg)),
		w3(v(src0Reg), v(src1Reg), src2Reg),
		w3(v(src0Reg), v(src1Reg), 0),
		w3(v(src0Reg), src1Reg, 0),
		w3(src0Reg, src1Reg, 0),
		w3(v(src0Reg), 0, 0),
		w3(attr, v(src1Reg), v(src2Reg)),
		w3(attr, v(src1Reg), 0),
		w3(attr, 0, 0),
		w3(0, 0, 0),
		func(op int) []uint32 { return []uint32{vop3Base | uint32(op)<<16, 0} },
	})
	rows = append(rows, vop3Rows(gen, mcpu, vop3)...)

	if gen == 9 {
		w3p := func(s0, s1, s2 uint32) func(int) []uint32 {
			return func(op int) []uint32 {
				return []uint32{vop3pBas | uint32(op)<<16 | dstReg, s0 | s1<<9 | s2<<18}
			}
		}
		vop3p := firstValid(mcpu, rng(128), []func(int) []uint32{
			w3p(v(src0Reg), v(src1Reg), v(src2Reg)),
			w3p(v(src0Reg), v(src1Reg), 0),
		})
		rows = append(rows, vop3pRows(gen, mcpu, vop3p)...)
	}
	vintrp := firstValid(mcpu, rng(4), []func(int) []uint32{
		func(op int) []uint32 {
			return []uint32{0x35<<26 | dstReg<<18 | uint32(op)<<16 | 5<<10 | 1<<8 | src0Reg}
		},
		func(op int) []uint32 { return []uint32{0x35<<26 | dstReg<<18 | uint32(op)<<16 | 5<<10 | 1<<8 | 0} },
	})
	rows = append(rows, vintrpRows(gen, mcpu, vintrp)...)
	return rows
}

// field names the encoding field an operand came from, found by the
// register number the probe put in it.
func e32Field(enc string, t tok, i, n int) (field, access string) {
	switch t.kind {
	case 'v', 's':
		switch t.reg {
		case dstReg:
			if t.kind == 's' {
				return "sdst", "w"
			}
			return "vdst", "w"
		case src0Reg:
			return "src0", "r"
		case src1Reg:
			return "vsrc1", "r"
		}
	case 'c':
		if i == n-1 && i > 1 {
			return "vcc", "r"
		}
		return "vcc", "w"
	case 'l':
		return "simm32", "r"
	}
	return "", ""
}

// sdwaBases and dppBases are the second words tried for the SDWA and DPP
// forms: all selects DWORD, quad_perm:[0,1,2,3], all rows and banks.
var sdwaBases = map[string][]uint32{
	"VOP1": {src0Reg | 6<<8 | 6<<16},
	"VOP2": {src0Reg | 6<<8 | 6<<16 | 6<<24},
	"VOPC": {src0Reg | 6<<16 | 6<<24, src0Reg | 6<<8 | 6<<16 | 6<<24},
}

const dppBase = src0Reg | 0xe4<<8 | 0xf<<24 | 0xf<<28

// sigs collects modifier-bit signatures for a summary on standard error.
var sigs = map[string][]string{}

func addSig(kind, sig, mn string) { sigs[kind+" "+sig] = append(sigs[kind+" "+sig], mn) }

func e32Rows(gen int, mcpu, enc string, ps map[int]valuProbe) []row {
	texts := textOf(mcpu, ps)
	// SDWA and DPP forms.
	var sdwaT, dppT []func(int) []uint32
	for _, b := range sdwaBases[enc] {
		sdwaT = append(sdwaT, func(op int) []uint32 {
			w := ps[op].words[0]&^0x1ff | sdwaSrc
			return []uint32{w, b}
		})
	}
	dppT = append(dppT, func(op int) []uint32 { return []uint32{ps[op].words[0]&^0x1ff | dppSrc, dppBase} })
	ops := sortedKeys(ps)
	sdwa := firstValid(mcpu, ops, sdwaT)
	dpp := firstValid(mcpu, ops, dppT)
	var sdwaBits, dppBits []int
	for b := 32 + 8; b < 64; b++ {
		// A select of 7 crashes llvm-objdump-19; skip the bits that make one.
		if b != 32+8 && b != 32+16 && b != 32+24 {
			sdwaBits = append(sdwaBits, b)
		}
	}
	for b := 32 + 19; b < 64; b++ {
		dppBits = append(dppBits, b)
	}
	sdwaSig := flips(mcpu, sdwa, sdwaBits)
	dppSig := flips(mcpu, dpp, dppBits)
	sdwaText := textOf(mcpu, sdwa)

	var rows []row
	for _, op := range ops {
		mnS, toks, _ := splitText(texts[op])
		mn, sfx := stripSuffix(mnS)
		r := row{enc: enc, gen: gen, opcode: op, mnemonic: mn}
		if sfx == "e32" {
			r.flags = append(r.flags, "suffix")
		}
		var roles []opnd
		for i, t := range toks {
			f, a := e32Field(enc, t, i, len(toks))
			if f == "" {
				fmt.Fprintf(os.Stderr, "%s gfx%d %s %#x: unmapped operand %q in %q\n", mcpu, gen, enc, op, t.text, texts[op])
				continue
			}
			roles = append(roles, opnd{f, a, t.width})
		}
		r.operands = typed(mn, roles)
		_, hasSDWA := sdwa[op]
		_, hasDPP := dpp[op]
		// v_nop and v_clrexcp have no operands: LLVM ignores the whole
		// SDWA or DPP word, so there is nothing to check.
		check := len(roles) > 0
		if hasSDWA {
			r.flags = append(r.flags, "sdwa")
			addSig("sdwa-"+enc+fmt.Sprint(gen), sdwaSig[op], mn)
			if check && strings.Contains(sdwaText[op], "_sdwa") != (gen == 9 || enc != "VOPC") {
				fmt.Fprintf(os.Stderr, "gfx%d %s %s: unexpected SDWA suffix: %s\n", gen, enc, mn, sdwaText[op])
			}
		}
		if hasDPP {
			r.flags = append(r.flags, "dpp")
			addSig("dpp-"+enc+fmt.Sprint(gen), dppSig[op], mn)
		}
		var mf []string
		if hasSDWA && sdwaSig[op][10] == 'P' || hasDPP && dppSig[op][1] == 'P' {
			mf = append(mf, "mods")
		}
		if gen == 9 && hasSDWA && enc != "VOPC" && sdwaSig[op][5] == 'P' {
			mf = append(mf, "sdwa-omod")
		}
		if hasSDWA && check {
			if got := sdwaSigOf(gen, enc, mf, r.operands); got != sdwaSig[op] {
				fmt.Fprintf(os.Stderr, "gfx%d %s %s: SDWA rule gives %s, LLVM %s\n", gen, enc, mn, got, sdwaSig[op])
			}
		}
		if hasDPP && check {
			if got := dppSigOf(mf, r.operands); got != dppSig[op] {
				fmt.Fprintf(os.Stderr, "gfx%d %s %s: DPP rule gives %s, LLVM %s\n", gen, enc, mn, got, dppSig[op])
			}
		}
		r.flags = append(r.flags, mf...)
		r.flags = append(r.flags, semFlags(mn, roles)...)
		rows = append(rows, r)
	}
	return rows
}

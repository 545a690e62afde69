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

// opnd is an operand before typing.
type opnd struct {
	field, access string
	width         int
}

// semFlags are the implicit effects the tables record for the emulator.
func semFlags(mn string, ops []opnd) []string {
	var f []string
	vccR, vccW := false, false
	for _, o := range ops {
		if o.field == "vcc" {
			if strings.Contains(o.access, "r") {
				vccR = true
			}
			if strings.Contains(o.access, "w") {
				vccW = true
			}
		}
	}
	if mn == "v_div_fmas_f32" || mn == "v_div_fmas_f64" {
		vccR = true
	}
	if vccR {
		f = append(f, "vcc-read")
	}
	if vccW {
		f = append(f, "vcc-write")
	}
	if strings.HasPrefix(mn, "v_cmpx_") {
		f = append(f, "exec-write")
	}
	if strings.HasPrefix(mn, "v_movrel") || strings.HasPrefix(mn, "v_interp_") {
		f = append(f, "m0-read")
	}
	// Sources LLVM restricts to one register class (it prints a remark
	// for anything else): src-vgpr: src0 is VGPR_32; src-lane: the
	// destination is SReg_32, src0 VRegOrLds_32 and src1 SReg_32;
	// src-sreg: src0 and src1 are SReg_32.
	switch {
	case mn == "v_movrels_b32", mn == "v_movrelsd_b32", mn == "v_swap_b32":
		f = append(f, "src-vgpr")
	case mn == "v_readfirstlane_b32", mn == "v_readlane_b32":
		f = append(f, "src-lane")
	case mn == "v_writelane_b32":
		f = append(f, "src-sreg")
	}
	return f
}

func vop3Field(t tok, used map[string]bool) (field, access string) {
	switch t.kind {
	case 'v', 's':
		switch t.reg {
		case dstReg:
			if t.kind == 's' {
				return "sdst", "w"
			}
			return "vdst", "w"
		case sdstReg:
			return "sdst", "w"
		case src0Reg, src1Reg, src2Reg:
			return fmt.Sprintf("src%d", (t.reg-src0Reg)/10), "r"
		case 0:
			for _, f := range []string{"src0", "src1", "src2"} {
				if !used[f] {
					return f, "r"
				}
			}
		}
	case 'a':
		return "attr", "r"
	case 'p':
		return "param", "r"
	}
	return "", ""
}

// vop3ModBits are the VOP3 modifier bits flipped: abs (8–10), op_sel
// (11–14), clamp (15), omod (59–60), neg (61–63).
var vop3ModBits = []int{8, 9, 10, 11, 12, 13, 14, 15, 59, 60, 61, 62, 63}

func vop3Rows(gen int, mcpu string, ps map[int]valuProbe) []row {
	// VOP3b: the same words with sdst = s[50:51] in bits 14–8.
	b := map[int]valuProbe{}
	for op, p := range ps {
		w := append([]uint32(nil), p.words...)
		w[0] |= sdstReg << 8
		b[op] = valuProbe{op, w}
	}
	btext := textOf(mcpu, b)
	texts := textOf(mcpu, ps)
	sig := flips(mcpu, ps, vop3ModBits)
	var rows []row
	for _, op := range sortedKeys(ps) {
		text := texts[op]
		if strings.Contains(btext[op], fmt.Sprintf("s[%d:%d]", sdstReg, sdstReg+1)) {
			text = btext[op]
		}
		mnS, toks, mods := splitText(text)
		mn, sfx := stripSuffix(mnS)
		r := row{enc: "VOP3", gen: gen, opcode: op, mnemonic: mn}
		if sfx == "e64" {
			r.flags = append(r.flags, "suffix")
		}
		used := map[string]bool{}
		var roles []opnd
		for _, t := range toks {
			f, a := vop3Field(t, used)
			if f == "" {
				fmt.Fprintf(os.Stderr, "%s VOP3 %#x: unmapped operand %q in %q\n", mcpu, op, t.text, text)
				continue
			}
			used[f] = true
			roles = append(roles, opnd{f, a, t.width})
		}
		for _, m := range mods {
			if m == "high" {
				r.flags = append(r.flags, "high")
			}
		}
		addSig(fmt.Sprintf("vop3-%d", gen), sig[op], mn)
		r.operands = typed(mn, roles)
		r.flags = append(r.flags, vop3ModFlags(gen, mn, roles, r.operands, sig[op])...)
		r.flags = append(r.flags, semFlags(mn, roles)...)
		rows = append(rows, r)
	}
	return rows
}

// vop3ModFlags turns a VOP3 modifier-bit signature (one letter per bit of
// vop3ModBits) into flag words, and checks that the rule the decoder
// applies to those words (vop3Sig) gives the signature back.
//
//	mods          sources take neg/abs (LLVM's HasModifiers)
//	clamp, omod   the clamp bit and the output modifier are allowed
//	opsel         op_sel is printed (GFX9 16-bit opcodes)
//	src1-nomods   src1 takes no modifiers although the opcode has them (v_cmp_class)
//	src2-nomods   src2 takes no modifiers (v_cndmask's lane mask)
func vop3ModFlags(gen int, mn string, ops []opnd, typedOps []string, sig string) []string {
	var f []string
	has := func(i int, c byte) bool { return sig[i] == c }
	vop3b := false
	for _, o := range ops {
		if o.field == "sdst" {
			for _, p := range ops {
				if p.field == "vdst" {
					vop3b = true
				}
			}
		}
	}
	if has(10, 'P') || has(11, 'P') || has(12, 'P') {
		f = append(f, "mods")
	}
	if has(7, 'P') {
		f = append(f, "clamp")
	}
	if has(8, 'P') {
		f = append(f, "omod")
	}
	if !vop3b && has(6, 'P') {
		f = append(f, "opsel")
	}
	if hasWord(f, "mods") {
		if valuSrcType(typedOps, "src1") != "" && has(11, 'X') {
			f = append(f, "src1-nomods")
		}
		if valuSrcType(typedOps, "src2") != "" && has(12, 'X') {
			f = append(f, "src2-nomods")
		}
	}
	if got := vop3Sig(f, typedOps, vop3b); got != sig {
		fmt.Fprintf(os.Stderr, "gfx%d VOP3 %s: rule gives %s, LLVM %s (flags %v)\n", gen, mn, got, sig, f)
	}
	return f
}

func hasWord(f []string, w string) bool {
	for _, x := range f {
		if x == w {
			return true
		}
	}
	return false
}

// src returns the type of the operand of field in typed operand specs.
func valuSrcType(typedOps []string, field string) string {
	for _, o := range typedOps {
		p := strings.Split(o, ":")
		if p[0] == field {
			return p[2]
		}
	}
	return ""
}

func isFloatish(t string) bool { return t[0] == 'f' || t[0] == 'b' || t[0] == 'v' }

// srcMods says how LLVM treats source k's neg and abs bits: 'P' printed,
// 'I' ignored, 'X' rejected.
func srcMods(f []string, typedOps []string, k int) (neg, abs byte) {
	t := valuSrcType(typedOps, fmt.Sprintf("src%d", k))
	switch {
	case t == "" || hasWord(f, fmt.Sprintf("src%d-nomods", k)):
		return 'X', 'X'
	case hasWord(f, "mods"):
		if isFloatish(t) {
			return 'P', 'P'
		}
		return 'P', 'I'
	case hasWord(f, "opsel"):
		return 'I', 'I'
	}
	return 'X', 'X'
}

// vop3Sig is the signature the flags predict.
func vop3Sig(f []string, typedOps []string, vop3b bool) string {
	b := []byte("XXXIIIIXXXXXX")
	for k := 0; k < 3; k++ {
		b[10+k], b[k] = srcMods(f, typedOps, k)
	}
	if hasWord(f, "opsel") {
		for k := 0; k < 3; k++ {
			b[3+k] = 'X'
			if valuSrcType(typedOps, fmt.Sprintf("src%d", k)) != "" {
				b[3+k] = 'P'
			}
		}
		b[6] = 'P'
	}
	if vop3b {
		copy(b, "IPPPPPP")
	}
	if hasWord(f, "clamp") {
		b[7] = 'P'
	}
	if hasWord(f, "omod") {
		b[8], b[9] = 'P', 'P'
	}
	return string(b)
}

var vop3pModBits = []int{8, 9, 10, 11, 12, 13, 14, 15, 59, 60, 61, 62, 63}

func vop3pRows(gen int, mcpu string, ps map[int]valuProbe) []row {
	texts := textOf(mcpu, ps)
	sig := flips(mcpu, ps, vop3pModBits)
	var rows []row
	for _, op := range sortedKeys(ps) {
		mn, toks, _ := splitText(texts[op])
		r := row{enc: "VOP3P", gen: gen, opcode: op, mnemonic: mn}
		used := map[string]bool{}
		var roles []opnd
		for _, t := range toks {
			f, a := vop3Field(t, used)
			if f == "" {
				fmt.Fprintf(os.Stderr, "%s VOP3P %#x: unmapped operand %q\n", mcpu, op, t.text)
				continue
			}
			used[f] = true
			roles = append(roles, opnd{f, a, t.width})
		}
		addSig(fmt.Sprintf("vop3p-%d", gen), sig[op], mn)
		r.operands = typed(mn, roles)
		rows = append(rows, r)
	}
	return rows
}

func vintrpRows(gen int, mcpu string, ps map[int]valuProbe) []row {
	texts := textOf(mcpu, ps)
	var rows []row
	for _, op := range sortedKeys(ps) {
		mnS, toks, _ := splitText(texts[op])
		mn, sfx := stripSuffix(mnS)
		r := row{enc: "VINTRP", gen: gen, opcode: op, mnemonic: mn}
		if sfx == "e32" {
			r.flags = append(r.flags, "suffix")
		}
		var roles []opnd
		for _, t := range toks {
			switch {
			case t.kind == 'v' && t.reg == dstReg:
				roles = append(roles, opnd{"vdst", "w", 1})
			case t.kind == 'v':
				roles = append(roles, opnd{"vsrc", "r", 1})
			case t.kind == 'p':
				roles = append(roles, opnd{"param", "r", 0})
			case t.kind == 'a':
				roles = append(roles, opnd{"attr", "r", 0})
			default:
				fmt.Fprintf(os.Stderr, "%s VINTRP %#x: unmapped operand %q\n", mcpu, op, t.text)
			}
		}
		r.flags = append(r.flags, semFlags(mn, roles)...)
		r.operands = typed(mn, roles)
		rows = append(rows, r)
	}
	return rows
}

// typeOverrides gives the destination and source types of opcodes whose
// mnemonic does not spell them as "<op>_<dst>[_<src>]".
var typeOverrides = map[string][4]string{
	// mnemonic:            dst, src0, src1, src2
	"v_cvt_pk_u8_f32":      {"b32", "f32", "u32", "u32"},
	"v_cvt_pkaccum_u8_f32": {"b32", "f32", "u32", ""},
	"v_sat_pk_u8_i16":      {"b16", "b32", "", ""},
	"v_cvt_pknorm_i16_f16": {"b32", "f16", "f16", ""},
	"v_cvt_pknorm_u16_f16": {"b32", "f16", "f16", ""},
	"v_cvt_pknorm_i16_f32": {"b32", "f32", "f32", ""},
	"v_cvt_pknorm_u16_f32": {"b32", "f32", "f32", ""},
	"v_cvt_pkrtz_f16_f32":  {"b32", "f32", "f32", ""},
	"v_cvt_pk_u16_u32":     {"b32", "u32", "u32", ""},
	"v_cvt_pk_i16_i32":     {"b32", "i32", "i32", ""},
	"v_pack_b32_f16":       {"b32", "f16", "f16", ""},
	"v_cvt_off_f32_i4":     {"f32", "i32", "", ""},
	"v_cvt_f32_ubyte0":     {"f32", "u32", "", ""},
	"v_cvt_f32_ubyte1":     {"f32", "u32", "", ""},
	"v_cvt_f32_ubyte2":     {"f32", "u32", "", ""},
	"v_cvt_f32_ubyte3":     {"f32", "u32", "", ""},
	"v_ldexp_f16":          {"f16", "f16", "i16", ""},
	"v_ldexp_f32":          {"f32", "f32", "i32", ""},
	"v_ldexp_f64":          {"f64", "f64", "i32", ""},
	"v_trig_preop_f64":     {"f64", "f64", "u32", ""},
	"v_readlane_b32":       {"b32", "b32", "u32", ""},
	"v_writelane_b32":      {"b32", "b32", "u32", ""},
	"v_lshlrev_b64":        {"b64", "u32", "b64", ""},
	"v_lshrrev_b64":        {"b64", "u32", "b64", ""},
	"v_ashrrev_i64":        {"i64", "u32", "i64", ""},
	"v_lshl_b64":           {"b64", "b64", "u32", ""},
	"v_lshr_b64":           {"b64", "b64", "u32", ""},
	"v_ashr_i64":           {"i64", "i64", "u32", ""},
	"v_sad_u8":             {"u32", "u32", "u32", "u32"},
	"v_sad_hi_u8":          {"u32", "u32", "u32", "u32"},
	"v_sad_u16":            {"u32", "u32", "u32", "u32"},
	"v_sad_u32":            {"u32", "u32", "u32", "u32"},
	"v_msad_u8":            {"u32", "u32", "u32", "u32"},
	"v_lerp_u8":            {"u32", "u32", "u32", "u32"},
	"v_qsad_pk_u16_u8":     {"u64", "u64", "u32", "u64"},
	"v_mqsad_pk_u16_u8":    {"u64", "u64", "u32", "u64"},
	"v_mqsad_u32_u8":       {"u32", "u64", "u32", "u32"},
	"v_mad_u32_u16":        {"u32", "u16", "u16", "u32"},
	"v_mad_i32_i16":        {"i32", "i16", "i16", "i32"},
	"v_mad_u64_u32":        {"u64", "u32", "u32", "u64"},
	"v_mad_i64_i32":        {"i64", "i32", "i32", "i64"},
	"v_cvt_pk_u8_f32_":     {},
	"v_dot2_f32_f16":       {"f32", "v2f16", "v2f16", "f32"},
	"v_dot2_i32_i16":       {"i32", "v2i16", "v2i16", "i32"},
	"v_dot2_u32_u16":       {"u32", "v2i16", "v2i16", "u32"},
	"v_dot4_i32_i8":        {"i32", "b32", "b32", "i32"},
	"v_dot4_u32_u8":        {"u32", "b32", "b32", "u32"},
	"v_dot8_i32_i4":        {"i32", "b32", "b32", "i32"},
	"v_dot8_u32_u4":        {"u32", "b32", "b32", "u32"},
	"v_mad_mix_f32":        {"f32", "f32", "f32", "f32"},
	"v_mad_mixlo_f16":      {"f16", "f32", "f32", "f32"},
	"v_mad_mixhi_f16":      {"f16", "f32", "f32", "f32"},
	"v_fma_mix_f32":        {"f32", "f32", "f32", "f32"},
	"v_fma_mixlo_f16":      {"f16", "f32", "f32", "f32"},
	"v_fma_mixhi_f16":      {"f16", "f32", "f32", "f32"},
	// The VOP3 interp opcodes: src0 holds attr, src1 the i/j coordinate,
	// src2 the f16 data (p1lv) or the p1 result (p2).
	"v_interp_p1ll_f16":      {"f32", "", "f32", ""},
	"v_interp_p1lv_f16":      {"f32", "", "f32", "f16"},
	"v_interp_p2_f16":        {"f16", "", "f32", "f32"},
	"v_interp_p2_legacy_f16": {"f16", "", "f32", "f32"},
	"v_cvt_f16_f32":          {"f16", "f32", "", ""},
}

var typeTok = regexp.MustCompile(`^[fiub](4|8|16|24|32|64)$`)

// opTypes returns the base types of the destination and the three sources.
func opTypes(mn string) [4]string {
	if t, ok := typeOverrides[mn]; ok {
		return t
	}
	parts := strings.Split(strings.TrimPrefix(mn, "v_"), "_")
	var tt []string
	for i := len(parts) - 1; i > 0 && typeTok.MatchString(parts[i]); i-- {
		tt = append([]string{parts[i]}, tt...)
	}
	var r [4]string
	switch {
	case len(tt) == 0:
		r = [4]string{"b32", "b32", "b32", "b32"}
	case len(tt) == 1:
		r = [4]string{tt[0], tt[0], tt[0], tt[0]}
	default:
		r = [4]string{tt[0], tt[1], tt[1], tt[1]}
	}
	if strings.HasPrefix(mn, "v_pk_") {
		for i := range r {
			if r[i] == "f16" {
				r[i] = "v2f16"
			} else {
				r[i] = "v2i16"
			}
		}
	}
	if strings.HasPrefix(mn, "v_cmp_class") || strings.HasPrefix(mn, "v_cmpx_class") {
		r[2] = "u32"
	}
	return r
}

// fit turns a base type into a DataType name for a register of width dwords.
func fit(t string, width int) string {
	if strings.HasPrefix(t, "v2") {
		return t
	}
	if t == "" {
		t = "b32"
	}
	k := t[:1]
	bits, _ := strconv.Atoi(t[1:])
	switch {
	case width == 2:
		bits = 64
	case width > 2:
		return "b32"
	case bits == 64:
		bits = 32
	case bits < 16 || bits == 24:
		bits = 32
	}
	if k == "b" || k == "i" || k == "u" || k == "f" {
		return fmt.Sprintf("%s%d", k, bits)
	}
	return "b32"
}

func typed(mn string, ops []opnd) []string {
	ts := opTypes(mn)
	var out []string
	for _, o := range ops {
		typ, acc, w := "", o.access, o.width
		switch o.field {
		case "vdst":
			typ = fit(ts[0], w)
		case "sdst":
			if w == 2 {
				typ = "b64" // condition mask or carry out
			} else {
				typ = fit(ts[0], w)
			}
		case "vcc":
			typ, w = "b64", 2
		case "src0":
			typ = fit(ts[1], w)
		case "src1", "vsrc1":
			typ = fit(ts[2], w)
		case "src2":
			typ = fit(ts[3], w)
			if ts[3] == "" {
				typ = fit(ts[1], w)
			}
		case "simm32":
			typ, w = fit(ts[1], 1), 0
		case "vsrc":
			typ = fit(ts[1], w)
		case "attr", "param":
			typ, w = "imm", 0
		}
		// Condition masks and carries are 64-bit lane masks.
		if (o.field == "src2" || o.field == "sdst") && w == 2 &&
			(strings.HasPrefix(mn, "v_cndmask") || strings.HasPrefix(mn, "v_add") || strings.HasPrefix(mn, "v_sub") ||
				strings.HasPrefix(mn, "v_div_scale")) {
			if !(o.field == "src2" && strings.HasPrefix(mn, "v_div_scale")) {
				typ = "b64"
			}
		}
		if typ == "" {
			typ = fit("b32", w)
		}
		// Destinations the instruction also reads: the accumulators (v_mac*,
		// v_interp_p2_f32, v_cvt_pkaccum_u8_f32), the half-register writes
		// of v_mad_mixlo/hi, and the one lane v_writelane_b32 replaces.
		switch {
		case mn == "v_swap_b32":
			acc = "rw"
		case o.field == "vdst" && (strings.HasPrefix(mn, "v_mac_") || mn == "v_interp_p2_f32" ||
			mn == "v_cvt_pkaccum_u8_f32" || strings.HasSuffix(mn, "_mixlo_f16") || strings.HasSuffix(mn, "_mixhi_f16") ||
			mn == "v_writelane_b32"):
			acc = "rw"
		}
		out = append(out, fmt.Sprintf("%s:%s:%s:%d", o.field, acc, typ, w))
	}
	return out
}

// emit merges rows that are identical on both generations and prints the
// table.
func emit(rows []row) string {
	var b strings.Builder
	type merged struct {
		row
		valuGens []int
	}
	var order []string
	m := map[string]*merged{}
	for _, r := range rows {
		k := r.key()
		if x, ok := m[k]; ok {
			x.valuGens = append(x.valuGens, r.gen)
			continue
		}
		m[k] = &merged{r, []int{r.gen}}
		order = append(order, k)
	}
	encOrder := map[string]int{"VOP2": 0, "VOP1": 1, "VOPC": 2, "VOP3": 3, "VOP3P": 4, "VINTRP": 5}
	sort.SliceStable(order, func(i, j int) bool {
		a, b := m[order[i]], m[order[j]]
		if a.enc != b.enc {
			return encOrder[a.enc] < encOrder[b.enc]
		}
		if a.opcode != b.opcode {
			return a.opcode < b.opcode
		}
		return a.valuGens[0] < b.valuGens[0]
	})
	fmt.Fprintln(&b, "# VALU opcodes of GFX8 (gfx803) and GFX9 (gfx900): VOP2, VOP1, VOPC, VOP3, VOP3P, VINTRP.")
	fmt.Fprintln(&b, "# Generated by: go run ./isa/internal/harvest valu")
	fmt.Fprintln(&b, "# (distilled from llvm-mc-19/llvm-objdump-19; see the harvester for how).")
	fmt.Fprintln(&b, "#")
	fmt.Fprintln(&b, "# VALU flag words: suffix: LLVM prints _e32 (VOP1/VOP2/VOPC/VINTRP) or _e64 (VOP3);")
	fmt.Fprintln(&b, "# sdwa, dpp: the opcode has that form; high: VOP3 interp prints the high bit;")
	fmt.Fprintln(&b, "# mods, clamp, omod, opsel, src1-nomods, src2-nomods, sdwa-omod: which modifier bits")
	fmt.Fprintln(&b, "# LLVM accepts (see vop3ModFlags and sdwaSigOf in the harvester and isa/valu.go).")
	fmt.Fprintln(&b, "# A VOP3 row with both vdst and sdst is VOP3b (sdst in bits 14-8).")
	for _, k := range order {
		r := m[k]
		var g []string
		for _, x := range r.valuGens {
			g = append(g, strconv.Itoa(x))
		}
		flags := "-"
		if op := opName(r.row); op != "" {
			r.flags = append([]string{"op=" + op}, r.flags...)
		}
		if len(r.flags) > 0 {
			flags = strings.Join(r.flags, ",")
		}
		fmt.Fprintf(&b, "%-6s %-3s %#05x %-24s valu - %-40s %s\n", r.enc, strings.Join(g, ","), r.opcode, r.mnemonic, flags, strings.Join(r.operands, " "))
	}
	var keys []string
	for k := range sigs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if os.Getenv("VALU_SIGS") != "" {
			fmt.Fprintf(os.Stderr, "%s %d %s\n", k, len(sigs[k]), strings.Join(sigs[k][:min(6, len(sigs[k]))], " "))
		}
	}
	return b.String()
}

// opName returns the semantic Op name for mnemonics that name the same
// operation differently on the two generations.
func opName(r row) string {
	if r.gen == 8 {
		switch r.mnemonic {
		case "v_add_u32", "v_sub_u32", "v_subrev_u32", "v_addc_u32", "v_subb_u32", "v_subbrev_u32":
			if r.enc == "VOP2" || r.opcode >= 0x100 && r.opcode < 0x140 {
				b, _ := strings.CutSuffix(r.mnemonic, "_u32")
				return strings.ToUpper(b) + "_CO_U32"
			}
		}
	}
	return ""
}

// e32Src returns the type of source k (0 or 1) of an e32 form.
func e32Src(typedOps []string, k int) string {
	if k == 0 {
		return valuSrcType(typedOps, "src0")
	}
	return valuSrcType(typedOps, "vsrc1")
}

// sdwaSigOf is the SDWA signature (bits 9–15, 17–23, 25–31 of the SDWA
// word, without the low select bits) the flags predict.
func sdwaSigOf(gen int, enc string, f []string, typedOps []string) string {
	b := []byte("PPPPPIIPPXXXIIXXXXXII")
	if enc == "VOPC" {
		copy(b, "IIIIPII")
		if gen == 9 {
			copy(b, "IIIIIIP")
		}
	} else if gen == 9 {
		b[5], b[6] = 'X', 'X'
		if hasWord(f, "sdwa-omod") {
			b[5], b[6] = 'P', 'P'
		}
	}
	for k := 0; k < 2; k++ {
		t := e32Src(typedOps, k)
		o := 7 + 7*k
		if t == "" {
			continue
		}
		b[o], b[o+1] = 'P', 'P'
		if hasWord(f, "mods") && isFloatish(t) {
			b[o+2], b[o+3], b[o+4] = 'X', 'P', 'P'
		} else {
			b[o+2], b[o+3], b[o+4] = 'P', 'X', 'X'
		}
		if gen == 9 {
			b[o+6] = 'P'
		}
	}
	if gen == 9 && e32Src(typedOps, 1) == "" {
		b[20] = 'X'
	}
	return string(b)
}

// dppSigOf is the DPP signature (bits 19–31 of the DPP word) the flags
// predict.
func dppSigOf(f []string, typedOps []string) string {
	b := []byte("PXXXXPPPPPPPP")
	for k := 0; k < 2; k++ {
		t := e32Src(typedOps, k)
		if t == "" || !hasWord(f, "mods") {
			continue
		}
		b[1+2*k] = 'P'
		b[2+2*k] = 'I'
		if isFloatish(t) {
			b[2+2*k] = 'P'
		}
	}
	return string(b)
}

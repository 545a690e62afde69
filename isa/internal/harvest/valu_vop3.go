package main

import (
	"fmt"
	"os"
	"strings"
)

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

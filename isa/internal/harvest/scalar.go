package main

// The scalar family: SOP2, SOPK, SOP1, SOPC, SOPP and SMEM rows for
// isa/tables/scalar.txt. Every opcode is disassembled with recognisable
// field values (sdst=8, ssrc0=20, ssrc1=40, sbase=s[20:..], sdata=8,
// offset=0x10, simm16 in several values); the printed operands are matched
// back to the fields by value, widths read off the register ranges and the
// print style of simm16 off the texts. Access, class, counters and flags
// come from the mnemonic by the rules below.

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/wavedbg/wavedbg/isa/internal/llvmdis"
)

func init() { families["scalar"] = harvestScalar }

type scalarEnc struct {
	name   string
	nops   int
	word   func(op uint32, simm uint32) []uint32
	fields map[int]string // register number printed → field
}

var simmProbe = []uint32{0x1234, 0, 65, 0xfff0, 1}

// src returns reg for the first probe variant and the inline constant -1
// for the second, which LLVM prints with "/*Invalid immediate*/" for
// register-only (SReg) operands.
func src(reg, v uint32) uint32 {
	if v == 1 {
		return 0xc1
	}
	return reg
}

var scalarEncs = []scalarEnc{
	{"SOP2", 0x60, func(op, v uint32) []uint32 { return []uint32{0x80000000 | op<<23 | 8<<16 | src(40, v)<<8 | src(20, v)} },
		map[int]string{8: "sdst", 20: "ssrc0", 40: "ssrc1"}},
	{"SOPK", 0x1d, func(op, v uint32) []uint32 { return []uint32{0xb0000000 | op<<23 | 8<<16 | v, 0x12345678} },
		map[int]string{8: "sdst"}},
	{"SOP1", 256, func(op, v uint32) []uint32 { return []uint32{0xbe800000 | 8<<16 | op<<8 | src(20, v)} },
		map[int]string{8: "sdst", 20: "ssrc0"}},
	{"SOPC", 128, func(op, v uint32) []uint32 { return []uint32{0xbf000000 | op<<16 | src(40, v)<<8 | src(20, v)} },
		map[int]string{20: "ssrc0", 40: "ssrc1"}},
	{"SOPP", 128, func(op, v uint32) []uint32 { return []uint32{0xbf800000 | op<<16 | v} }, nil},
	{"SMEM", 256, func(op, v uint32) []uint32 {
		// v: 0 imm=1, 1 imm=0 (SGPR offset s16), 2 imm=1 glc=1
		imm, glc := uint32(1), uint32(0)
		switch v {
		case 1:
			imm = 0
		case 2:
			glc = 1
		}
		return []uint32{0xc0000000 | op<<18 | imm<<17 | glc<<16 | 8<<6 | 10, 0x10}
	}, map[int]string{8: "sdata", 20: "sbase"}},
}

var regRE = regexp.MustCompile(`^(s|ttmp)(\d+)$|^(s|ttmp)\[(\d+):(\d+)\]$`)

type scalarRow struct {
	gens     []string
	enc      string
	opcode   uint32
	mnemonic string
	class    string
	raises   string
	flags    []string
	operands []string
}

func harvestScalar() (string, error) {
	cpus := []struct{ gen, cpu string }{{"8", "gfx803"}, {"9", "gfx900"}}
	var rows []scalarRow
	for _, e := range scalarEncs {
		perGen := map[string][]*scalarRow{}
		for _, c := range cpus {
			variants := 2
			if e.name == "SOPK" || e.name == "SOPP" {
				variants = len(simmProbe)
			}
			if e.name == "SMEM" {
				variants = 3
			}
			var cases [][]uint32
			for op := 0; op < e.nops; op++ {
				for v := 0; v < variants; v++ {
					x := uint32(v)
					if e.name == "SOPK" || e.name == "SOPP" {
						x = simmProbe[v]
					}
					cases = append(cases, e.word(uint32(op), x))
				}
			}
			res, err := llvmdis.Disasm(c.cpu, cases)
			if err != nil {
				return "", err
			}
			rs := make([]*scalarRow, e.nops)
			for op := 0; op < e.nops; op++ {
				texts := make([]string, variants)
				for v := range texts {
					texts[v] = res[op*variants+v].Text
				}
				r, err := scalarFromText(e, uint32(op), texts)
				if err != nil {
					return "", fmt.Errorf("%s %s op %#x: %v", c.cpu, e.name, op, err)
				}
				rs[op] = r
			}
			perGen[c.gen] = rs
		}
		// Merge the generations: one row when both agree.
		for op := 0; op < e.nops; op++ {
			a, b := perGen["8"][op], perGen["9"][op]
			switch {
			case a != nil && b != nil && a.key() == b.key():
				a.gens = []string{"8", "9"}
				rows = append(rows, *a)
			default:
				if a != nil {
					a.gens = []string{"8"}
					rows = append(rows, *a)
				}
				if b != nil {
					b.gens = []string{"9"}
					rows = append(rows, *b)
				}
			}
		}
	}
	var sb strings.Builder
	sb.WriteString("# Scalar encodings (SOP2 SOPK SOP1 SOPC SOPP SMEM) of GFX8 (gfx803) and GFX9 (gfx900).\n")
	sb.WriteString("# Generated from LLVM 19's disassembler by: go run ./isa/internal/harvest scalar\n")
	sb.WriteString("# Print-style flags: imm-hex (formatHex), imm-u16 (decimal to 64, hex above), imm-dec,\n")
	sb.WriteString("# label (SOPP/SOPK branch target), waitcnt, sendmsg, hwreg, gpr-idx, opt-imm (omitted when 0).\n")
	sb.WriteString("# smem-imm / smem-sgpr: which offset forms LLVM accepts (imm bit 1 / 0).\n")
	sb.WriteString("# Fact words (tables/README.md): br=COND on SOPP branches; data=, atom=, ret=, addr= on SMEM accesses.\n")
	fmt.Fprintf(&sb, "#%-5s %-4s %-5s %-28s %-8s %-5s %-40s %s\n", "ENC", "GENS", "OP", "MNEMONIC", "CLASS", "RAISE", "FLAGS", "OPERANDS")
	for _, r := range rows {
		flags := "-"
		if len(r.flags) > 0 {
			flags = strings.Join(r.flags, ",")
		}
		fmt.Fprintf(&sb, "%-6s %-4s %#-5x %-28s %-8s %-5s %-40s %s\n", r.enc, strings.Join(r.gens, ","), r.opcode,
			r.mnemonic, r.class, r.raises, flags, strings.Join(r.operands, " "))
	}
	return sb.String(), nil
}

func (r *scalarRow) key() string {
	return fmt.Sprint(r.mnemonic, r.class, r.raises, r.flags, r.operands)
}

// scalarFromText builds a row from LLVM's texts of one opcode (one per
// probe variant), or nil when LLVM rejects the opcode.
func scalarFromText(e scalarEnc, op uint32, texts []string) (*scalarRow, error) {
	main := texts[0]
	if main == "" && len(texts) > 1 && e.name != "SOP1" && e.name != "SOP2" && e.name != "SOPC" {
		main = texts[1] // SMEM without an immediate form; SOPP/SOPK that take simm16 = 0 only
	}
	if main == "" {
		return nil, nil
	}
	mn, rest, _ := strings.Cut(main, " ")
	r := &scalarRow{enc: e.name, opcode: op, mnemonic: mn}
	var args []string
	if rest != "" {
		args = splitArgs(rest)
	}
	suffixType := typeFromMnemonic(mn)
	for i, a := range args {
		if e.name == "SMEM" {
			a, _, _ = strings.Cut(a, " ") // drop " glc"
		}
		m := regRE.FindStringSubmatch(a)
		switch {
		case m != nil:
			lo, width := 0, 1
			if m[2] != "" {
				fmt.Sscan(m[2], &lo)
			} else {
				var hi int
				fmt.Sscan(m[4], &lo)
				fmt.Sscan(m[5], &hi)
				width = hi - lo + 1
			}
			field := e.fields[lo]
			if field == "" {
				return nil, fmt.Errorf("operand %q matches no field", a)
			}
			t := suffixType
			if i > 0 && (strings.HasPrefix(mn, "s_lshl") || strings.HasPrefix(mn, "s_lshr") || strings.HasPrefix(mn, "s_ashr") || strings.HasPrefix(mn, "s_bfe")) && width == 1 {
				t = "u32"
			}
			if field == "sbase" {
				t = "b64"
			}
			if (field == "ssrc0" || field == "ssrc1") && len(texts) > 1 {
				if a1 := splitArgs(texts[1]); i < len(a1) && strings.HasSuffix(a1[i], "/*Invalid immediate*/") {
					r.flags = appendFlag(r.flags, "sreg-"+field)
				}
			}
			r.operands = append(r.operands, fmt.Sprintf("%s:%s:%s:%d", field, scalarAccess(e.name, mn, field, i), widthType(t, width), width))
		case e.name == "SMEM" && a == "0x10":
			r.operands = append(r.operands, "offset:r:imm:0")
			r.flags = appendFlag(r.flags, "smem-offset")
		case e.name == "SMEM" && a == "8":
			r.operands = append(r.operands, "sdata:r:imm:0") // s_atc_probe's probe bits
		case e.name == "SOPC" && strings.HasPrefix(mn, "s_set_gpr_idx_on"):
			r.operands = append(r.operands, "ssrc1:r:imm:0")
			r.flags = appendFlag(r.flags, "gpr-idx")
		case e.name != "SOPK" && e.name != "SOPP":
			return nil, fmt.Errorf("operand %q matches no field", a)
		case e.name == "SOPK" && (a == "-1.0" || a == "0x12345678"):
			r.operands = append(r.operands, "simm32:r:b32:1")
		default:
			style, err := simmStyle(mn, texts, i)
			if err != nil {
				return nil, err
			}
			r.flags = appendFlag(r.flags, style)
			if e.name == "SOPP" && texts[1] == mn {
				r.flags = appendFlag(r.flags, "opt-imm")
			}
			r.operands = append(r.operands, "simm16:r:imm:0")
		}
	}
	if e.name == "SMEM" {
		if texts[0] != "" {
			r.flags = appendFlag(r.flags, "smem-imm")
		}
		if texts[1] != "" {
			r.flags = appendFlag(r.flags, "smem-sgpr")
		}
		if strings.HasSuffix(texts[2], " glc") {
			r.flags = appendFlag(r.flags, "glc")
		}
	}
	scalarFacts(r)
	if err := scalarFactWords(r); err != nil {
		return nil, err
	}
	return r, nil
}

// simmStyle classifies how LLVM prints operand i (a simm16) from the texts
// of the probe values 0x1234, 0, 65, 0xfff0, 1.
func simmStyle(mn string, texts []string, i int) (string, error) {
	arg := func(v int) string {
		_, rest, _ := strings.Cut(texts[v], " ")
		a := splitArgs(rest)
		if i < len(a) {
			return a[i]
		}
		if len(a) > 0 && strings.HasPrefix(texts[v], "s_setreg") {
			return a[0]
		}
		return ""
	}
	t0, t65 := arg(0), arg(2)
	switch {
	case strings.Contains(texts[0], "hwreg("):
		return "hwreg", nil
	case strings.Contains(texts[0], "vmcnt("):
		return "waitcnt", nil
	case strings.Contains(texts[0], "sendmsg") && strings.HasPrefix(mn, "s_sendmsg"):
		return "sendmsg", nil
	case strings.HasPrefix(mn, "s_set_gpr_idx_mode"):
		return "gpr-idx", nil
	case strings.HasPrefix(mn, "s_branch") || strings.HasPrefix(mn, "s_cbranch") || strings.HasPrefix(mn, "s_call"):
		return "label", nil
	case t65 == "0x41" && arg(1) == "0x0":
		return "imm-hex", nil
	case t65 == "0x41" && t0 == "0x1234":
		return "imm-u16", nil
	case t65 == "65" && t0 == "4660":
		return "imm-dec", nil
	}
	return "", fmt.Errorf("%s: unknown simm16 print style %q", mn, texts)
}

func appendFlag(f []string, w string) []string {
	for _, x := range f {
		if x == w {
			return f
		}
	}
	return append(f, w)
}

// typeFromMnemonic reads the operand type off a mnemonic's last type
// suffix (_b32, _i64, _u32 ...); b32 when there is none.
func typeFromMnemonic(mn string) string {
	parts := strings.Split(mn, "_")
	for i := len(parts) - 1; i > 0; i-- {
		p := parts[i]
		if len(p) >= 3 && strings.ContainsAny(p[:1], "biuf") && (strings.HasSuffix(p, "32") || strings.HasSuffix(p, "64") || strings.HasSuffix(p, "16")) {
			if p[0] == 'f' {
				return "b" + p[1:]
			}
			return p
		}
	}
	return "b32"
}

// widthType adjusts a type's size to the operand width.
func widthType(t string, width int) string {
	base := t[:1]
	switch width {
	case 1:
		return base + "32"
	case 2:
		return base + "64"
	}
	return "b32"
}

// scalarAccess says whether operand i of mnemonic mn, from field, is read,
// written or both.
func scalarAccess(enc, mn, field string, i int) string {
	switch {
	case field == "sbase", field == "ssrc0", field == "ssrc1":
		return "r"
	case enc == "SMEM" && strings.Contains(mn, "store"), strings.HasPrefix(mn, "s_atc_probe"):
		return "r"
	case enc == "SMEM" && strings.Contains(mn, "atomic"):
		return "rw"
	case strings.HasPrefix(mn, "s_cmpk_"), strings.HasPrefix(mn, "s_setreg"), strings.HasPrefix(mn, "s_cbranch_i_fork"):
		return "r"
	case strings.HasPrefix(mn, "s_addk_"), strings.HasPrefix(mn, "s_mulk_"):
		return "rw"
	case enc == "SOP1" && (strings.HasPrefix(mn, "s_setpc") || strings.HasPrefix(mn, "s_rfe") || strings.HasPrefix(mn, "s_cbranch_join") || strings.HasPrefix(mn, "s_set_gpr_idx_idx")):
		return "r"
	}
	return "w"
}

// scalarFacts sets class, counters and flags from the mnemonic.
func scalarFacts(r *scalarRow) {
	mn := r.mnemonic
	r.class, r.raises = "salu", "-"
	has := func(p ...string) bool {
		for _, x := range p {
			if strings.HasPrefix(mn, x) {
				return true
			}
		}
		return false
	}
	add := func(w ...string) {
		for _, x := range w {
			r.flags = appendFlag(r.flags, x)
		}
	}
	switch r.enc {
	case "SMEM":
		r.class, r.raises = "smem", "lgkm"
		switch {
		case strings.Contains(mn, "atomic"):
			add("atomic")
			if strings.HasSuffix(mn, "_x2") || true {
				// returns only with glc
			}
		case strings.Contains(mn, "store"):
			add("store")
		case strings.Contains(mn, "load"), has("s_memtime", "s_memrealtime"):
			add("load")
		}
		return
	case "SOPP":
		r.class = "control"
		switch {
		case has("s_branch"):
			r.class = "branch"
			add("branch", "terminator")
		case has("s_cbranch"):
			r.class = "branch"
			add("branch", "cond")
			if has("s_cbranch_scc") {
				add("scc-read")
			}
			if has("s_cbranch_vcc") {
				add("vcc-read")
			}
			if has("s_cbranch_exec") {
				add("exec-read")
			}
		case has("s_waitcnt"):
			r.class = "waitcnt"
		case has("s_sendmsg"):
			r.class, r.raises = "message", "lgkm"
		case has("s_endpgm"):
			add("terminator", "endpgm")
		case has("s_barrier"):
			add("barrier")
		}
		return
	case "SOPC":
		if has("s_set_gpr_idx_on") {
			return
		}
		add("scc-write")
		return
	}
	switch {
	case has("s_setpc"):
		r.class = "branch"
		add("branch", "indirect", "terminator")
	case has("s_swappc"):
		r.class = "branch"
		add("branch", "indirect", "call")
	case has("s_call"):
		r.class = "branch"
		add("branch", "call")
	case has("s_cbranch_i_fork", "s_cbranch_join"):
		r.class = "branch"
		add("branch", "cond")
	case has("s_getpc"):
		add("pc-read")
	}
	switch {
	case has("s_cselect", "s_addc", "s_subb", "s_cmovk", "s_cmov_"):
		add("scc-read")
	}
	switch {
	case has("s_add_", "s_sub_", "s_addc", "s_subb", "s_min", "s_max", "s_and", "s_or", "s_xor", "s_nand", "s_nor",
		"s_xnor", "s_andn2", "s_orn2", "s_lshl", "s_lshr", "s_ashr", "s_bfe", "s_absdiff", "s_not", "s_wqm", "s_abs",
		"s_bcnt", "s_quadmask", "s_cmpk", "s_addk", "s_mulk_", "s_lshl1_add", "s_lshl2_add", "s_lshl3_add", "s_lshl4_add"):
		if !has("s_mul_", "s_mulk") {
			add("scc-write")
		}
	}
	if strings.Contains(mn, "saveexec") || has("s_mov_fed") {
		add("exec-write", "scc-write")
	}
}

// splitArgs splits an operand list at ", " outside parentheses.
func splitArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 && i+1 < len(s) && s[i+1] == ' ' {
				out = append(out, s[start:i])
				start = i + 2
			}
		}
	}
	return append(out, s[start:])
}

package main

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

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

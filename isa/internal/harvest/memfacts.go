package main

// Memory fact words (isa/tables/README.md): the kind, data type, format
// components, atomic operation, return and DS addressing of each DS, MUBUF,
// MTBUF and FLAT row, which the generator turns into isa.MemInfo. They are
// read off LLVM's mnemonic (its instruction names spell the access: ubyte,
// sshort, dwordx3, format_xyz, atomic_cmpswap_x2, ds_read2st64_b64,
// ds_min_rtn_i32, ...) and then checked against what LLVM's disassembler
// printed: the register widths of the data operands must be those the type
// and component count imply, so a misread mnemonic stops the harvest
// instead of reaching the table. FLAT and GLOBAL atomics are probed with and
// without glc (harvestFLAT) to confirm they return data only with it.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// memAtomNames maps the operation part of a buffer/flat atomic mnemonic
// (buffer_atomic_OP[_x2]) to its atom= word.
var memAtomNames = map[string]bool{"swap": true, "cmpswap": true, "add": true, "sub": true, "smin": true,
	"umin": true, "smax": true, "umax": true, "and": true, "or": true, "xor": true, "inc": true, "dec": true}

// dsAtomOps maps the operation part of a DS atomic mnemonic (ds_OP[_rtn]_TYPE)
// to its atom= word; min, max and cmpst depend on the type letter.
var dsAtomOps = map[string]string{"add": "add", "sub": "sub", "rsub": "rsub", "inc": "inc", "dec": "dec",
	"and": "and", "or": "or", "xor": "xor", "mskor": "mskor", "wrxchg": "swap", "wrxchg2": "swap",
	"wrxchg2st64": "swap", "wrap": "wrap", "condxchg32": "condxchg"}

// bufDataTypes maps a buffer/flat load or store type suffix to its data= word.
var bufDataTypes = map[string]string{"ubyte": "u8", "sbyte": "i8", "byte": "b8", "ushort": "u16",
	"sshort": "i16", "short": "b16", "dword": "b32", "dwordx2": "b64", "dwordx3": "b96", "dwordx4": "b128",
	"lds_dword": "b32"}

// memGen is the generation a harvested processor belongs to.
func memGen(cpu string) int {
	if cpu == "gfx803" {
		return 8
	}
	return 9
}

// addMemFacts appends the fact words of r (harvested for generation gen)
// to its flags, after checking them against its operands.
func addMemFacts(r *memRow, gen int) {
	var words []string
	var err error
	if r.enc == "DS" {
		words, err = dsFacts(r)
	} else {
		words, err = bufFacts(r, gen)
	}
	if err != nil {
		memFatalf("%s %s (gfx%d): %v", r.enc, r.mnemonic, gen, err)
	}
	order := map[string]int{"mem": 0, "data": 1, "comps": 2, "atom": 3, "ret": 4, "addr": 5}
	sort.SliceStable(words, func(i, j int) bool {
		ki, _, _ := strings.Cut(words[i], "=")
		kj, _, _ := strings.Cut(words[j], "=")
		return order[ki] < order[kj]
	})
	r.flags = append(r.flags, words...)
}

// bufFacts derives the fact words of a MUBUF, MTBUF or FLAT/GLOBAL/SCRATCH row.
func bufFacts(r *memRow, gen int) ([]string, error) {
	_, n, _ := strings.Cut(r.mnemonic, "_") // drop buffer_, tbuffer_, flat_, global_, scratch_
	switch {
	case n == "wbinvl1" || n == "wbinvl1_vol":
		return []string{"mem=cache"}, nil
	case strings.HasPrefix(n, "atomic_"):
		op, wide := strings.CutSuffix(strings.TrimPrefix(n, "atomic_"), "_x2")
		if !memAtomNames[op] {
			return nil, fmt.Errorf("unknown atomic %q", op)
		}
		data, dw := "b32", 1
		if wide {
			data, dw = "b64", 2
		}
		if op == "cmpswap" {
			dw *= 2 // source and compare value
		}
		if err := memCheckWidth(r, "vdata", dw); err != nil {
			return nil, err
		}
		return []string{"data=" + data, "atom=" + op, "ret=glc"}, nil
	}
	dir, s, ok := strings.Cut(n, "_")
	if !ok || dir != "load" && dir != "store" {
		return nil, fmt.Errorf("neither load, store, atomic nor cache operation")
	}
	data := "vdata"
	if r.enc == "FLAT" && dir == "load" {
		data = "vdst"
	}
	if f, ok := strings.CutPrefix(s, "format_"); ok {
		d16 := false
		if rest, ok := strings.CutPrefix(f, "d16_"); ok {
			f, d16 = rest, true
			f = strings.TrimPrefix(f, "hi_")
		}
		comps := map[string]int{"x": 1, "xy": 2, "xyz": 3, "xyzw": 4}[f]
		if comps == 0 {
			return nil, fmt.Errorf("format components %q", f)
		}
		dw := comps
		if d16 && gen == 9 {
			dw = (comps + 1) / 2 // GFX9 packs two 16-bit components per VGPR
		}
		if err := memCheckWidth(r, data, dw); err != nil {
			return nil, err
		}
		return []string{"comps=" + strconv.Itoa(comps)}, nil
	}
	d16 := false
	if rest, ok := strings.CutSuffix(s, "_d16_hi"); ok {
		s, d16 = rest, true
	} else if rest, ok := strings.CutSuffix(s, "_d16"); ok {
		s, d16 = rest, true
	}
	t, ok := bufDataTypes[s]
	if !ok {
		return nil, fmt.Errorf("data type %q", s)
	}
	if s != "lds_dword" { // data comes from LDS: no VGPR operand
		dw := max(1, memTypeBytes(t)/4)
		if d16 {
			dw = 1
		}
		if err := memCheckWidth(r, data, dw); err != nil {
			return nil, err
		}
	}
	return []string{"data=" + t}, nil
}

// dsFacts derives the fact words of a DS row.
func dsFacts(r *memRow) ([]string, error) {
	n := strings.TrimPrefix(r.mnemonic, "ds_")
	switch {
	case n == "nop", n == "append", n == "consume", n == "swizzle_b32", n == "permute_b32", n == "bpermute_b32":
		k, _, _ := strings.Cut(n, "_")
		return []string{"mem=" + k}, nil
	case strings.HasPrefix(n, "gws_"), n == "ordered_count":
		return []string{"mem=gws"}, nil
	}
	var words []string
	if strings.Contains(n, "st64") {
		words = append(words, "addr=st64")
	}
	typ := n[strings.LastIndexByte(n, '_')+1:]
	d16 := false
	if strings.HasSuffix(n, "_d16") || strings.HasSuffix(n, "_d16_hi") {
		d16 = true
		i := strings.Index(n, "_d16")
		typ = n[strings.LastIndexByte(n[:i], '_')+1 : i]
	}
	bytes := memTypeBytes(typ)
	if bytes == 0 {
		return nil, fmt.Errorf("data type %q", typ)
	}
	data := fmt.Sprintf("b%d", 8*bytes)
	op, _, _ := strings.Cut(n, "_")
	if src, ok := strings.CutPrefix(n, op+"_src2_"); ok {
		// LDS ← LDS op LDS: no data operands to check.
		words = append(words, "data="+data, "addr=src2")
		if op == "write" {
			return words, nil
		}
		a, err := dsAtom(op, src)
		return append(words, "mem=atomic", "atom="+a), err
	}
	if strings.HasSuffix(n, "addtid_b32") {
		return []string{"data=b32", "addr=tid"}, nil
	}
	switch op {
	case "read", "read2", "read2st64", "write", "write2", "write2st64":
		if (op == "read" || op == "write") && bytes < 4 {
			data = typ // u8, i8, b8, u16, i16, b16
		}
		dw, field := max(1, bytes/4), "data0"
		if op[0] == 'r' {
			field = "vdst"
			if strings.HasPrefix(op, "read2") {
				dw *= 2
			}
		}
		if d16 {
			dw = 1
		}
		if err := memCheckWidth(r, field, dw); err != nil {
			return nil, err
		}
		return append(words, "data="+data), nil
	}
	a, err := dsAtom(op, typ)
	if err != nil {
		return nil, err
	}
	if err := memCheckWidth(r, "data0", max(1, bytes/4)); err != nil {
		return nil, err
	}
	return append(words, "data="+data, "atom="+a), nil
}

// dsAtom returns the atom= word of DS atomic operation op on type typ.
func dsAtom(op, typ string) (string, error) {
	switch {
	case op == "add" && typ[0] == 'f':
		return "fadd", nil
	case op == "min" || op == "max":
		pre := map[byte]string{'i': "s", 'u': "u", 'f': "f"}[typ[0]]
		if pre == "" {
			return "", fmt.Errorf("%s on type %q", op, typ)
		}
		return pre + op, nil
	case op == "cmpst":
		if typ[0] == 'f' {
			return "fcmpst", nil
		}
		return "cmpst", nil
	}
	a, ok := dsAtomOps[op]
	if !ok {
		return "", fmt.Errorf("unknown atomic %q", op)
	}
	return a, nil
}

// memTypeBytes returns the size of a type word (u8, i16, b32, f64, b128) in
// bytes, or 0.
func memTypeBytes(t string) int {
	if len(t) < 2 || !strings.ContainsRune("biuf", rune(t[0])) {
		return 0
	}
	n, err := strconv.Atoi(t[1:])
	if err != nil || n%8 != 0 {
		return 0
	}
	return n / 8
}

// memCheckWidth checks that r's operand of field is dw dwords wide.
func memCheckWidth(r *memRow, field string, dw int) error {
	for _, o := range r.operands {
		p := strings.Split(o, ":")
		if p[0] != field {
			continue
		}
		if w, _ := strconv.Atoi(p[3]); w != dw {
			return fmt.Errorf("%s is %s dwords; the mnemonic implies %d", field, p[3], dw)
		}
		return nil
	}
	return fmt.Errorf("no %s operand", field)
}

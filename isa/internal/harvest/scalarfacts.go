package main

// Fact words of the scalar family (isa/tables/README.md): a SOPP branch's
// condition (br=COND) and the memory facts of the SMEM loads, stores and
// atomics (data=, atom=, ret=glc, addr=buffer|scratch). The condition and
// the atomic's operation come from the mnemonic; sizes from the register
// widths LLVM prints, checked against the mnemonic's dword count.

import (
	"fmt"
	"strconv"
	"strings"
)

// sbranchConds maps the s_cbranch_* suffixes to br= words.
var sbranchConds = map[string]string{"scc0": "scc0", "scc1": "scc1", "vccz": "vccz", "vccnz": "vccnz",
	"execz": "execz", "execnz": "execnz", "cdbgsys": "cdbgsys", "cdbguser": "cdbguser",
	"cdbgsys_or_user": "cdbgsys-or-user", "cdbgsys_and_user": "cdbgsys-and-user"}

// scalarFactWords appends the row's fact words to its flags.
func scalarFactWords(r *scalarRow) error {
	mn := r.mnemonic
	switch r.enc {
	case "SOPP":
		if mn == "s_branch" {
			r.flags = append(r.flags, "br=always")
		} else if c, ok := strings.CutPrefix(mn, "s_cbranch_"); ok {
			w, ok := sbranchConds[c]
			if !ok {
				return fmt.Errorf("%s: unknown branch condition", mn)
			}
			r.flags = append(r.flags, "br="+w)
		}
	case "SMEM":
		return smemFactWords(r)
	}
	return nil
}

// smemFactWords adds data=, atom=, ret= and addr= to an SMEM load, store or
// atomic that addresses memory through SBASE.
func smemFactWords(r *scalarRow) error {
	mn := r.mnemonic
	sdata, sbase := 0, 0
	for _, o := range r.operands {
		p := strings.Split(o, ":")
		n, _ := strconv.Atoi(p[3])
		switch p[0] {
		case "sdata":
			sdata = n
		case "sbase":
			sbase = n
		}
	}
	atomic := hasFlag(r.flags, "atomic")
	if sbase == 0 || sdata == 0 || !atomic && !hasFlag(r.flags, "load") && !hasFlag(r.flags, "store") {
		return nil // s_dcache_*, s_atc_probe*, s_memtime: no memory data
	}
	words := sdata
	if atomic {
		op := strings.TrimSuffix(mn[strings.Index(mn, "atomic_")+len("atomic_"):], "_x2")
		if op == "cmpswap" {
			words /= 2 // data and compare value
		}
		if want := map[bool]int{false: 1, true: 2}[strings.HasSuffix(mn, "_x2")]; words != want {
			return fmt.Errorf("%s: %d data dwords", mn, words)
		}
		r.flags = append(r.flags, fmt.Sprintf("data=b%d", 32*words), "atom="+op, "ret=glc")
	} else {
		want := 1
		if _, x, ok := strings.Cut(mn, "dwordx"); ok {
			want, _ = strconv.Atoi(x)
		}
		if words != want {
			return fmt.Errorf("%s: %d data dwords", mn, words)
		}
		r.flags = append(r.flags, fmt.Sprintf("data=b%d", 32*words))
	}
	buffer := strings.HasPrefix(mn, "s_buffer_")
	if buffer != (sbase == 4) {
		return fmt.Errorf("%s: sbase of %d dwords", mn, sbase)
	}
	switch {
	case buffer:
		r.flags = append(r.flags, "addr=buffer")
	case strings.HasPrefix(mn, "s_scratch_"):
		r.flags = append(r.flags, "addr=scratch")
	}
	return nil
}

func hasFlag(flags []string, w string) bool {
	for _, f := range flags {
		if f == w {
			return true
		}
	}
	return false
}

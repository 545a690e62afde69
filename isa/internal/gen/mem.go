package main

// Memory fact words: the key=value words of a DS, MUBUF, MTBUF, FLAT or
// SMEM row's FLAGS column, which become the Op's MemInfo (isa/meminfo.go)
// instead of Flags bits. See isa/tables/README.md.

import (
	"fmt"
	"strconv"
	"strings"
)

// memEncs are the encodings whose ops get a MemInfo; SMEM ops only when
// their rows carry fact words (loads, stores and atomics of memory).
var memEncs = map[string]bool{"DS": true, "MUBUF": true, "MTBUF": true, "FLAT": true, "SMEM": true}

// memKinds maps mem=KIND words to MemKind constants; load, store and atomic
// come from the flag words of the same names instead.
var memKinds = map[string]string{"cache": "MemCache", "nop": "MemNop", "gws": "MemGWS", "append": "MemAppend",
	"consume": "MemConsume", "permute": "MemPermute", "bpermute": "MemBPermute", "swizzle": "MemSwizzle",
	"atomic": "MemAtomic"}

// memData maps data=TYPE words to a size in bytes and a sign extension.
var memData = map[string]struct {
	size   int
	signed bool
}{
	"b8": {1, false}, "u8": {1, false}, "i8": {1, true}, "b16": {2, false}, "u16": {2, false}, "i16": {2, true},
	"b32": {4, false}, "b64": {8, false}, "b96": {12, false}, "b128": {16, false}, "b256": {32, false},
	"b512": {64, false},
}

// memAtoms maps atom=OP words to AtomicOp constants.
var memAtoms = map[string]string{"swap": "AtomSwap", "cmpswap": "AtomCmpSwap", "add": "AtomAdd",
	"sub": "AtomSub", "rsub": "AtomRsub", "smin": "AtomSMin", "umin": "AtomUMin", "smax": "AtomSMax",
	"umax": "AtomUMax", "and": "AtomAnd", "or": "AtomOr", "xor": "AtomXor", "inc": "AtomInc", "dec": "AtomDec",
	"mskor": "AtomMskor", "fadd": "AtomFAdd", "fmin": "AtomFMin", "fmax": "AtomFMax", "cmpst": "AtomCmpSt",
	"fcmpst": "AtomFCmpSt", "wrap": "AtomWrap", "condxchg": "AtomCondXchg"}

// memAddrs maps addr=MODE words to MemInfo booleans.
var memAddrs = map[string]string{"st64": "ST64", "src2": "Src2", "tid": "AddTID", "buffer": "Buffer", "scratch": "Scratch"}

// addFact records one key=value fact word of the row, checking its value.
func (r *row) addFact(k, v string) error {
	ok := false
	switch k {
	case "mem":
		_, ok = memKinds[v]
	case "data":
		_, ok = memData[v]
	case "comps":
		n, err := strconv.Atoi(v)
		ok = err == nil && n >= 1 && n <= 4
	case "atom":
		_, ok = memAtoms[v]
	case "ret":
		ok = v == "glc"
	case "addr":
		_, ok = memAddrs[v]
	default:
		return fmt.Errorf("unknown fact word %s=%s", k, v)
	}
	if !ok {
		return fmt.Errorf("bad value in %s=%s", k, v)
	}
	if r.facts == nil {
		r.facts = map[string]string{}
	}
	if _, dup := r.facts[k]; dup {
		return fmt.Errorf("fact %s given twice", k)
	}
	r.facts[k] = v
	return nil
}

// memFacts returns the MemInfo literal (without braces) of every op with
// memory rows, checking that all rows of an op agree.
func memFacts(rows []row) (map[string]string, error) {
	out := map[string]string{}
	pos := map[string]string{}
	for _, r := range rows {
		if !memEncs[encodings[r.enc]] {
			if len(r.facts) > 0 {
				return nil, fmt.Errorf("%s: fact words on a %s row", r.pos, encodings[r.enc])
			}
			continue
		}
		if encodings[r.enc] == "SMEM" && len(r.facts) == 0 {
			continue
		}
		lit, err := memLiteral(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", r.pos, r.mnemonic, err)
		}
		if prev, ok := out[r.op]; ok && prev != lit {
			return nil, fmt.Errorf("%s: op %s: memory facts differ from %s", r.pos, r.op, pos[r.op])
		}
		out[r.op], pos[r.op] = lit, r.pos
	}
	return out, nil
}

// memLiteral builds the fields of one row's MemInfo.
func memLiteral(r row) (string, error) {
	has := map[string]bool{}
	for _, f := range r.flags {
		has[f] = true
	}
	var fields []string
	add := func(format string, args ...any) { fields = append(fields, fmt.Sprintf(format, args...)) }
	kind := ""
	for _, k := range []string{"load", "store", "atomic"} {
		if has[k] {
			if kind != "" {
				return "", fmt.Errorf("flag words %s and %s", kind, k)
			}
			kind = k
		}
	}
	f := r.facts
	switch {
	case kind != "" && f["mem"] != "":
		return "", fmt.Errorf("mem=%s with flag word %s", f["mem"], kind)
	case kind != "":
		add("Kind: Mem%s", strings.ToUpper(kind[:1])+kind[1:])
	case f["mem"] != "":
		kind = f["mem"]
		add("Kind: %s", memKinds[kind])
	default:
		return "", fmt.Errorf("no kind: want flag word load, store or atomic, or mem=KIND")
	}
	if d, ok := f["data"]; ok {
		if kind != "load" && kind != "store" && kind != "atomic" {
			return "", fmt.Errorf("data=%s on a %s", d, kind)
		}
		if has["format"] {
			return "", fmt.Errorf("data=%s on a format access", d)
		}
		add("Size: %d", memData[d].size)
		if memData[d].signed {
			add("Signed: true")
		}
	} else if (kind == "load" || kind == "store" || kind == "atomic") && !has["format"] {
		return "", fmt.Errorf("a %s without data=TYPE", kind)
	}
	if has["d16"] || has["d16-hi"] {
		add("D16: true")
	}
	if has["d16-hi"] {
		add("D16Hi: true")
	}
	if has["format"] {
		if f["comps"] == "" {
			return "", fmt.Errorf("a format access without comps=N")
		}
		add("Format: true, Comps: %s", f["comps"])
	} else if f["comps"] != "" {
		return "", fmt.Errorf("comps=%s without flag word format", f["comps"])
	}
	if a, ok := f["atom"]; ok {
		if kind != "atomic" {
			return "", fmt.Errorf("atom=%s on a %s", a, kind)
		}
		add("Atomic: %s", memAtoms[a])
	} else if kind == "atomic" {
		return "", fmt.Errorf("an atomic without atom=OP")
	}
	switch {
	case has["ret"] && f["ret"] != "":
		return "", fmt.Errorf("flag word ret with ret=%s", f["ret"])
	case has["ret"]:
		add("Ret: RetAlways")
	case f["ret"] == "glc":
		add("Ret: RetGLC")
	}
	if has["offset2"] {
		add("Two: true")
	}
	if a, ok := f["addr"]; ok {
		add("%s: true", memAddrs[a])
	}
	return strings.Join(fields, ", "), nil
}

package main

import (
	"fmt"
	"strings"
)

// DS probe registers: addr v10, data0 v20, data1 v30, vdst v40.
var dsRegs = []struct {
	field string
	shift uint
	reg   int
}{{"addr", 0, 10}, {"data0", 8, 20}, {"data1", 16, 30}, {"vdst", 24, 40}}

func harvestDS(cpu string) map[int]*memRow {
	const nOps = 256
	var cases [][]uint32
	// For each opcode: 16 field masks × 4 (offset, gds) variants.
	mods := [][2]uint32{{0, 0}, {0x0201, 0}, {0, 1}, {0x0201, 1}}
	for op := 0; op < nOps; op++ {
		for mask := 0; mask < 16; mask++ {
			var w1 uint32
			for i, r := range dsRegs {
				if mask>>i&1 != 0 {
					w1 |= uint32(r.reg) << r.shift
				}
			}
			for _, m := range mods {
				w0 := 0xd8000000 | uint32(op)<<17 | m[0] | m[1]<<16
				cases = append(cases, []uint32{w0, w1})
			}
		}
	}
	res := memDisasm(cpu, cases)
	out := map[int]*memRow{}
	for op := 0; op < nOps; op++ {
		base := op * 64
		best, bestText := -1, ""
		valid := [4]bool{}
		for mask := 0; mask < 16; mask++ {
			for mi := range mods {
				r := res[base+mask*4+mi]
				if r.Invalid {
					continue
				}
				valid[mi] = true
				if mask > best {
					best = mask
					bestText = ""
				}
			}
			if best == mask {
				// Prefer the text with offset and gds both set when valid.
				for _, mi := range []int{1, 3, 0, 2} {
					if r := res[base+mask*4+mi]; !r.Invalid {
						bestText = r.Text
						break
					}
				}
			}
		}
		if best < 0 {
			continue
		}
		p := memParse(bestText)
		r := &memRow{enc: "DS", opcode: op, mnemonic: p.mnemonic, class: "ds", raises: "lgkm"}
		hasDst := best&8 != 0
		for _, o := range p.ops {
			_, n, w, ok := memReg(o)
			if !ok {
				memFatalf("DS %s: operand %q", bestText, o)
			}
			field, acc := "", "r"
			for _, d := range dsRegs {
				if d.reg == n || n == 0 && best>>dsFieldIndex(d.field)&1 == 0 {
					field = d.field
					break
				}
			}
			if field == "" {
				memFatalf("DS %s: cannot place %q", bestText, o)
			}
			if field == "vdst" {
				acc = "w"
				if strings.Contains(p.mnemonic, "d16") {
					acc = "rw"
				}
			}
			typ := memDataType(p.mnemonic, w)
			if field == "addr" {
				typ = "b32"
			}
			r.operands = append(r.operands, fmt.Sprintf("%s:%s:%s:%d", field, acc, typ, w))
		}
		r.flags = memFlags(p.mnemonic, hasDst)
		text := bestText
		switch {
		case strings.Contains(text, "offset0:"):
			r.flags = append(r.flags, "offset2")
		case strings.Contains(text, "offset:swizzle"):
			r.flags = append(r.flags, "swizzle")
		}
		switch {
		case !valid[1] && !valid[2]:
			r.flags = append(r.flags, "no-mods")
		case !valid[0] && valid[2]:
			r.flags = append(r.flags, "gds-only")
		case !valid[2]:
			r.flags = append(r.flags, "no-gds")
		}
		addMemFacts(r, memGen(cpu))
		out[op] = r
	}
	return out
}

func dsFieldIndex(f string) int {
	for i, d := range dsRegs {
		if d.field == f {
			return i
		}
	}
	return -1
}

// ---- MUBUF / MTBUF ----

// Buffer probe: vaddr v10 (offen), vdata v20, srsrc s[8:11], soffset s30.
const bufW1 = 10 | 20<<8 | 2<<16 | 30<<24

func harvestMUBUF(cpu string) map[int]*memRow {
	const nOps = 128
	// Variants per opcode.
	vars := []uint32{
		0x1000,         // 0: offen
		0x1000 | 1<<16, // 1: offen lds
		0,              // 2: nothing
		0x1000 | 1<<14, // 3: offen glc
	}
	var cases [][]uint32
	for op := 0; op < nOps; op++ {
		for _, v := range vars {
			cases = append(cases, []uint32{0xe0000000 | uint32(op)<<18 | v | 0x123, bufW1})
		}
		cases = append(cases, []uint32{0xe0000000 | uint32(op)<<18 | 0x1000 | 0x123, bufW1 | 1<<23}) // 4: tfe
		cases = append(cases, []uint32{0xe0000000 | uint32(op)<<18 | 1<<16 | 0x123, bufW1})          // 5: lds, no offen
	}
	res := memDisasm(cpu, cases)
	out := map[int]*memRow{}
	for op := 0; op < nOps; op++ {
		rs := res[op*6 : op*6+6]
		var text string
		for _, i := range []int{0, 1, 2, 5} {
			if !rs[i].Invalid {
				text = rs[i].Text
				break
			}
		}
		if text == "" {
			continue
		}
		p := memParse(text)
		r := &memRow{enc: "MUBUF", opcode: op, mnemonic: p.mnemonic, class: "vmem", raises: "vm"}
		r.flags = memFlags(p.mnemonic, false)
		bufOperands(r, p, text)
		if len(p.ops) > 0 || !rs[5].Invalid {
			switch {
			case rs[0].Invalid && rs[2].Invalid && !rs[5].Invalid:
				r.flags = append(r.flags, "lds-only")
			case !rs[1].Invalid:
				r.flags = append(r.flags, "lds-ok")
			}
			if rs[4].Invalid {
				r.flags = append(r.flags, "no-tfe")
			}
		}
		addMemFacts(r, memGen(cpu))
		out[op] = r
	}
	return out
}

func harvestMTBUF(cpu string) map[int]*memRow {
	const nOps = 16
	var cases [][]uint32
	for op := 0; op < nOps; op++ {
		w0 := 0xe8000000 | uint32(op)<<15 | 4<<19 | 7<<23 | 0x1000 | 0x123
		cases = append(cases, []uint32{w0, bufW1}, []uint32{w0, bufW1 | 1<<23})
	}
	res := memDisasm(cpu, cases)
	out := map[int]*memRow{}
	for op := 0; op < nOps; op++ {
		if res[2*op].Invalid {
			continue
		}
		text := res[2*op].Text
		p := memParse(text)
		r := &memRow{enc: "MTBUF", opcode: op, mnemonic: p.mnemonic, class: "vmem", raises: "vm"}
		r.flags = memFlags(p.mnemonic, false)
		if !memHas(r.flags, "format") {
			r.flags = append(r.flags, "format")
		}
		bufOperands(r, p, text)
		if res[2*op+1].Invalid {
			r.flags = append(r.flags, "no-tfe")
		}
		addMemFacts(r, memGen(cpu))
		out[op] = r
	}
	return out
}

func memHas(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// bufOperands fills the operands of a MUBUF/MTBUF memRow from its probe text.
func bufOperands(r *memRow, p memParsed, text string) {
	atomic := memHas(r.flags, "atomic")
	for _, o := range p.ops {
		kind, n, w, ok := memReg(o)
		switch {
		case o == "off":
			r.operands = append(r.operands, "vaddr:r:b32:1")
		case ok && kind == 'v' && n == 10:
			r.operands = append(r.operands, "vaddr:r:b32:1")
		case ok && kind == 'v' && n == 20:
			acc := "r"
			switch {
			case atomic:
				acc = "rw"
			case memHas(r.flags, "load"):
				acc = "w"
				if memHas(r.flags, "d16") && !strings.Contains(r.mnemonic, "format") || memHas(r.flags, "d16-hi") {
					acc = "rw"
				}
			}
			r.operands = append(r.operands, fmt.Sprintf("vdata:%s:%s:%d", acc, memDataType(r.mnemonic, w), w))
		case ok && kind == 's' && n == 8:
			r.operands = append(r.operands, "srsrc:r:b32:4")
		case ok && kind == 's' && n == 30:
			r.operands = append(r.operands, "soffset:r:b32:1")
		default:
			memFatalf("buffer %s: cannot place %q", text, o)
		}
	}
}

// ---- MIMG ----

// MIMG probe: vaddr v10, vdata v20, srsrc s[8:15], ssamp s[12:15], dmask 0xf.
func harvestMIMG(cpu string) map[int]*memRow {
	const nOps = 128
	var cases [][]uint32
	for op := 0; op < nOps; op++ {
		w0 := 0xf0000000 | uint32(op)<<18 | 0xf<<8
		w1 := uint32(10 | 20<<8 | 2<<16)
		cases = append(cases,
			[]uint32{w0, w1 | 3<<21},         // 0: with sampler
			[]uint32{w0, w1},                 // 1: without
			[]uint32{w0, w1 | 3<<21 | 1<<31}, // 2: sampler, d16
			[]uint32{w0, w1 | 1<<31})         // 3: no sampler, d16
	}
	res := memDisasm(cpu, cases)
	out := map[int]*memRow{}
	for op := 0; op < nOps; op++ {
		rs := res[op*4 : op*4+4]
		i := 0
		if rs[0].Invalid {
			i = 1
		}
		if rs[i].Invalid {
			continue
		}
		text := rs[i].Text
		p := memParse(text)
		r := &memRow{enc: "MIMG", opcode: op, mnemonic: p.mnemonic, class: "vmem", raises: "vm"}
		r.flags = memFlags(p.mnemonic, false)
		atomic := memHas(r.flags, "atomic")
		if strings.HasPrefix(p.mnemonic, "image_gather4") {
			r.flags = append(r.flags, "gather4")
		}
		if strings.Contains(p.mnemonic, "cmpswap") {
			r.flags = append(r.flags, "cmpswap")
		}
		if rs[i+2].Invalid {
			r.flags = append(r.flags, "no-d16")
		}
		typ := "f32"
		if atomic || strings.HasPrefix(p.mnemonic, "image_load") || strings.HasPrefix(p.mnemonic, "image_store") ||
			strings.HasPrefix(p.mnemonic, "image_get_resinfo") {
			typ = "b32"
		}
		for k, o := range p.ops {
			kind, n, w, ok := memReg(o)
			switch {
			case ok && kind == 'v' && n == 20 && k == 0:
				acc := "w"
				switch {
				case atomic:
					acc = "rw"
				case memHas(r.flags, "store"):
					acc = "r"
				}
				// The width of the variant LLVM's decoder tables hold (it
				// widens from there by dmask, tfe and d16).
				switch {
				case memHas(r.flags, "gather4"):
					w = 4
				case memHas(r.flags, "cmpswap"):
					w = 2
				default:
					w = 1
				}
				r.operands = append(r.operands, fmt.Sprintf("vdata:%s:%s:%d", acc, typ, w))
			case ok && kind == 'v' && n == 10:
				at := "f32"
				if typ == "b32" {
					at = "b32"
				}
				r.operands = append(r.operands, fmt.Sprintf("vaddr:r:%s:%d", at, w))
			case ok && kind == 's' && n == 8:
				r.operands = append(r.operands, fmt.Sprintf("srsrc:r:b32:%d", w))
			case ok && kind == 's' && n == 12:
				r.operands = append(r.operands, fmt.Sprintf("ssamp:r:b32:%d", w))
			default:
				memFatalf("MIMG %s: cannot place %q", text, o)
			}
		}
		out[op] = r
	}
	return out
}

// ---- EXP ----

func harvestEXP(cpu string) map[int]*memRow {
	res := memDisasm(cpu, [][]uint32{{0xc400000f, 10 | 20<<8 | 30<<16 | 40<<24}})
	if res[0].Invalid || res[0].Text != "exp mrt0 v10, v20, v30, v40" {
		memFatalf("EXP probe: %q", res[0].Text)
	}
	return map[int]*memRow{0: {enc: "EXP", opcode: 0, mnemonic: "exp", class: "export", raises: "exp",
		flags: []string{"store"}, operands: []string{"vsrc0:r:b32:1", "vsrc1:r:b32:1", "vsrc2:r:b32:1", "vsrc3:r:b32:1"}}}
}

// ---- FLAT / GLOBAL / SCRATCH ----

// FLAT probe: vaddr v10 (v[10:11]), vdata v20, vdst v40, saddr off (0x7f) for
// global and scratch, 0 for flat.
func harvestFLAT(cpu string) map[int]*memRow {
	const nOps = 128
	var cases [][]uint32
	for seg := 0; seg < 3; seg++ {
		for op := 0; op < nOps; op++ {
			w0 := 0xdc000000 | uint32(op)<<18 | uint32(seg)<<14
			w1 := uint32(10 | 20<<8 | 40<<24)
			if seg != 0 {
				w1 |= 0x7f << 16
			}
			cases = append(cases,
				[]uint32{w0 | 1<<16, w1},             // 0: glc (atomics return)
				[]uint32{w0, w1},                     // 1: plain
				[]uint32{w0 | 1<<13, w1},             // 2: lds
				[]uint32{w0, w1&^(0x7f<<16) | 6<<16}) // 3: saddr s[6:7] / s6
		}
	}
	res := memDisasm(cpu, cases)
	out := map[int]*memRow{}
	for seg := 0; seg < 3; seg++ {
		for op := 0; op < nOps; op++ {
			rs := res[(seg*nOps+op)*4:][:4]
			if rs[0].Invalid {
				if !rs[1].Invalid {
					memFatalf("FLAT seg %d op %#x: valid only without glc", seg, op)
				}
				continue
			}
			text := rs[0].Text
			p := memParse(text)
			r := &memRow{enc: "FLAT", opcode: seg<<7 | op, mnemonic: p.mnemonic, class: "vmem", raises: "vm"}
			if seg == 0 {
				r.class, r.raises = "flat", "vm+lgkm"
			}
			r.flags = memFlags(p.mnemonic, false)
			for _, o := range p.ops {
				kind, n, w, ok := memReg(o)
				switch {
				case o == "off":
					r.operands = append(r.operands, fmt.Sprintf("saddr:r:b%d:%d", 32*segAddrWidth(seg), segAddrWidth(seg)))
				case ok && kind == 'v' && n == 10:
					r.operands = append(r.operands, fmt.Sprintf("vaddr:r:b%d:%d", 32*w, w))
				case ok && kind == 'v' && n == 20:
					r.operands = append(r.operands, fmt.Sprintf("vdata:r:%s:%d", memDataType(p.mnemonic, w), w))
				case ok && kind == 'v' && n == 40:
					acc := "w"
					if memHas(r.flags, "d16") || memHas(r.flags, "d16-hi") {
						acc = "rw"
					}
					r.operands = append(r.operands, fmt.Sprintf("vdst:%s:%s:%d", acc, memDataType(p.mnemonic, w), w))
				default:
					memFatalf("FLAT %s: cannot place %q", text, o)
				}
			}
			if !rs[2].Invalid && seg != 0 {
				r.flags = append(r.flags, "lds-ok")
			}
			// An atomic returns the old value (into vdst) only with glc.
			if memHas(r.flags, "atomic") && (!flatHasVdst(p) || flatHasVdst(memParse(rs[1].Text))) {
				memFatalf("FLAT %s: vdst not written only with glc (%q, %q)", p.mnemonic, text, rs[1].Text)
			}
			addMemFacts(r, memGen(cpu))
			out[seg<<7|op] = r
		}
	}
	return out
}

// flatHasVdst reports whether a FLAT probe's text names vdst (v40).
func flatHasVdst(p memParsed) bool {
	for _, o := range p.ops {
		if k, n, _, ok := memReg(o); ok && k == 'v' && n == 40 {
			return true
		}
	}
	return false
}

// segAddrWidth is the width of the saddr of GLOBAL (2) and SCRATCH (1).
func segAddrWidth(seg int) int {
	if seg == 2 {
		return 2
	}
	return 1
}

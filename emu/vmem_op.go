package emu

// This file compiles a vector memory instruction (MUBUF, MTBUF, FLAT,
// GLOBAL, SCRATCH, DS) from its isa.Inst into a vmOp once; executing it
// then never looks at mnemonics again.

import (
	"strings"

	"github.com/wavedbg/wavedbg/isa"
)

// vmKind is what a vector memory operation does.
type vmKind uint8

const (
	vmLoad vmKind = iota
	vmStore
	vmAtomic
	vmCacheOp // buffer_wbinvl1(_vol): no memory effect in this model
	vmDS      // every ds_* operation (see dsKind)
)

// vmFamily is the encoding family.
type vmFamily uint8

const (
	famFlat vmFamily = iota
	famMUBUF
	famMTBUF
	famDS
)

// Atomic operations, shared by buffer, flat and DS atomics.
const (
	atSwap = iota
	atCmpSwap
	atAdd
	atSub
	atSMin
	atUMin
	atSMax
	atUMax
	atAnd
	atOr
	atXor
	atInc
	atDec
	atRsub  // DS only: data - mem
	atMskor // DS only: (mem & ~data0) | data1
	atFAdd  // ds_add_f32 (GFX8+)
	atFMin  // ds_min_f32 / ds_min_f64
	atFMax
	atCmpSt // ds_cmpst: compare-store (data0 compared, data1 stored)
	atCmpStF
	atWrXchg2 // ds_wrxchg2*: two exchanges
)

var atomicNames = map[string]int{
	"swap": atSwap, "cmpswap": atCmpSwap, "add": atAdd, "sub": atSub, "smin": atSMin, "umin": atUMin,
	"smax": atSMax, "umax": atUMax, "and": atAnd, "or": atOr, "xor": atXor, "inc": atInc, "dec": atDec,
	// DS spellings
	"min_i32": atSMin, "max_i32": atSMax, "min_u32": atUMin, "max_u32": atUMax,
	"min_i64": atSMin, "max_i64": atSMax, "min_u64": atUMin, "max_u64": atUMax,
	"add_u32": atAdd, "sub_u32": atSub, "rsub_u32": atRsub, "inc_u32": atInc, "dec_u32": atDec,
	"and_b32": atAnd, "or_b32": atOr, "xor_b32": atXor, "mskor_b32": atMskor,
	"add_u64": atAdd, "sub_u64": atSub, "rsub_u64": atRsub, "inc_u64": atInc, "dec_u64": atDec,
	"and_b64": atAnd, "or_b64": atOr, "xor_b64": atXor, "mskor_b64": atMskor,
	"wrxchg_rtn_b32": atSwap, "wrxchg_rtn_b64": atSwap,
	"cmpst_b32": atCmpSt, "cmpst_b64": atCmpSt, "cmpst_f32": atCmpStF, "cmpst_f64": atCmpStF,
	"min_f32": atFMin, "max_f32": atFMax, "min_f64": atFMin, "max_f64": atFMax, "add_f32": atFAdd,
}

// vmOp is a compiled vector memory instruction.
type vmOp struct {
	name   string
	kind   vmKind
	fam    vmFamily
	seg    isa.Seg
	size   int // bytes per lane per element (1, 2, 4, 8, 12, 16)
	signed bool
	d16    bool // 16-bit data in the low half of the VGPR (loads keep the high half)
	d16hi  bool // ... in the high half
	format bool // *_format_*: data/number format conversion
	comps  int  // components of a format access
	dfmt   uint8
	nfmt   uint8
	tbuf   bool // MTBUF: the formats come from the instruction
	atom   int
	wide   bool // 64-bit atomic
	ret    bool // the atomic returns the pre-op value (GLC)

	vdst, vdata, vaddr int // VGPR numbers (-1: none)
	vaddrW             int // vaddr width in dwords
	saddr              int // SGPR pair of GLOBAL/SCRATCH saddr (-1: off)
	srsrc              int // first SGPR of the V#
	soff               isa.Operand
	offset             int64
	offen, idxen       bool
	glc, slc, lds, tfe bool
	gds                bool

	ds dsOp
}

// dsOp holds the DS-specific decoding.
type dsOp struct {
	kind     dsKind
	data0    int
	data1    int
	off0     uint32
	off1     uint32
	stride   uint32 // read2/write2 offset unit: element size, ×64 for st64
	two      bool   // read2/write2/wrxchg2
	swizzleP uint16 // ds_swizzle_b32 pattern
	src2     bool   // ds_*_src2_*: the source is LDS at a second address
	addtid   bool   // ds_read/write_addtid_b32: address M0 + offset + lane×4
}

type dsKind uint8

const (
	dsRead dsKind = iota
	dsWrite
	dsAtomic
	dsAppend
	dsConsume
	dsPermute
	dsBPermute
	dsSwizzle
	dsNop
	dsGWS
)

// compileVM builds the vmOp of inst. ok is false for instructions the unit
// does not model (MIMG, EXP).
func compileVM(inst *isa.Inst) (*vmOp, bool) {
	name := inst.Op.String()
	if i := strings.Index(name, "_e"); i > 0 && (strings.HasSuffix(name, "_e32") || strings.HasSuffix(name, "_e64")) {
		name = name[:i]
	}
	o := &vmOp{name: name, vdst: -1, vdata: -1, vaddr: -1, saddr: -1, srsrc: -1, comps: 1}
	o.ds.data0, o.ds.data1 = -1, -1
	m := &inst.Mods
	o.offset = int64(m.Offset)
	o.glc, o.slc, o.lds, o.tfe, o.gds = m.GLC, m.SLC, m.LDS, m.TFE, m.GDS
	o.offen, o.idxen = m.OffEn, m.IdxEn
	o.seg = m.Seg
	for _, a := range inst.Args {
		reg := int(a.Reg)
		switch a.Field.String() {
		case "vdst":
			o.vdst = reg
		case "vdata":
			o.vdata = reg
		case "vaddr", "addr":
			if a.Kind == isa.KindVGPR {
				o.vaddr, o.vaddrW = reg, int(a.Width)
			}
		case "saddr":
			if a.Kind == isa.KindSGPR {
				o.saddr = reg
			}
		case "srsrc":
			o.srsrc = reg
		case "soffset":
			o.soff = a
		case "data0":
			o.ds.data0 = reg
		case "data1":
			o.ds.data1 = reg
		}
	}
	switch inst.Enc {
	case isa.EncFLAT:
		o.fam = famFlat
		name = name[strings.Index(name, "_")+1:] // drop flat_/global_/scratch_
	case isa.EncMUBUF:
		o.fam = famMUBUF
		name = strings.TrimPrefix(name, "buffer_")
	case isa.EncMTBUF:
		o.fam, o.tbuf, o.format = famMTBUF, true, true
		o.dfmt, o.nfmt = m.DFmt, m.NFmt
		name = strings.TrimPrefix(name, "tbuffer_")
	case isa.EncDS:
		o.fam, o.kind = famDS, vmDS
		return o, compileDS(o, strings.TrimPrefix(name, "ds_"), m)
	default:
		return nil, false
	}
	switch {
	case strings.HasPrefix(name, "wbinvl1"), name == "wbinvl1_vol":
		o.kind = vmCacheOp
		return o, true
	case strings.HasPrefix(name, "load_"):
		o.kind = vmLoad
		if o.vdst < 0 {
			o.vdst = o.vdata
		}
		return o, sizeFromSuffix(o, strings.TrimPrefix(name, "load_"))
	case strings.HasPrefix(name, "store_"):
		o.kind = vmStore
		if o.vdata < 0 {
			o.vdata = o.vdst
		}
		return o, sizeFromSuffix(o, strings.TrimPrefix(name, "store_"))
	case strings.HasPrefix(name, "atomic_"):
		o.kind = vmAtomic
		n := strings.TrimPrefix(name, "atomic_")
		if strings.HasSuffix(n, "_x2") {
			o.wide, n = true, strings.TrimSuffix(n, "_x2")
		}
		at, ok := atomicNames[n]
		o.atom = at
		o.size = 4
		if o.wide {
			o.size = 8
		}
		o.ret = o.glc
		if o.vdata < 0 {
			o.vdata = o.vdst
		}
		return o, ok
	}
	return nil, false
}

// sizeFromSuffix decodes the access size from a load/store suffix.
func sizeFromSuffix(o *vmOp, s string) bool {
	if f, ok := strings.CutPrefix(s, "format_"); ok {
		o.format = true
		if d, ok := strings.CutPrefix(f, "d16_"); ok {
			o.d16, f = true, d
		}
		if h, ok := strings.CutSuffix(f, "_hi"); ok {
			o.d16hi, f = true, h
		}
		o.comps = map[string]int{"x": 1, "xy": 2, "xyz": 3, "xyzw": 4}[f]
		return o.comps > 0
	}
	if h, ok := strings.CutSuffix(s, "_d16_hi"); ok {
		o.d16, o.d16hi, s = true, true, h
	} else if h, ok := strings.CutSuffix(s, "_d16"); ok {
		o.d16, s = true, h
	}
	switch s {
	case "ubyte", "byte":
		o.size = 1
	case "sbyte":
		o.size, o.signed = 1, true
	case "ushort", "short":
		o.size = 2
	case "sshort":
		o.size, o.signed = 2, true
	case "dword":
		o.size = 4
	case "dwordx2":
		o.size = 8
	case "dwordx3":
		o.size = 12
	case "dwordx4":
		o.size = 16
	default:
		return false
	}
	return true
}

// compileDS decodes a ds_* mnemonic (without the prefix).
func compileDS(o *vmOp, n string, m *isa.Modifiers) bool {
	d := &o.ds
	d.off0, d.off1 = uint32(m.Offset0), uint32(m.Offset1)
	single := uint32(uint16(m.Offset))
	if d.off0 == 0 && d.off1 == 0 && single != 0 {
		d.off0 = single & 0xff
		d.off1 = single >> 8
	}
	o.offset = int64(d.off0 | d.off1<<8)
	switch {
	case n == "nop":
		d.kind = dsNop
		return true
	case strings.HasPrefix(n, "gws_") || n == "ordered_count" || strings.HasPrefix(n, "gds_"):
		d.kind = dsGWS
		return true
	case n == "append":
		d.kind = dsAppend
		return true
	case n == "consume":
		d.kind = dsConsume
		return true
	case n == "permute_b32":
		d.kind = dsPermute
		return true
	case n == "bpermute_b32":
		d.kind = dsBPermute
		return true
	case n == "swizzle_b32":
		d.kind = dsSwizzle
		d.swizzleP = uint16(o.offset)
		return true
	}
	if n == "read_addtid_b32" || n == "write_addtid_b32" {
		d.kind, d.addtid, o.size = dsWrite, true, 4
		if n[0] == 'r' {
			d.kind = dsRead
		}
		return true
	}
	if base, ok := strings.CutSuffix(n, "_src2_b32"); ok && base == "write" || n == "write_src2_b64" {
		d.kind, d.src2, o.atom, o.size = dsAtomic, true, atSwap, 4
		if strings.HasSuffix(n, "64") {
			o.size = 8
		}
		return true
	}
	if strings.Contains(n, "_src2_") {
		at, ok := atomicNames[strings.Replace(n, "_src2_", "_", 1)]
		d.kind, d.src2, o.atom, o.size = dsAtomic, true, at, 4
		if strings.HasSuffix(n, "64") {
			o.size = 8
		}
		return ok
	}
	st64 := strings.Contains(n, "st64")
	if strings.HasPrefix(n, "read2") || strings.HasPrefix(n, "write2") {
		d.two = true
		if strings.HasPrefix(n, "read2") {
			d.kind = dsRead
		} else {
			d.kind = dsWrite
		}
		o.size = 4
		if strings.HasSuffix(n, "b64") {
			o.size = 8
		}
		d.stride = uint32(o.size)
		if st64 {
			d.stride *= 64
		}
		return true
	}
	if strings.HasPrefix(n, "read_") || strings.HasPrefix(n, "write_") {
		s := n[strings.Index(n, "_")+1:]
		if strings.HasPrefix(n, "read_") {
			d.kind = dsRead
		} else {
			d.kind = dsWrite
		}
		if h, ok := strings.CutSuffix(s, "_d16_hi"); ok {
			o.d16, o.d16hi, s = true, true, h
		} else if h, ok := strings.CutSuffix(s, "_d16"); ok {
			o.d16, s = true, h
		}
		switch s {
		case "u8", "b8":
			o.size = 1
		case "i8":
			o.size, o.signed = 1, true
		case "u16", "b16":
			o.size = 2
		case "i16":
			o.size, o.signed = 2, true
		case "b32":
			o.size = 4
		case "b64":
			o.size = 8
		case "b96":
			o.size = 12
		case "b128":
			o.size = 16
		default:
			return false
		}
		return true
	}
	// Atomics: [wr]xchg2, *_rtn_*, plain.
	d.kind = dsAtomic
	if strings.HasPrefix(n, "wrxchg2") {
		d.two = true
		o.atom, o.ret = atWrXchg2, true
		o.size = 4
		if strings.HasSuffix(n, "b64") {
			o.size = 8
		}
		d.stride = uint32(o.size)
		if st64 {
			d.stride *= 64
		}
		return true
	}
	if strings.Contains(n, "_rtn_") {
		o.ret = true
		n = strings.Replace(n, "_rtn_", "_", 1)
	}
	if n == "wrxchg_b32" || n == "wrxchg_b64" {
		n = n[:len("wrxchg")] + "_rtn" + n[len("wrxchg"):]
	}
	at, ok := atomicNames[n]
	o.atom = at
	o.size = 4
	if strings.HasSuffix(n, "64") {
		o.size = 8
	}
	return ok
}

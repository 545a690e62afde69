package emu

// This file compiles a vector memory instruction (MUBUF, MTBUF, FLAT,
// GLOBAL, SCRATCH, DS) from its isa.Inst into a vmOp once. What an
// operation does (kind, access size, sign extension, d16, format
// components, atomic operation, return, DS addressing) comes from the isa
// tables through inst.Op.Mem(); no mnemonic is parsed.

import "github.com/wavedbg/wavedbg/isa"

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
	atWrap    // ds_wrap_rtn_b32: mem >= data0 ? mem - data0 : mem + data1
)

// atomOps maps the isa tables' atomic operations to the unit's; an
// operation missing here would not be modelled. ds_wrxchg2* (swap with two
// addresses) becomes atWrXchg2.
var atomOps = map[isa.AtomicOp]int{
	isa.AtomSwap: atSwap, isa.AtomCmpSwap: atCmpSwap, isa.AtomAdd: atAdd, isa.AtomSub: atSub,
	isa.AtomRsub: atRsub, isa.AtomSMin: atSMin, isa.AtomUMin: atUMin, isa.AtomSMax: atSMax,
	isa.AtomUMax: atUMax, isa.AtomAnd: atAnd, isa.AtomOr: atOr, isa.AtomXor: atXor, isa.AtomInc: atInc,
	isa.AtomDec: atDec, isa.AtomMskor: atMskor, isa.AtomFAdd: atFAdd, isa.AtomFMin: atFMin,
	isa.AtomFMax: atFMax, isa.AtomCmpSt: atCmpSt, isa.AtomFCmpSt: atCmpStF, isa.AtomWrap: atWrap,
	isa.AtomCondXchg: atCondXchg32, // ds_condxchg.go
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
	glc, slc, tfe      bool
	lds                bool // LDS-direct: a load's data goes to LDS, buffer_store_lds_dword's comes from it
	gds                bool

	ds dsOp

	wspec int8 // GLOBAL and FLAT loads and stores: the whole-wave shape execWave starts with (0: none)
	wsSet bool // wspec is known (the fast engine sets both the first time it runs the operation)

	last opCache // what the whole-wave path last touched (vmem_wave.go)
	vs   vsCache // the V# last decoded (vmem_buffer.go)
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
	o := &vmOp{name: inst.Op.String(), vdst: -1, vdata: -1, vaddr: -1, saddr: -1, srsrc: -1, comps: 1}
	o.ds.data0, o.ds.data1 = -1, -1
	m := &inst.Mods
	o.offset = int64(m.Offset)
	o.glc, o.slc, o.lds, o.tfe, o.gds = m.GLC, m.SLC, m.LDS, m.TFE, m.GDS
	o.offen, o.idxen = m.OffEn, m.IdxEn
	o.seg = m.Seg
	for _, a := range inst.Args {
		reg := int(a.Reg)
		switch a.Field {
		case isa.FieldVDST:
			o.vdst = reg
		case isa.FieldVDATA:
			o.vdata = reg
		case isa.FieldVADDR, isa.FieldADDR:
			if a.Kind == isa.KindVGPR {
				o.vaddr, o.vaddrW = reg, int(a.Width)
			}
		case isa.FieldSADDR:
			if a.Kind == isa.KindSGPR {
				o.saddr = reg
			}
		case isa.FieldSRSRC:
			o.srsrc = reg
		case isa.FieldSOFFSET:
			o.soff = a
		case isa.FieldDATA0:
			o.ds.data0 = reg
		case isa.FieldDATA1:
			o.ds.data1 = reg
		}
	}
	mi := inst.Op.Mem()
	switch inst.Enc {
	case isa.EncFLAT:
		o.fam = famFlat
	case isa.EncMUBUF:
		o.fam = famMUBUF
	case isa.EncMTBUF:
		o.fam, o.tbuf = famMTBUF, true
		o.dfmt, o.nfmt = m.DFmt, m.NFmt
	case isa.EncDS:
		o.fam, o.kind = famDS, vmDS
		return o, compileDS(o, &mi, m)
	default:
		return nil, false
	}
	switch mi.Kind {
	case isa.MemCache:
		o.kind = vmCacheOp
		return o, true
	case isa.MemLoad:
		o.kind = vmLoad
		if o.vdst < 0 {
			o.vdst = o.vdata
		}
		return o, accessSize(o, &mi, inst.Op)
	case isa.MemStore:
		o.kind = vmStore
		if o.vdata < 0 {
			o.vdata = o.vdst
		}
		return o, accessSize(o, &mi, inst.Op)
	case isa.MemAtomic:
		o.kind = vmAtomic
		at, ok := atomOps[mi.Atomic]
		o.atom, o.size = at, int(mi.Size)
		o.wide = mi.Size == 8
		o.ret = mi.Returns(o.glc)
		if o.vdata < 0 {
			o.vdata = o.vdst
		}
		return o, ok
	}
	return nil, false
}

// accessSize sets the size, sign extension, d16 halves and format of a
// buffer or flat load or store. buffer_store_lds_dword (the tables' only
// lds-only operation) stores a dword of LDS per lane: it has no VGPR, so
// its address takes no VGPR offset or index whatever the encoding's offen
// and idxen bits say, and its LDS source is the LDS-direct address (lds).
func accessSize(o *vmOp, mi *isa.MemInfo, op isa.Op) bool {
	if op.Info().Flags.Has(isa.FlagLDSOnly) {
		o.lds, o.offen, o.idxen = true, false, false
	}
	o.d16, o.d16hi = mi.D16, mi.D16Hi
	if mi.Format {
		o.format, o.comps = true, int(mi.Comps)
		return true
	}
	o.size, o.signed = int(mi.Size), mi.Signed
	return o.size > 0
}

// compileDS fills in a DS operation from its table facts mi.
func compileDS(o *vmOp, mi *isa.MemInfo, m *isa.Modifiers) bool {
	d := &o.ds
	d.off0, d.off1 = uint32(m.Offset0), uint32(m.Offset1)
	single := uint32(uint16(m.Offset))
	if d.off0 == 0 && d.off1 == 0 && single != 0 {
		d.off0 = single & 0xff
		d.off1 = single >> 8
	}
	o.offset = int64(d.off0 | d.off1<<8)
	switch mi.Kind {
	case isa.MemNop:
		d.kind = dsNop
		return true
	case isa.MemGWS:
		d.kind = dsGWS
		return true
	case isa.MemAppend:
		d.kind = dsAppend
		return true
	case isa.MemConsume:
		d.kind = dsConsume
		return true
	case isa.MemPermute:
		d.kind = dsPermute
		return true
	case isa.MemBPermute:
		d.kind = dsBPermute
		return true
	case isa.MemSwizzle:
		d.kind = dsSwizzle
		d.swizzleP = uint16(o.offset)
		return true
	}
	o.size = int(mi.Size)
	if mi.AddTID {
		d.kind, d.addtid = dsWrite, true
		if mi.Kind == isa.MemLoad {
			d.kind = dsRead
		}
		return true
	}
	if mi.Src2 {
		d.kind, d.src2 = dsAtomic, true
		if mi.Kind == isa.MemStore { // ds_write_src2_*: an LDS-to-LDS copy, a swap whose result is dropped
			o.atom = atSwap
			return true
		}
		at, ok := atomOps[mi.Atomic]
		o.atom = at
		return ok
	}
	if mi.Two {
		d.two = true
		d.stride = uint32(o.size)
		if mi.ST64 {
			d.stride *= 64
		}
	}
	switch mi.Kind {
	case isa.MemLoad, isa.MemStore:
		d.kind = dsWrite
		if mi.Kind == isa.MemLoad {
			d.kind = dsRead
		}
		o.d16, o.d16hi, o.signed = mi.D16, mi.D16Hi, mi.Signed
		return o.size > 0
	case isa.MemAtomic:
		d.kind = dsAtomic
		o.ret = mi.Ret == isa.RetAlways
		if d.two && mi.Atomic == isa.AtomSwap {
			o.atom = atWrXchg2
			return true
		}
		at, ok := atomOps[mi.Atomic]
		o.atom = at
		return ok
	}
	return false
}

package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// vmKind is what a vector memory operation does.
type vmKind uint8

const (
	VmLoad vmKind = iota
	VmStore
	VmAtomic
	VmCacheOp // buffer_wbinvl1(_vol): no memory effect in this model
	VmDS      // every ds_* operation (see dsKind)
)

// vmFamily is the encoding family.
type vmFamily uint8

const (
	FamFlat vmFamily = iota
	FamMUBUF
	famMTBUF
	FamDS
)

// Atomic operations, shared by buffer, flat and DS atomics.
const (
	AtSwap = iota
	atCmpSwap
	AtAdd
	AtSub
	atSMin
	AtUMin
	atSMax
	AtUMax
	AtAnd
	AtOr
	AtXor
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
	isa.AtomSwap: AtSwap, isa.AtomCmpSwap: atCmpSwap, isa.AtomAdd: AtAdd, isa.AtomSub: AtSub,
	isa.AtomRsub: atRsub, isa.AtomSMin: atSMin, isa.AtomUMin: AtUMin, isa.AtomSMax: atSMax,
	isa.AtomUMax: AtUMax, isa.AtomAnd: AtAnd, isa.AtomOr: AtOr, isa.AtomXor: AtXor, isa.AtomInc: atInc,
	isa.AtomDec: atDec, isa.AtomMskor: atMskor, isa.AtomFAdd: atFAdd, isa.AtomFMin: atFMin,
	isa.AtomFMax: atFMax, isa.AtomCmpSt: atCmpSt, isa.AtomFCmpSt: atCmpStF, isa.AtomWrap: atWrap,
	isa.AtomCondXchg: AtCondXchg32, // ds_condxchg.go
}

// VmOp is a compiled vector memory instruction.
type VmOp struct {
	Name   string
	Kind   vmKind
	Fam    vmFamily
	Seg    isa.Seg
	Size   int // bytes per lane per element (1, 2, 4, 8, 12, 16)
	Signed bool
	D16    bool // 16-bit data in the low half of the VGPR (loads keep the high half)
	D16hi  bool // ... in the high half
	Format bool // *_format_*: data/number format conversion
	Comps  int  // components of a format access
	dfmt   uint8
	nfmt   uint8
	Tbuf   bool // MTBUF: the formats come from the instruction
	Atom   int
	Wide   bool // 64-bit atomic
	Ret    bool // the atomic returns the pre-op value (GLC)

	Vdst, Vdata, Vaddr int // VGPR numbers (-1: none)
	VaddrW             int // vaddr width in dwords
	Saddr              int // SGPR pair of GLOBAL/SCRATCH saddr (-1: off)
	Srsrc              int // first SGPR of the V#
	soff               isa.Operand
	Offset             int64
	Offen, Idxen       bool
	glc, slc, Tfe      bool
	Lds                bool // LDS-direct: a load's data goes to LDS, buffer_store_lds_dword's comes from it
	Gds                bool

	Ds dsOp

	Wspec int8 // GLOBAL and FLAT loads and stores: the whole-wave shape execWave starts with (0: none)
	WsSet bool // wspec is known (the fast engine sets both the first time it runs the operation)

	Last OpCache // what the whole-wave path last touched (fast/vmem_wave.go)
	vs   VsCache // the V# last decoded (vmem_buffer.go)
}

// dsOp holds the DS-specific decoding.
type dsOp struct {
	Kind     dsKind
	Data0    int
	Data1    int
	Off0     uint32
	Off1     uint32
	Stride   uint32 // read2/write2 offset unit: element size, ×64 for st64
	Two      bool   // read2/write2/wrxchg2
	SwizzleP uint16 // ds_swizzle_b32 pattern
	Src2     bool   // ds_*_src2_*: the source is LDS at a second address
	Addtid   bool   // ds_read/write_addtid_b32: address M0 + offset + lane×4
}

type dsKind uint8

const (
	DsRead dsKind = iota
	DsWrite
	DsAtomic
	dsAppend
	dsConsume
	dsPermute
	dsBPermute
	dsSwizzle
	DsNop
	DsGWS
)

// CompileVM builds the vmOp of inst. ok is false for instructions the unit
// does not model (MIMG, EXP).
func CompileVM(inst *isa.Inst) (*VmOp, bool) {
	o := &VmOp{Name: inst.Op.String(), Vdst: -1, Vdata: -1, Vaddr: -1, Saddr: -1, Srsrc: -1, Comps: 1}
	o.Ds.Data0, o.Ds.Data1 = -1, -1
	m := &inst.Mods
	o.Offset = int64(m.Offset)
	o.glc, o.slc, o.Lds, o.Tfe, o.Gds = m.GLC, m.SLC, m.LDS, m.TFE, m.GDS
	o.Offen, o.Idxen = m.OffEn, m.IdxEn
	o.Seg = m.Seg
	for _, a := range inst.Args {
		reg := int(a.Reg)
		switch a.Field {
		case isa.FieldVDST:
			o.Vdst = reg
		case isa.FieldVDATA:
			o.Vdata = reg
		case isa.FieldVADDR, isa.FieldADDR:
			if a.Kind == isa.KindVGPR {
				o.Vaddr, o.VaddrW = reg, int(a.Width)
			}
		case isa.FieldSADDR:
			if a.Kind == isa.KindSGPR {
				o.Saddr = reg
			}
		case isa.FieldSRSRC:
			o.Srsrc = reg
		case isa.FieldSOFFSET:
			o.soff = a
		case isa.FieldDATA0:
			o.Ds.Data0 = reg
		case isa.FieldDATA1:
			o.Ds.Data1 = reg
		}
	}
	mi := inst.Op.Mem()
	switch inst.Enc {
	case isa.EncFLAT:
		o.Fam = FamFlat
	case isa.EncMUBUF:
		o.Fam = FamMUBUF
	case isa.EncMTBUF:
		o.Fam, o.Tbuf = famMTBUF, true
		o.dfmt, o.nfmt = m.DFmt, m.NFmt
	case isa.EncDS:
		o.Fam, o.Kind = FamDS, VmDS
		return o, compileDS(o, &mi, m)
	default:
		return nil, false
	}
	switch mi.Kind {
	case isa.MemCache:
		o.Kind = VmCacheOp
		return o, true
	case isa.MemLoad:
		o.Kind = VmLoad
		if o.Vdst < 0 {
			o.Vdst = o.Vdata
		}
		return o, accessSize(o, &mi, inst.Op)
	case isa.MemStore:
		o.Kind = VmStore
		if o.Vdata < 0 {
			o.Vdata = o.Vdst
		}
		return o, accessSize(o, &mi, inst.Op)
	case isa.MemAtomic:
		o.Kind = VmAtomic
		at, ok := atomOps[mi.Atomic]
		o.Atom, o.Size = at, int(mi.Size)
		o.Wide = mi.Size == 8
		o.Ret = mi.Returns(o.glc)
		if o.Vdata < 0 {
			o.Vdata = o.Vdst
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
func accessSize(o *VmOp, mi *isa.MemInfo, op isa.Op) bool {
	if op.Info().Flags.Has(isa.FlagLDSOnly) {
		o.Lds, o.Offen, o.Idxen = true, false, false
	}
	o.D16, o.D16hi = mi.D16, mi.D16Hi
	if mi.Format {
		o.Format, o.Comps = true, int(mi.Comps)
		return true
	}
	o.Size, o.Signed = int(mi.Size), mi.Signed
	return o.Size > 0
}

// compileDS fills in a DS operation from its table facts mi.
func compileDS(o *VmOp, mi *isa.MemInfo, m *isa.Modifiers) bool {
	d := &o.Ds
	d.Off0, d.Off1 = uint32(m.Offset0), uint32(m.Offset1)
	single := uint32(uint16(m.Offset))
	if d.Off0 == 0 && d.Off1 == 0 && single != 0 {
		d.Off0 = single & 0xff
		d.Off1 = single >> 8
	}
	o.Offset = int64(d.Off0 | d.Off1<<8)
	switch mi.Kind {
	case isa.MemNop:
		d.Kind = DsNop
		return true
	case isa.MemGWS:
		d.Kind = DsGWS
		return true
	case isa.MemAppend:
		d.Kind = dsAppend
		return true
	case isa.MemConsume:
		d.Kind = dsConsume
		return true
	case isa.MemPermute:
		d.Kind = dsPermute
		return true
	case isa.MemBPermute:
		d.Kind = dsBPermute
		return true
	case isa.MemSwizzle:
		d.Kind = dsSwizzle
		d.SwizzleP = uint16(o.Offset)
		return true
	}
	o.Size = int(mi.Size)
	if mi.AddTID {
		d.Kind, d.Addtid = DsWrite, true
		if mi.Kind == isa.MemLoad {
			d.Kind = DsRead
		}
		return true
	}
	if mi.Src2 {
		d.Kind, d.Src2 = DsAtomic, true
		if mi.Kind == isa.MemStore { // ds_write_src2_*: an LDS-to-LDS copy, a swap whose result is dropped
			o.Atom = AtSwap
			return true
		}
		at, ok := atomOps[mi.Atomic]
		o.Atom = at
		return ok
	}
	if mi.Two {
		d.Two = true
		d.Stride = uint32(o.Size)
		if mi.ST64 {
			d.Stride *= 64
		}
	}
	switch mi.Kind {
	case isa.MemLoad, isa.MemStore:
		d.Kind = DsWrite
		if mi.Kind == isa.MemLoad {
			d.Kind = DsRead
		}
		o.D16, o.D16hi, o.Signed = mi.D16, mi.D16Hi, mi.Signed
		return o.Size > 0
	case isa.MemAtomic:
		d.Kind = DsAtomic
		o.Ret = mi.Ret == isa.RetAlways
		if d.Two && mi.Atomic == isa.AtomSwap {
			o.Atom = atWrXchg2
			return true
		}
		at, ok := atomOps[mi.Atomic]
		o.Atom = at
		return ok
	}
	return false
}

// LanePages is the page of each lane's last whole-wave dword load, kept
// by the fast engine across instructions (fast/vmem_pages.go): a private
// array indexed per lane puts every lane in a page of its own, the same
// page instruction after instruction. It holds while Mem and its Gen do.
type LanePages struct {
	Mem *core.Memory
	Gen uint32
	Pn  [64]uint64
	Pg  [64]*[core.PageSize]byte
}

// OpCache is what an operation's whole-wave path last touched in a
// Memory: an allocation and a page, and the shape that moved the wave.
// Allocations and pages never go away, and a worker's waves share its
// operations (and one Memory view), so the next wave, whose addresses
// usually follow, finds them here.
type OpCache struct {
	Mem    *core.Memory
	Lo, Hi uint64 // the allocation
	Pn     uint64
	Pg     *[core.PageSize]byte
	Gen    uint32 // mem.gen when pg was cached
	Shape  uint8  // the shape that took the last wave (shapeRun at first)
	Probe  uint8  // waves that started past shapeRun, counted for fastWave's look back
	Quick  bool   // the last wave was a run quickRun may take the next one of (fast/vmem_run.go)
}

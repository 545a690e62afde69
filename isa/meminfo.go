package isa

// This file holds the memory-access facts of the DS, MUBUF, MTBUF and
// FLAT/GLOBAL/SCRATCH opcodes and of the SMEM loads, stores and atomics:
// what an operation does, how many bytes it moves and how, which atomic it
// is. They are table data (the memory fact
// words of isa/tables/mem.txt, see tables/README.md), generated into
// memInfo in tables.go and looked up by Op, so the emulator and the UI
// never parse mnemonics for them and Decode pays nothing for them.

// MemKind is what a memory operation does.
type MemKind uint8

const (
	MemNone     MemKind = iota // not a memory access of DS, MUBUF, MTBUF, FLAT or SMEM (MIMG, EXP, s_dcache_*, s_memtime ...)
	MemLoad                    // reads memory into VGPRs (flag word load)
	MemStore                   // writes VGPRs to memory (flag word store)
	MemAtomic                  // read-modify-write (flag word atomic; DS *_src2_* read both operands from LDS)
	MemCache                   // buffer_wbinvl1, buffer_wbinvl1_vol: invalidates the vector L1
	MemNop                     // ds_nop
	MemGWS                     // ds_gws_*, ds_ordered_count: global wave sync and ordered counts (GDS only)
	MemAppend                  // ds_append: GDS/LDS counter += active lanes, returns the old value
	MemConsume                 // ds_consume: the counter -= active lanes
	MemPermute                 // ds_permute_b32: forward lane permute through the LDS crossbar
	MemBPermute                // ds_bpermute_b32: backward lane permute
	MemSwizzle                 // ds_swizzle_b32: lane swizzle by the offset's pattern
)

var memKindNames = [...]string{"none", "load", "store", "atomic", "cache", "nop", "gws", "append", "consume",
	"permute", "bpermute", "swizzle"}

// String returns the kind's word as written in the tables (mem=KIND).
func (k MemKind) String() string {
	if int(k) < len(memKindNames) {
		return memKindNames[k]
	}
	return "?"
}

// AtomicOp is the read-modify-write an atomic performs. Buffer, FLAT,
// GLOBAL and scalar atomics and DS atomics (including the *_src2_* forms)
// share it; MemInfo.Size says whether it is the 32- or 64-bit (_x2) one.
type AtomicOp uint8

const (
	AtomNone     AtomicOp = iota
	AtomSwap              // mem = data (ds_wrxchg*; ds_wrxchg2* do two, see MemInfo.Two)
	AtomCmpSwap           // buffer/flat: mem = mem == data[1] ? data[0] : mem (data is src, cmp)
	AtomAdd               // mem += data
	AtomSub               // mem -= data
	AtomRsub              // DS: mem = data - mem
	AtomSMin              // signed minimum
	AtomUMin              // unsigned minimum
	AtomSMax              // signed maximum
	AtomUMax              // unsigned maximum
	AtomAnd               // mem &= data
	AtomOr                // mem |= data
	AtomXor               // mem ^= data
	AtomInc               // mem = mem >= data ? 0 : mem + 1
	AtomDec               // mem = mem == 0 || mem > data ? data : mem - 1
	AtomMskor             // DS: mem = (mem & ^data0) | data1
	AtomFAdd              // DS: floating-point add
	AtomFMin              // DS: floating-point minimum
	AtomFMax              // DS: floating-point maximum
	AtomCmpSt             // DS: mem = mem == data0 ? data1 : mem (compare first, unlike cmpswap)
	AtomFCmpSt            // DS: ds_cmpst with a floating-point compare
	AtomWrap              // DS: mem = mem >= data0 ? mem - data0 : mem + data1 (ds_wrap_rtn_b32)
	AtomCondXchg          // DS: ds_condxchg32_rtn_b64, two conditional 32-bit exchanges
)

var atomicOpNames = [...]string{"none", "swap", "cmpswap", "add", "sub", "rsub", "smin", "umin", "smax",
	"umax", "and", "or", "xor", "inc", "dec", "mskor", "fadd", "fmin", "fmax", "cmpst", "fcmpst", "wrap",
	"condxchg"}

// String returns the operation's word as written in the tables (atom=OP).
func (a AtomicOp) String() string {
	if int(a) < len(atomicOpNames) {
		return atomicOpNames[a]
	}
	return "?"
}

// MemRet says when an atomic writes the memory's previous value to a VGPR.
type MemRet uint8

const (
	RetNever  MemRet = iota // no returned value (and every non-atomic)
	RetAlways               // DS *_rtn_* and ds_wrxchg* (flag word ret)
	RetGLC                  // buffer, FLAT, GLOBAL and scalar atomics: only with the glc bit (ret=glc)
)

var memRetNames = [...]string{"never", "always", "glc"}

// String returns "never", "always" or "glc".
func (r MemRet) String() string {
	if int(r) < len(memRetNames) {
		return memRetNames[r]
	}
	return "?"
}

// MemInfo holds the memory-access facts of an opcode. They do not depend
// on the encoding's bits; what does (offsets, glc, lds, tfe, gds, the
// MTBUF or V# data format) is in Inst.Mods.
type MemInfo struct {
	Kind MemKind
	// Size is the bytes each lane moves per address: 1, 2, 4, 8, 12 or 16
	// (a DS read2/write2 element, an atomic's data: 4, or 8 for 64-bit
	// ones); for SMEM the bytes the wave moves, 4 to 64 (dwords × 4). It
	// is 0 for format accesses, whose element size is the data format's,
	// and for operations without memory data.
	Size    uint8
	Signed  bool  // a 1- or 2-byte load sign-extends (sbyte, sshort, ds_read_i8, ds_read_i16)
	D16     bool  // the VGPR holds 16-bit data in one half, the other half kept on loads (D16Hi says which)
	D16Hi   bool  // ... in the high half (the *_d16_hi forms); D16 is set too
	Format  bool  // a typed (*_format_*, every MTBUF) access converted through a data and number format
	Comps   uint8 // components of a format access (x 1, xy 2, xyz 3, xyzw 4); 0 otherwise
	Atomic  AtomicOp
	Ret     MemRet
	Two     bool // DS: two addresses from offset0 and offset1 (read2, write2, wrxchg2)
	ST64    bool // DS: the two offsets count 64 elements (read2st64, write2st64, wrxchg2st64)
	Src2    bool // DS *_src2_*: the second operand is LDS at the address the offset encodes
	AddTID  bool // ds_read_addtid_b32, ds_write_addtid_b32: the address is M0 + offset + lane × 4
	Buffer  bool // SMEM s_buffer_*: SBASE is a buffer resource (V#), not an address
	Scratch bool // SMEM s_scratch_*: the address is in the wave's scratch (private) memory
}

// Returns reports whether the operation, executed with the given glc bit,
// writes the previous memory value of an atomic to a VGPR.
func (m MemInfo) Returns(glc bool) bool {
	return m.Ret == RetAlways || m.Ret == RetGLC && glc
}

// Mem returns the memory-access facts of op; the zero MemInfo (Kind
// MemNone) for an op that is not DS, MUBUF, MTBUF or FLAT, nor an SMEM
// load, store or atomic.
func (op Op) Mem() MemInfo {
	if int(op) < len(memInfo) {
		return memInfo[op]
	}
	return MemInfo{}
}

// Mem returns the memory-access facts of the instruction's Op.
func (i *Inst) Mem() MemInfo { return i.Op.Mem() }

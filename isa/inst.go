package isa

// This file is the decoded form of an instruction: the contract between the
// decoder, the printer, the emulator and the UI. The opcode enum (Op), the
// per-opcode facts (OpInfo) and the operand-field enum (Field) are generated
// into tables.go.

// Target is an instruction-set generation.
type Target uint8

const (
	TargetUnknown Target = iota
	GFX8                 // gfx801, gfx802, gfx803, gfx805, gfx810
	GFX9                 // gfx900, gfx902, gfx904, gfx906, gfx909, gfx90c
)

// Features are instruction-set extensions some processors of a generation
// have (LLVM's subtarget features). Decoding for gfx904 or gfx906 needs
// them; see FeaturesOf and DecodeWith. The Target stays the generation.
type Features uint8

const (
	FeatFMAMix    Features = 1 << iota // gfx904, gfx906: v_fma_mix* take v_mad_mix*'s opcodes
	FeatDL                             // gfx906: v_fmac_f32, v_xnor_b32, v_dot* (LLVM's DL and Dot insts)
	FeatPackedD16                      // gfx810: d16 image and buffer-format data packed two per dword, as on GFX9
)

// Encoding is an instruction's microcode format.
type Encoding uint8

const (
	EncUnknown Encoding = iota
	EncSOP2
	EncSOPK
	EncSOP1
	EncSOPC
	EncSOPP
	EncSMEM
	EncVOP1
	EncVOP2
	EncVOPC
	EncVOP3 // VOP3a and VOP3b (the latter has an SGPR carry destination)
	EncVOP3P
	EncVINTRP
	EncDS
	EncMUBUF
	EncMTBUF
	EncMIMG
	EncEXP
	EncFLAT // FLAT, GLOBAL and SCRATCH; Modifiers.Seg tells which
)

// Variant is the form a VALU opcode is encoded in, which chooses the
// mnemonic's suffix (_e32, _e64, _sdwa, _dpp).
type Variant uint8

const (
	VariantNone Variant = iota
	VariantE32
	VariantE64
	VariantSDWA
	VariantDPP
)

// Class says which unit executes an instruction.
type Class uint8

const (
	ClassUnknown Class = iota
	ClassSALU          // scalar ALU, including SOPC compares and SOPK
	ClassVALU          // vector ALU
	ClassSMEM          // scalar memory
	ClassVMEM          // MUBUF, MTBUF, MIMG, GLOBAL, SCRATCH
	ClassFLAT          // FLAT (may reach LDS or VMEM)
	ClassDS            // LDS/GDS
	ClassExport        // EXP
	ClassBranch        // s_branch, s_cbranch_*, s_setpc, s_swappc, s_call
	ClassMessage       // s_sendmsg, s_sendmsghalt
	ClassWaitcnt       // s_waitcnt
	ClassControl       // other program control: s_endpgm, s_nop, s_barrier, s_trap, ...
)

// Counters is a set of the wave's outstanding-operation counters.
type Counters uint8

const (
	CntVM   Counters = 1 << iota // VM_CNT: vector memory reads (and writes on GFX8/9)
	CntLGKM                      // LGKM_CNT: LDS, GDS, constant (SMEM) and messages
	CntEXP                       // EXP_CNT: exports and GDS/VMEM store data reads
)

// OperandKind says what an operand names.
type OperandKind uint8

const (
	KindNone    OperandKind = iota
	KindSGPR                // Reg is the first SGPR number
	KindVGPR                // Reg is the first VGPR number
	KindAGPR                // Reg is the first AGPR number (gfx908/gfx90a)
	KindTTMP                // Reg is the first trap temporary number
	KindSpecial             // Reg is a Special
	KindInline              // an inline constant; Reg is its source code (128–208, 240–248); see InlineValue
	KindLiteral             // a 32-bit literal that follows the instruction; Imm holds it
	KindImm                 // an immediate field (simm16, offsets, waitcnt, hwreg); Imm holds it, sign-extended if signed
	KindLabel               // a branch target; Imm is its byte offset from the end of the instruction (see Inst.BranchTarget)
)

// Access says whether an instruction reads or writes an operand.
type Access uint8

const (
	Read Access = 1 << iota
	Write
	ReadWrite = Read | Write
)

// Special names a scalar source or destination that is not a plain SGPR,
// by its 8-bit/9-bit source code.
type Special uint16

const (
	FlatScratchLo        Special = 102 // GFX9; GFX8 uses 102 too (flat_scratch_lo)
	FlatScratchHi        Special = 103
	XnackMaskLo          Special = 104
	XnackMaskHi          Special = 105
	VCCLo                Special = 106
	VCCHi                Special = 107
	TBALo                Special = 108
	TBAHi                Special = 109
	TMALo                Special = 110
	TMAHi                Special = 111
	M0                   Special = 124
	ExecLo               Special = 126
	ExecHi               Special = 127
	SrcSharedBase        Special = 235
	SrcSharedLimit       Special = 236
	SrcPrivateBase       Special = 237
	SrcPrivateLimit      Special = 238
	SrcPopsExitingWaveID Special = 239
	VCCZ                 Special = 251
	EXECZ                Special = 252
	SCC                  Special = 253
	LDSDirect            Special = 254
)

// DataType is the type an operand is read or written as; it decides how an
// inline constant expands and how the printer shows it.
type DataType uint8

const (
	TypeNone DataType = iota
	TypeB16
	TypeB32
	TypeB64
	TypeI16
	TypeI32
	TypeI64
	TypeU16
	TypeU32
	TypeU64
	TypeF16
	TypeF32
	TypeF64
	TypeV2F16 // packed (VOP3P)
	TypeV2I16
)

// Operand is one operand of a decoded instruction.
type Operand struct {
	Kind   OperandKind
	Field  Field    // the encoding field it came from (generated enum)
	Access Access   // read, written or both
	Type   DataType // the type the instruction uses it as
	Reg    uint16   // register number, Special code or inline-constant code
	Width  uint8    // size in dwords for registers and constants (1, 2, 3, 4, 8, 16)
	Imm    int64    // KindLiteral, KindImm and KindLabel values
	Neg    bool     // VOP3/SDWA/DPP source negation
	Abs    bool     // VOP3/SDWA/DPP source absolute value
	Sext   bool     // SDWA integer sign extension
}

// Seg is the address space a FLAT-encoded instruction names.
type Seg uint8

const (
	SegFlat Seg = iota
	SegScratch
	SegGlobal
)

// Modifiers holds the instruction-wide fields that are not operands.
type Modifiers struct {
	// VALU
	Clamp   bool
	Omod    uint8 // 0 none, 1 ×2, 2 ×4, 3 ÷2
	OpSel   uint8 // VOP3/VOP3P op_sel bits (src0, src1, src2, dst)
	OpSelHi uint8 // VOP3P op_sel_hi
	NegLo   uint8 // VOP3P neg_lo per source
	NegHi   uint8 // VOP3P neg_hi per source

	// SDWA
	DstSel, DstUnused, Src0Sel, Src1Sel uint8

	// DPP
	DPPCtrl   uint16
	RowMask   uint8
	BankMask  uint8
	BoundCtrl bool

	// Memory
	Offset  int32 // instruction offset (SMEM, MUBUF, MTBUF, FLAT, DS offset0|offset1<<8 when not split)
	Offset0 uint8 // DS two-address forms
	Offset1 uint8
	GLC     bool
	SLC     bool
	TFE     bool
	LDS     bool // MUBUF lds bit
	IdxEn   bool
	OffEn   bool
	GDS     bool
	NV      bool // FLAT/GLOBAL non-volatile (GFX9)
	SOE     bool // SMEM: SGPR offset enable (GFX9)
	Imm     bool // SMEM: offset is an immediate
	Seg     Seg  // FLAT segment
	DFmt    uint8
	NFmt    uint8
	DMask   uint8
	Unorm   bool
	DA      bool
	R128    bool // A16 on GFX9
	LWE     bool
	D16     bool

	// EXP
	ExpTarget uint8
	ExpEn     uint8
	Compr     bool
	Done      bool
	VM        bool

	// VINTRP
	Attr     uint8
	AttrChan uint8
}

// Inst is one decoded instruction, as Decode returns it. String, Format and
// AppendText print it (print.go); BranchTarget and Raises give the control
// facts the emulator needs beyond Op.Info.
type Inst struct {
	Op      Op
	Enc     Encoding
	Variant Variant
	Len     int       // bytes consumed: 4, 8 or 12 (after an error, the bytes to skip)
	Words   [3]uint32 // the instruction's words (with the literal, if any)
	Args    []Operand // in the order LLVM prints them: destinations first
	Mods    Modifiers

	Form     *Form    // the table row the instruction was decoded with (nil when invalid)
	Target   Target   // the generation it was decoded for
	Features Features // the processor features it was decoded with

	hasLit bool // a literal has been read (Words[Len/4-1]); later 255 sources share it
}

// BranchTarget returns the byte address an instruction at address pc
// branches to, when it has a label operand.
func (i *Inst) BranchTarget(pc uint64) (uint64, bool) {
	for k := range i.Args {
		if i.Args[k].Kind == KindLabel {
			return pc + uint64(i.Len) + uint64(i.Args[k].Imm), true
		}
	}
	return 0, false
}

// Raises returns the counters the instruction raises: its Op's, plus
// EXP_CNT for a DS instruction with the gds bit (GDS reads its data
// through the export path).
func (i *Inst) Raises() Counters {
	c := i.Op.Info().Raises
	if i.Enc == EncDS && i.Mods.GDS {
		c |= CntEXP
	}
	return c
}

// Op is an opcode across all encodings and generations; its constants,
// names and per-opcode facts are generated into tables.go.
type Op uint16

// Field is an encoding field an operand is taken from (sdst, ssrc0, vaddr,
// srsrc, ...); its constants are generated into tables.go.
type Field uint8

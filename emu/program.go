package emu

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wavedbg/wavedbg/isa"
)

// Program is a code section decoded once into a flat slice: instruction i
// starts at Addrs[i]. Branch targets are resolved to indexes when the
// program is built, so stepping never decodes.
type Program struct {
	Target isa.Target
	Base   uint64     // address of the first instruction
	Insts  []isa.Inst // decoded instructions
	Addrs  []uint64   // byte address of each instruction

	code  []instr // compiled; one extra final entry catches running off the end
	index map[uint64]int
}

// NewProgram lays insts out consecutively from base (each takes Inst.Len
// bytes) and compiles them. Unknown or unsupported instructions compile to
// an operation that stops the wave with an ExecError when executed; building
// a program never fails on them.
func NewProgram(t isa.Target, base uint64, insts []isa.Inst) *Program {
	names := make([]string, len(insts))
	for i := range insts {
		names[i] = opName(insts[i].Op)
	}
	return newProgramNamed(t, base, names, insts)
}

// newProgramNamed builds a program whose operations are named explicitly
// (tests build instructions by mnemonic).
func newProgramNamed(t isa.Target, base uint64, names []string, insts []isa.Inst) *Program {
	p := &Program{Target: t, Base: base, Insts: insts, index: make(map[uint64]int, len(insts))}
	addr := base
	for i := range insts {
		p.Addrs = append(p.Addrs, addr)
		p.index[addr] = i
		n := insts[i].Len
		if n <= 0 {
			n = 4
		}
		addr += uint64(n)
	}
	p.code = make([]instr, len(insts)+1)
	for i := range insts {
		p.code[i] = compile(t, p, i, names[i], &insts[i])
	}
	end := len(insts)
	p.code[end] = instr{fn: execOffEnd, ref: execOffEnd, pc: addr, next: int32(end), name: "(end of program)"}
	return p
}

// End is the address after the last instruction.
func (p *Program) End() uint64 { return p.code[len(p.code)-1].pc }

// IndexOf returns the index of the instruction at pc.
func (p *Program) IndexOf(pc uint64) (int, bool) {
	i, ok := p.index[pc]
	return i, ok
}

// opName returns the lower-case name of op (isa's generated String).
func opName(op isa.Op) string {
	if s, ok := any(op).(fmt.Stringer); ok {
		return strings.ToLower(s.String())
	}
	return ""
}

// execFn executes one compiled instruction.
type execFn func(w *Wave, in *instr) error

// Operand kinds after compilation.
const (
	okNone  uint8 = iota
	okS           // scalar code (SGPR, TTMP or special < 128)
	okV           // VGPR
	okConst       // inline constant or literal, expanded for its type
	okSCC         // SCC as a source
	okVCCZ        // VCCZ
	okEXECZ       // EXECZ
	okZero        // LDS direct and other sources the emulator reads as 0
)

type operand struct {
	kind  uint8
	width uint8
	neg   bool
	abs   bool
	sext  bool
	reg   uint16
	val   uint64
}

// instr is a compiled instruction. It keeps two forms: fn, the fast form
// an unjournaled step runs, and ref, the reference form a journaled step
// runs (it records every write); fn is ref when the instruction has no
// fast form or its shape has none. Wave.form makes the choice; no form
// tests the journal flag to pick another. (kft sits with the other bytes
// and ref, which only journaled steps read, at the end: the struct stays
// 208 bytes.)
type instr struct {
	fn     execFn
	sub    int32
	next   int32  // index of the next instruction
	target int32  // branch target index, -1 when none or outside the program
	cost   uint32 // cost class (cSALU, ...), priced by the machine's Latency
	ndst   uint8
	nsrc   uint8
	ty     uint8
	shape  uint8 // the operand shape a shape handler runs (execCarry's carryShape)
	mreg   uint8 // a shape handler's lane-mask destination SGPR pair (carryShape), below 127
	creg   uint8 // a shape handler's lane-mask source SGPR pair (carries in), below 127
	kft    uint8 // k's float type (MODE context), 0 for an integer kernel
	dst    [2]operand
	src    [4]operand
	imm    int64 // the first immediate operand
	label  int64 // branch target byte address, -1 when none
	pc     uint64
	in     *isa.Inst
	name   string
	def    *opDef
	cf     *[6][64]uint32 // VALU fast paths: constant sources as registers (prefill)
	k      kernel         // the whole-register kernel execFast and execFastV run (kernelFn)
	ref    execFn
}

// Data types used to expand constants.
const (
	tyB32 uint8 = iota
	tyF32
	tyF16
	tyF64
	tyB64 // 64-bit unsigned/bitwise: literals zero-extend
	tyI64 // 64-bit signed: literals sign-extend
	tyB16
	tyV2F16
	tyV2I16
)

// cost classes
const (
	cSALU uint8 = iota
	cVALU
	cTrans
	cF64
	cSMEM
	cNone
)

// opDef is a row of the emulator's operation table.
type opDef struct {
	fn   execFn // the reference form
	sub  int32
	ndst uint8
	ty   uint8
	cost uint8
	// exact documents whether the result is bit-exact ("exact") or an
	// approximation within the ISA manual's bound ("approx: ...").
	exact string
	v     *vop   // vector ALU operations
	k     kernel // fast whole-register kernel
	cmp   bool   // a vector compare, v_cmp*/v_cmpx* (valu_cmp.go)
}

var opTable = map[string]*opDef{}

// def registers a mnemonic.
func def(name string, fn execFn, sub int32, ndst int, ty, cost uint8) *opDef {
	d := &opDef{fn: fn, sub: sub, ndst: uint8(ndst), ty: ty, cost: cost, exact: "exact"}
	opTable[name] = d
	return d
}

// gfx8Alias maps GFX8 names whose GFX9 meaning differs.
var gfx8Alias = map[string]string{
	"v_add_u32": "v_add_co_u32", "v_sub_u32": "v_sub_co_u32", "v_subrev_u32": "v_subrev_co_u32",
	"v_addc_u32": "v_addc_co_u32", "v_subb_u32": "v_subb_co_u32", "v_subbrev_u32": "v_subbrev_co_u32",
}

func execOffEnd(w *Wave, in *instr) error {
	return &ExecError{PC: in.pc, Op: "(none)", Msg: "execution ran past the end of the program"}
}

func execUnsupported(w *Wave, in *instr) error {
	if in.in == nil || in.in.Op == isa.OpUnknown {
		return &ExecError{PC: in.pc, Op: "(invalid)", Msg: invalidEncoding(in)}
	}
	return &ExecError{PC: in.pc, Op: in.name, Msg: "not implemented by the emulator"}
}

// invalidEncoding describes words the decoder rejected: they encode no
// instruction of the target (llvm-objdump prints them as .long).
func invalidEncoding(in *instr) string {
	if in.in == nil || in.in.Len < 4 {
		return "invalid instruction encoding: the code ends inside an instruction word"
	}
	return fmt.Sprintf("invalid instruction encoding 0x%08x: no %s instruction has it", in.in.Words[0], strings.ToUpper(in.in.Target.String()))
}

func execBadOperands(w *Wave, in *instr) error {
	return &ExecError{PC: in.pc, Op: in.name, Msg: "operands do not match the operation"}
}

// compile turns one decoded instruction into an instr.
func compile(t isa.Target, p *Program, i int, name string, inst *isa.Inst) instr {
	in := compile1(t, p, i, name, inst)
	if in.ref == nil {
		in.ref = in.fn
	}
	return in
}

// compile1 is compile: it sets fn, and ref when the instruction has a fast
// form.
func compile1(t isa.Target, p *Program, i int, name string, inst *isa.Inst) instr {
	in := instr{pc: p.Addrs[i], next: int32(i + 1), target: -1, label: -1, in: inst, name: name}
	if t == isa.GFX8 {
		if a, ok := gfx8Alias[name]; ok {
			name = a
		}
	}
	d := opTable[name]
	if d == nil {
		if inst.Enc == isa.EncMUBUF || inst.Enc == isa.EncMTBUF || inst.Enc == isa.EncFLAT || inst.Enc == isa.EncDS || inst.Enc == isa.EncMIMG {
			in.ref, in.fn, in.cost = execVMEM, execVMEMFast, uint32(cVALU)
		} else {
			in.fn = execUnsupported
		}
		return in
	}
	in.def, in.fn, in.sub, in.ty, in.ndst = d, d.fn, d.sub, d.ty, d.ndst
	nd := 0
	for k := range inst.Args {
		a := &inst.Args[k]
		if a.Kind == isa.KindLabel {
			// Imm is the byte offset from the end of the instruction.
			in.label = int64(p.Addrs[i]) + int64(max(inst.Len, 4)) + a.Imm
			if ti, ok := p.index[uint64(in.label)]; ok {
				in.target = int32(ti)
			} else if uint64(in.label) == p.end0() {
				in.target = int32(len(p.Insts))
			}
			continue
		}
		if a.Kind == isa.KindImm {
			in.imm = a.Imm
			if in.nsrc < 4 {
				in.src[in.nsrc] = operand{kind: okConst, val: uint64(a.Imm), width: 1}
				in.nsrc++
			}
			continue
		}
		op, ok := compileOperand(t, a, d.ty)
		if !ok {
			in.fn = execBadOperands
			return in
		}
		if nd < int(d.ndst) {
			in.dst[nd] = op
			nd++
			continue
		}
		if in.nsrc < 4 {
			in.src[in.nsrc] = op
			in.nsrc++
		}
	}
	in.cost = uint32(d.cost)
	if f := fastForm(&in, inst, name); f != nil {
		in.ref, in.fn = d.fn, f
	}
	return in
}

// end0 is the address after the last instruction before code is compiled.
func (p *Program) end0() uint64 {
	if len(p.Addrs) == 0 {
		return p.Base
	}
	n := p.Insts[len(p.Insts)-1].Len
	if n <= 0 {
		n = 4
	}
	return p.Addrs[len(p.Addrs)-1] + uint64(n)
}

func compileOperand(t isa.Target, a *isa.Operand, ty uint8) (operand, bool) {
	op := operand{width: a.Width, neg: a.Neg, abs: a.Abs, sext: a.Sext}
	if op.width == 0 {
		op.width = 1
	}
	if a.Type != isa.TypeNone {
		ty = isaType(a.Type, ty)
	}
	switch a.Kind {
	case isa.KindSGPR:
		op.kind, op.reg = okS, a.Reg
		if a.Reg >= 128 {
			return op, false
		}
	case isa.KindVGPR, isa.KindAGPR:
		op.kind, op.reg = okV, a.Reg
		if a.Reg > 255 {
			return op, false
		}
	case isa.KindTTMP:
		op.kind = okS
		if t == isa.GFX8 {
			op.reg = codeTTMP8 + a.Reg
		} else {
			op.reg = codeTTMP9 + a.Reg
		}
		if op.reg >= 128 {
			return op, false
		}
	case isa.KindSpecial:
		switch c := a.Reg; {
		case c < 128:
			op.kind, op.reg = okS, c
		case c == uint16(isa.SCC):
			op.kind = okSCC
		case c == uint16(isa.VCCZ):
			op.kind = okVCCZ
		case c == uint16(isa.EXECZ):
			op.kind = okEXECZ
		case c >= 235 && c <= 239:
			op.kind, op.val = okConst, apertureValue(c)
			if op.width == 2 {
				// A 64-bit read gives the aperture's base or limit
				// address: its high dword in the upper half, which is
				// how LLVM 19 lowers a cast of an LDS or private
				// pointer to a flat one (s_mov_b64 then the high SGPR).
				op.val <<= 32
			}
		default:
			op.kind = okZero
		}
	case isa.KindInline:
		op.kind, op.val = okConst, inlineValue(a.Reg, ty)
	case isa.KindLiteral:
		op.kind, op.val = okConst, literalValue(uint32(a.Imm), ty)
	default:
		return op, false
	}
	return op, true
}

func isaType(t isa.DataType, def uint8) uint8 {
	switch t {
	case isa.TypeF32:
		return tyF32
	case isa.TypeF16:
		return tyF16
	case isa.TypeF64:
		return tyF64
	case isa.TypeB64, isa.TypeU64:
		return tyB64
	case isa.TypeI64:
		return tyI64
	case isa.TypeB16, isa.TypeI16, isa.TypeU16:
		return tyB16
	case isa.TypeV2F16:
		return tyV2F16
	case isa.TypeV2I16:
		return tyV2I16
	case isa.TypeB32, isa.TypeI32, isa.TypeU32:
		return tyB32
	}
	return def
}

// apertureValue returns src_shared_base and friends as a 32-bit operand
// reads them: the high dword of the LDS and scratch apertures of the flat
// address space (SH_MEM_BASES holds the same bases, see shMemBases).
func apertureValue(code uint16) uint64 {
	switch code {
	case 235: // src_shared_base
		return 0x1_0000
	case 236: // src_shared_limit
		return 0x1_0000
	case 237: // src_private_base
		return 0x2_0000
	case 238: // src_private_limit
		return 0x2_0000
	}
	return 0
}

// inlineValue expands inline-constant code c for type ty.
func inlineValue(c uint16, ty uint8) uint64 {
	switch {
	case c >= 128 && c <= 192:
		return uint64(c - 128)
	case c >= 193 && c <= 208:
		return uint64(-int64(c - 192))
	}
	f := [...]float64{0.5, -0.5, 1, -1, 2, -2, 4, -4}
	var v float64
	switch {
	case c >= 240 && c <= 247:
		v = f[c-240]
	case c == 248:
		switch ty {
		case tyF16, tyB16, tyV2F16, tyV2I16:
			return 0x3118
		case tyF64, tyB64, tyI64:
			return 0x3fc45f306dc9c882
		}
		return 0x3e22f983
	default:
		return 0
	}
	switch ty {
	case tyF16, tyB16, tyV2F16, tyV2I16:
		return uint64(f32ToF16(float32(v), rmNearest, true))
	case tyF64, tyB64, tyI64:
		return f64bits(v)
	}
	return uint64(f32bits(float32(v)))
}

// literalValue expands a 32-bit literal: f64 operands take it as the high
// dword; 64-bit signed operands sign-extend it, unsigned ones zero-extend.
func literalValue(lit uint32, ty uint8) uint64 {
	switch ty {
	case tyF64:
		return uint64(lit) << 32
	case tyI64:
		return uint64(int64(int32(lit)))
	}
	return uint64(lit)
}

// OpPrecision says whether the emulator's result for the named operation
// is bit-exact or approximate (and how), and whether it is implemented.
func OpPrecision(name string) (string, bool) {
	d := opTable[strings.ToLower(name)]
	if d == nil {
		return "", false
	}
	return d.exact, true
}

// SupportedOps lists the operations the emulator implements.
func SupportedOps() []string {
	out := make([]string, 0, len(opTable))
	for n := range opTable {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

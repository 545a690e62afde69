package emu

import (
	"fmt"
	"strings"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

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
	p := &Program{Target: t, Base: base, Insts: insts, Index: make(map[uint64]int, len(insts))}
	addr := base
	for i := range insts {
		p.Addrs = append(p.Addrs, addr)
		p.Index[addr] = i
		n := insts[i].Len
		if n <= 0 {
			n = 4
		}
		addr += uint64(n)
	}
	p.Code = make([]core.Instr, len(insts)+1)
	for i := range insts {
		p.Code[i] = compile(t, p, i, names[i], &insts[i])
	}
	end := len(insts)
	p.Code[end] = core.Instr{Fn: ref.ExecOffEnd, Ref: ref.ExecOffEnd, Pc: addr, Next: int32(end), Name: "(end of program)"}
	return p
}

// opName returns the lower-case name of op (isa's generated String).
func opName(op isa.Op) string {
	if s, ok := any(op).(fmt.Stringer); ok {
		return strings.ToLower(s.String())
	}
	return ""
}

// compile turns one decoded instruction into an instr.
func compile(t isa.Target, p *Program, i int, name string, inst *isa.Inst) core.Instr {
	in := compile1(t, p, i, name, inst)
	if in.Ref == nil {
		in.Ref = in.Fn
	}
	return in
}

// compile1 is compile: it sets fn, and ref when the instruction has a fast
// form.
func compile1(t isa.Target, p *Program, i int, name string, inst *isa.Inst) core.Instr {
	in := core.Instr{Pc: p.Addrs[i], Next: int32(i + 1), Target: -1, Label: -1, In: inst, Name: name}
	if t == isa.GFX8 {
		if a, ok := ref.Gfx8Alias[name]; ok {
			name = a
		}
	}
	d := ref.OpTable[name]
	if d == nil {
		if inst.Enc == isa.EncMUBUF || inst.Enc == isa.EncMTBUF || inst.Enc == isa.EncFLAT || inst.Enc == isa.EncDS || inst.Enc == isa.EncMIMG {
			in.Ref, in.Fn, in.Cost = ref.ExecVMEM, fast.ExecVMEMFast, uint32(core.CVALU)
		} else {
			in.Fn = ref.ExecUnsupported
		}
		return in
	}
	in.Def, in.Fn, in.Sub, in.Ty, in.Ndst = d, d.Fn, d.Sub, d.Ty, d.Ndst
	nd := 0
	for k := range inst.Args {
		a := &inst.Args[k]
		if a.Kind == isa.KindLabel {
			// Imm is the byte offset from the end of the instruction.
			in.Label = int64(p.Addrs[i]) + int64(max(inst.Len, 4)) + a.Imm
			if ti, ok := p.Index[uint64(in.Label)]; ok {
				in.Target = int32(ti)
			} else if uint64(in.Label) == p.End0() {
				in.Target = int32(len(p.Insts))
			}
			continue
		}
		if a.Kind == isa.KindImm {
			in.Imm = a.Imm
			if in.Nsrc < 4 {
				in.Src[in.Nsrc] = core.Operand{Kind: core.OkConst, Val: uint64(a.Imm), Width: 1}
				in.Nsrc++
			}
			continue
		}
		op, ok := compileOperand(t, a, d.Ty)
		if !ok {
			in.Fn = ref.ExecBadOperands
			return in
		}
		if nd < int(d.Ndst) {
			in.Dst[nd] = op
			nd++
			continue
		}
		if in.Nsrc < 4 {
			in.Src[in.Nsrc] = op
			in.Nsrc++
		}
	}
	in.Cost = uint32(d.Cost)
	if f := fast.FastForm(&in, inst, name); f != nil {
		in.Ref, in.Fn = d.Fn, f
	}
	return in
}

func compileOperand(t isa.Target, a *isa.Operand, ty uint8) (core.Operand, bool) {
	op := core.Operand{Width: a.Width, Neg: a.Neg, Abs: a.Abs, Sext: a.Sext}
	if op.Width == 0 {
		op.Width = 1
	}
	if a.Type != isa.TypeNone {
		ty = core.IsaType(a.Type, ty)
	}
	switch a.Kind {
	case isa.KindSGPR:
		op.Kind, op.Reg = core.OkS, a.Reg
		if a.Reg >= 128 {
			return op, false
		}
	case isa.KindVGPR, isa.KindAGPR:
		op.Kind, op.Reg = core.OkV, a.Reg
		if a.Reg > 255 {
			return op, false
		}
	case isa.KindTTMP:
		op.Kind = core.OkS
		if t == isa.GFX8 {
			op.Reg = core.CodeTTMP8 + a.Reg
		} else {
			op.Reg = core.CodeTTMP9 + a.Reg
		}
		if op.Reg >= 128 {
			return op, false
		}
	case isa.KindSpecial:
		switch c := a.Reg; {
		case c < 128:
			op.Kind, op.Reg = core.OkS, c
		case c == uint16(isa.SCC):
			op.Kind = core.OkSCC
		case c == uint16(isa.VCCZ):
			op.Kind = core.OkVCCZ
		case c == uint16(isa.EXECZ):
			op.Kind = core.OkEXECZ
		case c >= 235 && c <= 239:
			op.Kind, op.Val = core.OkConst, core.ApertureValue(c)
			if op.Width == 2 {
				// A 64-bit read gives the aperture's base or limit
				// address: its high dword in the upper half, which is
				// how LLVM 19 lowers a cast of an LDS or private
				// pointer to a flat one (s_mov_b64 then the high SGPR).
				op.Val <<= 32
			}
		default:
			op.Kind = core.OkZero
		}
	case isa.KindInline:
		op.Kind, op.Val = core.OkConst, core.InlineValue(a.Reg, ty)
	case isa.KindLiteral:
		op.Kind, op.Val = core.OkConst, core.LiteralValue(uint32(a.Imm), ty)
	default:
		return op, false
	}
	return op, true
}

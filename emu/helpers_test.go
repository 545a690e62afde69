package emu

import (
	"context"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// Operand builders for hand-made instructions (LLVM print order:
// destinations first).
func sreg(n int) isa.Operand  { return isa.Operand{Kind: isa.KindSGPR, Reg: uint16(n), Width: 1} }
func sreg2(n int) isa.Operand { return isa.Operand{Kind: isa.KindSGPR, Reg: uint16(n), Width: 2} }
func sregN(n, w int) isa.Operand {
	return isa.Operand{Kind: isa.KindSGPR, Reg: uint16(n), Width: uint8(w)}
}
func vreg(n int) isa.Operand  { return isa.Operand{Kind: isa.KindVGPR, Reg: uint16(n), Width: 1} }
func vreg2(n int) isa.Operand { return isa.Operand{Kind: isa.KindVGPR, Reg: uint16(n), Width: 2} }
func spec(c isa.Special) isa.Operand {
	return isa.Operand{Kind: isa.KindSpecial, Reg: uint16(c), Width: 1}
}
func vcc() isa.Operand { return isa.Operand{Kind: isa.KindSpecial, Reg: uint16(isa.VCCLo), Width: 2} }
func execOp() isa.Operand {
	return isa.Operand{Kind: isa.KindSpecial, Reg: uint16(isa.ExecLo), Width: 2}
}
func m0() isa.Operand { return spec(isa.M0) }
func imm(v int64) isa.Operand {
	return isa.Operand{Kind: isa.KindImm, Imm: v}
}
func lit(v uint32) isa.Operand { return isa.Operand{Kind: isa.KindLiteral, Imm: int64(v)} }

// ic is an inline constant: integers -16..64 or the float codes.
func ic(v int) isa.Operand {
	c := uint16(128 + v)
	if v < 0 {
		c = uint16(192 - v)
	}
	return isa.Operand{Kind: isa.KindInline, Reg: c}
}

func icf(code uint16) isa.Operand { return isa.Operand{Kind: isa.KindInline, Reg: code} }

func label(addr int64) isa.Operand { return isa.Operand{Kind: isa.KindLabel, Imm: addr} }

// ti is a test instruction: a mnemonic and its decoded form.
type ti struct {
	name string
	in   isa.Inst
}

func I(name string, args ...isa.Operand) ti {
	n := 4
	for _, a := range args {
		if a.Kind == isa.KindLiteral {
			n = 8
		}
	}
	enc := encOf(name)
	if enc == isa.EncSMEM || enc == isa.EncVOP3 || enc == isa.EncVOP3P {
		n += 4
	}
	return ti{name: name, in: isa.Inst{Len: n, Enc: enc, Args: args}}
}

// with sets modifiers.
func (t ti) with(f func(m *isa.Modifiers)) ti { f(&t.in.Mods); return t }
func (t ti) enc(e isa.Encoding) ti {
	if e == isa.EncVOP3 && t.in.Enc != isa.EncVOP3 {
		t.in.Len += 4
	}
	t.in.Enc = e
	return t
}

func encOf(name string) isa.Encoding {
	switch {
	case len(name) > 2 && name[:2] == "s_":
		for _, p := range []string{"s_load", "s_buffer", "s_store", "s_atomic", "s_dcache", "s_memtime", "s_memrealtime", "s_atc"} {
			if len(name) >= len(p) && name[:len(p)] == p {
				return isa.EncSMEM
			}
		}
		return isa.EncSOP2
	case len(name) > 5 && name[:5] == "v_pk_":
		return isa.EncVOP3P
	}
	return isa.EncVOP2
}

// prog builds a program of hand-made instructions at base 0.
func prog(t isa.Target, code ...ti) *Program {
	names := make([]string, len(code))
	insts := make([]isa.Inst, len(code))
	addr := int64(0)
	for i, c := range code {
		names[i], insts[i] = c.name, c.in
		insts[i].Args = append([]isa.Operand(nil), c.in.Args...)
		for k := range insts[i].Args {
			if a := &insts[i].Args[k]; a.Kind == isa.KindLabel {
				a.Imm -= addr + int64(c.in.Len) // absolute in tests, relative in the contract
			}
		}
		addr += int64(c.in.Len)
	}
	return newProgramNamed(t, 0, names, insts)
}

// machine builds a GFX9 machine over code with default config.
func machine(t testing.TB, code ...ti) *Machine {
	t.Helper()
	p := prog(isa.GFX9, code...)
	return NewMachine(p, core.NewMemory(), core.DefaultConfig(isa.GFX9))
}

// run steps until the wave ends, failing on errors.
func run(t testing.TB, m *Machine) {
	t.Helper()
	res, err := m.Run(context.Background(), 100000)
	if err != nil {
		t.Fatalf("run: %v (stopped %v at 0x%x)", err, res.Reason, res.PC)
	}
}

func mustStep(t testing.TB, m *Machine) *StepRecord {
	t.Helper()
	r, err := m.Step()
	if err != nil {
		t.Fatalf("step at 0x%x: %v", m.PC(), err)
	}
	return r
}

package isa

import "math/bits"

// Image instructions (MIMG):
//
//	word 0: dmask [11:8], unorm [12], glc [13], da [14], r128/a16 [15], tfe [16], lwe [17], op [24:18], slc [25]
//	word 1: vaddr [7:0], vdata [15:8], srsrc [20:16] (register/4), ssamp [25:21] (register/4), d16 [31]
//
// The address width is the opcode's (the table's, as LLVM's disassembler
// keeps it); the data width follows the enabled components as LLVM
// computes it: popcount(dmask) (at least 1; 4 for gather4), halved with
// d16 on GFX9's packed-d16 targets, plus one with tfe. LLVM only widens to
// a width a variant of the opcode exists for, and only when the register
// tuple fits; otherwise it keeps the width of the variant it decoded.
//
// GFX8 keeps one 16-bit value per dword (unpacked d16) except gfx810, which
// packs two like GFX9: decode for it with FeatPackedD16.
func decodeMIMG(t Target, inst *Inst, w0, w1 uint32) error {
	f, err := memForm(t, inst, uint16(w0>>18&0x7f))
	if err != nil {
		return err
	}
	if w0&1 != 0 {
		return ErrInvalid // LLVM requires bit 0 clear
	}
	m := &inst.Mods
	m.DMask = uint8(w0 >> 8 & 0xf)
	m.Unorm = w0>>12&1 != 0
	m.GLC = w0>>13&1 != 0
	m.DA = w0>>14&1 != 0
	m.R128 = w0>>15&1 != 0
	m.TFE = w0>>16&1 != 0
	m.LWE = w0>>17&1 != 0
	m.SLC = w0>>25&1 != 0
	m.D16 = w1>>31&1 != 0
	if m.D16 && f.Flags.Has(FlagNoD16) {
		return ErrInvalid
	}
	hasSamp := false
	err = appendOperands(inst, f, func(s *OperandSpec) (op Operand, err error) {
		switch s.Field {
		case FieldVDATA:
			if _, err := vreg(s, w1>>8&0xff, s.Width); err != nil {
				return op, err // LLVM's first decode already fails
			}
			op, err = vreg(s, w1>>8&0xff, mimgDataWidth(packedD16(t, inst), f, m, w1>>8&0xff))
			if f.Flags.Has(FlagAtomic) && !m.GLC {
				op.Access = Read
			}
		case FieldVADDR:
			op, err = vreg(s, w1&0xff, s.Width)
		case FieldSRSRC:
			op, err = sgprTuple(t, s, uint16(w1>>16&0x1f)<<2)
		case FieldSSAMP:
			hasSamp = true
			op, err = sgprTuple(t, s, uint16(w1>>21&0x1f)<<2)
		default:
			err = ErrInvalid
		}
		return op, err
	})
	if err != nil {
		return err
	}
	if !hasSamp && w1>>21&0x1f != 0 {
		return ErrInvalid
	}
	return nil
}

// mimgDataWidth is the vdata width LLVM prints for an instruction whose
// vdata field is reg.
func mimgDataWidth(packed bool, f *Form, m *Modifiers, reg uint32) uint8 {
	n := bits.OnesCount8(m.DMask)
	if n == 0 {
		n = 1
	}
	if f.Flags.Has(FlagGather4) {
		n = 4
	}
	if m.D16 && packed {
		n = (n + 1) / 2
	}
	if m.TFE {
		n++
	}
	def := f.Operands[0].Width // the width of the variant LLVM decodes first
	var w int
	switch {
	case f.Flags.Has(FlagGather4):
		// Variants of 4 dwords, 2 (packed d16) and 5 (tfe).
		if n == 2 || n == 4 || n == 5 {
			w = n
		}
	case f.Flags.Has(FlagCmpswap):
		// Variants of 2 (32-bit) and 4 (64-bit) dwords.
		if n == 2 || n == 4 {
			w = n
		}
	case f.Flags.Has(FlagAtomic):
		// Variants of 1 and 2 dwords; LLVM's 4-dword lookup lands on a
		// 5-dword register class.
		switch n {
		case 1, 2:
			w = n
		case 4:
			w = 5
		}
	default:
		w = n
	}
	if w == 0 || int(reg)+w > 256 {
		return def
	}
	return uint8(w)
}

func printMIMG(p *printer, inst *Inst) {
	p.mnemonic(inst.Form.Mnemonic)
	p.memOperands(inst)
	m := &inst.Mods
	if m.DMask != 0 {
		p.str(" dmask:")
		p.hex(uint64(m.DMask))
	}
	p.flag(m.Unorm, "unorm")
	p.flag(m.GLC, "glc")
	p.flag(m.SLC, "slc")
	if m.R128 {
		if inst.Target == GFX9 {
			p.str(" a16")
		} else {
			p.str(" r128")
		}
	}
	p.flag(m.TFE, "tfe")
	p.flag(m.LWE, "lwe")
	p.flag(m.DA, "da")
	p.flag(m.D16, "d16")
}

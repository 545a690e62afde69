package isa

// FLAT, GLOBAL and SCRATCH instructions (one encoding; seg chooses):
//
//	word 0: offset [12:0] (GFX9), lds [13], seg [15:14], glc [16], slc [17], op [24:18]
//	word 1: vaddr [7:0], vdata [15:8], saddr [22:16], nv [23], vdst [31:24]
//
// GFX8 has FLAT only, without an offset (LLVM still prints the bits as
// one). On GFX9 FLAT takes an unsigned 13-bit offset and GLOBAL/SCRATCH a signed 13-bit one; GLOBAL/SCRATCH
// take an SGPR base (saddr) or none (0x7f, printed "off"); with an saddr,
// GLOBAL's vaddr is a 32-bit offset and SCRATCH has no vaddr. Atomics
// return the old value (write vdst) only with glc. The table's opcodes are
// seg<<7 | op.
func decodeFLAT(t Target, inst *Inst, w0, w1 uint32) error {
	seg := w0 >> 14 & 3
	if seg == 3 {
		return ErrInvalid
	}
	f, err := memForm(t, inst, uint16(seg<<7|w0>>18&0x7f))
	if err != nil {
		return err
	}
	m := &inst.Mods
	m.Seg = [3]Seg{SegFlat, SegScratch, SegGlobal}[seg]
	m.LDS = w0>>13&1 != 0
	m.GLC = w0>>16&1 != 0
	m.SLC = w0>>17&1 != 0
	m.NV = w1>>23&1 != 0
	saddr := uint16(w1 >> 16 & 0x7f)
	switch {
	case seg == 0:
		m.Offset = int32(w0 & 0x1fff) // LLVM prints it on GFX8 too
	default:
		m.Offset = int32(w0<<19) >> 19
	}
	if m.LDS && (!f.Flags.Has(FlagLDSOk) || m.NV) {
		return ErrInvalid
	}
	if seg == 0 && saddr != 0 {
		return ErrInvalid
	}
	noSaddr := saddr == 0x7f
	atomic := f.Flags.Has(FlagAtomic)
	return appendOperands(inst, f, func(s *OperandSpec) (op Operand, err error) {
		switch s.Field {
		case FieldVDST:
			if atomic && !m.GLC || m.LDS {
				return op, errOmit
			}
			op, err = vreg(s, w1>>24, s.Width)
		case FieldVADDR:
			switch {
			case seg == 0 || noSaddr:
				op, err = vreg(s, w1&0xff, s.Width)
			case seg == 1:
				op = off(s)
			default:
				op, err = vreg(s, w1&0xff, 1)
			}
		case FieldVDATA:
			op, err = vreg(s, w1>>8&0xff, s.Width)
		case FieldSADDR:
			if noSaddr {
				op = off(s)
				break
			}
			op, err = sdstOperand(t, s, saddr)
		default:
			err = ErrInvalid
		}
		return op, err
	})
}

func printFLAT(p *printer, inst *Inst) {
	p.mnemonic(inst.Form.Mnemonic)
	p.memOperands(inst)
	m := &inst.Mods
	if m.Offset != 0 {
		p.str(" offset:")
		p.dec(int64(m.Offset))
	}
	p.flag(m.GLC, "glc")
	p.flag(m.SLC, "slc")
	p.flag(m.LDS, "lds")
}

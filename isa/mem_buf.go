package isa

// Buffer instructions, MUBUF and MTBUF:
//
//	MUBUF word 0: offset [11:0], offen [12], idxen [13], glc [14], lds [16], slc [17], op [24:18]
//	MTBUF word 0: offset [11:0], offen [12], idxen [13], glc [14], op [18:15], dfmt [22:19], nfmt [25:23]
//	word 1: vaddr [7:0], vdata [15:8], srsrc [20:16] (register/4), slc [22] (MTBUF), tfe [23], soffset [31:24]
//
// vaddr holds the index (idxen), the offset (offen) or both (index first);
// LLVM prints "off" when neither is enabled. soffset is a scalar source:
// an SGPR, a special register or an inline constant, never a literal.

func decodeMUBUF(t Target, inst *Inst, w0, w1 uint32) error {
	f, err := memForm(t, inst, uint16(w0>>18&0x7f))
	if err != nil {
		return err
	}
	m := &inst.Mods
	m.LDS = w0>>16&1 != 0
	m.SLC = w0>>17&1 != 0
	if len(f.Operands) == 0 {
		// buffer_wbinvl1(_vol): no operands; LLVM rejects the address,
		// glc, lds and tfe bits and bit 15 (SI's addr64).
		if w0&(1<<12|1<<13|1<<14|1<<15|1<<16) != 0 || w1>>23&1 != 0 {
			return ErrInvalid
		}
		m.SLC = false
		return nil
	}
	switch {
	case m.LDS && !f.Flags.Has(FlagLDSOk) && !f.Flags.Has(FlagLDSOnly),
		!m.LDS && f.Flags.Has(FlagLDSOnly):
		return ErrInvalid
	}
	return bufCommon(t, inst, f, w0, w1, w1>>23&1 != 0)
}

func decodeMTBUF(t Target, inst *Inst, w0, w1 uint32) error {
	f, err := memForm(t, inst, uint16(w0>>15&0xf))
	if err != nil {
		return err
	}
	m := &inst.Mods
	m.DFmt = uint8(w0 >> 19 & 0xf)
	m.NFmt = uint8(w0 >> 23 & 7)
	m.SLC = w1>>22&1 != 0
	return bufCommon(t, inst, f, w0, w1, w1>>23&1 != 0)
}

// bufCommon decodes the fields MUBUF and MTBUF share.
func bufCommon(t Target, inst *Inst, f *Form, w0, w1 uint32, tfe bool) error {
	m := &inst.Mods
	m.Offset = int32(w0 & 0xfff)
	m.OffEn = w0>>12&1 != 0
	m.IdxEn = w0>>13&1 != 0
	m.GLC = w0>>14&1 != 0
	m.TFE = tfe
	if tfe && (f.Flags.Has(FlagNoTFE) || m.LDS) {
		return ErrInvalid
	}
	if f.Flags.Has(FlagLDSOnly) && (m.OffEn || m.IdxEn) {
		return ErrInvalid
	}
	return appendOperands(inst, f, func(s *OperandSpec) (op Operand, err error) {
		switch s.Field {
		case FieldVDATA:
			if m.LDS {
				return op, errOmit // the data goes to LDS; LLVM prints no vdata
			}
			w := s.Width
			if t == GFX8 && packedD16(t, inst) && f.Flags.Has(FlagD16|FlagFormat) {
				w = (w + 1) / 2 // the GFX8 rows give gfx801–gfx803's unpacked widths
			}
			if tfe {
				w++
			}
			op, err = vreg(s, w1>>8&0xff, w)
			if f.Flags.Has(FlagAtomic) && !m.GLC {
				op.Access = Read // only glc returns the old value
			}
		case FieldVADDR:
			if f.Flags.Has(FlagLDSOnly) {
				return op, errOmit
			}
			var w uint8
			if m.OffEn {
				w++
			}
			if m.IdxEn {
				w++
			}
			if w == 0 {
				op = off(s)
				break
			}
			op, err = vreg(s, w1&0xff, w)
		case FieldSRSRC:
			op, err = sgprTuple(t, s, uint16(w1>>16&0x1f)<<2)
		case FieldSOFFSET:
			op, err = srcOperand(nil, t, nil, s, uint16(w1>>24))
		default:
			err = ErrInvalid
		}
		return op, err
	})
}

// LLVM's names of the MTBUF data and number formats.
var (
	bufDataFormats = [16]string{"INVALID", "8", "16", "8_8", "32", "16_16", "10_11_11", "11_11_10",
		"10_10_10_2", "2_10_10_10", "8_8_8_8", "32_32", "16_16_16_16", "32_32_32", "32_32_32_32", "RESERVED_15"}
	bufNumFormats = [8]string{"UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "RESERVED_6", "FLOAT"}
)

// The MTBUF format LLVM leaves unprinted.
const (
	defaultDFmt = 1 // BUF_DATA_FORMAT_8
	defaultNFmt = 0 // BUF_NUM_FORMAT_UNORM
)

func printBuf(p *printer, inst *Inst) {
	p.mnemonic(inst.Form.Mnemonic)
	p.memOperands(inst)
	m := &inst.Mods
	if inst.Enc == EncMTBUF && (m.DFmt != defaultDFmt || m.NFmt != defaultNFmt) {
		p.str(" format:[")
		if m.DFmt != defaultDFmt {
			p.str("BUF_DATA_FORMAT_")
			p.str(bufDataFormats[m.DFmt])
			if m.NFmt != defaultNFmt {
				p.byte(',')
			}
		}
		if m.NFmt != defaultNFmt {
			p.str("BUF_NUM_FORMAT_")
			p.str(bufNumFormats[m.NFmt&7])
		}
		p.byte(']')
	}
	p.flag(m.IdxEn, "idxen")
	p.flag(m.OffEn, "offen")
	if m.Offset != 0 {
		p.str(" offset:")
		p.dec(int64(m.Offset))
	}
	ldsFirst := inst.Form.Flags.Has(FlagLDSOnly) // buffer_store_lds_dword prints lds before glc
	p.flag(m.LDS && ldsFirst, "lds")
	p.flag(m.GLC, "glc")
	p.flag(m.SLC, "slc")
	p.flag(m.LDS && !ldsFirst, "lds")
	p.flag(m.TFE, "tfe")
}

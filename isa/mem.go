package isa

// This file registers the memory-family decoders and printers (DS, MUBUF,
// MTBUF, MIMG, EXP, FLAT/GLOBAL/SCRATCH) and holds what they share. The
// families themselves are in mem_ds.go, mem_buf.go, mem_mimg.go and
// mem_flat.go; their table rows are isa/tables/mem.txt, harvested from LLVM
// 19 by isa/internal/harvest/mem.go.
//
// What each opcode does to memory (kind, access size, sign extension, d16,
// format components, atomic operation, return, DS addressing) is its
// MemInfo (meminfo.go, Op.Mem), from the memory fact words of mem.txt.
//
// Which words LLVM rejects is part of the contract: a register field an
// opcode does not use must be zero in DS (but is ignored in FLAT and MUBUF),
// some opcodes refuse the gds, lds or tfe bit (flag words gds-only, no-gds,
// no-mods, lds-ok, lds-only, no-tfe, no-d16), and a register tuple running
// past v255 or the SGPR file is invalid.
//
// Inst.Args, in LLVM's print order, for the emulator:
//
//	DS      [vdst] [addr] [data0] [data1]   as the opcode's row lists them;
//	        Mods.Offset (16-bit) or Mods.Offset0/Offset1 (offset2 rows), Mods.GDS
//	MUBUF   vdata (absent with lds), vaddr, srsrc (4), soffset
//	MTBUF   vdata, vaddr, srsrc (4), soffset; Mods.DFmt, Mods.NFmt
//	        vaddr is KindNone without idxen/offen, 1 dword with one of them,
//	        2 (index, then offset) with both; vdata has one more dword with tfe;
//	        atomics write vdata only with glc (Access says which)
//	MIMG    vdata (LLVM's width from dmask, d16, tfe), vaddr, srsrc (8), [ssamp (4)]
//	EXP     four sources, KindNone when disabled; with compr sources 0–1 and
//	        2–3 name the same register (two packed 16-bit values each)
//	FLAT    [vdst] vaddr [vdata] [saddr]: vdst is absent for stores, for
//	        atomics without glc and for loads to LDS; vaddr is 2 dwords for
//	        FLAT and for GLOBAL without saddr, 1 for GLOBAL with saddr and for
//	        SCRATCH without saddr, KindNone for SCRATCH with saddr; saddr is
//	        KindNone when off; Mods.Seg says FLAT, GLOBAL or SCRATCH

func init() {
	decoders[EncDS] = memDecoder(decodeDS)
	decoders[EncMUBUF] = memDecoder(decodeMUBUF)
	decoders[EncMTBUF] = memDecoder(decodeMTBUF)
	decoders[EncMIMG] = memDecoder(decodeMIMG)
	decoders[EncEXP] = memDecoder(decodeEXP)
	decoders[EncFLAT] = memDecoder(decodeFLAT)
	printers[EncDS] = printDS
	printers[EncMUBUF] = printBuf
	printers[EncMTBUF] = printBuf
	printers[EncMIMG] = printMIMG
	printers[EncEXP] = printEXP
	printers[EncFLAT] = printFLAT
}

// memDecoder wraps a family decoder: every memory encoding is two words,
// and a rejected word consumes only its first word, as in llvm-objdump.
func memDecoder(d func(t Target, inst *Inst, w0, w1 uint32) error) func(src []byte, t Target, inst *Inst) error {
	return func(src []byte, t Target, inst *Inst) error {
		w1, ok := word(src, 4)
		if !ok {
			inst.Len = 4
			return ErrTruncated
		}
		inst.Words[1] = w1
		inst.Len = 8
		if err := d(t, inst, inst.Words[0], w1); err != nil {
			inst.Len = 4
			inst.Form = nil
			inst.Args = inst.Args[:0]
			return err
		}
		return nil
	}
}

// memForm looks up the form of opcode and records it in inst.
func memForm(t Target, inst *Inst, opcode uint16) (*Form, error) {
	f := lookupForm(t, inst.Enc, opcode)
	if f == nil {
		return nil, ErrInvalid
	}
	inst.Form = f
	inst.Op = f.Op
	return f, nil
}

// vreg returns the VGPR operand reg of width dwords for spec s, or
// ErrInvalid when the tuple runs past v255.
func vreg(s *OperandSpec, reg uint32, width uint8) (Operand, error) {
	op := Operand{Kind: KindVGPR, Field: s.Field, Access: s.Access, Type: s.Type, Reg: uint16(reg), Width: width}
	if reg+uint32(width) > 256 {
		return op, ErrInvalid
	}
	return op, nil
}

// off is the operand LLVM prints as "off": an address or source the
// instruction does not use (MUBUF vaddr without offen/idxen, GLOBAL/SCRATCH
// saddr 0x7f, a disabled EXP source).
func off(s *OperandSpec) Operand {
	return Operand{Kind: KindNone, Field: s.Field, Access: s.Access, Type: s.Type}
}

// sgprTuple decodes an SGPR-tuple field (srsrc, ssamp: the field holds the
// register number divided by four) as a scalar operand of the spec's
// width: SGPRs, trap temporaries, or a 64-bit special register, which
// LLVM prints with an "Invalid register" comment (see regClassComment).
func sgprTuple(t Target, s *OperandSpec, code uint16) (Operand, error) {
	if code <= srcSGPRMax || ttmpIndex(t, code) >= 0 {
		return sdstOperand(t, s, code)
	}
	op := Operand{Kind: KindSpecial, Field: s.Field, Access: s.Access, Type: s.Type, Reg: code, Width: 2}
	if !special64(t, code) {
		return op, ErrInvalid
	}
	return op, nil
}

// regClassComment is the comment LLVM appends to a register operand that
// decodes but lies outside the field's register class ("" when none).
func regClassComment(inst *Inst, op *Operand) string {
	if op.Kind != KindSpecial {
		return ""
	}
	switch op.Field {
	case FieldSRSRC:
		if inst.Enc == EncMIMG {
			return "/*Invalid register, operand has 'SReg_256' register class*/"
		}
		return "/*Invalid register, operand has 'SReg_128' register class*/"
	case FieldSSAMP:
		return "/*Invalid register, operand has 'SReg_128' register class*/"
	case FieldSOFFSET:
		if op.Reg == uint16(LDSDirect) {
			return "/*Invalid register, operand has 'SReg_32' register class*/"
		}
	}
	return ""
}

// packedD16 reports whether d16 image and buffer-format data is packed two
// values per dword: on GFX9, and on gfx810 (FeatPackedD16).
func packedD16(t Target, inst *Inst) bool {
	return t == GFX9 || inst.Features&FeatPackedD16 != 0
}

// memOperands prints an instruction's operands, "off" for KindNone.
func (p *printer) memOperands(inst *Inst) {
	for k := range inst.Args {
		op := &inst.Args[k]
		p.sep()
		if op.Kind == KindNone {
			p.str("off")
			continue
		}
		p.operand(*op)
		p.str(regClassComment(inst, op))
	}
}

// flag appends " name" when on.
func (p *printer) flag(on bool, name string) {
	if on {
		p.byte(' ')
		p.str(name)
	}
}

// ---- EXP ----

// decodeEXP decodes an export: enable mask, target, compr, done, vm and
// four VGPR sources (with compr, sources 0–1 read vsrc0 and 2–3 vsrc1,
// each holding two packed 16-bit values).
func decodeEXP(t Target, inst *Inst, w0, w1 uint32) error {
	f, err := memForm(t, inst, 0)
	if err != nil {
		return err
	}
	m := &inst.Mods
	m.ExpEn = uint8(w0 & 0xf)
	m.ExpTarget = uint8(w0 >> 4 & 0x3f)
	m.Compr = w0>>10&1 != 0
	m.Done = w0>>11&1 != 0
	m.VM = w0>>12&1 != 0
	for k := 0; k < 4 && k < len(f.Operands); k++ {
		fi := k
		if m.Compr {
			fi = k / 2
		}
		s := &f.Operands[fi]
		if m.ExpEn>>k&1 == 0 {
			inst.Args = append(inst.Args, off(s))
			continue
		}
		op, err := vreg(s, w1>>(8*fi)&0xff, 1)
		if err != nil {
			return err
		}
		inst.Args = append(inst.Args, op)
	}
	return nil
}

// expTargetName is LLVM's name of export target tgt.
func expTargetName(tgt uint8) (string, int, bool) {
	switch {
	case tgt <= 7:
		return "mrt", int(tgt), true
	case tgt == 8:
		return "mrtz", -1, true
	case tgt == 9:
		return "null", -1, true
	case tgt >= 12 && tgt <= 15:
		return "pos", int(tgt) - 12, true
	case tgt >= 32:
		return "param", int(tgt) - 32, true
	}
	return "invalid_target_", int(tgt), false
}

func printEXP(p *printer, inst *Inst) {
	p.mnemonic(inst.Form.Mnemonic)
	p.byte(' ')
	name, n, _ := expTargetName(inst.Mods.ExpTarget)
	p.str(name)
	if n >= 0 {
		p.dec(int64(n))
	}
	p.memOperands(inst)
	m := &inst.Mods
	p.flag(m.Done, "done")
	p.flag(m.Compr, "compr")
	p.flag(m.VM, "vm")
}

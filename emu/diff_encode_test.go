package emu_test

// A small instruction encoder for FuzzEnginesAgree: each form of the isa
// tables encoded from the operand codes its fields take (bit layouts of
// the GCN3/Vega manuals' microcode formats), checked by decoding the words
// back with isa.Decode (which rejects what LLVM rejects).

import (
	"encoding/binary"

	"github.com/wavedbg/wavedbg/isa"
)

// fields are an instruction's field values: register codes (9-bit source
// codes for VOP sources, VGPR numbers for VGPR fields), immediates and
// modifiers.
type fields struct {
	code    map[isa.Field]uint32
	lit     uint32 // the literal, when a source is 255
	offset  uint32 // memory offset (offset0 | offset1<<8 for DS)
	glc     bool
	slc     bool
	offen   bool
	idxen   bool
	imm     bool   // SMEM: offset is an immediate
	dfmt    uint32 // MTBUF
	nfmt    uint32
	vop3mod uint32 // VOP3 word 0 bits 15..8 (clamp, abs); VOP3P: clamp, op_sel_hi2, op_sel, neg_hi
	vop3neg uint32 // VOP3 word 1 bits 31..27 (neg, omod); VOP3P: neg, op_sel_hi
	ext     uint32 // an e32 form's SDWA (0xf9) or DPP (0xfa) source code, which replaces src0 ...
	extWord uint32 // ... and its word (src0 in bits 7..0)
}

// encode returns f's words for target t, or nil when the form's fields do
// not fit the encoding.
func encode(t isa.Target, form *isa.Form, f *fields) []byte {
	c := func(fl isa.Field) uint32 { return f.code[fl] }
	op := uint32(form.Opcode)
	var ws []uint32
	switch form.Enc {
	case isa.EncSOP2:
		ws = []uint32{0x80000000 | op<<23 | c(isa.FieldSDST)<<16 | c(isa.FieldSSRC1)<<8 | c(isa.FieldSSRC0)}
	case isa.EncSOP1:
		ws = []uint32{0xbe800000 | c(isa.FieldSDST)<<16 | op<<8 | c(isa.FieldSSRC0)}
	case isa.EncSOPC:
		ws = []uint32{0xbf000000 | op<<16 | c(isa.FieldSSRC1)<<8 | c(isa.FieldSSRC0)}
	case isa.EncSOPK:
		ws = []uint32{0xb0000000 | op<<23 | c(isa.FieldSDST)<<16 | c(isa.FieldSIMM16)&0xffff}
		if _, ok := f.code[isa.FieldSIMM32]; ok {
			ws = append(ws, c(isa.FieldSIMM32))
		}
	case isa.EncSOPP:
		ws = []uint32{0xbf800000 | op<<16 | c(isa.FieldSIMM16)&0xffff}
	case isa.EncVOP1:
		// v_readfirstlane_b32's SGPR destination sits in vdst
		ws = []uint32{0x7e000000 | (c(isa.FieldVDST)|c(isa.FieldSDST))<<17 | op<<9 | c(isa.FieldSRC0)}
	case isa.EncVOP2:
		ws = []uint32{op<<25 | c(isa.FieldVDST)<<17 | c(isa.FieldVSRC1)<<9 | c(isa.FieldSRC0)}
	case isa.EncVOPC:
		ws = []uint32{0x7c000000 | op<<17 | c(isa.FieldVSRC1)<<9 | c(isa.FieldSRC0)}
	case isa.EncVOP3:
		w0 := 0xd0000000 | op<<16 | c(isa.FieldVDST)&0xff
		if sd, ok := f.code[isa.FieldSDST]; ok {
			if _, v := f.code[isa.FieldVDST]; v {
				w0 |= sd << 8 // VOP3b
			} else {
				w0 |= sd & 0xff // a compare's SGPR destination sits in vdst
			}
		} else {
			w0 |= f.vop3mod << 8
		}
		ws = []uint32{w0, f.vop3neg<<27 | c(isa.FieldSRC2)<<18 | c(isa.FieldSRC1)<<9 | c(isa.FieldSRC0)}
	case isa.EncVOP3P:
		ws = []uint32{0xd3800000 | op<<16 | f.vop3mod<<8 | c(isa.FieldVDST)&0xff,
			f.vop3neg<<27 | c(isa.FieldSRC2)<<18 | c(isa.FieldSRC1)<<9 | c(isa.FieldSRC0)}
	case isa.EncSMEM:
		w0 := 0xc0000000 | op<<18 | b(f.imm)<<17 | b(f.glc)<<16 | c(isa.FieldSDATA)<<6 | c(isa.FieldSBASE)>>1
		w1 := f.offset & 0xfffff
		if !f.imm {
			w1 = c(isa.FieldSOFFSET)
		}
		ws = []uint32{w0, w1}
	case isa.EncDS:
		ws = []uint32{0xd8000000 | op<<17 | f.offset&0xffff,
			c(isa.FieldVDST)<<24 | c(isa.FieldDATA1)<<16 | c(isa.FieldDATA0)<<8 | c(isa.FieldADDR)}
	case isa.EncMUBUF, isa.EncMTBUF:
		w0 := 0xe0000000 | op<<18 | b(f.slc)<<17 | b(f.glc)<<14 | b(f.idxen)<<13 | b(f.offen)<<12 | f.offset&0xfff
		w1 := c(isa.FieldSOFFSET)<<24 | c(isa.FieldSRSRC)>>2<<16 | c(isa.FieldVDATA)<<8 | c(isa.FieldVADDR)
		if form.Enc == isa.EncMTBUF {
			w0 = 0xe8000000 | f.nfmt<<23 | f.dfmt<<19 | op<<15 | b(f.glc)<<14 | b(f.idxen)<<13 | b(f.offen)<<12 | f.offset&0xfff
			w1 |= b(f.slc) << 22
		}
		ws = []uint32{w0, w1}
	case isa.EncFLAT:
		ws = []uint32{0xdc000000 | (op&0x7f)<<18 | b(f.slc)<<17 | b(f.glc)<<16 | op>>7<<14 | f.offset&0x1fff,
			c(isa.FieldVDST)<<24 | c(isa.FieldSADDR)<<16 | c(isa.FieldVDATA)<<8 | c(isa.FieldVADDR)}
	default:
		return nil
	}
	switch {
	case f.ext != 0 && (form.Enc == isa.EncVOP1 || form.Enc == isa.EncVOP2 || form.Enc == isa.EncVOPC):
		ws[0] = ws[0]&^0x1ff | f.ext
		ws = append(ws, f.extWord)
	case has255(form, f):
		ws = append(ws, f.lit)
	}
	out := make([]byte, 0, 4*len(ws))
	for _, w := range ws {
		out = binary.LittleEndian.AppendUint32(out, w)
	}
	return out
}

// has255 reports whether a 32-bit-encoded (e32 or scalar) form has a
// literal source.
func has255(form *isa.Form, f *fields) bool {
	switch form.Enc {
	case isa.EncSOP2, isa.EncSOP1, isa.EncSOPC, isa.EncVOP1, isa.EncVOP2, isa.EncVOPC:
		return f.code[isa.FieldSSRC0] == 255 || f.code[isa.FieldSSRC1] == 255 || f.code[isa.FieldSRC0] == 255
	}
	return false
}

func b(v bool) uint32 {
	if v {
		return 1
	}
	return 0
}

// valid reports whether text decodes, whole, to form's operation.
func valid(t isa.Target, form *isa.Form, text []byte) bool {
	in, err := isa.Decode(text, t)
	return err == nil && in.Len == len(text) && in.Op == form.Op
}

// formsOf returns target t's forms of encoding enc.
func formsOf(t isa.Target, enc isa.Encoding) []*isa.Form {
	var fs []*isa.Form
	for op := range 1 << 10 {
		if f := isa.LookupForm(t, enc, uint16(op)); f != nil {
			fs = append(fs, f)
		}
	}
	return fs
}

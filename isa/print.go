package isa

import (
	"strconv"
	"sync"
)

// Symbolizer names a code address (a byte offset in the section) for
// branch targets; it returns false when no symbol covers it.
type Symbolizer func(addr uint64) (name string, ok bool)

// printer appends an instruction's LLVM text to buf. Family printers write
// through its helpers: str and byte for raw text, operand for a register or
// constant, and sep before each operand after the first.
type printer struct {
	buf []byte
	pc  uint64     // byte address of the instruction (branch targets are relative to it)
	sym Symbolizer // may be nil
	t   Target
	n   int // operands printed so far, for sep

	cuts []int // where each sep began, when non-nil (OperandTexts)
}

func (p *printer) str(s string) { p.buf = append(p.buf, s...) }
func (p *printer) byte(c byte)  { p.buf = append(p.buf, c) }

// dec appends v in decimal.
func (p *printer) dec(v int64) { p.buf = strconv.AppendInt(p.buf, v, 10) }

// hex appends v as LLVM's formatHex does: "0x" and lower-case digits.
func (p *printer) hex(v uint64) {
	p.buf = append(p.buf, "0x"...)
	p.buf = strconv.AppendUint(p.buf, v, 16)
}

// mnemonic appends the mnemonic and resets the operand separator.
func (p *printer) mnemonic(m string) {
	p.str(m)
	p.n = 0
}

// sep appends " " before the first operand and ", " before later ones.
func (p *printer) sep() {
	if p.cuts != nil {
		p.cuts = append(p.cuts, len(p.buf))
	}
	if p.n == 0 {
		p.byte(' ')
	} else {
		p.str(", ")
	}
	p.n++
}

// String returns the instruction's text as llvm-objdump prints it, for an
// instruction at address 0 without symbols (branch targets print as
// LLVM's relative immediates either way).
func (i *Inst) String() string { return string(i.AppendText(nil, 0, nil)) }

// Format returns the instruction's text for an instruction at byte address
// pc, with branch targets named by sym (which may be nil): the text, then
// for a branch the target as llvm-objdump shows it in its comment,
// "<sym+0xOFF>" (or "<0xADDR>" without a symbol).
func (i *Inst) Format(pc uint64, sym Symbolizer) string {
	b := i.AppendText(nil, pc, sym)
	if tgt, ok := i.BranchTarget(pc); ok && i.Enc == EncSOPP {
		b = append(b, " <"...)
		if sym != nil {
			if name, ok := sym(tgt); ok {
				b = append(b, name...)
				return string(append(b, '>'))
			}
		}
		b = append(b, "0x"...)
		b = strconv.AppendUint(b, tgt, 16)
		b = append(b, '>')
	}
	return string(b)
}

// AppendText appends the instruction's text, as llvm-objdump -d prints it
// for an instruction at byte address pc, to dst. sym, which may be nil,
// names branch targets.
func (i *Inst) AppendText(dst []byte, pc uint64, sym Symbolizer) []byte {
	p := printerPool.Get().(*printer)
	*p = printer{buf: dst, pc: pc, sym: sym, t: i.Target}
	if int(i.Enc) < len(printers) && printers[i.Enc] != nil && i.Form != nil {
		printers[i.Enc](p, i)
	} else {
		p.str("<invalid>")
	}
	dst = p.buf
	*p = printer{}
	printerPool.Put(p)
	return dst
}

// printerPool recycles printers: the family printers are called through a
// table, so a printer on AppendText's stack would escape anyway.
var printerPool = sync.Pool{New: func() any { return new(printer) }}

// operands appends every argument in order, each after sep.
func (p *printer) operands(args []Operand) {
	for k := range args {
		p.sep()
		p.operand(args[k])
	}
}

// operand appends one operand as LLVM prints it: s5, s[4:5], v[0:3], ttmp2,
// vcc, exec_lo, m0, an inline constant or literal per the operand's type,
// or an immediate in decimal. Source modifiers (neg, abs, sext) are the
// family printer's business.
func (p *printer) operand(op Operand) {
	switch op.Kind {
	case KindSGPR:
		p.reg("s", op.Reg, op.Width)
	case KindVGPR:
		p.reg("v", op.Reg, op.Width)
	case KindAGPR:
		p.reg("a", op.Reg, op.Width)
	case KindTTMP:
		p.reg("ttmp", op.Reg, op.Width)
	case KindSpecial:
		if op.Width > 2 && op.Reg != srcNull {
			// LLVM decodes a pair special where a wider SGPR tuple belongs
			// and prints it with a complaint.
			p.str(specialName(op.Reg, 2))
			p.str("/*Invalid register, operand has 'SReg_")
			p.dec(32 * int64(op.Width))
			p.str("' register class*/")
			return
		}
		p.str(specialName(op.Reg, op.Width))
	case KindInline:
		p.constant(InlineValue(op.Reg, op.Type), op.Type)
	case KindLiteral:
		v := uint64(uint32(op.Imm))
		if op.Type == TypeF64 {
			v <<= 32
		}
		p.constant(v, op.Type)
	case KindImm, KindLabel:
		p.dec(op.Imm)
	default:
		p.str("<none>")
	}
}

// reg appends a register or register tuple: v7, s[4:5].
func (p *printer) reg(prefix string, r uint16, width uint8) {
	p.str(prefix)
	if width <= 1 {
		p.dec(int64(r))
		return
	}
	p.byte('[')
	p.dec(int64(r))
	p.byte(':')
	p.dec(int64(r) + int64(width) - 1)
	p.byte(']')
}

// specialName is LLVM's name for special register code c read as width dwords.
func specialName(c uint16, width uint8) string {
	if width == 2 {
		switch c {
		case 102:
			return "flat_scratch"
		case 104:
			return "xnack_mask"
		case 106:
			return "vcc"
		case 108:
			return "tba"
		case 110:
			return "tma"
		case 126:
			return "exec"
		}
	}
	switch c {
	case 102:
		return "flat_scratch_lo"
	case 103:
		return "flat_scratch_hi"
	case 104:
		return "xnack_mask_lo"
	case 105:
		return "xnack_mask_hi"
	case 106:
		return "vcc_lo"
	case 107:
		return "vcc_hi"
	case 108:
		return "tba_lo"
	case 109:
		return "tba_hi"
	case 110:
		return "tma_lo"
	case 111:
		return "tma_hi"
	case 124:
		return "m0"
	case srcNull:
		return "null"
	case 126:
		return "exec_lo"
	case 127:
		return "exec_hi"
	case 235:
		return "src_shared_base"
	case 236:
		return "src_shared_limit"
	case 237:
		return "src_private_base"
	case 238:
		return "src_private_limit"
	case 239:
		return "src_pops_exiting_wave_id"
	case 251:
		return "src_vccz"
	case 252:
		return "src_execz"
	case 253:
		return "src_scc"
	case 254:
		return "src_lds_direct"
	}
	return "<unknown>"
}

// constant appends the value v of an operand of type t the way LLVM's
// printImmediate16/32/64 do: small integers in decimal, the values of the
// float inline constants by name (1.0, 0.15915494), anything else in hex.
func (p *printer) constant(v uint64, t DataType) {
	switch typeBits(t) {
	case 16:
		s := int64(int16(v))
		if s >= -16 && s <= 64 {
			p.dec(s)
			return
		}
		for i, c := range fp16Consts {
			if uint16(v) == c {
				p.str(fpConstText[i])
				return
			}
		}
		p.hex(v & 0xffff)
	case 64:
		s := int64(v)
		if s >= -16 && s <= 64 {
			p.dec(s)
			return
		}
		for i, c := range fp64Consts {
			if v == c {
				if i == 8 {
					p.str(inv2pi64Text)
				} else {
					p.str(fpConstText[i])
				}
				return
			}
		}
		if t == TypeF64 {
			p.hex(v >> 32)
		} else {
			p.hex(v)
		}
	default:
		s := int64(int32(v))
		if s >= -16 && s <= 64 {
			p.dec(s)
			return
		}
		for i, c := range fp32Consts {
			if uint32(v) == c {
				p.str(fpConstText[i])
				return
			}
		}
		p.hex(uint64(uint32(v)))
	}
}

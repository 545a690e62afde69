package isa

import "math/bits"

// DS (LDS/GDS) instructions:
//
//	word 0: offset0 [7:0], offset1 [15:8], gds [16], op [24:17]
//	word 1: addr [7:0], data0 [15:8], data1 [23:16], vdst [31:24]
//
// LLVM rejects a word whose unused register fields are not zero.
func decodeDS(t Target, inst *Inst, w0, w1 uint32) error {
	f, err := memForm(t, inst, uint16(w0>>17&0xff))
	if err != nil {
		return err
	}
	m := &inst.Mods
	m.Offset0 = uint8(w0)
	m.Offset1 = uint8(w0 >> 8)
	m.GDS = w0>>16&1 != 0
	if !f.Flags.Has(FlagOffset2) {
		m.Offset = int32(w0 & 0xffff)
	}
	switch {
	case f.Flags.Has(FlagNoMods) && w0&0x1ffff != 0,
		f.Flags.Has(FlagGDSOnly) && !m.GDS,
		f.Flags.Has(FlagNoGDS) && m.GDS:
		return ErrInvalid
	}
	used := uint32(0)
	for k := range f.Operands {
		s := &f.Operands[k]
		var sh uint
		switch s.Field {
		case FieldADDR:
			sh = 0
		case FieldDATA0:
			sh = 8
		case FieldDATA1:
			sh = 16
		case FieldVDST:
			sh = 24
		default:
			return ErrInvalid
		}
		used |= 0xff << sh
		op, err := vreg(s, w1>>sh&0xff, s.Width)
		if err != nil {
			return err
		}
		inst.Args = append(inst.Args, op)
	}
	if w1&^used != 0 {
		return ErrInvalid
	}
	return nil
}

func printDS(p *printer, inst *Inst) {
	p.mnemonic(inst.Form.Mnemonic)
	p.memOperands(inst)
	m := &inst.Mods
	switch {
	case inst.Form.Flags.Has(FlagOffset2):
		if m.Offset0 != 0 {
			p.str(" offset0:")
			p.dec(int64(m.Offset0))
		}
		if m.Offset1 != 0 {
			p.str(" offset1:")
			p.dec(int64(m.Offset1))
		}
	case inst.Form.Flags.Has(FlagSwizzle):
		p.swizzle(uint16(m.Offset))
	case m.Offset != 0:
		p.str(" offset:")
		p.dec(int64(m.Offset))
	}
	p.flag(m.GDS, "gds")
}

// Swizzle offset encodings of ds_swizzle_b32.
const (
	swzQuadPerm      = 0x8000 // bits 15:8 = 0x80: four 2-bit lane selects
	swzQuadPermMask  = 0xff00
	swzBitmaskMask   = 0x8000 // bit 15 clear: and/or/xor masks of 5 bits each
	swzBitmaskAllOne = 0x1f
)

// swizzle appends ds_swizzle_b32's offset the way LLVM prints it: nothing
// for 0, a symbolic swizzle(...) macro when one describes the pattern, the
// decimal value otherwise.
func (p *printer) swizzle(imm uint16) {
	if imm == 0 {
		return
	}
	p.str(" offset:")
	switch {
	case imm&swzQuadPermMask == swzQuadPerm:
		p.str("swizzle(QUAD_PERM")
		for i := 0; i < 4; i++ {
			p.byte(',')
			p.dec(int64(imm >> (2 * i) & 3))
		}
		p.byte(')')
	case imm&swzBitmaskMask == 0:
		and, or, xor := imm&0x1f, imm>>5&0x1f, imm>>10&0x1f
		switch {
		case and == swzBitmaskAllOne && or == 0 && bits.OnesCount16(xor) == 1:
			p.str("swizzle(SWAP,")
			p.dec(int64(xor))
			p.byte(')')
		case and == swzBitmaskAllOne && or == 0 && xor > 0 && (xor+1)&xor == 0:
			p.str("swizzle(REVERSE,")
			p.dec(int64(xor) + 1)
			p.byte(')')
		default:
			group := swzBitmaskAllOne - and + 1
			if group > 1 && group&(group-1) == 0 && or < group && xor == 0 {
				p.str("swizzle(BROADCAST,")
				p.dec(int64(group))
				p.byte(',')
				p.dec(int64(or))
				p.byte(')')
				return
			}
			p.str("swizzle(BITMASK_PERM,\"")
			p0 := (0&and | or) ^ xor
			p1 := (0x1f&and | or) ^ xor
			for b := uint16(0x10); b > 0; b >>= 1 {
				switch {
				case p0&b == p1&b && p0&b == 0:
					p.byte('0')
				case p0&b == p1&b:
					p.byte('1')
				case p0&b == 0:
					p.byte('p')
				default:
					p.byte('i')
				}
			}
			p.str("\")")
		}
	default:
		p.dec(int64(imm))
	}
}

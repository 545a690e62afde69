package isa

// Assembling the memory encodings: DS, MUBUF, MTBUF, MIMG, FLAT (with
// GLOBAL and SCRATCH) and EXP. Bit layouts are the decoders' (mem_*.go).

import (
	"math/bits"
	"strings"
)

func init() {
	encoders[EncDS] = encDS
	encoders[EncMUBUF] = encBuf
	encoders[EncMTBUF] = encBuf
	encoders[EncMIMG] = encMIMG
	encoders[EncFLAT] = encFLAT
	encoders[EncEXP] = encEXP
}

// vregAny returns VGPR operand o's number, which may be any width.
func vregAny(o *asmOp) (uint32, error) {
	if o.kind != opReg || o.rk != KindVGPR || o.neg || o.abs || o.sext {
		return 0, errAt(o, msgInvalidOperand)
	}
	return uint32(o.reg), nil
}

// vregN returns VGPR operand o's number, which must be width dwords.
func vregN(o *asmOp, width uint8) (uint32, error) {
	r, err := vregAny(o)
	if err == nil && o.width != width {
		err = errAt(o, msgInvalidOperand)
	}
	return r, err
}

// sgprTupleCode returns the code of a 4- or 8-dword SGPR tuple operand
// (srsrc, ssamp).
func (a *asmLine) sgprTupleCode(o *asmOp, width uint8) (uint32, error) {
	if o.kind != opReg || (o.rk != KindSGPR && o.rk != KindTTMP) || o.width != width {
		return 0, errAt(o, msgInvalidOperand)
	}
	c, err := a.src(o, &OperandSpec{Width: width}, allowScalar)
	return uint32(c), err
}

// flags reads the bare modifiers names, in order, as bits.
func (a *asmLine) flags(names ...string) ([]bool, error) {
	out := make([]bool, len(names))
	for i, n := range names {
		v, err := a.flag(n)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func encDS(a *asmLine) error {
	f := a.form
	var fields [4]uint32 // addr, data0, data1, vdst
	k := 0
	for i := range f.Operands {
		s := &f.Operands[i]
		if k == len(a.ops) {
			return a.tooFew()
		}
		o := &a.ops[k]
		k++
		r, err := vregN(o, s.Width)
		if err != nil {
			return err
		}
		switch s.Field {
		case FieldADDR:
			fields[0] = r
		case FieldDATA0:
			fields[1] = r
		case FieldDATA1:
			fields[2] = r
		case FieldVDST:
			fields[3] = r
		}
	}
	if err := a.extra(k); err != nil {
		return err
	}
	var off uint32
	switch {
	case f.Flags.Has(FlagNoMods):
	case f.Flags.Has(FlagOffset2):
		o0, err := a.intMod("offset0", 0, 255, 0)
		if err != nil {
			return err
		}
		o1, err := a.intMod("offset1", 0, 255, 0)
		if err != nil {
			return err
		}
		off = uint32(o0) | uint32(o1)<<8
	case f.Flags.Has(FlagSwizzle):
		if m := a.mod("offset"); m != nil {
			v, err := swizzleOffset(m)
			if err != nil {
				return err
			}
			off = v
		}
	default:
		o, err := a.intModMsg("offset", 0, 0xffff, 0, "expected a 16-bit unsigned offset")
		if err != nil {
			return err
		}
		off = uint32(o)
	}
	gds := false
	if !f.Flags.Has(FlagNoMods) || f.Flags.Has(FlagGDSOnly) {
		var err error
		if gds, err = a.flag("gds"); err != nil {
			return err
		}
	}
	if f.Flags.Has(FlagGDSOnly) && !gds || f.Flags.Has(FlagNoGDS) && gds {
		return &AsmError{Col: a.mnCol, Msg: msgInvalidOperand}
	}
	a.emit(0xd8000000|uint32(f.Opcode)<<17|b2u(gds)<<16|off,
		fields[3]<<24|fields[2]<<16|fields[1]<<8|fields[0])
	return nil
}

// swizzleOffset parses ds_swizzle_b32's offset: a number or swizzle(...).
func swizzleOffset(m *asmMod) (uint32, error) {
	bad := &AsmError{Col: m.col + len("offset:swizzle("), Msg: "expected a swizzle mode"}
	inner, ok := strings.CutPrefix(m.val, "swizzle(")
	if !ok {
		v, err := parseInt(m.val)
		if err != nil || v < 0 || v > 0xffff {
			return 0, &AsmError{Col: m.col, Msg: "expected a 16-bit offset"}
		}
		return uint32(v), nil
	}
	args := funcArgs(strings.TrimSuffix(inner, ")"))
	num := func(i int, lo, hi int64) (uint32, bool) {
		if i >= len(args) {
			return 0, false
		}
		v, err := parseInt(args[i])
		return uint32(v), err == nil && v >= lo && v <= hi
	}
	switch args[0] {
	case "QUAD_PERM":
		v := uint32(swzQuadPerm)
		for i := 0; i < 4; i++ {
			l, ok := num(i+1, 0, 3)
			if !ok || len(args) != 5 {
				return 0, bad
			}
			v |= l << (2 * i)
		}
		return v, nil
	case "SWAP":
		n, ok := num(1, 1, 16)
		if !ok || n&(n-1) != 0 {
			return 0, bad
		}
		return 0x1f | n<<10, nil
	case "REVERSE":
		n, ok := num(1, 2, 32)
		if !ok || n&(n-1) != 0 {
			return 0, bad
		}
		return 0x1f | (n-1)<<10, nil
	case "BROADCAST":
		g, ok1 := num(1, 2, 32)
		l, ok2 := num(2, 0, 31)
		if !ok1 || !ok2 || g&(g-1) != 0 || l >= g {
			return 0, bad
		}
		return (0x20-g)&0x1f | l<<5, nil
	case "BITMASK_PERM":
		if len(args) != 2 || len(args[1]) != 7 {
			return 0, bad
		}
		var and, or, xor uint32
		for i, c := range args[1][1:6] {
			b := uint32(0x10) >> i
			switch c {
			case '0':
			case '1':
				or |= b
			case 'p':
				and |= b
			case 'i':
				and |= b
				xor |= b
			default:
				return 0, bad
			}
		}
		return and | or<<5 | xor<<10, nil
	}
	return 0, bad
}

// encBuf packs MUBUF and MTBUF.
func encBuf(a *asmLine) error {
	f := a.form
	if m := a.mod("addr64"); m != nil { // SI/CI only
		return &AsmError{Col: m.col, Msg: msgInvalidOperand}
	}
	fl, err := a.flags("offen", "idxen", "glc", "slc", "lds", "tfe")
	if err != nil {
		return err
	}
	offen, idxen, glc, slc, lds, tfe := fl[0], fl[1], fl[2], fl[3], fl[4], fl[5]
	if f.Enc == EncMTBUF && lds || lds && !f.Flags.Has(FlagLDSOk) && !f.Flags.Has(FlagLDSOnly) {
		return &AsmError{Col: a.mnCol, Msg: msgInvalidOperand}
	}
	var vaddr, vdata, srsrc, soff uint32
	k := 0
	for i := range f.Operands {
		s := &f.Operands[i]
		if s.Field == FieldVDATA && lds || s.Field == FieldVADDR && f.Flags.Has(FlagLDSOnly) {
			continue
		}
		if k == len(a.ops) {
			return a.tooFew()
		}
		o := &a.ops[k]
		k++
		switch s.Field {
		case FieldVDATA:
			w := s.Width
			if a.t == GFX8 && a.f&FeatPackedD16 != 0 && f.Flags.Has(FlagD16|FlagFormat) {
				w = (w + 1) / 2 // gfx810 packs d16 data as GFX9 does
			}
			if tfe && !(f.Flags.Has(FlagStore) && o.width == w) { // a store's tfe is refused below
				w++
			}
			vdata, err = vregN(o, w)
		case FieldVADDR:
			n := b2u(offen) + b2u(idxen)
			if n == 0 {
				if o.kind != opOff {
					err = errAt(o, msgInvalidOperand)
				}
				break
			}
			vaddr, err = vregN(o, uint8(n))
		case FieldSRSRC:
			srsrc, err = a.sgprTupleCode(o, 4)
		case FieldSOFFSET:
			var c uint16
			c, err = a.src(o, s, allowSrc)
			soff = uint32(c)
		}
		if err != nil {
			return err
		}
	}
	if err := a.extra(k); err != nil {
		return err
	}
	if tfe && f.Flags.Has(FlagStore) {
		if len(a.ops) > 0 && a.ops[0].width == srcSpec(f, FieldVDATA).Width {
			return &AsmError{Col: a.modCol("tfe"), Msg: msgInvalidOperand}
		}
		return &AsmError{Col: a.modCol("tfe"), Msg: "TFE modifier has no meaning for store instructions"}
	}
	off, err := a.intModMsg("offset", 0, 0xffff, 0, "expected a 16-bit unsigned offset")
	if err != nil {
		return err
	}
	w0 := uint32(off)&0xfff | b2u(offen)<<12 | b2u(idxen)<<13 | b2u(glc)<<14 // LLVM 19 keeps 12 bits of the offset
	w1 := vaddr | vdata<<8 | srsrc>>2<<16 | b2u(tfe)<<23 | soff<<24
	if f.Enc == EncMUBUF {
		w0 |= 0xe0000000 | uint32(f.Opcode)<<18 | b2u(lds)<<16 | b2u(slc)<<17
	} else {
		dfmt, nfmt, err := a.bufFormat()
		if err != nil {
			return err
		}
		w0 |= 0xe8000000 | uint32(f.Opcode)<<15 | dfmt<<19 | nfmt<<23
		w1 |= b2u(slc) << 22
	}
	a.emit(w0, w1)
	return nil
}

// bufFormat reads format:[BUF_DATA_FORMAT_x,BUF_NUM_FORMAT_y], format:N
// or dfmt:N nfmt:M; LLVM's default is dfmt 1, nfmt 0.
func (a *asmLine) bufFormat() (dfmt, nfmt uint32, err error) {
	dfmt, nfmt = defaultDFmt, defaultNFmt
	if m := a.mod("format"); m != nil {
		bad := &AsmError{Col: m.col, Msg: "invalid format"}
		if v, err := parseInt(m.val); err == nil {
			if v < 0 || v > 127 {
				return 0, 0, bad
			}
			return uint32(v) & 0xf, uint32(v) >> 4, nil
		}
		inner, ok := strings.CutPrefix(m.val, "[")
		if !ok || !strings.HasSuffix(inner, "]") {
			return 0, 0, bad
		}
		col := m.col + len("format:[")
		for _, p := range strings.Split(strings.TrimSuffix(inner, "]"), ",") {
			found := false
			if n, ok := strings.CutPrefix(p, "BUF_DATA_FORMAT_"); ok {
				for i, s := range bufDataFormats {
					if s == n {
						dfmt, found = uint32(i), true
					}
				}
			} else if n, ok := strings.CutPrefix(p, "BUF_NUM_FORMAT_"); ok {
				for i, s := range bufNumFormats {
					if s == n {
						nfmt, found = uint32(i), true
					}
				}
			}
			if !found {
				return 0, 0, &AsmError{Col: col, Msg: "unsupported format"}
			}
			col += len(p) + 1
		}
		return dfmt, nfmt, nil
	}
	d, err := a.intMod("dfmt", 0, 15, int64(dfmt))
	if err != nil {
		return 0, 0, err
	}
	n, err := a.intMod("nfmt", 0, 7, int64(nfmt))
	return uint32(d), uint32(n), err
}

func encMIMG(a *asmLine) error {
	f := a.form
	r128, other := "r128", "a16"
	if a.t == GFX9 {
		r128, other = "a16", "r128"
	}
	if m := a.mod(other); m != nil {
		return &AsmError{Col: m.col, Msg: other + " modifier is not supported on this GPU"}
	}
	fl, err := a.flags("unorm", "glc", "slc", r128, "tfe", "lwe", "da", "d16")
	if err != nil {
		return err
	}
	dmask, err := a.intMod("dmask", 0, 15, 0)
	if err != nil {
		return err
	}
	var vdata, vaddr, srsrc, ssamp uint32
	k := 0
	for i := range f.Operands {
		s := &f.Operands[i]
		if k == len(a.ops) {
			return a.tooFew()
		}
		o := &a.ops[k]
		k++
		switch s.Field {
		case FieldVDATA:
			vdata, err = vregAny(o)
		case FieldVADDR:
			vaddr, err = vregAny(o)
		case FieldSRSRC:
			srsrc, err = a.sgprTupleCode(o, 8)
		case FieldSSAMP:
			ssamp, err = a.sgprTupleCode(o, 4)
		}
		if err != nil {
			return err
		}
	}
	if err := a.extra(k); err != nil {
		return err
	}
	if err := a.mimgDataSize(fl[7], fl[4], uint32(dmask)); err != nil {
		return err
	}
	w0 := 0xf0000000 | uint32(dmask)<<8 | b2u(fl[0])<<12 | b2u(fl[1])<<13 | b2u(fl[6])<<14 | b2u(fl[3])<<15 |
		b2u(fl[4])<<16 | b2u(fl[5])<<17 | uint32(f.Opcode)<<18 | b2u(fl[2])<<25
	a.emit(w0, vaddr|vdata<<8|srsrc>>2<<16|ssamp>>2<<21|b2u(fl[7])<<31)
	return nil
}

// mimgDataSize checks vdata's width against dmask, d16 and tfe as LLVM does.
func (a *asmLine) mimgDataSize(d16, tfe bool, dmask uint32) error {
	f := a.form
	if len(a.ops) == 0 || a.ops[0].kind != opReg {
		return nil
	}
	n := uint8(bits.OnesCount32(dmask))
	gather := f.Flags.Has(FlagGather4)
	if gather {
		n = 4
	}
	n = max(n, 1)
	if d16 && (a.t == GFX9 || a.f&FeatPackedD16 != 0) {
		n = (n + 1) / 2
	}
	if tfe {
		n++
	}
	if a.ops[0].width != n {
		msg := "image data size does not match dmask and tfe"
		if a.t == GFX9 && !f.Flags.Has(FlagNoD16) {
			msg = "image data size does not match dmask, d16 and tfe"
		}
		return &AsmError{Col: a.mnCol, Msg: msg}
	}
	if f.Flags.Has(FlagAtomic) && dmask != 1 && dmask != 3 && dmask != 0xf {
		return &AsmError{Col: a.modCol("dmask"), Msg: "invalid atomic image dmask"}
	}
	if gather && bits.OnesCount32(dmask) != 1 {
		return &AsmError{Col: a.modCol("dmask"), Msg: "invalid image_gather dmask: only one bit must be set"}
	}
	return nil
}

func encFLAT(a *asmLine) error {
	f := a.form
	seg, op := uint32(f.Opcode>>7), uint32(f.Opcode&0x7f)
	fl, err := a.flags("glc", "slc", "lds")
	if err != nil {
		return err
	}
	glc, slc, lds := fl[0], fl[1], fl[2]
	if lds && !f.Flags.Has(FlagLDSOk) {
		return &AsmError{Col: a.mnCol, Msg: msgInvalidOperand}
	}
	// Find the operands by spec first: vaddr's width depends on saddr.
	var byField [4]*asmOp // vdst, vaddr, vdata, saddr
	k := 0
	for i := range f.Operands {
		s := &f.Operands[i]
		if s.Field == FieldVDST && (f.Flags.Has(FlagAtomic) && !glc || lds) {
			continue
		}
		if k == len(a.ops) {
			return a.tooFew()
		}
		o := &a.ops[k]
		k++
		switch s.Field {
		case FieldVDST:
			byField[0] = o
		case FieldVADDR:
			byField[1] = o
		case FieldVDATA:
			byField[2] = o
		case FieldSADDR:
			byField[3] = o
		}
	}
	if err := a.extra(k); err != nil {
		return err
	}
	var vdst, vaddr, vdata uint32
	saddr := uint32(0x7f)
	if seg == 0 {
		saddr = 0
	}
	hasSaddr := false
	if o := byField[3]; o != nil && o.kind != opOff {
		s := srcSpec(f, FieldSADDR)
		c, err := a.sdst(o, s)
		if err != nil {
			return err
		}
		saddr, hasSaddr = uint32(c), true
	} else if o != nil && o.kind != opOff {
		return errAt(o, msgInvalidOperand)
	}
	if o := byField[0]; o != nil {
		if vdst, err = vregN(o, srcSpec(f, FieldVDST).Width); err != nil {
			return err
		}
	}
	if o := byField[2]; o != nil {
		if vdata, err = vregN(o, srcSpec(f, FieldVDATA).Width); err != nil {
			return err
		}
	}
	if o := byField[1]; o != nil {
		switch {
		case seg == 1 && hasSaddr:
			if o.kind != opOff {
				return errAt(o, msgInvalidOperand)
			}
		case seg == 2 && hasSaddr:
			vaddr, err = vregN(o, 1)
		default:
			vaddr, err = vregN(o, srcSpec(f, FieldVADDR).Width)
		}
		if err != nil {
			return err
		}
	}
	lo, hi, msg := int64(0), int64(4095), "expected a 12-bit unsigned offset"
	if seg != 0 {
		lo, hi, msg = -4096, 4095, "expected a 13-bit signed offset"
	}
	if a.t == GFX8 {
		hi, msg = 0, "flat offset modifier is not supported on this GPU"
	}
	off, err := a.intModMsg("offset", lo, hi, 0, msg)
	if err != nil {
		return err
	}
	w0 := 0xdc000000 | op<<18 | b2u(slc)<<17 | b2u(glc)<<16 | seg<<14 | b2u(lds)<<13 | uint32(off)&0x1fff
	a.emit(w0, vdst<<24|saddr<<16|vdata<<8|vaddr)
	return nil
}

// expTarget parses an export target name (mrt0, mrtz, null, pos0, param0).
func expTarget(o *asmOp) (uint32, error) {
	if o.kind == opName {
		switch o.name {
		case "mrtz":
			return 8, nil
		case "null":
			return 9, nil
		}
		for _, p := range [...]struct {
			name     string
			base, hi int64
		}{{"mrt", 0, 7}, {"pos", 12, 3}, {"param", 32, 31}} {
			if n, ok := strings.CutPrefix(o.name, p.name); ok {
				if v, err := parseInt(n); err == nil && v >= 0 && v <= p.hi && n[0] != '-' {
					return uint32(p.base + v), nil
				}
			}
		}
	}
	return 0, errAt(o, "invalid exp target")
}

func encEXP(a *asmLine) error {
	fl, err := a.flags("done", "compr", "vm")
	if err != nil {
		return err
	}
	if len(a.ops) < 5 {
		return a.tooFew()
	}
	tgt, err := expTarget(&a.ops[0])
	if err != nil {
		return err
	}
	var en, w1 uint32
	for k := 0; k < 4; k++ {
		o := &a.ops[1+k]
		if o.kind == opOff {
			continue
		}
		r, err := vregN(o, 1)
		if err != nil {
			return err
		}
		if fl[1] {
			if k%2 == 0 { // compr: the odd sources repeat the even ones
				en |= 3 << k
				w1 |= r << (4 * k)
			}
		} else {
			en |= 1 << k
			w1 |= r << (8 * k)
		}
	}
	if err := a.extra(5); err != nil {
		return err
	}
	a.emit(0xc4000000|en|tgt<<4|b2u(fl[1])<<10|b2u(fl[0])<<11|b2u(fl[2])<<12, w1)
	return nil
}

package emu

import "github.com/wavedbg/wavedbg/isa"

// The SDWA path: VOP1 and VOP2 instructions with SDWA selectors run as
// the lane path does (sources as registers, only the EXEC lanes written),
// with src0_sel/src1_sel (and sext) applied to the fetched sources before
// the float modifiers and input flush, as vfetch applies them, and
// dst_sel/dst_unused applied to the result as vdstWrite applies it. An
// operation with a whole-register kernel runs it when the instruction has
// no clamp or omod and MODE rounds to nearest even; the others run their
// lane function. GPR indexing takes execVOP.

// sdwaEligible: an SDWA VOP1 or VOP2 (not VOPC, not v_mac_*) of 32-bit
// operands with a VGPR destination and every source present.
func sdwaEligible(in *instr, inst *isa.Inst) bool {
	v := in.def.v
	if inst.Variant != isa.VariantSDWA || v == nil || v.mac || v.dstW != 1 || v.ft == 64 || v.nsrc > 2 {
		return false
	}
	if int(in.nsrc) < int(v.nsrc) || in.dst[0].kind != okV {
		return false
	}
	for k := 0; k < int(v.nsrc); k++ {
		if v.srcW[k] != 1 {
			return false
		}
	}
	return true
}

// sdwaField is an SDWA selection as a shift pair: the field moved to the
// top of the word (x << up) and back down (>> down, arithmetic when
// sign-extended), which is sdwaSel.
type sdwaField struct{ up, down uint8 }

func sdwaFieldOf(sel uint8) sdwaField {
	switch {
	case sel <= 3:
		return sdwaField{24 - 8*sel, 24}
	case sel <= 5:
		return sdwaField{16 - 16*(sel-4), 16}
	}
	return sdwaField{}
}

// sdwaSrc returns source k (k < 2) with its selection, then abs, neg and
// (flush) input-denormal flushing applied as vfetch applies them.
func (w *Wave) sdwaSrc(in *instr, v *vop, k int, flush bool, buf *[64]uint32) *[64]uint32 {
	o := &in.src[k]
	src := w.src32(in, k, buf)
	sel := in.in.Mods.Src0Sel
	if k == 1 {
		sel = in.in.Mods.Src1Sel
	}
	f := sdwaFieldOf(sel)
	up, down := f.up&31, f.down&31 // (no shift-size checks in the loops)
	switch {
	case down == 0:
	case o.sext:
		for l := range buf {
			buf[l] = uint32(int32(src[l]<<up) >> down)
		}
		src = buf
	default:
		sdwaSelect(buf, src, down-up, 32-down)
		src = buf
	}
	if !laneFloat(v, k) || !o.abs && !o.neg && !flush {
		return src
	}
	floatMods(buf, src, v.ft, o.abs, o.neg, flush)
	return buf
}

// sdwaSelect sets each lane of dst to the w-bit field at bit s of src's
// (s+w ≤ 32, w < 32), zero-extended. Lanes go two to a 64-bit word where
// both rows allow: shifted together, the high lane's bits that reach the
// low lane lie above its field and are masked off with the rest.
func sdwaSelect(dst, src *[64]uint32, s, w uint8) {
	m := uint32(1)<<(w&31) - 1
	if d, x := lanePairs(dst[:]), lanePairs(src[:]); d != nil && x != nil {
		d, x := (*[32]uint64)(d), (*[32]uint64)(x)
		m2 := uint64(m) | uint64(m)<<32
		for i, y := range x {
			d[i] = y >> (s & 63) & m2
		}
		return
	}
	for l, y := range src {
		dst[l] = y >> (s & 31) & m
	}
}

// sdwaPlace moves the low w bits of each of lanes 0 to n-1 of d to bit
// p (p+w ≤ 32, w < 32), zeroing the rest; a whole wave goes two lanes to
// a 64-bit word when d is 8-byte aligned.
func sdwaPlace(d *[64]uint32, n int, p, w uint8) {
	m := uint32(1)<<(w&31) - 1
	if x := lanePairs(d[:]); n == 64 && x != nil {
		x := (*[32]uint64)(x)
		m2 := uint64(m) | uint64(m)<<32
		for i, y := range x {
			x[i] = y & m2 << (p & 63)
		}
		return
	}
	for l, y := range d[:n] {
		d[l] = y & m << (p & 31)
	}
}

// sdwaPut writes result d to the EXEC lanes of VGPR r under dst_sel and
// dst_unused (vdstWrite's merge).
func (w *Wave) sdwaPut(in *instr, r int, mask uint64, d *[64]uint32) {
	md := &in.in.Mods
	if md.DstSel < 6 {
		// the reverse of the source shifts: the result's low bits to the
		// top, then down to the field
		f := sdwaFieldOf(md.DstSel)
		f.up, f.down = f.up&31, f.down&31
		n := liveLanes(mask)
		switch md.DstUnused {
		case 1: // sign-extend upwards
			for l := range d[:n] {
				d[l] = uint32(int32(d[l]<<f.down) >> f.up)
			}
		case 2: // preserve the other bits
			old := &w.v[r]
			fm := ^uint32(0) >> f.down << (f.down - f.up)
			for l := range d[:n] {
				d[l] = d[l]<<f.down>>f.up | old[l]&^fm
			}
		default: // pad with zeros
			sdwaPlace(d, n, f.down-f.up, 32-f.down)
		}
	}
	w.wv(r, mask, d)
}

// execSDWA runs an eligible SDWA instruction.
func execSDWA(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOP(w, in)
	}
	v := in.def.v
	e := w.fenvFor(max(v.ft, v.oft))
	w.mixedTypes(e, v)
	flush := !e.din && !v.nofl
	t := &w.tmp
	a, b := &zeroRow, &zeroRow
	if v.nsrc > 0 {
		a = w.sdwaSrc(in, v, 0, flush, &t[0])
	}
	if v.nsrc > 1 {
		b = w.sdwaSrc(in, v, 1, flush, &t[1])
	}
	var cin uint64
	if v.cin {
		cin = w.carryIn(in)
	}
	omod, clamp := in.in.Mods.Omod, in.in.Mods.Clamp
	mask, r := w.exec(), int(in.dst[0].reg)
	n := liveLanes(mask)
	d := &t[3]
	var cout uint64
	if k := in.def.k; k != nil && !v.cin && !v.cout && !clamp && omod == 0 && (v.ft == 0 && v.oft == 0 || e.rm == rmNearest) {
		e.live = n
		k(e, d, a, b, &zeroRow)
	} else {
		e.clamp = clamp && v.oft == 0
		fn := v.fn
		for m := mask; m != 0; m &= m - 1 {
			l := tz(m)
			e.lane, e.carry, e.cout = l, cin>>uint(l)&1, 0
			x := fn(e, uint64(a[l]), uint64(b[l]), 0)
			switch {
			case v.oft == 0:
			case omod != 0 || clamp:
				x = post(e, x, v.oft, omod, clamp)
			default:
				x = flushResult(x, v.oft, e.dout)
			}
			d[l] = uint32(x)
			cout |= e.cout << uint(l)
		}
	}
	w.sdwaPut(in, r, mask, d)
	if v.cout {
		w.setMask(in, 1, cout)
	}
	return nil
}

// sdwaCmpEligible: an SDWA compare of 32- or 16-bit integers or f32.
func sdwaCmpEligible(in *instr, inst *isa.Inst) bool {
	if inst.Variant != isa.VariantSDWA || in.def.fn == nil || in.nsrc < 2 {
		return false
	}
	switch in.sub >> 8 & 0xff {
	case cmpI32, cmpU32, cmpF32, cmpI16, cmpU16:
		return true
	}
	return false
}

// cmpVop is the operand description execVOPC gives a compare of kind.
func cmpVop(kind int) vop {
	v := vop{nsrc: 2, srcW: [3]uint8{1, 1, 1}}
	if kind == cmpF32 {
		v.ft = 32
	}
	return v
}

// execCmpSDWA runs an eligible SDWA compare: the sources selected (then
// abs, neg and input flushing for f32) as vfetch reads them, 16-bit ones
// widened so that the 32-bit order is theirs.
func execCmpSDWA(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOPC(w, in)
	}
	kind, c := int(in.sub>>8&0xff), int(in.sub&0xff)
	v := cmpVop(kind)
	e := w.fenvFor(v.ft)
	t := &w.tmp
	a := w.sdwaSrc(in, &v, 0, !e.din, &t[0])
	b := w.sdwaSrc(in, &v, 1, !e.din, &t[1])
	exec := w.exec()
	var r uint64
	for m := exec; m != 0; m &= m - 1 {
		l := tz(m)
		p, q := a[l], b[l]
		var ok bool
		switch kind {
		case cmpF32:
			ok = fcmp(c, float64(f32(p)), float64(f32(q)))
		case cmpI32:
			ok = icmp(c, int32(p) < int32(q), p == q)
		case cmpU32:
			ok = icmp(c, p < q, p == q)
		case cmpI16:
			ok = icmp(c, int16(p) < int16(q), uint16(p) == uint16(q))
		default:
			ok = icmp(c, uint16(p) < uint16(q), uint16(p) == uint16(q))
		}
		r |= uint64(b2i(ok)) << uint(l)
	}
	w.putCmpMask(in, r, in.sub>>16 != 0)
	return nil
}

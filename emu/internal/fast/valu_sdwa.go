package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

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
func sdwaEligible(in *core.Instr, inst *isa.Inst) bool {
	v := in.Def.V
	if inst.Variant != isa.VariantSDWA || v == nil || v.Mac || v.DstW != 1 || v.Ft == 64 || v.Nsrc > 2 {
		return false
	}
	if int(in.Nsrc) < int(v.Nsrc) || in.Dst[0].Kind != core.OkV {
		return false
	}
	for k := 0; k < int(v.Nsrc); k++ {
		if v.SrcW[k] != 1 {
			return false
		}
	}
	return true
}

// sdwaField is an SDWA selection as a shift pair: the field moved to the
// top of the word (x << up) and back down (>> down, arithmetic when
// sign-extended), which is sdwaSel.
type sdwaField struct{ Up, Down uint8 }

func SdwaFieldOf(sel uint8) sdwaField {
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
func sdwaSrc(w *core.Wave, in *core.Instr, v *core.Vop, k int, flush bool, buf *[64]uint32) *[64]uint32 {
	o := &in.Src[k]
	src := src32(w, in, k, buf)
	sel := in.In.Mods.Src0Sel
	if k == 1 {
		sel = in.In.Mods.Src1Sel
	}
	f := SdwaFieldOf(sel)
	up, down := f.Up&31, f.Down&31 // (no shift-size checks in the loops)
	switch {
	case down == 0:
	case o.Sext:
		for l := range buf {
			buf[l] = uint32(int32(src[l]<<up) >> down)
		}
		src = buf
	default:
		SdwaSelect(buf, src, down-up, 32-down)
		src = buf
	}
	if !LaneFloat(v, k) || !o.Abs && !o.Neg && !flush {
		return src
	}
	floatMods(buf, src, v.Ft, o.Abs, o.Neg, flush)
	return buf
}

// SdwaSelect sets each lane of dst to the w-bit field at bit s of src's
// (s+w ≤ 32, w < 32), zero-extended. Lanes go two to a 64-bit word where
// both rows allow: shifted together, the high lane's bits that reach the
// low lane lie above its field and are masked off with the rest.
func SdwaSelect(dst, src *[64]uint32, s, w uint8) {
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

// SdwaPlace moves the low w bits of each of lanes 0 to n-1 of d to bit
// p (p+w ≤ 32, w < 32), zeroing the rest; a whole wave goes two lanes to
// a 64-bit word when d is 8-byte aligned.
func SdwaPlace(d *[64]uint32, n int, p, w uint8) {
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
func sdwaPut(w *core.Wave, in *core.Instr, r int, mask uint64, d *[64]uint32) {
	md := &in.In.Mods
	if md.DstSel < 6 {
		// the reverse of the source shifts: the result's low bits to the
		// top, then down to the field
		f := SdwaFieldOf(md.DstSel)
		f.Up, f.Down = f.Up&31, f.Down&31
		n := core.LiveLanes(mask)
		switch md.DstUnused {
		case 1: // sign-extend upwards
			for l := range d[:n] {
				d[l] = uint32(int32(d[l]<<f.Down) >> f.Up)
			}
		case 2: // preserve the other bits
			old := &w.V[r]
			fm := ^uint32(0) >> f.Down << (f.Down - f.Up)
			for l := range d[:n] {
				d[l] = d[l]<<f.Down>>f.Up | old[l]&^fm
			}
		default: // pad with zeros
			SdwaPlace(d, n, f.Down-f.Up, 32-f.Down)
		}
	}
	w.Wv(r, mask, d)
}

// ExecSDWA runs an eligible SDWA instruction.
func ExecSDWA(w *core.Wave, in *core.Instr) error {
	if gprIdx(w) {
		return ref.ExecVOP(w, in)
	}
	v := in.Def.V
	e := ref.FenvFor(w, max(v.Ft, v.Oft))
	ref.MixedTypes(w, e, v)
	flush := !e.Din && !v.Nofl
	t := &w.Tmp
	a, b := &zeroRow, &zeroRow
	if v.Nsrc > 0 {
		a = sdwaSrc(w, in, v, 0, flush, &t[0])
	}
	if v.Nsrc > 1 {
		b = sdwaSrc(w, in, v, 1, flush, &t[1])
	}
	var cin uint64
	if v.Cin {
		cin = carryIn(w, in)
	}
	omod, clamp := in.In.Mods.Omod, in.In.Mods.Clamp
	mask, r := w.Exec(), int(in.Dst[0].Reg)
	n := core.LiveLanes(mask)
	d := &t[3]
	var cout uint64
	if k := in.Def.K; k != nil && !v.Cin && !v.Cout && !clamp && omod == 0 && (v.Ft == 0 && v.Oft == 0 || e.Rm == core.RmNearest) {
		e.Live = n
		k(e, d, a, b, &zeroRow)
	} else {
		e.Clamp = clamp && v.Oft == 0
		fn := v.Fn
		for m := mask; m != 0; m &= m - 1 {
			l := core.Tz(m)
			e.Lane, e.Carry, e.Cout = l, cin>>uint(l)&1, 0
			x := fn(e, uint64(a[l]), uint64(b[l]), 0)
			switch {
			case v.Oft == 0:
			case omod != 0 || clamp:
				x = ref.Post(e, x, v.Oft, omod, clamp)
			default:
				x = flushResult(x, v.Oft, e.Dout)
			}
			d[l] = uint32(x)
			cout |= e.Cout << uint(l)
		}
	}
	sdwaPut(w, in, r, mask, d)
	if v.Cout {
		setMask(w, in, 1, cout)
	}
	return nil
}

// sdwaCmpEligible: an SDWA compare of 32- or 16-bit integers or f32.
func sdwaCmpEligible(in *core.Instr, inst *isa.Inst) bool {
	if inst.Variant != isa.VariantSDWA || in.Def.Fn == nil || in.Nsrc < 2 {
		return false
	}
	switch in.Sub >> 8 & 0xff {
	case ref.CmpI32, ref.CmpU32, ref.CmpF32, ref.CmpI16, ref.CmpU16:
		return true
	}
	return false
}

// cmpVop is the operand description execVOPC gives a compare of kind.
func cmpVop(kind int) core.Vop {
	v := core.Vop{Nsrc: 2, SrcW: [3]uint8{1, 1, 1}}
	if kind == ref.CmpF32 {
		v.Ft = 32
	}
	return v
}

// ExecCmpSDWA runs an eligible SDWA compare: the sources selected (then
// abs, neg and input flushing for f32) as vfetch reads them, 16-bit ones
// widened so that the 32-bit order is theirs.
func ExecCmpSDWA(w *core.Wave, in *core.Instr) error {
	if gprIdx(w) {
		return ref.ExecVOPC(w, in)
	}
	kind, c := int(in.Sub>>8&0xff), int(in.Sub&0xff)
	v := cmpVop(kind)
	e := ref.FenvFor(w, v.Ft)
	t := &w.Tmp
	a := sdwaSrc(w, in, &v, 0, !e.Din, &t[0])
	b := sdwaSrc(w, in, &v, 1, !e.Din, &t[1])
	exec := w.Exec()
	var r uint64
	for m := exec; m != 0; m &= m - 1 {
		l := core.Tz(m)
		p, q := a[l], b[l]
		var ok bool
		switch kind {
		case ref.CmpF32:
			ok = ref.Fcmp(c, float64(core.F32(p)), float64(core.F32(q)))
		case ref.CmpI32:
			ok = ref.Icmp(c, int32(p) < int32(q), p == q)
		case ref.CmpU32:
			ok = ref.Icmp(c, p < q, p == q)
		case ref.CmpI16:
			ok = ref.Icmp(c, int16(p) < int16(q), uint16(p) == uint16(q))
		default:
			ok = ref.Icmp(c, uint16(p) < uint16(q), uint16(p) == uint16(q))
		}
		r |= uint64(ref.B2i(ok)) << uint(l)
	}
	ref.PutCmpMask(w, in, r, in.Sub>>16 != 0)
	return nil
}

package emu

import "github.com/wavedbg/wavedbg/isa"

// The lane path: an operation without a whole-register kernel still runs
// its lane function, but without execVOP's per-instruction setup. Sources
// are read as registers (VGPRs in place, constants prefilled, uniform
// values broadcast once) and modified only when a modifier or input flush
// applies; without clamp and omod, post reduces to the output flush; a
// prefix EXEC (lanes 0 to n-1, the whole wave included) writes the
// destination in place. Only EXEC lanes are computed,
// in lane order, so lane functions that read the wave (VCC, MODE, the
// lane number) see what they see under execVOP.

// zeroRow is the high half of 32-bit sources and the rows of absent ones.
var zeroRow [64]uint32

// laneEligible: no SDWA or DPP, every source present, a VGPR destination
// (a pair not past v255), 64-bit VGPR sources whole pairs and float
// sources as wide as their type.
func laneEligible(in *instr, inst *isa.Inst) bool {
	v := in.def.v
	if inst.Variant == isa.VariantSDWA || inst.Variant == isa.VariantDPP || v.mac && v.srcW[2] != 1 {
		return false
	}
	if int(in.nsrc) < int(v.nsrc)-b2i(v.mac) || in.dst[0].kind != okV || v.dstW == 2 && in.dst[0].reg >= 255 {
		return false
	}
	for k := 0; k < int(v.nsrc) && k < int(in.nsrc); k++ {
		o := &in.src[k]
		if o.sext || v.srcW[k] == 2 && o.kind == okV && o.reg >= 255 {
			return false
		}
		if laneFloat(v, k) && (v.ft == 64) != (v.srcW[k] == 2) {
			return false
		}
	}
	return true
}

// laneFloat reports whether source k takes float modifiers.
func laneFloat(v *vop, k int) bool { return v.ft != 0 && v.isrc>>uint(k)&1 == 0 }

// laneSrc returns source k as its low and high dwords, with abs, neg and
// (flush) input-denormal flushing applied as vfetch applies them.
func (w *Wave) laneSrc(in *instr, v *vop, k int, flush bool, lo, hi *[64]uint32) (*[64]uint32, *[64]uint32) {
	switch {
	case k >= int(v.nsrc):
		return &zeroRow, &zeroRow
	case v.srcW[k] == 2 && laneFloat(v, k):
		return w.srcF64(in, k, !flush, lo, hi)
	case v.srcW[k] == 2:
		return w.src64(in, k, lo, hi)
	case laneFloat(v, k):
		return w.srcNarrowF(in, k, v.ft, flush, lo), &zeroRow
	}
	return w.src32(in, k, lo), &zeroRow
}

// srcNarrowF is srcF32 for an f32 or f16 source (vfetch's masks: an f16
// denormal flushes to its sign alone). A v_mac_* addend is the
// destination, read as vfetch reads it.
func (w *Wave) srcNarrowF(in *instr, k int, ft uint8, flush bool, buf *[64]uint32) *[64]uint32 {
	o := &in.src[k]
	if k == 2 && in.def.v.mac {
		o = &in.dst[0]
	}
	src := w.src32(in, k, buf)
	if !o.abs && !o.neg && !flush {
		return src
	}
	floatMods(buf, src, ft, o.abs, o.neg, flush)
	return buf
}

// floatMods writes src to buf with abs, neg and (flush) input-denormal
// flushing applied to f32 (ft 32) or f16 (ft 16) values, as vfetch applies
// them: an f16 denormal flushes to its sign alone. buf may be src.
func floatMods(buf, src *[64]uint32, ft uint8, abs, neg, flush bool) {
	sign, expo, mant := uint32(0x80000000), uint32(0x7f800000), uint32(0x7fffff)
	if ft == 16 {
		sign, expo, mant = 0x8000, 0x7c00, 0x3ff
	}
	var am, nm uint32
	if abs {
		am = sign
	}
	if neg {
		nm = sign
	}
	for l := range buf {
		x := src[l]&^am ^ nm
		if flush && x&expo == 0 && x&mant != 0 {
			x &= sign
		}
		buf[l] = x
	}
}

// flushResult is post without omod and clamp: the result cut to its
// type's width, output denormals flushed unless kept.
func flushResult(x uint64, oft uint8, dout bool) uint64 {
	switch oft {
	case 16:
		if h := uint16(x); !dout && isDenorm16(h) {
			return uint64(h & 0x8000)
		}
		return uint64(uint16(x))
	case 32:
		if u := uint32(x); !dout && isDenorm32(u) {
			return uint64(u & 0x80000000)
		}
		return uint64(uint32(x))
	case 64:
		if !dout && isDenorm64(x) {
			return x & (1 << 63)
		}
	}
	return x
}

// laneOp is a lane-path instruction being executed: its MODE context,
// sources as low and high dwords (modifiers and input flushing applied),
// EXEC, the lanes up to its highest one (n), carry-in mask and destination
// rows.
type laneOp struct {
	e        *fenv
	lo, hi   [3]*[64]uint32
	mask     uint64
	n        int
	cin      uint64
	r        int
	dlo, dhi *[64]uint32
}

// laneBegin fetches an instruction's sources and destination rows, in
// execVOP's order (SGPR reads record hazards in that order).
func (w *Wave) laneBegin(in *instr, op *laneOp) {
	v := in.def.v
	e := w.fenvFor(max(v.ft, v.oft))
	w.mixedTypes(e, v)
	flush := !e.din && !v.nofl
	t := &w.tmp
	for k := 0; k < 3; k++ {
		op.lo[k], op.hi[k] = w.laneSrc(in, v, k, flush, &t[2*k], &t[2*k+1])
	}
	if v.cin {
		op.cin = w.carryIn(in)
	}
	e.clamp = in.in.Mods.Clamp && v.oft == 0
	op.e, op.mask, op.r = e, w.exec(), int(in.dst[0].reg)
	op.n = liveLanes(op.mask)
	op.dlo, op.dhi = w.dstLanes(op.r, op.mask, op.n, &t[6]), &t[7]
	if v.dstW == 2 {
		op.dhi = w.dstLanes(op.r+1, op.mask, op.n, &t[7])
	}
}

// laneEnd writes the EXEC lanes of the destination and the carry-out
// mask.
func (w *Wave) laneEnd(in *instr, op *laneOp, cout uint64) {
	v := in.def.v
	w.dstPut(op.r, op.mask, op.dlo)
	if v.dstW == 2 {
		w.dstPut(op.r+1, op.mask, op.dhi)
	}
	if v.cout {
		w.setMask(in, 1, cout)
	}
}

// execLaneFast runs an eligible instruction's lane function on the EXEC
// lanes (GPR indexing takes execVOP).
func execLaneFast(w *Wave, in *instr) error {
	if w.gprIdx() {
		return execVOP(w, in)
	}
	var op laneOp
	w.laneBegin(in, &op)
	v, e := in.def.v, op.e
	omod, clamp := in.in.Mods.Omod, in.in.Mods.Clamp
	a0, a1, b0, b1, c0, c1 := op.lo[0], op.hi[0], op.lo[1], op.hi[1], op.lo[2], op.hi[2]
	var cout uint64
	fn := v.fn
	for m := op.mask; m != 0; m &= m - 1 {
		l := tz(m)
		e.lane, e.carry, e.cout = l, op.cin>>uint(l)&1, 0
		x := fn(e, uint64(a0[l])|uint64(a1[l])<<32, uint64(b0[l])|uint64(b1[l])<<32, uint64(c0[l])|uint64(c1[l])<<32)
		switch {
		case v.oft == 0:
		case omod != 0 || clamp:
			x = post(e, x, v.oft, omod, clamp)
		default:
			x = flushResult(x, v.oft, e.dout)
		}
		op.dlo[l], op.dhi[l] = uint32(x), uint32(x>>32)
		cout |= e.cout << uint(l)
	}
	w.laneEnd(in, &op, cout)
	return nil
}

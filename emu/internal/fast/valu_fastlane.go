package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

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
func laneEligible(in *core.Instr, inst *isa.Inst) bool {
	v := in.Def.V
	if inst.Variant == isa.VariantSDWA || inst.Variant == isa.VariantDPP || v.Mac && v.SrcW[2] != 1 {
		return false
	}
	if int(in.Nsrc) < int(v.Nsrc)-ref.B2i(v.Mac) || in.Dst[0].Kind != core.OkV || v.DstW == 2 && in.Dst[0].Reg >= 255 {
		return false
	}
	for k := 0; k < int(v.Nsrc) && k < int(in.Nsrc); k++ {
		o := &in.Src[k]
		if o.Sext || v.SrcW[k] == 2 && o.Kind == core.OkV && o.Reg >= 255 {
			return false
		}
		if LaneFloat(v, k) && (v.Ft == 64) != (v.SrcW[k] == 2) {
			return false
		}
	}
	return true
}

// LaneFloat reports whether source k takes float modifiers.
func LaneFloat(v *core.Vop, k int) bool { return v.Ft != 0 && v.Isrc>>uint(k)&1 == 0 }

// laneSrc returns source k as its low and high dwords, with abs, neg and
// (flush) input-denormal flushing applied as vfetch applies them.
func laneSrc(w *core.Wave, in *core.Instr, v *core.Vop, k int, flush bool, lo, hi *[64]uint32) (*[64]uint32, *[64]uint32) {
	switch {
	case k >= int(v.Nsrc):
		return &zeroRow, &zeroRow
	case v.SrcW[k] == 2 && LaneFloat(v, k):
		return srcF64(w, in, k, !flush, lo, hi)
	case v.SrcW[k] == 2:
		return src64(w, in, k, lo, hi)
	case LaneFloat(v, k):
		return srcNarrowF(w, in, k, v.Ft, flush, lo), &zeroRow
	}
	return src32(w, in, k, lo), &zeroRow
}

// srcNarrowF is srcF32 for an f32 or f16 source (vfetch's masks: an f16
// denormal flushes to its sign alone). A v_mac_* addend is the
// destination, read as vfetch reads it.
func srcNarrowF(w *core.Wave, in *core.Instr, k int, ft uint8, flush bool, buf *[64]uint32) *[64]uint32 {
	o := &in.Src[k]
	if k == 2 && in.Def.V.Mac {
		o = &in.Dst[0]
	}
	src := src32(w, in, k, buf)
	if !o.Abs && !o.Neg && !flush {
		return src
	}
	floatMods(buf, src, ft, o.Abs, o.Neg, flush)
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
		if h := uint16(x); !dout && core.IsDenorm16(h) {
			return uint64(h & 0x8000)
		}
		return uint64(uint16(x))
	case 32:
		if u := uint32(x); !dout && core.IsDenorm32(u) {
			return uint64(u & 0x80000000)
		}
		return uint64(uint32(x))
	case 64:
		if !dout && core.IsDenorm64(x) {
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
	e        *core.Fenv
	lo, hi   [3]*[64]uint32
	mask     uint64
	n        int
	cin      uint64
	r        int
	dlo, dhi *[64]uint32
}

// laneBegin fetches an instruction's sources and destination rows, in
// execVOP's order (SGPR reads record hazards in that order).
func laneBegin(w *core.Wave, in *core.Instr, op *laneOp) {
	v := in.Def.V
	e := ref.FenvFor(w, max(v.Ft, v.Oft))
	ref.MixedTypes(w, e, v)
	flush := !e.Din && !v.Nofl
	t := &w.Tmp
	for k := 0; k < 3; k++ {
		op.lo[k], op.hi[k] = laneSrc(w, in, v, k, flush, &t[2*k], &t[2*k+1])
	}
	if v.Cin {
		op.cin = carryIn(w, in)
	}
	e.Clamp = in.In.Mods.Clamp && v.Oft == 0
	op.e, op.mask, op.r = e, w.Exec(), int(in.Dst[0].Reg)
	op.n = core.LiveLanes(op.mask)
	op.dlo, op.dhi = dstLanes(w, op.r, op.mask, op.n, &t[6]), &t[7]
	if v.DstW == 2 {
		op.dhi = dstLanes(w, op.r+1, op.mask, op.n, &t[7])
	}
}

// laneEnd writes the EXEC lanes of the destination and the carry-out
// mask.
func laneEnd(w *core.Wave, in *core.Instr, op *laneOp, cout uint64) {
	v := in.Def.V
	dstPut(w, op.r, op.mask, op.dlo)
	if v.DstW == 2 {
		dstPut(w, op.r+1, op.mask, op.dhi)
	}
	if v.Cout {
		setMask(w, in, 1, cout)
	}
}

// ExecLaneFast runs an eligible instruction's lane function on the EXEC
// lanes (GPR indexing takes execVOP).
func ExecLaneFast(w *core.Wave, in *core.Instr) error {
	if gprIdx(w) {
		return ref.ExecVOP(w, in)
	}
	var op laneOp
	laneBegin(w, in, &op)
	v, e := in.Def.V, op.e
	omod, clamp := in.In.Mods.Omod, in.In.Mods.Clamp
	a0, a1, b0, b1, c0, c1 := op.lo[0], op.hi[0], op.lo[1], op.hi[1], op.lo[2], op.hi[2]
	var cout uint64
	fn := v.Fn
	for m := op.mask; m != 0; m &= m - 1 {
		l := core.Tz(m)
		e.Lane, e.Carry, e.Cout = l, op.cin>>uint(l)&1, 0
		x := fn(e, uint64(a0[l])|uint64(a1[l])<<32, uint64(b0[l])|uint64(b1[l])<<32, uint64(c0[l])|uint64(c1[l])<<32)
		switch {
		case v.Oft == 0:
		case omod != 0 || clamp:
			x = ref.Post(e, x, v.Oft, omod, clamp)
		default:
			x = flushResult(x, v.Oft, e.Dout)
		}
		op.dlo[l], op.dhi[l] = uint32(x), uint32(x>>32)
		cout |= e.Cout << uint(l)
	}
	laneEnd(w, in, &op, cout)
	return nil
}

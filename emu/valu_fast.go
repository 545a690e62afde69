package emu

import (
	"math"
	"math/bits"

	"github.com/wavedbg/wavedbg/isa"
)

// Fast kernels: whole-register loops for the common VALU operations when
// the instruction has no SDWA, DPP, modifiers or 64-bit operands and (for
// floats) MODE rounds to nearest even. They compute every lane; the write
// keeps only the EXEC lanes. Results equal the lane functions'.

type kernel func(e *fenv, d, a, b, c *[64]uint32)

var kernels = map[string]kernel{
	"v_add_f32":    kAddF32,
	"v_sub_f32":    kSubF32,
	"v_subrev_f32": func(e *fenv, d, a, b, c *[64]uint32) { kSubF32(e, d, b, a, c) },
	"v_mul_f32":    kMulF32,
	"v_fma_f32":    kFmaF32,
	"v_mac_f32":    kMadF32,
	"v_mad_f32":    kMadF32,
	"v_madmk_f32":  kMadF32,
	"v_madak_f32":  kMadF32,
	"v_mov_b32": func(e *fenv, d, a, b, c *[64]uint32) {
		*d = *a
	},
	"v_add_u32": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = a[l] + b[l]
		}
	},
	"v_sub_u32": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = a[l] - b[l]
		}
	},
	"v_subrev_u32": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = b[l] - a[l]
		}
	},
	"v_and_b32": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = a[l] & b[l]
		}
	},
	"v_or_b32": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = a[l] | b[l]
		}
	},
	"v_xor_b32": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = a[l] ^ b[l]
		}
	},
	"v_lshlrev_b32": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = b[l] << (a[l] & 31)
		}
	},
	"v_lshrrev_b32": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = b[l] >> (a[l] & 31)
		}
	},
	"v_ashrrev_i32": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = uint32(int32(b[l]) >> (a[l] & 31))
		}
	},
	"v_mul_lo_u32": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = a[l] * b[l]
		}
	},
	"v_mul_u32_u24": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = (a[l] & 0xffffff) * (b[l] & 0xffffff)
		}
	},
	"v_mad_u32_u24": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = (a[l]&0xffffff)*(b[l]&0xffffff) + c[l]
		}
	},
	"v_add3_u32": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = a[l] + b[l] + c[l]
		}
	},
	"v_lshl_add_u32": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = a[l]<<(b[l]&31) + c[l]
		}
	},
	"v_cvt_f32_i32": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = f32bits(float32(int32(a[l])))
		}
	},
	"v_cvt_f32_u32": func(e *fenv, d, a, b, c *[64]uint32) {
		for l := range d {
			d[l] = f32bits(float32(a[l]))
		}
	},
}

// flushIn zeroes a denormal f32 input (keeping its sign) unless kept.
func flushIn(u uint32, keep bool) uint32 {
	if !keep && u&0x7f800000 == 0 {
		return u & 0x80000000
	}
	return u
}

func flushOut(u uint32, keep bool) uint32 {
	if !keep && u&0x7f800000 == 0 {
		return u & 0x80000000
	}
	return u
}

func kAddF32(e *fenv, d, a, b, c *[64]uint32) {
	for l := range d {
		x, y := flushIn(a[l], e.din), flushIn(b[l], e.din)
		r := f32(x) + f32(y)
		u := f32bits(r)
		if r != r {
			u = quiet32(r, x, y)
		}
		d[l] = flushOut(u, e.dout)
	}
}

func kSubF32(e *fenv, d, a, b, c *[64]uint32) {
	for l := range d {
		x, y := flushIn(a[l], e.din), flushIn(b[l], e.din)
		r := f32(x) - f32(y)
		u := f32bits(r)
		if r != r {
			u = quiet32(r, x, y^0x80000000)
		}
		d[l] = flushOut(u, e.dout)
	}
}

func kMulF32(e *fenv, d, a, b, c *[64]uint32) {
	for l := range d {
		x, y := flushIn(a[l], e.din), flushIn(b[l], e.din)
		r := float32(f32(x) * f32(y))
		u := f32bits(r)
		if r != r {
			u = quiet32(r, x, y)
		}
		d[l] = flushOut(u, e.dout)
	}
}

func kMadF32(e *fenv, d, a, b, c *[64]uint32) {
	for l := range d {
		x, y, z := flushIn(a[l], e.din), flushIn(b[l], e.din), flushIn(c[l], e.din)
		p := float32(f32(x) * f32(y))
		pu := f32bits(p)
		if p != p {
			pu = quiet32(p, x, y)
		}
		pu = flushOut(pu, e.dout)
		r := f32(pu) + f32(z)
		u := f32bits(r)
		if r != r {
			u = quiet32(r, pu, z)
		}
		d[l] = flushOut(u, e.dout)
	}
}

func kFmaF32(e *fenv, d, a, b, c *[64]uint32) {
	for l := range d {
		x, y, z := flushIn(a[l], e.din), flushIn(b[l], e.din), flushIn(c[l], e.din)
		s := float64(f32(x))*float64(f32(y)) + float64(f32(z))
		sb := math.Float64bits(s)
		var u uint32
		switch {
		case s != s || math.IsInf(s, 0) || sb&0x1fffffff == 0x10000000 || math.Abs(s) < 0x1p-126:
			u = uint32(fmaF32(e, uint64(x), uint64(y), uint64(z)))
		default:
			u = f32bits(float32(s))
		}
		d[l] = flushOut(u, e.dout)
	}
}

// fastEligible reports whether an instruction can use its kernel.
func fastEligible(in *instr, inst *isa.Inst) bool {
	if in.def == nil || in.def.v == nil || in.def.k == nil {
		return false
	}
	v := in.def.v
	if inst.Variant == isa.VariantSDWA || inst.Variant == isa.VariantDPP || inst.Mods.Clamp || inst.Mods.Omod != 0 {
		return false
	}
	if v.dstW != 1 || v.cin || v.cout || in.dst[0].kind != okV {
		return false
	}
	for k := 0; k < int(v.nsrc); k++ {
		if v.srcW[k] != 1 {
			return false
		}
		o := &in.src[k]
		if v.mac && k == 2 {
			continue
		}
		if k >= int(in.nsrc) || o.neg || o.abs || o.sext {
			return false
		}
	}
	return true
}

// src32 returns source k as a register of lanes: the VGPR itself, or buf
// filled with a uniform value.
func (w *Wave) src32(in *instr, k int, buf *[64]uint32) *[64]uint32 {
	o := &in.src[k]
	if in.def.v.mac && k == 2 {
		o = &in.dst[0]
	}
	if o.kind == okV {
		return &w.v[o.reg]
	}
	x := w.sv(o)
	for l := range buf {
		buf[l] = x
	}
	return buf
}

// execFast runs a kernel.
func execFast(w *Wave, in *instr) error {
	v := in.def.v
	e := w.fenvFor(max(v.ft, v.oft))
	if e.rm != rmNearest && max(v.ft, v.oft) != 0 || w.s[slotMode]>>27&1 != 0 {
		return execVOP(w, in)
	}
	t := &w.tmp
	a := w.src32(in, 0, &t[0])
	b, c := &t[1], &t[2]
	if v.nsrc > 1 {
		b = w.src32(in, 1, &t[1])
	}
	if v.nsrc > 2 {
		c = w.src32(in, 2, &t[2])
	}
	d := &t[3]
	in.def.k(e, d, a, b, c)
	w.wv(int(in.dst[0].reg), w.exec(), d)
	return nil
}

// execCndFast is v_cndmask_b32 without modifiers: D = mask[lane] ? S1 : S0.
func execCndFast(w *Wave, in *instr) error {
	if in.nsrc < 3 {
		return execVOP(w, in)
	}
	if w.s[slotMode]>>27&1 != 0 {
		return execVOP(w, in)
	}
	t := &w.tmp
	a, b := w.src32(in, 0, &t[0]), w.src32(in, 1, &t[1])
	m := w.sv64(&in.src[2])
	d := &t[3]
	for l := range d {
		if m>>uint(l)&1 != 0 {
			d[l] = b[l]
		} else {
			d[l] = a[l]
		}
	}
	w.wv(int(in.dst[0].reg), w.exec(), d)
	return nil
}

// carryKernels are the carry-writing adds and subtracts (GFX8's v_add_u32
// … compile to the same operations): borrow for sub, sources swapped for
// rev, carry in (VCC or the last source) for cin.
var carryKernels = map[string]struct{ sub, rev, cin bool }{
	"v_add_co_u32": {}, "v_sub_co_u32": {sub: true}, "v_subrev_co_u32": {sub: true, rev: true},
	"v_addc_co_u32": {cin: true}, "v_subb_co_u32": {sub: true, cin: true}, "v_subbrev_co_u32": {sub: true, rev: true, cin: true},
}

// carryEligible reports whether a carry operation can use execCarryFast:
// no SDWA, DPP, clamp or source modifiers and a VGPR destination.
func carryEligible(in *instr, inst *isa.Inst, cin bool) bool {
	if inst.Variant == isa.VariantSDWA || inst.Variant == isa.VariantDPP || inst.Mods.Clamp || inst.Mods.Omod != 0 {
		return false
	}
	n := 2
	if cin {
		n = 3
	}
	if int(in.nsrc) < n || in.dst[0].kind != okV {
		return false
	}
	for k := 0; k < 2; k++ {
		if o := &in.src[k]; o.neg || o.abs || o.sext {
			return false
		}
	}
	return true
}

// carryFast returns the whole-register form of a carry operation: D and
// the carry-out mask (lanes outside EXEC 0) as execVOP computes them.
func carryFast(sub, rev, cin bool) execFn {
	return func(w *Wave, in *instr) error {
		if w.s[slotMode]>>27&1 != 0 {
			return execVOP(w, in)
		}
		t := &w.tmp
		a, b := w.src32(in, 0, &t[0]), w.src32(in, 1, &t[1])
		if rev {
			a, b = b, a
		}
		var cm uint64
		if cin {
			if k := int(in.nsrc) - 1; in.src[k].kind != okV {
				cm = w.sv64(&in.src[k])
			} else {
				cm = w.vcc()
			}
		}
		d := &t[3]
		var co uint64
		for l := range d {
			var c uint32
			if sub {
				d[l], c = bits.Sub32(a[l], b[l], uint32(cm>>uint(l)&1))
			} else {
				d[l], c = bits.Add32(a[l], b[l], uint32(cm>>uint(l)&1))
			}
			co |= uint64(c) << uint(l)
		}
		mask := w.exec()
		w.wv(int(in.dst[0].reg), mask, d)
		co &= mask
		if dst := &in.dst[1]; in.ndst < 2 || dst.kind == okNone {
			w.ws64(codeVCC, co)
		} else {
			w.sd64(dst, co)
		}
		return nil
	}
}

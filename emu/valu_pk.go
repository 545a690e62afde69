package emu

// VOP3P packed 16-bit math: each half of the result takes its sources'
// halves chosen by op_sel (low result) and op_sel_hi (high result);
// neg_lo/neg_hi negate f16 sources.

type pkFn func(e *fenv, a, b, c uint16) uint16

type pkDef struct {
	fn    pkFn
	nsrc  int
	float bool
}

var pkOps = map[int32]pkDef{}

func defPK(name string, nsrc int, float bool, fn pkFn) {
	id := int32(len(pkOps))
	pkOps[id] = pkDef{fn: fn, nsrc: nsrc, float: float}
	ty := tyV2I16
	if float {
		ty = tyV2F16
	}
	def(name, execVOP3P, id, 1, ty, cVALU)
}

func h2(f func(e *fenv, a, b uint64) uint64) pkFn {
	return func(e *fenv, a, b, c uint16) uint16 { return uint16(f(e, uint64(a), uint64(b))) }
}

func init() {
	defPK("v_pk_add_f16", 2, true, h2(addF16))
	defPK("v_pk_mul_f16", 2, true, h2(mulF16))
	defPK("v_pk_min_f16", 2, true, h2(minF16))
	defPK("v_pk_max_f16", 2, true, h2(maxF16))
	defPK("v_pk_fma_f16", 3, true, func(e *fenv, a, b, c uint16) uint16 { return uint16(fmaF16(e, uint64(a), uint64(b), uint64(c))) })
	defPK("v_pk_add_u16", 2, false, func(e *fenv, a, b, c uint16) uint16 {
		s := uint32(a) + uint32(b)
		if e.clamp && s > 0xffff {
			return 0xffff
		}
		return uint16(s)
	})
	defPK("v_pk_sub_u16", 2, false, func(e *fenv, a, b, c uint16) uint16 {
		if e.clamp && b > a {
			return 0
		}
		return a - b
	})
	defPK("v_pk_add_i16", 2, false, func(e *fenv, a, b, c uint16) uint16 {
		s := int32(int16(a)) + int32(int16(b))
		if e.clamp {
			s = int32(sat(int64(s), -32768, 32767))
		}
		return uint16(s)
	})
	defPK("v_pk_sub_i16", 2, false, func(e *fenv, a, b, c uint16) uint16 {
		s := int32(int16(a)) - int32(int16(b))
		if e.clamp {
			s = int32(sat(int64(s), -32768, 32767))
		}
		return uint16(s)
	})
	defPK("v_pk_mul_lo_u16", 2, false, func(e *fenv, a, b, c uint16) uint16 { return a * b })
	defPK("v_pk_lshlrev_b16", 2, false, func(e *fenv, a, b, c uint16) uint16 { return b << (a & 15) })
	defPK("v_pk_lshrrev_b16", 2, false, func(e *fenv, a, b, c uint16) uint16 { return b >> (a & 15) })
	defPK("v_pk_ashrrev_i16", 2, false, func(e *fenv, a, b, c uint16) uint16 { return uint16(int16(b) >> (a & 15)) })
	defPK("v_pk_max_i16", 2, false, func(e *fenv, a, b, c uint16) uint16 { return uint16(max(int16(a), int16(b))) })
	defPK("v_pk_min_i16", 2, false, func(e *fenv, a, b, c uint16) uint16 { return uint16(min(int16(a), int16(b))) })
	defPK("v_pk_max_u16", 2, false, func(e *fenv, a, b, c uint16) uint16 { return max(a, b) })
	defPK("v_pk_min_u16", 2, false, func(e *fenv, a, b, c uint16) uint16 { return min(a, b) })
	defPK("v_pk_mad_u16", 3, false, func(e *fenv, a, b, c uint16) uint16 {
		r := int64(a)*int64(b) + int64(c)
		if e.clamp {
			r = sat(r, 0, 0xffff)
		}
		return uint16(r)
	})
	defPK("v_pk_mad_i16", 3, false, func(e *fenv, a, b, c uint16) uint16 {
		r := int64(int16(a))*int64(int16(b)) + int64(int16(c))
		if e.clamp {
			r = sat(r, -32768, 32767)
		}
		return uint16(r)
	})
	def("v_mad_mix_f32", execMadMix, 0, 1, tyF32, cVALU)
	def("v_mad_mixlo_f16", execMadMix, 1, 1, tyF32, cVALU)
	def("v_mad_mixhi_f16", execMadMix, 2, 1, tyF32, cVALU)
}

func execVOP3P(w *Wave, in *instr) error {
	d := pkOps[in.sub]
	if int(in.nsrc) < d.nsrc || in.dst[0].kind != okV {
		return execBadOperands(w, in)
	}
	md := in.in.Mods
	e := w.fenvFor(16)
	e.clamp = md.Clamp && !d.float
	v := vop{nsrc: uint8(d.nsrc), srcW: [3]uint8{1, 1, 1}, nofl: true}
	var src [3][64]uint64
	for k := 0; k < d.nsrc; k++ {
		w.vfetch(in, &v, k, e, &src[k])
	}
	mask := w.exec()
	var out [64]uint32
	for m := mask; m != 0; m &= m - 1 {
		l := tz(m)
		var lo, hi [3]uint16
		for k := 0; k < d.nsrc; k++ {
			x := uint32(src[k][l])
			sl, sh := md.OpSel>>uint(k)&1, md.OpSelHi>>uint(k)&1
			lo[k], hi[k] = uint16(x>>(16*sl)), uint16(x>>(16*sh))
			if d.float {
				if md.NegLo>>uint(k)&1 != 0 {
					lo[k] ^= 0x8000
				}
				if md.NegHi>>uint(k)&1 != 0 {
					hi[k] ^= 0x8000
				}
				if !e.din {
					if isDenorm16(lo[k]) {
						lo[k] &= 0x8000
					}
					if isDenorm16(hi[k]) {
						hi[k] &= 0x8000
					}
				}
			}
		}
		rl := d.fn(e, lo[0], lo[1], lo[2])
		rh := d.fn(e, hi[0], hi[1], hi[2])
		if d.float {
			rl = uint16(post(e, uint64(rl), 16, 0, md.Clamp))
			rh = uint16(post(e, uint64(rh), 16, 0, md.Clamp))
		}
		out[l] = uint32(rl) | uint32(rh)<<16
	}
	w.wv(int(in.dst[0].reg), mask, &out)
	return nil
}

// execMadMix executes v_mad_mix*: each source is f32, or with op_sel_hi set
// the f16 half op_sel chooses; the f32 fused result goes whole (mix_f32) or
// rounded to f16 into the low or high half of the destination.
func execMadMix(w *Wave, in *instr) error {
	if in.nsrc < 3 || in.dst[0].kind != okV {
		return execBadOperands(w, in)
	}
	md := in.in.Mods
	e := w.fenvFor(32)
	v := vop{nsrc: 3, srcW: [3]uint8{1, 1, 1}, nofl: true}
	var src [3][64]uint64
	for k := 0; k < 3; k++ {
		w.vfetch(in, &v, k, e, &src[k])
	}
	mask := w.exec()
	dr := int(in.dst[0].reg)
	var out [64]uint32
	for m := mask; m != 0; m &= m - 1 {
		l := tz(m)
		var s [3]uint64
		for k := 0; k < 3; k++ {
			x := uint32(src[k][l])
			if md.OpSelHi>>uint(k)&1 != 0 {
				h := uint16(x >> (16 * uint32(md.OpSel>>uint(k)&1)))
				x = f32bits(float32(f16ToF64(h)))
			}
			if md.NegLo>>uint(k)&1 != 0 {
				x ^= 0x80000000
			}
			if md.NegHi>>uint(k)&1 != 0 {
				x &^= 0x80000000
			}
			s[k] = uint64(x)
		}
		r := uint32(fmaF32(e, s[0], s[1], s[2]))
		switch in.sub {
		case 0:
			out[l] = uint32(post(e, uint64(r), 32, 0, md.Clamp))
		case 1:
			h := f64ToF16(float64(f32(r)), 0, int(w.s[slotMode]>>2&3))
			out[l] = w.v[dr][l]&0xffff0000 | uint32(h)
		case 2:
			h := f64ToF16(float64(f32(r)), 0, int(w.s[slotMode]>>2&3))
			out[l] = w.v[dr][l]&0xffff | uint32(h)<<16
		}
	}
	w.wv(dr, mask, &out)
	return nil
}

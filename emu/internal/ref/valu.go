package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
	"math"
)

// Vector ALU registration.
func defV(name string, cost uint8, v core.Vop) *core.OpDef {
	if v.DstW == 0 {
		v.DstW = 1
	}
	for k := range v.SrcW {
		if v.SrcW[k] == 0 {
			v.SrcW[k] = 1
		}
	}
	ty := core.TyB32
	switch v.Ft {
	case 16:
		ty = core.TyF16
	case 32:
		ty = core.TyF32
	case 64:
		ty = core.TyF64
	}
	if v.Ft == 0 && v.SrcW[0] == 2 {
		ty = core.TyB64
	}
	ndst := 1
	if v.Cout {
		ndst = 2
	}
	d := def(name, ExecVOP, 0, ndst, ty, cost)
	vv := v
	d.V = &vv
	return d
}

// FenvFor builds the MODE context for float type ft.
func FenvFor(w *core.Wave, ft uint8) *core.Fenv {
	m := w.S[core.SlotMode]
	e := &w.Fe
	*e = core.Fenv{W: w, Live: 64, Ieee: m>>9&1 != 0, Dx10: m>>8&1 != 0, Mode: m, Ft: ft}
	if ft == 32 {
		e.Rm = int(m & 3)
		e.Din, e.Dout = m>>4&1 != 0, m>>5&1 != 0
	} else {
		e.Rm = int(m >> 2 & 3)
		e.Din, e.Dout = m>>6&1 != 0, m>>7&1 != 0
	}
	return e
}

// FenvCached is fenvFor(ft) for MODE m (the wave's) and a float type ft:
// when the context already holds fenvFor's fields for them it only
// clears the per-lane ones, which spares an f32 kernel rebuilding its
// MODE context every instruction.
func FenvCached(w *core.Wave, ft uint8, m uint32) *core.Fenv {
	if e := &w.Fe; BuiltFor(e, w, ft, m) {
		ClearLane(e)
		return e
	}
	return FenvFor(w, ft)
}

// BuiltFor reports whether e holds fenvFor(ft)'s MODE fields for wave w
// under MODE m.
func BuiltFor(e *core.Fenv, w *core.Wave, ft uint8, m uint32) bool {
	return e.Mode == m && e.Ft == ft && e.W == w
}

// ClearLane sets the per-lane fields as fenvFor leaves them.
func ClearLane(e *core.Fenv) {
	e.Lane, e.Carry, e.Cout, e.Clamp, e.Live = 0, 0, 0, false, 64
}

// sdwaSel extracts an SDWA operand selection: 0–3 bytes, 4–5 words, 6 dword.
func sdwaSel(v uint32, sel uint8, sext bool) uint32 {
	switch {
	case sel <= 3:
		b := v >> (8 * sel) & 0xff
		if sext {
			return uint32(int32(int8(b)))
		}
		return b
	case sel <= 5:
		h := v >> (16 * (sel - 4)) & 0xffff
		if sext {
			return uint32(int32(int16(h)))
		}
		return h
	}
	return v
}

// dppSource returns the lane that lane l reads under DPP control c, or -1
// when the source is out of range.
func dppSource(c uint16, l int) int {
	switch {
	case c <= 0xff: // quad_perm
		return l&^3 + int(c>>(2*uint(l&3))&3)
	case c >= 0x101 && c <= 0x10f: // row_shl
		s := l + int(c&0xf)
		if s&^15 != l&^15 {
			return -1
		}
		return s
	case c >= 0x111 && c <= 0x11f: // row_shr
		s := l - int(c&0xf)
		if s < 0 || s&^15 != l&^15 {
			return -1
		}
		return s
	case c >= 0x121 && c <= 0x12f: // row_ror
		return l&^15 + (l+int(c&0xf))&15
	case c == 0x130: // wave_shl1
		if l == 63 {
			return -1
		}
		return l + 1
	case c == 0x134: // wave_rol1
		return (l + 1) & 63
	case c == 0x138: // wave_shr1
		return l - 1
	case c == 0x13c: // wave_ror1
		return (l + 63) & 63
	case c == 0x140: // row_mirror
		return l&^15 + 15 - l&15
	case c == 0x141: // row_half_mirror
		return l&^7 + 7 - l&7
	case c == 0x142: // row_bcast:15
		if l&15 != 0 || l < 16 {
			if l < 16 {
				return -1
			}
		}
		return l&^15 - 1
	case c == 0x143: // row_bcast:31
		if l < 32 {
			return -1
		}
		return 31
	}
	return -1
}

// vfetch reads source k of in for every lane into buf.
func vfetch(w *core.Wave, in *core.Instr, v *core.Vop, k int, e *core.Fenv, buf *[64]uint64) {
	o := &in.Src[k]
	wd := v.SrcW[k]
	if v.Mac && k == 2 {
		o = &in.Dst[0]
	}
	switch o.Kind {
	case core.OkV:
		r := idxReg(w, int(o.Reg), k)
		if wd == 2 && r < 255 {
			lo, hi := &w.V[r], &w.V[r+1]
			for l := 0; l < 64; l++ {
				buf[l] = uint64(lo[l]) | uint64(hi[l])<<32
			}
		} else {
			src := &w.V[r]
			for l := 0; l < 64; l++ {
				buf[l] = uint64(src[l])
			}
		}
		if in.In != nil && in.In.Variant == isa.VariantDPP && k == 0 {
			var t [64]uint64
			ex := w.Exec()
			for l := 0; l < 64; l++ {
				s := dppSource(in.In.Mods.DPPCtrl, l)
				switch {
				case s >= 0 && ex>>uint(s)&1 != 0:
					t[l] = buf[s]
				case in.In.Mods.BoundCtrl:
					t[l] = 0
				default:
					t[l] = buf[l] // lane disabled below
				}
			}
			*buf = t
		}
	default:
		var x uint64
		if wd == 2 {
			x = w.Sv64(o)
		} else {
			x = uint64(w.Sv(o))
		}
		for l := range buf {
			buf[l] = x
		}
	}
	if in.In != nil && in.In.Variant == isa.VariantSDWA && k < 2 && wd == 1 {
		sel := in.In.Mods.Src0Sel
		if k == 1 {
			sel = in.In.Mods.Src1Sel
		}
		if sel < 6 || o.Sext {
			for l := range buf {
				buf[l] = uint64(sdwaSel(uint32(buf[l]), sel, o.Sext))
			}
		}
	}
	// float modifiers and input denormals
	ft := v.Ft
	if ft == 0 || k >= 3 || v.Isrc>>uint(k)&1 != 0 {
		return
	}
	var sign uint64
	switch ft {
	case 16:
		sign = 0x8000
	case 32:
		sign = 0x80000000
	case 64:
		sign = 1 << 63
	}
	if o.Abs {
		for l := range buf {
			buf[l] &^= sign
		}
	}
	if o.Neg {
		for l := range buf {
			buf[l] ^= sign
		}
	}
	if !e.Din && !v.Nofl {
		for l := range buf {
			x := buf[l]
			switch ft {
			case 16:
				if core.IsDenorm16(uint16(x)) {
					buf[l] = x & 0x8000
				}
			case 32:
				if core.IsDenorm32(uint32(x)) {
					buf[l] = x & 0x80000000
				}
			case 64:
				if core.IsDenorm64(x) {
					buf[l] = x & (1 << 63)
				}
			}
		}
	}
}

// writeMask is EXEC restricted by DPP's row and bank masks and, without
// bound_ctrl, by invalid DPP source lanes.
func writeMask(w *core.Wave, in *core.Instr) uint64 {
	m := w.Exec()
	if in.In == nil || in.In.Variant != isa.VariantDPP {
		return m
	}
	md := &in.In.Mods
	ex := m
	for l := 0; l < 64; l++ {
		row, bank := l>>4, (l>>2)&3
		ok := md.RowMask>>uint(row)&1 != 0 && md.BankMask>>uint(bank)&1 != 0
		if ok && !md.BoundCtrl && in.Src[0].Kind == core.OkV {
			s := dppSource(md.DPPCtrl, l)
			ok = s >= 0 && ex>>uint(s)&1 != 0
		}
		if !ok {
			m &^= 1 << uint(l)
		}
	}
	return m
}

// Post applies omod, clamp and output-denormal flushing to a float result.
func Post(e *core.Fenv, r uint64, ft uint8, omod uint8, clamp bool) uint64 {
	switch ft {
	case 32:
		f := core.F32(uint32(r))
		if omod != 0 && f == f {
			f *= [...]float32{1, 2, 4, 0.5}[omod&3]
		}
		if clamp {
			f = clampF32(f, e.Dx10)
		}
		u := core.F32bits(f)
		if !e.Dout && core.IsDenorm32(u) {
			u &= 0x80000000
		}
		return uint64(u)
	case 64:
		f := core.F64(r)
		if omod != 0 && f == f {
			f *= [...]float64{1, 2, 4, 0.5}[omod&3]
		}
		if clamp {
			switch {
			case f != f:
				if e.Dx10 {
					f = 0
				}
			case f < 0:
				f = 0
			case f > 1:
				f = 1
			}
		}
		u := core.F64bits(f)
		if !e.Dout && core.IsDenorm64(u) {
			u &= 1 << 63
		}
		return u
	case 16:
		h := uint16(r)
		if omod != 0 || clamp {
			f := core.F16ToF64(h)
			if f == f {
				f *= [...]float64{1, 2, 4, 0.5}[omod&3]
				if clamp {
					f = math.Max(0, math.Min(1, f))
				}
				h = core.F64ToF16(f, 0, e.Rm)
			} else if clamp && e.Dx10 {
				h = 0
			}
		}
		if !e.Dout && core.IsDenorm16(h) {
			h &= 0x8000
		}
		return uint64(h)
	}
	return r
}

func clampF32(f float32, dx10 bool) float32 {
	switch {
	case f != f:
		if dx10 {
			return 0
		}
		return f
	case f < 0:
		return 0
	case f > 1:
		return 1
	}
	return f
}

// vdstWrite writes a 32-bit result to VGPR r under SDWA dst_sel/dst_unused.
// A register past v255 (GPR indexing can push one there) is not written,
// as wv drops it.
func vdstWrite(w *core.Wave, in *core.Instr, r int, mask uint64, res *[64]uint32) {
	if r < 0 || r > 255 {
		return
	}
	if in.In != nil && in.In.Variant == isa.VariantSDWA && in.In.Mods.DstSel < 6 {
		sel, unused := in.In.Mods.DstSel, in.In.Mods.DstUnused
		old := &w.V[r]
		for m := mask; m != 0; m &= m - 1 {
			l := core.Tz(m)
			var shift, width uint32
			if sel <= 3 {
				shift, width = 8*uint32(sel), 8
			} else {
				shift, width = 16*uint32(sel-4), 16
			}
			fm := (uint32(1)<<width - 1) << shift
			v := res[l] << shift & fm
			switch unused {
			case 0: // pad with zeros
			case 1: // sign-extend the selected field upwards
				if v>>(shift+width-1)&1 != 0 {
					v |= ^uint32(0) << (shift + width)
				}
			case 2: // preserve
				v |= old[l] &^ fm
			}
			res[l] = v
		}
	}
	w.Wv(r, mask, res)
}

// ExecVOP executes a vector ALU operation through its lane function.
func ExecVOP(w *core.Wave, in *core.Instr) error {
	v := in.Def.V
	if int(in.Nsrc) < int(v.Nsrc)-B2i(v.Mac) || in.Dst[0].Kind == core.OkNone {
		return ExecBadOperands(w, in)
	}
	e := FenvFor(w, max(v.Ft, v.Oft))
	MixedTypes(w, e, v)
	mask := writeMask(w, in)
	var a, b, c [64]uint64
	vfetch(w, in, v, 0, e, &a)
	if v.Nsrc > 1 {
		vfetch(w, in, v, 1, e, &b)
	}
	if v.Nsrc > 2 {
		vfetch(w, in, v, 2, e, &c)
	}
	var cin uint64
	if v.Cin {
		k := int(in.Nsrc) - 1
		if k >= 0 && in.Src[k].Kind != core.OkV {
			cin = w.Sv64(&in.Src[k])
		} else {
			cin = w.Vcc()
		}
	}
	var mods isa.Modifiers
	if in.In != nil {
		mods = in.In.Mods
	}
	var lo, hi [64]uint32
	var cout uint64
	fn := v.Fn
	e.Clamp = mods.Clamp && v.Oft == 0
	for m := mask; m != 0; m &= m - 1 {
		l := core.Tz(m)
		e.Lane = l
		e.Carry = cin >> uint(l) & 1
		e.Cout = 0
		r := fn(e, a[l], b[l], c[l])
		if v.Oft != 0 {
			r = Post(e, r, v.Oft, mods.Omod, mods.Clamp)
		}
		lo[l], hi[l] = uint32(r), uint32(r>>32)
		cout |= e.Cout << uint(l)
	}
	d := &in.Dst[0]
	if d.Kind == core.OkV {
		r := idxReg(w, int(d.Reg), 3)
		vdstWrite(w, in, r, mask, &lo)
		if v.DstW == 2 {
			w.Wv(r+1, mask, &hi)
		}
	} else if d.Kind == core.OkS {
		// VOP3 with an SGPR destination is only the VOPC/readlane family.
		return ExecBadOperands(w, in)
	}
	if v.Cout {
		// carry/VCC mask: lanes outside EXEC read as 0
		dst := &in.Dst[1]
		if in.Ndst < 2 || dst.Kind == core.OkNone {
			w.Ws64(core.CodeVCC, cout)
		} else {
			w.Sd64(dst, cout)
		}
	}
	return nil
}

func B2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// idxReg applies GPR indexing (s_set_gpr_idx_on): with MODE.GPR_IDX_EN set
// and M0's enable bit for operand k (12+k: src0, src1, src2, dst), the VGPR
// number is offset by M0[7:0]. An index past v255 reads v255 and a write
// there is dropped (noted).
func idxReg(w *core.Wave, r, k int) int {
	if w.S[core.SlotMode]>>27&1 == 0 || w.S[core.CodeM0]>>(12+uint(k))&1 == 0 {
		return r
	}
	r += int(w.Rs(core.CodeM0) & 0xff)
	if r > 255 {
		w.Note("GPR index past v255")
		if k == 3 {
			return 256 // wv drops it
		}
		return 255
	}
	return r
}

// MixedTypes fixes the context of conversions between float widths: input
// denormals follow the source type's MODE field, output denormals and
// rounding the result type's.
func MixedTypes(w *core.Wave, e *core.Fenv, v *core.Vop) {
	if v.Ft == 0 || v.Oft == 0 || v.Ft == v.Oft {
		return
	}
	m := w.S[core.SlotMode]
	e.Ft = 0 // no longer fenvFor's fields
	field := func(ft uint8) uint32 {
		if ft == 32 {
			return m >> 4 & 3
		}
		return m >> 6 & 3
	}
	e.Din = field(v.Ft)&1 != 0
	e.Dout = field(v.Oft)&2 != 0
	if v.Oft == 32 {
		e.Rm = int(m & 3)
	} else {
		e.Rm = int(m >> 2 & 3)
	}
}

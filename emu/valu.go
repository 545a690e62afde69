package emu

import (
	"math"

	"github.com/wavedbg/wavedbg/isa"
)

// fenv is the per-instruction context of a lane function: the MODE
// settings for the operation's float type, and per-lane carry bits.
type fenv struct {
	rm    int  // rounding mode for the op's type
	din   bool // keep input denormals
	dout  bool // keep output denormals
	ieee  bool
	dx10  bool
	lane  int
	carry uint64 // carry/borrow in (0 or 1) for this lane
	cout  uint64 // carry/borrow out (0 or 1), or the lane's VCC bit
	w     *Wave
	clamp bool // integer clamp (saturation) requested
	live  int  // whole-register kernels compute lanes 0 to live-1 only
	// mode and ft are the MODE and float type fenvFor built rm, din,
	// dout, ieee and dx10 from (ft 0 once they may differ: Reset,
	// mixedTypes), so that fenvCached can reuse them.
	mode uint32
	ft   uint8
}

// laneFn computes one lane: sources as 64-bit values (32-bit sources
// zero-extended), result of the op's destination width.
type laneFn func(e *fenv, a, b, c uint64) uint64

// vop describes a vector ALU operation.
type vop struct {
	fn   laneFn
	nsrc uint8
	srcW [3]uint8 // source widths in dwords
	dstW uint8
	ft   uint8 // float type of the sources for abs/neg/denormals: 0, 16, 32, 64
	oft  uint8 // float type of the result for clamp/omod/denormals (0: integer)
	cout bool  // writes a carry/VCC mask (second destination or VCC)
	cin  bool  // reads a carry mask (last source or VCC)
	mac  bool  // the destination is also the addend (v_mac_*)
	nofl bool  // no input-denormal flushing (moves and selects)
	isrc uint8 // bit k: source k is an integer (no float modifiers)
}

// Vector ALU registration.
func defV(name string, cost uint8, v vop) *opDef {
	if v.dstW == 0 {
		v.dstW = 1
	}
	for k := range v.srcW {
		if v.srcW[k] == 0 {
			v.srcW[k] = 1
		}
	}
	ty := tyB32
	switch v.ft {
	case 16:
		ty = tyF16
	case 32:
		ty = tyF32
	case 64:
		ty = tyF64
	}
	if v.ft == 0 && v.srcW[0] == 2 {
		ty = tyB64
	}
	ndst := 1
	if v.cout {
		ndst = 2
	}
	d := def(name, execVOP, 0, ndst, ty, cost)
	vv := v
	d.v = &vv
	return d
}

// fenvFor builds the MODE context for float type ft.
func (w *Wave) fenvFor(ft uint8) *fenv {
	m := w.s[slotMode]
	e := &w.fe
	*e = fenv{w: w, live: 64, ieee: m>>9&1 != 0, dx10: m>>8&1 != 0, mode: m, ft: ft}
	if ft == 32 {
		e.rm = int(m & 3)
		e.din, e.dout = m>>4&1 != 0, m>>5&1 != 0
	} else {
		e.rm = int(m >> 2 & 3)
		e.din, e.dout = m>>6&1 != 0, m>>7&1 != 0
	}
	return e
}

// fenvCached is fenvFor(ft) for MODE m (the wave's) and a float type ft:
// when the context already holds fenvFor's fields for them it only
// clears the per-lane ones, which spares an f32 kernel rebuilding its
// MODE context every instruction.
func (w *Wave) fenvCached(ft uint8, m uint32) *fenv {
	if e := &w.fe; e.builtFor(w, ft, m) {
		e.clearLane()
		return e
	}
	return w.fenvFor(ft)
}

// builtFor reports whether e holds fenvFor(ft)'s MODE fields for wave w
// under MODE m.
func (e *fenv) builtFor(w *Wave, ft uint8, m uint32) bool {
	return e.mode == m && e.ft == ft && e.w == w
}

// clearLane sets the per-lane fields as fenvFor leaves them.
func (e *fenv) clearLane() {
	e.lane, e.carry, e.cout, e.clamp, e.live = 0, 0, 0, false, 64
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
func (w *Wave) vfetch(in *instr, v *vop, k int, e *fenv, buf *[64]uint64) {
	o := &in.src[k]
	wd := v.srcW[k]
	if v.mac && k == 2 {
		o = &in.dst[0]
	}
	switch o.kind {
	case okV:
		r := w.idxReg(int(o.reg), k)
		if wd == 2 && r < 255 {
			lo, hi := &w.v[r], &w.v[r+1]
			for l := 0; l < 64; l++ {
				buf[l] = uint64(lo[l]) | uint64(hi[l])<<32
			}
		} else {
			src := &w.v[r]
			for l := 0; l < 64; l++ {
				buf[l] = uint64(src[l])
			}
		}
		if in.in != nil && in.in.Variant == isa.VariantDPP && k == 0 {
			var t [64]uint64
			ex := w.exec()
			for l := 0; l < 64; l++ {
				s := dppSource(in.in.Mods.DPPCtrl, l)
				switch {
				case s >= 0 && ex>>uint(s)&1 != 0:
					t[l] = buf[s]
				case in.in.Mods.BoundCtrl:
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
			x = w.sv64(o)
		} else {
			x = uint64(w.sv(o))
		}
		for l := range buf {
			buf[l] = x
		}
	}
	if in.in != nil && in.in.Variant == isa.VariantSDWA && k < 2 && wd == 1 {
		sel := in.in.Mods.Src0Sel
		if k == 1 {
			sel = in.in.Mods.Src1Sel
		}
		if sel < 6 || o.sext {
			for l := range buf {
				buf[l] = uint64(sdwaSel(uint32(buf[l]), sel, o.sext))
			}
		}
	}
	// float modifiers and input denormals
	ft := v.ft
	if ft == 0 || k >= 3 || v.isrc>>uint(k)&1 != 0 {
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
	if o.abs {
		for l := range buf {
			buf[l] &^= sign
		}
	}
	if o.neg {
		for l := range buf {
			buf[l] ^= sign
		}
	}
	if !e.din && !v.nofl {
		for l := range buf {
			x := buf[l]
			switch ft {
			case 16:
				if isDenorm16(uint16(x)) {
					buf[l] = x & 0x8000
				}
			case 32:
				if isDenorm32(uint32(x)) {
					buf[l] = x & 0x80000000
				}
			case 64:
				if isDenorm64(x) {
					buf[l] = x & (1 << 63)
				}
			}
		}
	}
}

// writeMask is EXEC restricted by DPP's row and bank masks and, without
// bound_ctrl, by invalid DPP source lanes.
func (w *Wave) writeMask(in *instr) uint64 {
	m := w.exec()
	if in.in == nil || in.in.Variant != isa.VariantDPP {
		return m
	}
	md := &in.in.Mods
	ex := m
	for l := 0; l < 64; l++ {
		row, bank := l>>4, (l>>2)&3
		ok := md.RowMask>>uint(row)&1 != 0 && md.BankMask>>uint(bank)&1 != 0
		if ok && !md.BoundCtrl && in.src[0].kind == okV {
			s := dppSource(md.DPPCtrl, l)
			ok = s >= 0 && ex>>uint(s)&1 != 0
		}
		if !ok {
			m &^= 1 << uint(l)
		}
	}
	return m
}

// post applies omod, clamp and output-denormal flushing to a float result.
func post(e *fenv, r uint64, ft uint8, omod uint8, clamp bool) uint64 {
	switch ft {
	case 32:
		f := f32(uint32(r))
		if omod != 0 && f == f {
			f *= [...]float32{1, 2, 4, 0.5}[omod&3]
		}
		if clamp {
			f = clampF32(f, e.dx10)
		}
		u := f32bits(f)
		if !e.dout && isDenorm32(u) {
			u &= 0x80000000
		}
		return uint64(u)
	case 64:
		f := f64(r)
		if omod != 0 && f == f {
			f *= [...]float64{1, 2, 4, 0.5}[omod&3]
		}
		if clamp {
			switch {
			case f != f:
				if e.dx10 {
					f = 0
				}
			case f < 0:
				f = 0
			case f > 1:
				f = 1
			}
		}
		u := f64bits(f)
		if !e.dout && isDenorm64(u) {
			u &= 1 << 63
		}
		return u
	case 16:
		h := uint16(r)
		if omod != 0 || clamp {
			f := f16ToF64(h)
			if f == f {
				f *= [...]float64{1, 2, 4, 0.5}[omod&3]
				if clamp {
					f = math.Max(0, math.Min(1, f))
				}
				h = f64ToF16(f, 0, e.rm)
			} else if clamp && e.dx10 {
				h = 0
			}
		}
		if !e.dout && isDenorm16(h) {
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
func (w *Wave) vdstWrite(in *instr, r int, mask uint64, res *[64]uint32) {
	if r < 0 || r > 255 {
		return
	}
	if in.in != nil && in.in.Variant == isa.VariantSDWA && in.in.Mods.DstSel < 6 {
		sel, unused := in.in.Mods.DstSel, in.in.Mods.DstUnused
		old := &w.v[r]
		for m := mask; m != 0; m &= m - 1 {
			l := tz(m)
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
	w.wv(r, mask, res)
}

// execVOP executes a vector ALU operation through its lane function.
func execVOP(w *Wave, in *instr) error {
	v := in.def.v
	if int(in.nsrc) < int(v.nsrc)-b2i(v.mac) || in.dst[0].kind == okNone {
		return execBadOperands(w, in)
	}
	e := w.fenvFor(max(v.ft, v.oft))
	w.mixedTypes(e, v)
	mask := w.writeMask(in)
	var a, b, c [64]uint64
	w.vfetch(in, v, 0, e, &a)
	if v.nsrc > 1 {
		w.vfetch(in, v, 1, e, &b)
	}
	if v.nsrc > 2 {
		w.vfetch(in, v, 2, e, &c)
	}
	var cin uint64
	if v.cin {
		k := int(in.nsrc) - 1
		if k >= 0 && in.src[k].kind != okV {
			cin = w.sv64(&in.src[k])
		} else {
			cin = w.vcc()
		}
	}
	var mods isa.Modifiers
	if in.in != nil {
		mods = in.in.Mods
	}
	var lo, hi [64]uint32
	var cout uint64
	fn := v.fn
	e.clamp = mods.Clamp && v.oft == 0
	for m := mask; m != 0; m &= m - 1 {
		l := tz(m)
		e.lane = l
		e.carry = cin >> uint(l) & 1
		e.cout = 0
		r := fn(e, a[l], b[l], c[l])
		if v.oft != 0 {
			r = post(e, r, v.oft, mods.Omod, mods.Clamp)
		}
		lo[l], hi[l] = uint32(r), uint32(r>>32)
		cout |= e.cout << uint(l)
	}
	d := &in.dst[0]
	if d.kind == okV {
		r := w.idxReg(int(d.reg), 3)
		w.vdstWrite(in, r, mask, &lo)
		if v.dstW == 2 {
			w.wv(r+1, mask, &hi)
		}
	} else if d.kind == okS {
		// VOP3 with an SGPR destination is only the VOPC/readlane family.
		return execBadOperands(w, in)
	}
	if v.cout {
		// carry/VCC mask: lanes outside EXEC read as 0
		dst := &in.dst[1]
		if in.ndst < 2 || dst.kind == okNone {
			w.ws64(codeVCC, cout)
		} else {
			w.sd64(dst, cout)
		}
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// idxReg applies GPR indexing (s_set_gpr_idx_on): with MODE.GPR_IDX_EN set
// and M0's enable bit for operand k (12+k: src0, src1, src2, dst), the VGPR
// number is offset by M0[7:0]. An index past v255 reads v255 and a write
// there is dropped (noted).
func (w *Wave) idxReg(r, k int) int {
	if w.s[slotMode]>>27&1 == 0 || w.s[codeM0]>>(12+uint(k))&1 == 0 {
		return r
	}
	r += int(w.rs(codeM0) & 0xff)
	if r > 255 {
		w.note("GPR index past v255")
		if k == 3 {
			return 256 // wv drops it
		}
		return 255
	}
	return r
}

// mixedTypes fixes the context of conversions between float widths: input
// denormals follow the source type's MODE field, output denormals and
// rounding the result type's.
func (w *Wave) mixedTypes(e *fenv, v *vop) {
	if v.ft == 0 || v.oft == 0 || v.ft == v.oft {
		return
	}
	m := w.s[slotMode]
	e.ft = 0 // no longer fenvFor's fields
	field := func(ft uint8) uint32 {
		if ft == 32 {
			return m >> 4 & 3
		}
		return m >> 6 & 3
	}
	e.din = field(v.ft)&1 != 0
	e.dout = field(v.oft)&2 != 0
	if v.oft == 32 {
		e.rm = int(m & 3)
	} else {
		e.rm = int(m >> 2 & 3)
	}
}

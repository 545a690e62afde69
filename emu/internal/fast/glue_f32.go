package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

// f32 kernel glue: the f32 kernels (instr.kft 32) whose sources are plain
// get a handler that tests "no GPR indexing, f32 rounding to nearest
// even" in one look at MODE and reuses the wave's float context
// while MODE is unchanged (fenvCached), instead of execFastV's source
// dispatch and fenvFor.

// f32Fn returns the f32 handler for in, whose sources are plain
// (plainVSources), or nil: execF32U for a unary operation of an SGPR or
// constant, execF32V when no source is an SGPR.
func f32Fn(in *core.Instr) core.ExecFn {
	v := in.Def.V
	if in.Kft != 32 {
		return nil
	}
	a, b := in.Src[0].Kind, in.Src[1].Kind
	inPlace := func(k uint8) bool { return k == core.OkV || k == core.OkConst }
	switch {
	case v.Nsrc == 1 && (a == core.OkS || a == core.OkConst):
		return execF32U
	case inPlace(a) && (v.Nsrc < 2 || inPlace(b)):
		return execF32V
	}
	return nil
}

// f32Plain reports whether an f32 handler may take its plain path under
// MODE m: no GPR indexing and f32 rounding to nearest even.
func f32Plain(w *core.Wave, m uint32) bool { return m&(core.ModeGPRIdxEn|3) == core.RmNearest }

// execF32V runs an f32 kernel whose sources are VGPRs or constants (the
// third, if any, a VGPR or v_mac's destination) in place when EXEC is
// whole quads; anything else takes execFastV.
func execF32V(w *core.Wave, in *core.Instr) error {
	mask := w.Exec()
	m := w.S[core.SlotMode]
	if !f32Plain(w, m) || !quadPrefix(mask) {
		return execFastV(w, in)
	}
	c := &w.Tmp[2]
	if v := in.Def.V; v.Nsrc > 2 {
		r := in.Src[2].Reg
		if v.Mac {
			r = in.Dst[0].Reg
		}
		c = &w.V[uint8(r)]
	}
	e := &w.Fe // fenvCached(32, m), its test inline
	if ref.BuiltFor(e, w, 32, m) {
		ref.ClearLane(e)
	} else {
		e = ref.FenvFor(w, 32)
	}
	e.Live = core.LiveLanes(mask)
	in.K(e, &w.V[uint8(in.Dst[0].Reg)], shapeSrc(w, in, 0), shapeSrc(w, in, 1), c)
	return nil
}

// execF32U runs a unary f32 kernel of a uniform source (an SGPR or a
// constant, v_cvt_f32_u32 v, s): every lane's result is the same, so the
// kernel computes one quad and the EXEC lanes are set to its lane 0.
func execF32U(w *core.Wave, in *core.Instr) error {
	m := w.S[core.SlotMode]
	if !f32Plain(w, m) {
		return execFastV(w, in)
	}
	t := &w.Tmp
	a := &t[0]
	if o := &in.Src[0]; o.Kind == core.OkConst {
		a = &in.Cf[0]
	} else {
		x := w.S[o.Reg]
		a[0], a[1], a[2], a[3] = x, x, x, x
	}
	e := &w.Fe // fenvCached(32, m), its test inline
	if ref.BuiltFor(e, w, 32, m) {
		ref.ClearLane(e)
	} else {
		e = ref.FenvFor(w, 32)
	}
	e.Live = 1
	in.K(e, &t[3], a, &t[1], &t[2])
	fillMasked(&w.V[uint8(in.Dst[0].Reg)], t[3][0], w.Exec())
	return nil
}

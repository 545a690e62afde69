package emu

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// The whole-register forms (execFast, the carry, 64-bit, compare, cndmask,
// f64 and f16-conversion kernels) leave exactly the state the generic
// paths (execVOP, execVOPC) leave: every SGPR, VCC, EXEC and VGPR, from
// random states with NaNs, infinities, denormals and signed zeros in
// 32-, 64- and 16-bit positions, EXEC masks with holes, every MODE
// denormal setting (and rounding modes and GPR indexing, which fall back),
// VGPR, SGPR, inline-constant and literal sources, and destinations that
// alias sources. With journaling on, the journal restores the old state.

var (
	fastSpecial32 = []uint32{0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x7f800000, 0xff800000, 0x7fc00001,
		0x7f800001, 0xffbfffff, 0x3f800000, 0xbf800000, 0x7f7fffff, 0x477fe000, 0x477ff000, 0x33000000, 0x33000001,
		0x38800000, 0x387fc000, 0x387fe000, 0xffffffff, 0x7fffffff, 0x80000001}
	fastSpecial16 = []uint32{0, 0x8000, 1, 0x83ff, 0x0400, 0x7c00, 0xfc00, 0x7e01, 0x7c01, 0xfdff, 0x3c00, 0x7bff, 0x03ff}
	fastSpecialHi = []uint32{0, 0x80000000, 0x000fffff, 0x800fffff, 0x00100000, 0x7ff00000, 0xfff00000, 0x7ff80000,
		0x7ff00001, 0x3ff00000, 0xbff00000, 0x7fefffff, 0x3fe00000, 0x00200000, 0x1ff00000, 0x5ff00000}
)

// fastVal draws a lane or SGPR value.
func fastVal(r *rand.Rand, pool *[4]uint32) uint32 {
	switch r.IntN(9) {
	case 0:
		return fastSpecial32[r.IntN(len(fastSpecial32))]
	case 1:
		return fastSpecial16[r.IntN(len(fastSpecial16))] | r.Uint32()&0xffff0000*uint32(r.IntN(2))
	case 2:
		return fastSpecialHi[r.IntN(len(fastSpecialHi))]
	case 3:
		return uint32(r.IntN(80) - 10)
	case 4, 5:
		return pool[r.IntN(4)] // repeats, so equal compares and carries chain
	}
	return r.Uint32()
}

func fastMask(r *rand.Rand) uint64 {
	switch r.IntN(9) {
	case 0:
		return ^uint64(0)
	case 1:
		return 0
	case 2:
		return 1 << r.IntN(64)
	case 3:
		return ^uint64(0) >> r.IntN(64) // a prefix
	case 4:
		return ^uint64(0) << r.IntN(64) // a suffix
	case 5:
		return r.Uint64() & r.Uint64() >> r.IntN(64) // sparse, below a bound
	case 6:
		return edgeMasks[r.IntN(len(edgeMasks))]
	}
	return r.Uint64()
}

// edgeMasks are EXEC masks every fast form also runs under: a small
// work-group's prefix (16 lanes), suffixes, single lanes at either end,
// a half and sparse masks. The kernels compute lanes up to the highest
// EXEC lane only.
var edgeMasks = []uint64{0xFFFF, 0xFFFF0000, 1, 1 << 63, 1<<32 - 1, 0xFFFF << 48, 1<<63 | 1, 0x1111, 0x0101010100000000}

// withExec sets w's EXEC to ex.
func withExec(w *Wave, ex uint64) *Wave {
	w.S[core.CodeExec], w.S[core.CodeExec+1] = uint32(ex), uint32(ex>>32)
	return w
}

func fastWave(r *rand.Rand) *Wave {
	w := &Wave{Target: isa.GFX9}
	var pool [4]uint32
	for i := range pool {
		pool[i] = fastVal(r, &[4]uint32{})
	}
	for i := 0; i < 102; i++ {
		w.S[i] = fastVal(r, &pool)
	}
	for i := 0; i < 16; i++ {
		for l := 0; l < 64; l++ {
			w.V[i][l] = fastVal(r, &pool)
		}
		if r.IntN(4) == 0 { // an f64 pair: special high words
			for l := 0; l < 64; l++ {
				if r.IntN(2) == 0 {
					w.V[i][l] = fastSpecialHi[r.IntN(len(fastSpecialHi))]
				}
			}
		}
	}
	vcc, ex := fastMask(r), fastMask(r)
	w.S[core.CodeVCC], w.S[core.CodeVCC+1] = uint32(vcc), uint32(vcc>>32)
	w.S[core.CodeExec], w.S[core.CodeExec+1] = uint32(ex), uint32(ex>>32)
	w.S[core.CodeM0] = r.Uint32()
	mode := uint32(r.IntN(16)) << 4 // FP_DENORM
	if r.IntN(5) == 0 {
		mode |= uint32(r.IntN(16)) // FP_ROUND
	}
	mode |= uint32(r.IntN(4)) << 8 // DX10_CLAMP, IEEE
	if r.IntN(20) == 0 {
		mode |= 1 << 27 // GPR_IDX_EN
	}
	w.S[core.SlotMode] = mode
	return w
}

// fastCases are instructions whose compiled form must be a fast one.
func fastCases() []ti {
	v64 := func(n int) isa.Operand { return vreg2(n) }
	neg := func(o isa.Operand) isa.Operand { o.Neg = true; return o }
	abs := func(o isa.Operand) isa.Operand { o.Abs = true; return o }
	e3 := func(t ti) ti { return t.enc(isa.EncVOP3) }
	cs := []ti{
		// carries
		I("v_add_co_u32", vreg(1), vcc(), vreg(2), vreg(3)),
		e3(I("v_add_co_u32", vreg(1), sreg2(10), vreg(2), sreg(5))),
		I("v_add_co_u32", vreg(1), vcc(), ic(5), vreg(3)),
		I("v_add_co_u32", vreg(1), vcc(), lit(0xfffffff0), vreg(3)),
		I("v_sub_co_u32", vreg(2), vcc(), vreg(2), vreg(3)),
		e3(I("v_subrev_co_u32", vreg(1), sreg2(10), vreg(2), sreg(7))),
		I("v_subrev_co_u32", vreg(3), vcc(), vreg(2), vreg(3)),
		I("v_addc_co_u32", vreg(1), vcc(), vreg(2), vreg(3), vcc()),
		e3(I("v_addc_co_u32", vreg(1), sreg2(10), vreg(2), ic(0), sreg2(12))),
		e3(I("v_addc_co_u32", vreg(1), sreg2(12), sreg(3), vreg(1), sreg2(12))),
		I("v_subb_co_u32", vreg(1), vcc(), vreg(1), vreg(3), vcc()),
		e3(I("v_subb_co_u32", vreg(1), sreg2(10), ic(-1), vreg(3), sreg2(12))),
		I("v_subbrev_co_u32", vreg(1), vcc(), vreg(2), vreg(3), vcc()),
		e3(I("v_subbrev_co_u32", vreg(1), sreg2(12), vreg(2), vreg(3), sreg2(12))),
		// 64-bit
		I("v_lshlrev_b64", v64(4), vreg(1), v64(2)),
		I("v_lshlrev_b64", v64(2), ic(3), v64(2)),
		I("v_lshlrev_b64", v64(2), vreg(3), v64(2)),
		I("v_lshrrev_b64", v64(4), sreg(1), sreg2(2)),
		I("v_lshrrev_b64", v64(4), vreg(5), v64(4)),
		I("v_ashrrev_i64", v64(4), vreg(1), v64(6)),
		I("v_ashrrev_i64", v64(4), vreg(1), ic(-5)),
		I("v_ashrrev_i64", v64(4), vreg(1), lit(0x80000001)),
		e3(I("v_mad_u64_u32", v64(4), sreg2(10), vreg(1), vreg(2), v64(6))),
		e3(I("v_mad_u64_u32", v64(4), vcc(), vreg(1), sreg(2), ic(0))),
		e3(I("v_mad_u64_u32", v64(1), sreg2(10), vreg(1), vreg(2), v64(1))),
		e3(I("v_mad_u64_u32", v64(1), sreg2(10), vreg(2), vreg(1), sreg2(4))),
		e3(I("v_mad_i64_i32", v64(4), sreg2(10), vreg(1), vreg(2), v64(6))),
		e3(I("v_mad_i64_i32", v64(4), sreg2(10), vreg(1), ic(-7), ic(-1))),
		e3(I("v_mad_i64_i32", v64(2), sreg2(10), vreg(2), lit(0x12345678), v64(2))),
		// selects
		I("v_cndmask_b32", vreg(1), vreg(2), vreg(3), vcc()),
		e3(I("v_cndmask_b32", vreg(1), ic(0), ic(1), sreg2(10))),
		e3(I("v_cndmask_b32", vreg(3), lit(0x7fc00000), vreg(3), sreg2(12))),
		// one modifier on an f32 kernel's source of each kind
		e3(I("v_mul_f32", vreg(1), neg(vreg(2)), vreg(3))),
		e3(I("v_add_f32", vreg(1), vreg(2), abs(sreg(5)))),
		e3(I("v_mad_f32", vreg(1), sreg(4), neg(vreg(3)), neg(sreg(5)))),
		I("v_cndmask_b32", vreg(2), vreg(2), vreg(3), vcc()),
		I("v_cndmask_b32", vreg(2), vreg(2), vreg(2), vcc()),
		e3(I("v_cndmask_b32", vreg(1), vreg(2), sreg(4), sreg2(10))),
		// f64
		I("v_add_f64", v64(4), v64(0), v64(2)),
		I("v_add_f64", v64(2), neg(v64(2)), abs(v64(0))),
		I("v_add_f64", v64(4), icf(242), neg(abs(v64(6)))),
		I("v_add_f64", v64(4), sreg2(2), v64(6)),
		I("v_mul_f64", v64(4), v64(0), v64(2)),
		I("v_mul_f64", v64(0), v64(0), neg(v64(0))),
		I("v_mul_f64", v64(4), lit(0x3ff80000), v64(8)),
		I("v_fma_f64", v64(4), v64(0), v64(2), v64(6)),
		I("v_fma_f64", v64(6), neg(v64(0)), abs(v64(2)), neg(v64(6))),
		I("v_fma_f64", v64(4), v64(8), icf(247), sreg2(2)),
		I("v_floor_f64", v64(4), v64(0)),
		I("v_trunc_f64", v64(2), neg(v64(2))),
		I("v_fract_f64", v64(4), abs(sreg2(2))),
		I("v_rcp_f64", v64(4), v64(6)),
		I("v_rsq_f64", v64(4), icf(243)),
		I("v_sqrt_f64", v64(4), v64(8)),
		I("v_rndne_f64", v64(4), v64(0)),
		I("v_ceil_f64", v64(4), neg(v64(2))),
		I("v_floor_f64", v64(0), sreg2(2)),
		// clamped saturating operations
		e3(I("v_add_u16", vreg(1), vreg(2), vreg(3))).with(func(m *isa.Modifiers) { m.Clamp = true }),
		e3(I("v_sub_i32", vreg(2), vreg(2), sreg(3))).with(func(m *isa.Modifiers) { m.Clamp = true }),
		e3(I("v_mad_i32_i24", vreg(1), vreg(2), ic(-5), vreg(4))).with(func(m *isa.Modifiers) { m.Clamp = true }),
		e3(I("v_mad_u16", vreg(1), vreg(2), vreg(3), lit(0xfffe))).with(func(m *isa.Modifiers) { m.Clamp = true }),
		e3(I("v_mul_i32_i24", vreg(1), vreg(2), vreg(3))).with(func(m *isa.Modifiers) { m.Clamp = true }),
		// f32 with an integer source
		I("v_ldexp_f32", vreg(1), vreg(2), vreg(3)),
		e3(I("v_ldexp_f32", vreg(2), neg(abs(vreg(2))), sreg(3))),
		e3(I("v_ldexp_f32", vreg(1), lit(0x3fc00000), ic(-3))),
		e3(I("v_ldexp_f32", vreg(1), vreg(2), ic(64))),  // exponents to 255
		e3(I("v_ldexp_f32", vreg(1), vreg(2), ic(-16))), // and to 0
		// shifts by a uniform amount
		I("v_ashrrev_i32", vreg(1), ic(20), vreg(2)),
		e3(I("v_lshrrev_b32", vreg(2), sreg(3), vreg(2))),
		I("v_lshlrev_b32", vreg(1), lit(33), vreg(3)),
		e3(I("v_lshlrev_b32", vreg(2), sreg(4), vreg(2))),
		e3(I("v_lshl_add_u32", vreg(1), vreg(2), ic(2), vreg(3))),
		e3(I("v_lshl_add_u32", vreg(3), vreg(3), sreg(5), vreg(3))),
		// min and max of a register with itself (LLVM's canonicalize)
		I("v_max_f32", vreg(1), vreg(2), vreg(2)),
		I("v_min_f32", vreg(2), vreg(2), vreg(2)),
		// f16 conversions
		I("v_cvt_f16_f32", vreg(1), vreg(2)),
		I("v_cvt_f16_f32", vreg(2), neg(abs(vreg(2)))),
		I("v_cvt_f16_f32", vreg(1), sreg(9)),
		I("v_cvt_f16_f32", vreg(1), lit(0x477ff000)),
		I("v_cvt_f32_f16", vreg(1), vreg(2)),
		I("v_cvt_f32_f16", vreg(3), neg(vreg(3))),
		I("v_cvt_f32_f16", vreg(1), abs(sreg(9))),
	}
	// compares: every condition of the 32- and 64-bit integer and float
	// types, v_cmp and v_cmpx, to VCC (e32) and an SGPR pair (e64)
	for _, ty := range []struct {
		sfx   string
		f, w2 bool
	}{{"i32", false, false}, {"u32", false, false}, {"f32", true, false}, {"i64", false, true}, {"u64", false, true}, {"f64", true, true}} {
		conds := ref.Iconds
		if ty.f {
			conds = ref.Fconds
		}
		src := func(n int) isa.Operand {
			if ty.w2 {
				return vreg2(n)
			}
			return vreg(n)
		}
		for i, c := range conds {
			for _, x := range []string{"v_cmp_", "v_cmpx_"} {
				n := x + c + "_" + ty.sfx
				cs = append(cs, I(n, vcc(), src(2), src(4)), e3(I(n, sreg2(10), src(4), src(4))))
				switch i % 4 {
				case 0:
					s := sreg(3)
					if ty.w2 {
						s = sreg2(2)
					}
					cs = append(cs, I(n, vcc(), s, src(6)))
				case 1:
					cs = append(cs, e3(I(n, sreg2(12), src(6), ic(-3))))
				case 2:
					cs = append(cs, I(n, vcc(), lit(0x3f800000), src(6)))
				default:
					cs = append(cs, e3(I(n, vcc(), icf(240), src(0))))
				}
				if ty.f {
					cs = append(cs, e3(I(n, sreg2(10), neg(src(0)), abs(src(2)))), e3(I(n, sreg2(10), neg(abs(src(6))), neg(src(6)))))
				}
			}
		}
	}
	for _, x := range []string{"v_cmp_class_", "v_cmpx_class_"} {
		for _, ty := range []string{"f32", "f64"} {
			n := x + ty
			src := vreg(2)
			if ty == "f64" {
				src = vreg2(2)
			}
			cs = append(cs, I(n, vcc(), src, vreg(5)), e3(I(n, sreg2(10), neg(src), sreg(3))),
				e3(I(n, vcc(), abs(src), ic(3))), e3(I(n, sreg2(12), src, lit(0x3ff))), e3(I(n, vcc(), icf(242), vreg(1))), e3(I(n, vcc(), src, neg(abs(vreg(5))))), e3(I(n, vcc(), src, neg(vreg(5)))))
		}
	}
	// the whole-register kernels, on VGPRs and with a constant source
	names := make([]string, 0, len(fast.Kernels))
	for n := range fast.Kernels {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := ref.OpTable[n].V
		args := []isa.Operand{vreg(1)}
		for k := 0; k < int(v.Nsrc); k++ {
			if k == 2 && v.Mac {
				break
			}
			args = append(args, vreg(2+k))
		}
		cs = append(cs, I(n, args...))
		c := append([]isa.Operand(nil), args...)
		c[1] = lit(0x3fc00000)
		cs = append(cs, e3(I(n, c...)))
		c = append([]isa.Operand(nil), args...)
		c[len(c)-1] = sreg(4)
		c[0] = vreg(2) // aliases S0
		cs = append(cs, e3(I(n, c...)))
		if len(args) > 2 { // two uniform sources, each in its own scratch row
			c = append([]isa.Operand(nil), args...)
			c[1], c[2] = sreg(6), sreg(4)
			cs = append(cs, e3(I(n, c...)))
		}
		if v.Ft == 32 { // abs and neg on the float sources
			c = append([]isa.Operand(nil), args...)
			for k := 1; k < len(c); k++ {
				if v.Isrc>>uint(k-1)&1 == 0 {
					c[k] = [...]func(isa.Operand) isa.Operand{neg, abs, func(o isa.Operand) isa.Operand { return neg(abs(o)) }}[(k-1)%3](c[k])
				}
			}
			c[1] = neg(lit(0x3fc00000))
			cs = append(cs, e3(I(n, c...)))
			c[1] = abs(vreg(2))
			cs = append(cs, e3(I(n, c...)))
		}
	}
	return cs
}

func fnPtr(f core.ExecFn) uintptr { return reflect.ValueOf(f).Pointer() }

func TestFastMatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	iters := 40
	if testing.Short() {
		iters = 8
	}
	cases := fastCases()
	seen := map[uintptr]bool{}
	for _, target := range []isa.Target{isa.GFX9, isa.GFX8} {
		for ci, c := range cases {
			if target == isa.GFX8 {
				if n, ok := map[string]string{"v_add_co_u32": "v_add_u32", "v_sub_co_u32": "v_sub_u32", "v_addc_co_u32": "v_addc_u32"}[c.name]; ok {
					c.name = n
				} else {
					continue
				}
			}
			p := prog(target, c)
			in := &p.Code[0]
			desc := fmt.Sprintf("#%d %s %v", ci, c.name, c.in.Args)
			if in.Def == nil {
				t.Fatalf("%s: not an operation", desc)
			}
			generic := in.Def.Fn
			if fnPtr(in.Fn) == fnPtr(generic) {
				t.Fatalf("%s: compiled to its generic path", desc)
			}
			seen[fnPtr(in.Fn)] = true
			for it := 0; it < iters+len(edgeMasks); it++ {
				w0 := fastWave(r)
				w0.Target = target
				if it >= iters {
					withExec(w0, edgeMasks[it-iters])
				}
				fastCheck(t, desc, w0, in, generic, it%3 == 0)
			}
		}
	}
	if len(seen) < 10 {
		t.Errorf("only %d distinct fast paths exercised", len(seen))
	}
}

// fastCheck runs form(w, in) (journaled when jOn) and generic on copies
// of w0 and requires the same state, errors and, undone, the journal to
// restore w0.
func fastCheck(t *testing.T, desc string, w0 *Wave, in *core.Instr, generic core.ExecFn, jOn bool) {
	t.Helper()
	w1, w2 := new(Wave), new(Wave)
	*w1, *w2 = *w0, *w0
	w1.JOn = jOn
	e1, e2 := form(w1, in)(w1, in), generic(w2, in)
	if (e1 == nil) != (e2 == nil) {
		t.Fatalf("%s: fast error %v, generic error %v", desc, e1, e2)
	}
	fastSame(t, desc, w0, w1, w2)
	if w1.JOn {
		undoJournal(w1)
		if w1.S != w0.S || w1.V != w0.V {
			t.Fatalf("%s: the journal does not restore the state", desc)
		}
	}
}

// fastSame reports the first difference between the fast (w1) and generic
// (w2) results.
func fastSame(t *testing.T, desc string, w0, w1, w2 *Wave) {
	t.Helper()
	if w1.S != w2.S {
		for i := range w1.S {
			if w1.S[i] != w2.S[i] {
				t.Fatalf("%s (MODE %#x, EXEC %#x, VCC %#x): slot %d = %#x, generic %#x (was %#x)",
					desc, w0.S[core.SlotMode], w0.Exec(), w0.Vcc(), i, w1.S[i], w2.S[i], w0.S[i])
			}
		}
	}
	if w1.V != w2.V {
		for i := range w1.V {
			for l := range w1.V[i] {
				if w1.V[i][l] != w2.V[i][l] {
					t.Fatalf("%s (MODE %#x, EXEC %#x): v%d lane %d = %#x, generic %#x (was %#x; v0..v7 %#x %#x %#x %#x %#x %#x %#x %#x)",
						desc, w0.S[core.SlotMode], w0.Exec(), i, l, w1.V[i][l], w2.V[i][l], w0.V[i][l],
						w0.V[0][l], w0.V[1][l], w0.V[2][l], w0.V[3][l], w0.V[4][l], w0.V[5][l], w0.V[6][l], w0.V[7][l])
				}
			}
		}
	}
}

// undoJournal reverts the journaled scalar and VGPR writes.
func undoJournal(w *Wave) {
	for i := len(w.J.V) - 1; i >= 0; i-- {
		e := &w.J.V[i]
		for m := e.Mask; m != 0; m &= m - 1 {
			l := core.Tz(m)
			w.V[e.Reg][l] = e.Old[l]
		}
	}
	for i := len(w.J.S) - 1; i >= 0; i-- {
		w.S[w.J.S[i].Idx] = w.J.S[i].Old
	}
	w.J.Reset()
}

package emu

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/isa"
)

// f64Special are f64 lane values the row kernels must treat as the lane
// functions do: quiet and signaling NaNs with payloads and either sign,
// infinities, signed zeros, denormals, the extremes and ordinary numbers.
var f64Special = []uint64{
	0x7ff8000000000000, 0xfff8000000000001, 0x7ff0000000000001, 0xfff4000000000000, 0x7fffffffffffffff,
	0x7ff0000000000000, 0xfff0000000000000, 0, 1 << 63, 1, 0x800fffffffffffff, 0x0010000000000000,
	0x7fefffffffffffff, 0xffefffffffffffff, 0x3ff0000000000000, 0xbfe0000000000000, 0x4008000000000000,
	0x41dfffffffc00000, 0x41e0000000000000, 0xc1e0000000000000, 0xc1e0000000200000, 0x41efffffffe00000,
	0x41f0000000000000, 0x0340000000000000, 0x0350000000000000, 0x7fc0000000000000,
}

// f64Lane draws an f64 lane value: a special one, a number or random bits.
func f64Lane(r *rand.Rand) uint64 {
	switch r.IntN(4) {
	case 0:
		return f64Special[r.IntN(len(f64Special))]
	case 1:
		return math.Float64bits(r.NormFloat64() * math.Pow(2, float64(r.IntN(40)-20)))
	case 2:
		return r.Uint64() &^ (0x7ff << 52) // a denormal or zero
	}
	return r.Uint64()
}

// f64Wave is fastWave with f64 lane values in v0-v15 and s0-s7 and
// exponent steps for ldexp (up to a normal range and a bit) in v16.
func f64Wave(r *rand.Rand) *Wave {
	w := fastWave(r)
	for l := range 64 {
		w.V[16][l] = uint32(r.IntN(4400) - 2200)
	}
	for i := 0; i < 16; i += 2 {
		for l := range 64 {
			u := f64Lane(r)
			w.V[i][l], w.V[i+1][l] = uint32(u), uint32(u>>32)
		}
	}
	for i := 0; i < 8; i += 2 {
		u := f64Lane(r)
		w.S[i], w.S[i+1] = uint32(u), uint32(u>>32)
	}
	return w
}

// TestF64RowsMatchGeneric holds the f64 row kernels (valu_f64row.go) to
// the generic path: every operand shape (VGPR pairs, uniform SGPR pairs
// and constants in each position), source modifiers, destinations that
// alias each source, and lanes full of NaNs, infinities, denormals and
// signed zeros, under random and edge EXEC masks and MODE settings.
func TestF64RowsMatchGeneric(t *testing.T) {
	v := vreg2
	neg := func(o isa.Operand) isa.Operand { o.Neg = true; return o }
	abs := func(o isa.Operand) isa.Operand { o.Abs = true; return o }
	e3 := func(t ti) ti { return t.enc(isa.EncVOP3) }
	var cases []ti
	for _, op := range []string{"v_add_f64", "v_mul_f64"} {
		cases = append(cases,
			e3(I(op, v(4), v(0), v(2))),
			e3(I(op, v(0), v(0), v(2))),
			e3(I(op, v(2), v(0), v(2))),
			e3(I(op, v(4), v(6), v(6))),
			e3(I(op, v(4), v(0), sreg2(2))),
			e3(I(op, v(0), v(0), icf(241))),
			e3(I(op, v(4), neg(abs(v(0))), lit(0x412e8480))),
			e3(I(op, v(4), v(0), neg(sreg2(4)))),
			e3(I(op, v(4), abs(v(2)), icf(242))),
			e3(I(op, v(4), sreg2(2), v(0))),
			e3(I(op, v(4), sreg2(2), sreg2(4))),
		)
	}
	cases = append(cases,
		e3(I("v_fma_f64", v(4), v(0), v(2), v(6))),
		e3(I("v_fma_f64", v(0), v(0), v(2), v(6))),
		e3(I("v_fma_f64", v(2), v(0), v(2), v(6))),
		e3(I("v_fma_f64", v(6), v(0), v(2), v(6))),
		e3(I("v_fma_f64", v(4), v(4), v(4), v(4))),
		e3(I("v_fma_f64", v(4), v(0), v(2), icf(241))),
		e3(I("v_fma_f64", v(2), neg(v(2)), v(8), icf(242))),
		e3(I("v_fma_f64", v(4), v(0), abs(v(2)), neg(sreg2(2)))),
		e3(I("v_fma_f64", v(4), v(8), sreg2(0), v(4))),
		e3(I("v_fma_f64", v(6), neg(v(6)), v(6), v(2))),
		e3(I("v_fma_f64", v(2), neg(v(0)), v(2), v(0))),
		e3(I("v_fma_f64", v(4), neg(v(8)), sreg2(0), v(4))),
		e3(I("v_fma_f64", v(4), neg(abs(v(8))), v(0), icf(240))),
		e3(I("v_fma_f64", v(4), neg(sreg2(2)), v(0), icf(240))),
		e3(I("v_fma_f64", v(4), v(8), neg(icf(240)), neg(v(6)))),
		e3(I("v_fma_f64", v(4), sreg2(2), v(8), v(6))),
		e3(I("v_fma_f64", v(4), v(8), sreg2(0), icf(242))),
		e3(I("v_fma_f64", v(4), sreg2(0), sreg2(2), sreg2(4))),
	)
	for _, op := range []string{"v_rcp_f64", "v_rsq_f64", "v_sqrt_f64", "v_floor_f64", "v_trunc_f64",
		"v_ceil_f64", "v_rndne_f64", "v_fract_f64", "v_frexp_mant_f64"} {
		cases = append(cases,
			I(op, v(4), v(0)),
			I(op, v(2), v(2)),
			e3(I(op, v(4), neg(v(6)))),
			e3(I(op, v(6), abs(v(6)))),
			I(op, v(4), sreg2(2)),
		)
	}
	for _, op := range []string{"v_div_scale_f64", "v_div_fmas_f64", "v_div_fixup_f64"} {
		dst := []isa.Operand{v(4)}
		if op == "v_div_scale_f64" {
			dst = append(dst, vcc())
		}
		f := func(d0 isa.Operand, src ...isa.Operand) ti {
			d := append([]isa.Operand{d0}, dst[1:]...)
			return e3(I(op, append(d, src...)...))
		}
		cases = append(cases,
			f(v(4), v(0), v(2), v(6)),
			f(v(0), v(2), v(0), v(6)),
			f(v(2), v(2), v(2), v(0)),
			f(v(6), v(0), v(2), v(6)),
			f(v(4), neg(v(0)), abs(v(2)), neg(abs(v(6)))),
			f(v(4), v(0), sreg2(2), icf(242)),
			f(v(4), sreg2(0), v(2), v(6)),
		)
		if op == "v_div_scale_f64" {
			cases = append(cases, e3(I(op, v(4), sreg2(8), v(6), v(6), v(0))))
		}
	}
	cases = append(cases,
		e3(I("v_ldexp_f64", v(4), v(0), vreg(16))),
		e3(I("v_ldexp_f64", v(16), v(0), vreg(16))),
		e3(I("v_ldexp_f64", v(0), v(0), vreg(16))),
		e3(I("v_ldexp_f64", v(4), neg(v(6)), ic(32))),
		e3(I("v_ldexp_f64", v(4), abs(v(6)), sreg(3))),
		e3(I("v_ldexp_f64", v(4), sreg2(2), vreg(16))),
	)
	for _, op := range []string{"v_cvt_i32_f64", "v_cvt_u32_f64"} {
		cases = append(cases,
			I(op, vreg(4), v(0)),
			I(op, vreg(0), v(0)),
			I(op, vreg(1), v(0)),
			e3(I(op, vreg(4), neg(abs(v(6))))),
			I(op, vreg(4), sreg2(2)),
		)
	}
	for _, op := range []string{"v_cvt_f64_i32", "v_cvt_f64_u32"} {
		cases = append(cases,
			I(op, v(4), vreg(16)),
			I(op, v(4), vreg(0)),
			I(op, v(0), vreg(0)),
			I(op, v(0), vreg(1)),
			I(op, v(4), sreg(3)),
			I(op, v(4), lit(0x80000001)),
		)
	}
	r := rand.New(rand.NewPCG(5, 64))
	iters := 60
	if testing.Short() {
		iters = 12
	}
	for ci, c := range cases {
		p := prog(isa.GFX9, c)
		in := &p.Code[0]
		desc := fmt.Sprintf("#%d %s %v", ci, c.name, c.in.Args)
		if fnPtr(in.Fn) != fnPtr(fast.ExecF64Fast) {
			t.Fatalf("%s: not compiled to execF64Fast", desc)
		}
		for it := 0; it < iters+len(edgeMasks); it++ {
			w0 := f64Wave(r)
			if it >= iters {
				withExec(w0, edgeMasks[it-iters])
			}
			fastCheck(t, desc, w0, in, in.Def.Fn, it%3 == 0)
		}
	}
}

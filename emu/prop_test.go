package emu

import (
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/fast"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
)

// Property tests: integer lane functions against Go arithmetic, float ones
// against math/big under each MODE rounding mode.

func TestPropInteger(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	e := &core.Fenv{}
	ops := []struct {
		name string
		want func(a, b, c uint32) uint32
	}{
		{"v_add_u32", func(a, b, c uint32) uint32 { return a + b }},
		{"v_sub_u32", func(a, b, c uint32) uint32 { return a - b }},
		{"v_mul_lo_u32", func(a, b, c uint32) uint32 { return a * b }},
		{"v_mul_hi_u32", func(a, b, c uint32) uint32 { h, _ := bits.Mul32(a, b); return h }},
		{"v_mul_hi_i32", func(a, b, c uint32) uint32 { return uint32((int64(int32(a)) * int64(int32(b))) >> 32) }},
		{"v_lshlrev_b32", func(a, b, c uint32) uint32 { return b << (a % 32) }},
		{"v_ashrrev_i32", func(a, b, c uint32) uint32 { return uint32(int32(b) >> (a % 32)) }},
		{"v_min_i32", func(a, b, c uint32) uint32 { return uint32(min(int32(a), int32(b))) }},
		{"v_max_u32", func(a, b, c uint32) uint32 { return max(a, b) }},
		{"v_xor_b32", func(a, b, c uint32) uint32 { return a ^ b }},
		{"v_add3_u32", func(a, b, c uint32) uint32 { return a + b + c }},
		{"v_bfi_b32", func(a, b, c uint32) uint32 { return (a & b) | (^a & c) }},
		{"v_mad_u32_u24", func(a, b, c uint32) uint32 { return (a<<8>>8)*(b<<8>>8) + c }},
		{"v_bcnt_u32_b32", func(a, b, c uint32) uint32 { return uint32(bits.OnesCount32(a)) + b }},
	}
	for _, op := range ops {
		d := ref.OpTable[op.name]
		if d == nil || d.V == nil {
			t.Fatalf("%s not registered", op.name)
		}
		for i := 0; i < 2000; i++ {
			a, b, c := r.Uint32(), r.Uint32(), r.Uint32()
			if got := uint32(d.V.Fn(e, uint64(a), uint64(b), uint64(c))); got != op.want(a, b, c) {
				t.Fatalf("%s(%#x, %#x, %#x) = %#x, want %#x", op.name, a, b, c, got, op.want(a, b, c))
			}
		}
	}
	// scalar ALU through the machine
	for i := 0; i < 200; i++ {
		a, b := r.Uint32(), r.Uint32()
		m := machine(t, I("s_lshr_b64", sreg2(4), sreg2(1), sreg(2)), I("s_add_u32", sreg(0), sreg(1), sreg(2)),
			I("s_mul_i32", sreg(3), sreg(1), sreg(2)), I("s_endpgm"))
		m.w.S[1], m.w.S[2] = a, b
		run(t, m)
		s, c := bits.Add32(a, b, 0)
		// s_mul_i32 does not touch SCC: it still holds s_add_u32's carry
		if m.w.S[0] != s || m.w.S[core.SlotSCC] != c || m.w.S[3] != a*b {
			t.Fatalf("s_add/s_mul(%#x, %#x)", a, b)
		}
		if got, want := m.w.Get64(4), (uint64(a)|uint64(b)<<32)>>(b&63); got != want {
			t.Fatalf("s_lshr_b64 = %#x, want %#x", got, want)
		}
	}
}

var bigModes = [...]big.RoundingMode{big.ToNearestEven, big.ToPositiveInf, big.ToNegativeInf, big.ToZero}

// randF32 returns a float32 whose results stay in the normal range.
func randF32(r *rand.Rand) float32 {
	return float32(math.Ldexp(r.Float64()+0.5, r.IntN(60)-30)) * float32(1-2*r.IntN(2))
}

func bigRound32(x *big.Float, rm int) float32 {
	z := new(big.Float).SetPrec(24).SetMode(bigModes[rm])
	z.Set(x)
	f, _ := z.Float32()
	return f
}

func TestPropFloatRounding(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for rm := 0; rm < 4; rm++ {
		e := &core.Fenv{Rm: rm}
		for i := 0; i < 5000; i++ {
			a, b, c := randF32(r), randF32(r), randF32(r)
			if i%7 == 0 {
				b = a * float32(math.Ldexp(1, -r.IntN(40))) // close magnitudes, long shifts
			}
			A, B, C := big.NewFloat(float64(a)), big.NewFloat(float64(b)), big.NewFloat(float64(c))
			A.SetPrec(200)
			sum := new(big.Float).SetPrec(200).Add(A, B)
			if got, want := core.F32(uint32(ref.AddF32(e, uint64(fb(a)), uint64(fb(b))))), bigRound32(sum, rm); got != want && sum.Sign() != 0 {
				t.Fatalf("rm %d: %g + %g = %g, want %g", rm, a, b, got, want)
			}
			prod := new(big.Float).SetPrec(200).Mul(A, B)
			if got, want := core.F32(uint32(ref.MulF32(e, uint64(fb(a)), uint64(fb(b))))), bigRound32(prod, rm); got != want {
				t.Fatalf("rm %d: %g * %g = %g, want %g", rm, a, b, got, want)
			}
			fma := new(big.Float).SetPrec(400).Add(prod, C)
			if got, want := core.F32(uint32(ref.FmaF32(e, uint64(fb(a)), uint64(fb(b)), uint64(fb(c))))), bigRound32(fma, rm); got != want && fma.Sign() != 0 {
				t.Fatalf("rm %d: fma(%g, %g, %g) = %g, want %g", rm, a, b, c, got, want)
			}
			// f64
			x, y := r.NormFloat64()*1e10, r.NormFloat64()
			X, Y := new(big.Float).SetPrec(2000).SetFloat64(x), new(big.Float).SetPrec(2000).SetFloat64(y)
			s64 := new(big.Float).SetPrec(53).SetMode(bigModes[rm])
			s64.Add(X, Y)
			want64, _ := s64.Float64()
			if got := core.F64(ref.AddF64(e, core.F64bits(x), core.F64bits(y))); got != want64 {
				t.Fatalf("rm %d: %g + %g = %g, want %g", rm, x, y, got, want64)
			}
			s64.Mul(X, Y)
			want64, _ = s64.Float64()
			if got := core.F64(ref.MulF64(e, core.F64bits(x), core.F64bits(y))); got != want64 {
				t.Fatalf("rm %d: %g * %g = %g, want %g", rm, x, y, got, want64)
			}
		}
	}
}

// Subnormal f32 results round correctly when MODE keeps denormals.
func TestSubnormalRounding(t *testing.T) {
	a := math.Float32frombits(0x00800001) // smallest normal + 1 ulp
	b := float32(0.5)
	for rm, want := range []uint32{0x00400000, 0x00400001, 0x00400000, 0x00400000} {
		got := uint32(ref.MulF32(&core.Fenv{Rm: rm}, uint64(fb(a)), uint64(fb(b))))
		if got != want {
			t.Errorf("rm %d: %#x * 0.5 = %#x, want %#x", rm, fb(a), got, want)
		}
	}
	// overflow: round toward zero saturates to the largest finite value
	got := uint32(ref.MulF32(&core.Fenv{Rm: core.RmZero}, uint64(fb(math.MaxFloat32)), uint64(fb(2))))
	if got != fb(math.MaxFloat32) {
		t.Errorf("MAX*2 toward zero = %#x", got)
	}
}

// f16 conversion round trip and rounding.
func TestF16(t *testing.T) {
	for h := 0; h < 0x10000; h++ {
		if h&0x7c00 == 0x7c00 && h&0x3ff != 0 {
			continue // NaN payloads
		}
		if got := core.F64ToF16(core.F16ToF64(uint16(h)), 0, core.RmNearest); got != uint16(h) {
			t.Fatalf("round trip %#x -> %#x", h, got)
		}
	}
	if got := core.F64ToF16(1+1.0/2048, 0, core.RmNearest); got != 0x3c00 { // tie to even
		t.Errorf("tie: %#x", got)
	}
	if got := core.F64ToF16(1+1.0/2048, 0, core.RmPlusInf); got != 0x3c01 {
		t.Errorf("up: %#x", got)
	}
	if got := core.F64ToF16(70000, 0, core.RmZero); got != 0x7bff {
		t.Errorf("overflow toward zero: %#x", got)
	}
}

// The fast whole-register kernels give the lane functions' results, in
// every MODE denormal setting, including NaN, infinity and denormal inputs.
func TestKernelsMatchLaneFunctions(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	special := []uint32{0, 0x80000000, 1, 0x807fffff, 0x7f800000, 0xff800000, 0x7fc00001, 0x7f800001, 0x3f800000, 0x7f7fffff}
	pick := func() uint32 {
		if r.IntN(4) == 0 {
			return special[r.IntN(len(special))]
		}
		return r.Uint32()
	}
	for name, k := range fast.Kernels {
		d := ref.OpTable[name]
		if d == nil || d.V == nil {
			t.Fatalf("%s has a kernel but no operation", name)
		}
		for _, mode := range []uint32{0x3c0, 0x3f0, 0x3e0, 0x3d0} {
			var a, b, c, got [64]uint32
			for l := range a {
				a[l], b[l], c[l] = pick(), pick(), pick()
			}
			w := &Wave{}
			w.S[core.SlotMode] = mode
			e := ref.FenvFor(w, max(d.V.Ft, d.V.Oft))
			k(e, &got, &a, &b, &c)
			for l := range got {
				// the generic path: input flushing then the lane function then post
				x, y, z := uint64(a[l]), uint64(b[l]), uint64(c[l])
				if d.V.Ft == 32 && !e.Din {
					x, y, z = uint64(ref.FlushIn(a[l], false)), uint64(ref.FlushIn(b[l], false)), uint64(ref.FlushIn(c[l], false))
				}
				want := d.V.Fn(e, x, y, z)
				if d.V.Oft != 0 {
					want = ref.Post(e, want, d.V.Oft, 0, false)
				}
				if uint32(want) != got[l] {
					t.Fatalf("%s mode %#x (%#x, %#x, %#x): kernel %#x, lane function %#x", name, mode, a[l], b[l], c[l], got[l], uint32(want))
				}
			}
		}
	}
}

// Transcendentals stay within the manual's 1 ULP of the exact function.
func TestTranscendentalPrecision(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	ulp := func(f float32) float64 {
		return float64(math.Nextafter32(f, float32(math.Inf(1))) - f)
	}
	for _, tc := range []struct {
		name string
		f    func(float64) float64
		lo   float64
		hi   float64
	}{
		{"v_rcp_f32", func(x float64) float64 { return 1 / x }, 1e-3, 1e3},
		{"v_rsq_f32", func(x float64) float64 { return 1 / math.Sqrt(x) }, 1e-3, 1e3},
		{"v_sqrt_f32", math.Sqrt, 0, 1e6},
		{"v_exp_f32", math.Exp2, -60, 60},
		{"v_log_f32", math.Log2, 1e-3, 1e6},
		{"v_sin_f32", func(x float64) float64 { return math.Sin(2 * math.Pi * x) }, -4, 4},
	} {
		fn := ref.OpTable[tc.name].V.Fn
		for i := 0; i < 2000; i++ {
			x := float32(tc.lo + r.Float64()*(tc.hi-tc.lo))
			got := core.F32(uint32(fn(&core.Fenv{}, uint64(fb(x)), 0, 0)))
			want := tc.f(float64(x))
			if d := math.Abs(float64(got) - want); d > ulp(float32(want)) && d > 1e-7 {
				t.Fatalf("%s(%g) = %g, exact %g: off by %g", tc.name, x, got, want, d)
			}
		}
	}
}

// MODE.IEEE: min/max quiet a signaling NaN; otherwise a NaN yields the number.
func TestMinMaxNaN(t *testing.T) {
	snan, qnan, two := uint64(0x7f800001), uint64(0x7fc00000), uint64(fb(2))
	ieee, legacy := &core.Fenv{Ieee: true}, &core.Fenv{}
	if got := ref.MinF32(ieee, snan, two); got != 0x7fc00001 {
		t.Errorf("IEEE min(sNaN, 2) = %#x", got)
	}
	if got := ref.MinF32(legacy, snan, two); got != two {
		t.Errorf("non-IEEE min(sNaN, 2) = %#x", got)
	}
	if got := ref.MaxF32(ieee, qnan, two); got != two {
		t.Errorf("max(qNaN, 2) = %#x", got)
	}
}

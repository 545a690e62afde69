package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"math"
)

// LdexpF64 is v_ldexp_f64: a×2^n (a NaN is quieted).
func LdexpF64(a uint64, n uint32) uint64 {
	x := core.F64(a)
	if x != x {
		return a | 1<<51
	}
	return core.F64bits(math.Ldexp(x, int(int32(n))))
}

// DivFmas64 is v_div_fmas_f64: a×b+c, scaled by 2^64 when the lane's VCC
// bit (scale) is set.
func DivFmas64(e *core.Fenv, a, b, c uint64, scale bool) uint64 {
	r := FmaF64(e, a, b, c)
	if scale {
		return core.F64bits(core.F64(r) * (1 << 64))
	}
	return r
}

// DivScale follows V_DIV_SCALE's pseudocode: S0 is the value to scale (the
// numerator or denominator), S1 the denominator, S2 the numerator.
func DivScale(e *core.Fenv, a, b, c uint64, w int) uint64 {
	var s0, den, num float64
	var expN, expD int
	bias, mant, scale := 127, 23, 64
	if w == 32 {
		s0, den, num = float64(core.F32(uint32(a))), float64(core.F32(uint32(b))), float64(core.F32(uint32(c)))
		expN, expD = int(uint32(c)>>23&0xff), int(uint32(b)>>23&0xff)
	} else {
		s0, den, num = core.F64(a), core.F64(b), core.F64(c)
		expN, expD = int(c>>52&0x7ff), int(b>>52&0x7ff)
		bias, mant, scale = 1023, 52, 128
	}
	_ = bias
	out := func(f float64) uint64 {
		if w == 32 {
			return uint64(core.F32bits(float32(f)))
		}
		return core.F64bits(f)
	}
	switch {
	case num == 0 || den == 0:
		return out(math.NaN())
	case expN-expD >= 96 && w == 32 || expN-expD >= 768 && w == 64:
		e.Cout = 1
		if s0 == den {
			return out(math.Ldexp(s0, scale))
		}
	case expD == 0:
		return out(math.Ldexp(s0, scale))
	case expN <= mant:
		return out(math.Ldexp(s0, scale))
	}
	return out(s0)
}

func divFixup32(e *core.Fenv, a, b, c uint64) uint64 {
	q, d, n := core.F32(uint32(a)), core.F32(uint32(b)), core.F32(uint32(c))
	neg := (uint32(b)^uint32(c))>>31 != 0
	sign := func(f float32) uint64 {
		if neg {
			f = -f
		}
		return uint64(core.F32bits(f))
	}
	switch {
	case n != n:
		return uint64(uint32(c) | 0x400000)
	case d != d:
		return uint64(uint32(b) | 0x400000)
	case d == 0 && n == 0, math.IsInf(float64(d), 0) && math.IsInf(float64(n), 0):
		return 0xffc00000
	case d == 0, math.IsInf(float64(n), 0):
		return sign(float32(math.Inf(1)))
	case math.IsInf(float64(d), 0), n == 0:
		return sign(0)
	}
	return sign(float32(math.Abs(float64(q))))
}

func DivFixup64(e *core.Fenv, a, b, c uint64) uint64 {
	q, d, n := core.F64(a), core.F64(b), core.F64(c)
	neg := (b^c)>>63 != 0
	sign := func(f float64) uint64 {
		if neg {
			f = -f
		}
		return core.F64bits(f)
	}
	switch {
	case n != n:
		return c | 1<<51
	case d != d:
		return b | 1<<51
	case d == 0 && n == 0, math.IsInf(d, 0) && math.IsInf(n, 0):
		return 0xfff8000000000000
	case d == 0, math.IsInf(n, 0):
		return sign(math.Inf(1))
	case math.IsInf(d, 0), n == 0:
		return sign(0)
	}
	return sign(math.Abs(q))
}

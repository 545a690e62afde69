package ref

import (
	"math"
	"math/bits"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// Lane functions of the vector ALU. Float results are rounded under the
// instruction's MODE rounding mode; NaN results are quiet (the first NaN
// source, else the default NaN).

// f32 arithmetic

func AddF32(e *core.Fenv, a, b uint64) uint64 {
	x, y := core.F32(uint32(a)), core.F32(uint32(b))
	if e.Rm == core.RmNearest {
		return uint64(core.Quiet32(x+y, uint32(a), uint32(b)))
	}
	hi, lo := core.TwoSum(float64(x), float64(y))
	r := core.ToF32(hi, lo, e.Rm)
	if r == 0 && e.Rm == core.RmMinusInf && !(x == 0 && y == 0 && !math.Signbit(float64(x)) && !math.Signbit(float64(y))) {
		r = float32(math.Copysign(0, -1))
	}
	return uint64(core.Quiet32(r, uint32(a), uint32(b)))
}

func MulF32(e *core.Fenv, a, b uint64) uint64 {
	x, y := core.F32(uint32(a)), core.F32(uint32(b))
	if e.Rm == core.RmNearest {
		return uint64(core.Quiet32(x*y, uint32(a), uint32(b)))
	}
	return uint64(core.Quiet32(core.ToF32(float64(x)*float64(y), 0, e.Rm), uint32(a), uint32(b)))
}

func FmaF32(e *core.Fenv, a, b, c uint64) uint64 {
	x, y, z := float64(core.F32(uint32(a))), float64(core.F32(uint32(b))), float64(core.F32(uint32(c)))
	p := x * y // exact
	hi, lo := core.TwoSum(p, z)
	if math.IsInf(p, 0) || math.IsInf(z, 0) || hi != hi {
		r := float32(p + z)
		if r != r {
			return uint64(core.Quiet32(r, uint32(a), core.OrNaN32(uint32(b), uint32(c))))
		}
		return uint64(core.F32bits(r))
	}
	r := core.ToF32(hi, lo, e.Rm)
	if r == 0 && e.Rm == core.RmMinusInf && (p != 0 || z != 0 || math.Signbit(p) != math.Signbit(z)) {
		r = float32(math.Copysign(0, -1))
	}
	return uint64(core.F32bits(r))
}

// madF32 is v_mad_f32: the product is rounded before the add (not fused).
func madF32(e *core.Fenv, a, b, c uint64) uint64 {
	p := uint64(FlushOut(uint32(MulF32(e, a, b)), e.Dout)) // the rounded product obeys the output-denormal mode
	return AddF32(e, p, c)
}

// nanMinMaxF32 decides v_min_f32/v_max_f32 when an input is a NaN: in
// IEEE mode (minNum/maxNum) a signaling NaN gives a quiet NaN, otherwise the
// other operand wins. ok is false when neither input is a NaN.
func nanMinMaxF32(e *core.Fenv, a, b uint64) (r uint64, ok bool) {
	x, y := core.F32(uint32(a)), core.F32(uint32(b))
	if e != nil && e.Ieee {
		if x != x && uint32(a)&0x400000 == 0 {
			return uint64(uint32(a) | 0x400000), true
		}
		if y != y && uint32(b)&0x400000 == 0 {
			return uint64(uint32(b) | 0x400000), true
		}
	}
	switch {
	case x != x && y != y:
		return uint64(uint32(a) | 0x400000), true
	case x != x:
		return b, true
	case y != y:
		return a, true
	}
	return 0, false
}

func MinF32(e *core.Fenv, a, b uint64) uint64 {
	if r, ok := nanMinMaxF32(e, a, b); ok {
		return r
	}
	if x, y := core.F32(uint32(a)), core.F32(uint32(b)); x < y || x == y && math.Signbit(float64(x)) {
		return a
	}
	return b
}

func MaxF32(e *core.Fenv, a, b uint64) uint64 {
	if r, ok := nanMinMaxF32(e, a, b); ok {
		return r
	}
	if x, y := core.F32(uint32(a)), core.F32(uint32(b)); x > y || x == y && !math.Signbit(float64(x)) {
		return a
	}
	return b
}

// f64 arithmetic

func AddF64(e *core.Fenv, a, b uint64) uint64 {
	x, y := core.F64(a), core.F64(b)
	hi, lo := core.TwoSum(x, y)
	fin := !math.IsInf(x, 0) && !math.IsInf(y, 0)
	if !fin {
		lo = 0
	}
	r := core.RoundF64(hi, lo, e.Rm, fin)
	if r == 0 && e.Rm == core.RmMinusInf && !(x == 0 && y == 0 && !math.Signbit(x) && !math.Signbit(y)) {
		r = math.Copysign(0, -1)
	}
	return core.Quiet64(r, a, b)
}

func MulF64(e *core.Fenv, a, b uint64) uint64 {
	x, y := core.F64(a), core.F64(b)
	hi := x * y
	fin := !math.IsInf(x, 0) && !math.IsInf(y, 0)
	lo := 0.0
	if fin && !math.IsInf(hi, 0) {
		lo = math.FMA(x, y, -hi)
	}
	return core.Quiet64(core.RoundF64(hi, lo, e.Rm, fin), a, b)
}

func FmaF64(e *core.Fenv, a, b, c uint64) uint64 {
	r := core.FmaRound(core.F64(a), core.F64(b), core.F64(c), e.Rm)
	return core.Quiet64(r, a, core.OrNaN64(b, c))
}

func minF64(e *core.Fenv, a, b uint64) uint64 {
	x, y := core.F64(a), core.F64(b)
	if e != nil && e.Ieee {
		if x != x && a&(1<<51) == 0 {
			return a | 1<<51
		}
		if y != y && b&(1<<51) == 0 {
			return b | 1<<51
		}
	}
	switch {
	case x != x && y != y:
		return a | 1<<51
	case x != x:
		return b
	case y != y:
		return a
	case x < y, x == y && math.Signbit(x):
		return a
	}
	return b
}

func maxF64(e *core.Fenv, a, b uint64) uint64 {
	x, y := core.F64(a), core.F64(b)
	if e != nil && e.Ieee {
		if x != x && a&(1<<51) == 0 {
			return a | 1<<51
		}
		if y != y && b&(1<<51) == 0 {
			return b | 1<<51
		}
	}
	switch {
	case x != x && y != y:
		return a | 1<<51
	case x != x:
		return b
	case y != y:
		return a
	case x > y, x == y && !math.Signbit(x):
		return a
	}
	return b
}

// f16 arithmetic (computed exactly in float64, rounded once)

func addF16(e *core.Fenv, a, b uint64) uint64 {
	hi, lo := core.TwoSum(core.F16ToF64(uint16(a)), core.F16ToF64(uint16(b)))
	return uint64(core.Quiet16(core.F64ToF16(hi, lo, e.Rm), uint16(a), uint16(b)))
}

func mulF16(e *core.Fenv, a, b uint64) uint64 {
	return uint64(core.Quiet16(core.F64ToF16(core.F16ToF64(uint16(a))*core.F16ToF64(uint16(b)), 0, e.Rm), uint16(a), uint16(b)))
}

func FmaF16(e *core.Fenv, a, b, c uint64) uint64 {
	p := core.F16ToF64(uint16(a)) * core.F16ToF64(uint16(b))
	hi, lo := core.TwoSum(p, core.F16ToF64(uint16(c)))
	if math.IsInf(hi, 0) || hi != hi {
		lo = 0
	}
	return uint64(core.Quiet16(core.F64ToF16(hi, lo, e.Rm), uint16(a), core.OrNaN16(uint16(b), uint16(c))))
}

func minF16(e *core.Fenv, a, b uint64) uint64 {
	return f16via64(a, b, minF64)
}

func maxF16(e *core.Fenv, a, b uint64) uint64 {
	return f16via64(a, b, maxF64)
}

func f16via64(a, b uint64, f func(*core.Fenv, uint64, uint64) uint64) uint64 {
	x, y := core.F16ToF64(uint16(a)), core.F16ToF64(uint16(b))
	r := f(nil, core.F64bits(x), core.F64bits(y))
	if r == core.F64bits(x) {
		return a & 0xffff
	}
	if r == core.F64bits(y) {
		return b & 0xffff
	}
	return 0x7e00
}

// integer helpers

func sext24(x uint64) int64 { return int64(int32(uint32(x)<<8) >> 8) }

func i32(x uint64) int32 { return int32(uint32(x)) }

func Sat(v, lo, hi int64) int64 { return max(lo, min(hi, v)) }

// conversions

func CvtF32ToI32(x float64) uint64 {
	switch {
	case x != x:
		return 0
	case x >= 2147483647:
		return 0x7fffffff
	case x <= -2147483648:
		return 0x80000000
	}
	return uint64(uint32(int32(x)))
}

func CvtF32ToU32(x float64) uint64 {
	switch {
	case x != x, x <= 0:
		return 0
	case x >= 4294967295:
		return 0xffffffff
	}
	return uint64(uint32(x))
}

func roundInt32(e *core.Fenv, v float64) uint64 { return uint64(core.F32bits(core.ToF32(v, 0, e.Rm))) }

// frexp helpers
func frexpMant(x float64) float64 {
	if x == 0 || math.IsInf(x, 0) || x != x {
		return x
	}
	m, _ := math.Frexp(x)
	return m
}

func frexpExp(x float64) uint64 {
	if x == 0 || math.IsInf(x, 0) || x != x {
		return 0
	}
	_, e := math.Frexp(x)
	return uint64(uint32(int32(e)))
}

func fract64(x float64) float64 {
	if math.IsInf(x, 0) || x != x {
		return math.NaN()
	}
	return math.Min(x-math.Floor(x), math.Nextafter(1, 0))
}

// the sign-bit equal count used by v_ffbh_i32
func ffbhI32(x uint32) uint64 { return uint64(flbitSigned(uint64(x), 32)) }

// v_perm_b32 byte select
func permByte(s0, s1 uint32, sel uint32) uint32 {
	c := uint64(s0)<<32 | uint64(s1)
	switch {
	case sel <= 7:
		return uint32(c >> (8 * sel) & 0xff)
	case sel == 8:
		return 0xff * (s1 >> 15 & 1)
	case sel == 9:
		return 0xff * (s1 >> 31 & 1)
	case sel == 10:
		return 0xff * (s0 >> 15 & 1)
	case sel == 11:
		return 0xff * (s0 >> 31 & 1)
	case sel == 12:
		return 0
	}
	return 0xff
}

func med3(a, b, c int64) int64 { return max(min(a, b), min(max(a, b), c)) }

// mbcnt: the number of set bits of S0 in lanes below this one (lo: lanes
// 0–31, hi: lanes 32–63) plus S1.
func mbcnt(lane int, s0 uint32, hi bool) uint64 {
	m := uint64(1)<<uint(lane) - 1
	if hi {
		m >>= 32
	}
	return uint64(bits.OnesCount32(s0 & uint32(m)))
}

// FlushIn zeroes a denormal f32 input (keeping its sign) unless kept.
func FlushIn(u uint32, keep bool) uint32 {
	if !keep && u&0x7f800000 == 0 {
		return u & 0x80000000
	}
	return u
}

func FlushOut(u uint32, keep bool) uint32 {
	if !keep && u&0x7f800000 == 0 {
		return u & 0x80000000
	}
	return u
}

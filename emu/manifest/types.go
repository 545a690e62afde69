package manifest

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The scalar types.
const (
	Char   Type = "char"
	UChar  Type = "uchar"
	Short  Type = "short"
	UShort Type = "ushort"
	Int    Type = "int"
	UInt   Type = "uint"
	Long   Type = "long"
	ULong  Type = "ulong"
	Half   Type = "half"
	Float  Type = "float"
	Double Type = "double"
)

var typeSizes = map[Type]int{
	Char: 1, UChar: 1, Short: 2, UShort: 2, Int: 4, UInt: 4,
	Long: 8, ULong: 8, Half: 2, Float: 4, Double: 8,
}

// Size returns the type's size in bytes.
func (t Type) Size() (int, error) {
	if n, ok := typeSizes[t]; ok {
		return n, nil
	}
	return 0, fmt.Errorf("unknown type %q (want char, uchar, short, ushort, int, uint, long, ulong, half, float or double)", string(t))
}

// IsFloat reports whether t is half, float or double.
func (t Type) IsFloat() bool { return t == Half || t == Float || t == Double }

// IsSigned reports whether t is a signed integer type.
func (t Type) IsSigned() bool { return t == Char || t == Short || t == Int || t == Long }

// Encode returns v as t's little-endian bytes.
func (t Type) Encode(v Value) ([]byte, error) {
	n, err := t.Size()
	if err != nil {
		return nil, err
	}
	s := strings.TrimSpace(string(v))
	if s == "" {
		return nil, fmt.Errorf("%s scalar without a value", t)
	}
	var bits uint64
	if t.IsFloat() {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a %s", s, t)
		}
		bits = floatBits(t, f)
	} else {
		bits, err = parseInt(s, t)
		if err != nil {
			return nil, err
		}
	}
	b := make([]byte, 8)
	binary.LittleEndian.PutUint64(b, bits)
	return b[:n], nil
}

// parseInt parses a decimal or 0x-hex integer, negative allowed, and checks
// that it fits t (as a signed or an unsigned value of t's width).
func parseInt(s string, t Type) (uint64, error) {
	n, _ := t.Size()
	neg := strings.HasPrefix(s, "-")
	body := strings.TrimPrefix(s, "-")
	base := 10
	if strings.HasPrefix(body, "0x") || strings.HasPrefix(body, "0X") {
		base, body = 16, body[2:]
	}
	u, err := strconv.ParseUint(body, base, 64)
	if err != nil || strings.ContainsAny(body, "_+") {
		if _, ferr := strconv.ParseFloat(s, 64); ferr == nil && base == 10 {
			return 0, fmt.Errorf("%s is not an integer (%s takes a decimal or 0x hex integer)", s, t)
		}
		return 0, fmt.Errorf("%q is not a %s (a decimal or 0x hex integer)", s, t)
	}
	bitsN := uint(8 * n)
	if neg {
		if !t.IsSigned() {
			return 0, fmt.Errorf("%s: a %s cannot be negative", s, t)
		}
		if u > 1<<(bitsN-1) {
			return 0, fmt.Errorf("%s does not fit a %s", s, t)
		}
		return -u, nil
	}
	if bitsN < 64 && u >= 1<<bitsN {
		return 0, fmt.Errorf("%s does not fit a %s", s, t)
	}
	return u, nil
}

// floatBits rounds f once to t and returns its bits.
func floatBits(t Type, f float64) uint64 {
	switch t {
	case Half:
		return uint64(halfFromFloat32(float32(f)))
	case Float:
		return uint64(math.Float32bits(float32(f)))
	}
	return math.Float64bits(f)
}

// halfFromFloat32 converts to IEEE binary16, rounding to nearest even.
// (f64→f32→f16 double rounding is harmless for the fill values, which are
// exact in half or come from const/iota.)
func halfFromFloat32(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	man := b & 0x7fffff
	switch {
	case exp == 0xff: // Inf, NaN
		if man != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp-127 > 15:
		return sign | 0x7c00
	case exp-127 >= -14: // normal half
		h := uint32(exp-127+15)<<10 | man>>13
		rem := man & 0x1fff
		if rem > 0x1000 || rem == 0x1000 && h&1 == 1 {
			h++ // may carry into the exponent, correctly
		}
		return sign | uint16(h)
	case exp-127 >= -25: // subnormal half
		m := man | 0x800000
		shift := uint(-14-(exp-127)) + 13
		h := m >> shift
		rem := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || rem == half && h&1 == 1 {
			h++
		}
		return sign | uint16(h)
	}
	return sign
}

// HalfToFloat32 converts IEEE binary16 bits to float32 (exactly).
func HalfToFloat32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp == 0:
		if man == 0 {
			return math.Float32frombits(sign)
		}
		f := float32(man) / 1024 / 16384
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
}

// fill is a parsed fill pattern.
type fill struct {
	kind     string // zero, const, iota, random
	c        uint64 // const bits
	start    float64
	step     float64
	istart   uint64
	istep    uint64
	seed     uint64
	ranged   bool
	lo, hi   uint64 // integer range (two's complement for signed)
	flo, fhi float64
}

func parseFill(s string, t Type) (*fill, error) {
	if s == "" || s == "zero" {
		return &fill{kind: "zero"}, nil
	}
	parts := strings.Split(s, ":")
	bad := func() (*fill, error) {
		return nil, fmt.Errorf("fill %q: want zero, const:V, iota[:START:STEP] or random:SEED[:LO:HI] (for %s)", s, t)
	}
	num := func(p string) (uint64, float64, bool) {
		if t.IsFloat() {
			f, err := strconv.ParseFloat(p, 64)
			return 0, f, err == nil
		}
		// iota/range bounds are 64-bit; check against long/ulong.
		wide := ULong
		if strings.HasPrefix(p, "-") {
			wide = Long
		}
		u, err := parseInt(p, wide)
		return u, 0, err == nil
	}
	switch parts[0] {
	case "const":
		if len(parts) != 2 {
			return bad()
		}
		b, err := t.Encode(Value(parts[1]))
		if err != nil {
			return nil, fmt.Errorf("fill %q: %w", s, err)
		}
		var c [8]byte
		copy(c[:], b)
		return &fill{kind: "const", c: binary.LittleEndian.Uint64(c[:])}, nil
	case "iota":
		f := &fill{kind: "iota", step: 1, istep: 1}
		if len(parts) == 1 {
			return f, nil
		}
		if len(parts) != 3 {
			return bad()
		}
		var ok1, ok2 bool
		f.istart, f.start, ok1 = num(parts[1])
		f.istep, f.step, ok2 = num(parts[2])
		if !ok1 || !ok2 {
			return bad()
		}
		return f, nil
	case "random":
		if len(parts) != 2 && len(parts) != 4 {
			return bad()
		}
		seed, err := parseInt(parts[1], ULong)
		if err != nil {
			return bad()
		}
		f := &fill{kind: "random", seed: seed}
		if len(parts) == 4 {
			var ok1, ok2 bool
			f.ranged = true
			f.lo, f.flo, ok1 = num(parts[2])
			f.hi, f.fhi, ok2 = num(parts[3])
			if !ok1 || !ok2 {
				return bad()
			}
			if t.IsFloat() && !(f.flo < f.fhi) {
				return nil, fmt.Errorf("fill %q: LO must be below HI", s)
			}
			if !t.IsFloat() && (t.IsSigned() && int64(f.lo) > int64(f.hi) || !t.IsSigned() && f.lo > f.hi) {
				return nil, fmt.Errorf("fill %q: LO must not exceed HI", s)
			}
		}
		return f, nil
	}
	return bad()
}

// xorshift64star is the generator of random fills.
type xorshift64star uint64

func (x *xorshift64star) next() uint64 {
	v := uint64(*x)
	v ^= v >> 12
	v ^= v << 25
	v ^= v >> 27
	*x = xorshift64star(v)
	return v * 0x2545F4914F6CDD1D
}

func (f *fill) generate(t Type, size int64) []byte {
	es, _ := t.Size()
	out := make([]byte, size)
	faultIn(out)
	body := out[:size/int64(es)*int64(es)] // whole elements; the rest stays zero
	switch f.kind {
	case "zero":
		return out
	case "const":
		if len(body) > 0 {
			putElem(body, es, 0, f.c)
		}
		for k := es; k < len(body); k *= 2 {
			copy(body[k:], body[:k])
		}
		return out
	}
	rng := xorshift64star(f.seed)
	if f.seed == 0 {
		rng = 0x9E3779B97F4A7C15
	}
	for i := range int64(len(body) / es) {
		var bits uint64
		switch f.kind {
		case "iota":
			if t.IsFloat() {
				bits = floatBits(t, f.start+float64(float64(i)*f.step))
			} else {
				bits = f.istart + uint64(i)*f.istep
			}
		case "random":
			r := rng.next()
			switch {
			case !f.ranged && t.IsFloat() && t != Double:
				bits = floatBits(t, float64(int64(r>>40)-1<<23)/(1<<23))
			case !f.ranged && t == Double:
				bits = floatBits(t, float64(int64(r>>11)-1<<52)/(1<<52))
			case !f.ranged:
				bits = r
			case t.IsFloat():
				u := float64(r>>11) / (1 << 53)
				bits = floatBits(t, f.flo+float64((f.fhi-f.flo)*u))
			default:
				span := f.hi - f.lo + 1 // 0 means the whole 64-bit range
				if span == 0 {
					bits = r
				} else {
					bits = f.lo + r%span
				}
			}
		}
		putElem(body, es, i, bits)
	}
	return out
}

// faultIn writes a zero byte to every page of b, a fresh allocation, so
// that the host maps its pages now, writable, while the inputs are made,
// rather than at their first access in the kernel's run, which `wavedbg
// run` times. A fill writes every page anyway but a zero fill (and the
// tail beyond the last whole element) would otherwise leave them
// untouched. The PoCL runner that the benchmark compares with likewise
// writes every buffer before its timer starts.
func faultIn(b []byte) {
	for i := 0; i < len(b); i += hostPage {
		b[i] = 0
	}
}

// hostPage is the smallest page size of the hosts we run on; touching
// every hostPage bytes touches every page of a larger size too.
const hostPage = 4096

// putElem stores the low es bytes of bits as element i of b, little-endian.
func putElem(b []byte, es int, i int64, bits uint64) {
	le := binary.LittleEndian
	switch es {
	case 1:
		b[i] = byte(bits)
	case 2:
		le.PutUint16(b[2*i:], uint16(bits))
	case 4:
		le.PutUint32(b[4*i:], uint32(bits))
	default:
		le.PutUint64(b[8*i:], bits)
	}
}

package ref

import (
	"math"
)

// bufFormat is a data format's layout: component widths from the lowest bit.
type bufFormat struct {
	Name  string
	Bytes int
	Bits  []uint // component widths, X first
}

var BufFormats = [16]bufFormat{
	1:  {"8", 1, []uint{8}},
	2:  {"16", 2, []uint{16}},
	3:  {"8_8", 2, []uint{8, 8}},
	4:  {"32", 4, []uint{32}},
	5:  {"16_16", 4, []uint{16, 16}},
	6:  {"10_11_11", 4, []uint{11, 11, 10}},
	7:  {"11_11_10", 4, []uint{10, 11, 11}},
	8:  {"10_10_10_2", 4, []uint{2, 10, 10, 10}},
	9:  {"2_10_10_10", 4, []uint{10, 10, 10, 2}},
	10: {"8_8_8_8", 4, []uint{8, 8, 8, 8}},
	11: {"32_32", 8, []uint{32, 32}},
	12: {"16_16_16_16", 8, []uint{16, 16, 16, 16}},
	13: {"32_32_32", 12, []uint{32, 32, 32}},
	14: {"32_32_32_32", 16, []uint{32, 32, 32, 32}},
}

// Number formats.
const (
	NfUNORM = iota
	NfSNORM
	NfUSCALED
	NfSSCALED
	NfUINT
	NfSINT
	NfSNORMOGL
	NfFLOAT
)

// isFloatNF reports whether number format nf produces floats in VGPRs.
func isFloatNF(nf uint8) bool { return nf != NfUINT && nf != NfSINT }

// formatValid reports whether data format df can be accessed.
func formatValid(df uint8) bool { return df > 0 && df < 15 }

// rawComps splits a packed element into its components.
func rawComps(df uint8, b []byte) []uint32 {
	f := &BufFormats[df]
	var v [4]uint32
	if f.Bytes > 4 {
		for i := range f.Bits {
			cb := int(f.Bits[i] / 8)
			off := 0
			for k := 0; k < i; k++ {
				off += int(f.Bits[k] / 8)
			}
			var x uint32
			for k := 0; k < cb; k++ {
				x |= uint32(b[off+k]) << (8 * k)
			}
			v[i] = x
		}
		return v[:len(f.Bits)]
	}
	var word uint32
	for k := 0; k < f.Bytes; k++ {
		word |= uint32(b[k]) << (8 * k)
	}
	shift := uint(0)
	for i, w := range f.Bits {
		v[i] = word >> shift & fmtMask(w)
		shift += w
	}
	return v[:len(f.Bits)]
}

// packComps packs components into an element.
func packComps(df uint8, v []uint32, b []byte) {
	f := &BufFormats[df]
	if f.Bytes > 4 {
		off := 0
		for i, w := range f.Bits {
			for k := 0; k < int(w/8); k++ {
				b[off+k] = byte(v[i] >> (8 * k))
			}
			off += int(w / 8)
		}
		return
	}
	var word uint32
	shift := uint(0)
	for i, w := range f.Bits {
		word |= (v[i] & fmtMask(w)) << shift
		shift += w
	}
	for k := 0; k < f.Bytes; k++ {
		b[k] = byte(word >> (8 * k))
	}
}

func fmtMask(w uint) uint32 {
	if w >= 32 {
		return ^uint32(0)
	}
	return 1<<w - 1
}

// convertIn turns a raw component of width w into its VGPR value (float
// bits for the float-producing number formats).
func convertIn(raw uint32, w uint, nf uint8) uint32 {
	sext := func() int64 { return int64(int32(raw<<(32-w))) >> (32 - w) }
	switch nf {
	case NfUNORM:
		return math.Float32bits(float32(float64(raw) / float64(fmtMask(w))))
	case NfSNORM:
		return math.Float32bits(float32(math.Max(float64(sext())/float64(fmtMask(w-1)), -1)))
	case NfUSCALED:
		return math.Float32bits(float32(raw))
	case NfSSCALED:
		return math.Float32bits(float32(sext()))
	case NfUINT:
		return raw
	case NfSINT:
		return uint32(sext())
	case NfSNORMOGL:
		return math.Float32bits(float32((2*float64(sext()) + 1) / float64(fmtMask(w))))
	case NfFLOAT:
		switch w {
		case 32:
			return raw
		case 16:
			return math.Float32bits(HalfToF32(uint16(raw)))
		case 11:
			return math.Float32bits(smallFloatToF32(raw, 6))
		case 10:
			return math.Float32bits(smallFloatToF32(raw, 5))
		}
	}
	return 0
}

// convertOut turns a VGPR value into a raw component of width w.
func convertOut(v uint32, w uint, nf uint8) uint32 {
	f := float64(math.Float32frombits(v))
	if math.IsNaN(f) {
		f = 0
	}
	switch nf {
	case NfUNORM:
		return uint32(math.RoundToEven(math.Min(math.Max(f, 0), 1) * float64(fmtMask(w))))
	case NfSNORM, NfSNORMOGL:
		m := float64(fmtMask(w - 1))
		return uint32(int32(math.RoundToEven(math.Min(math.Max(f, -1), 1)*m))) & fmtMask(w)
	case NfUSCALED:
		return uint32(math.RoundToEven(math.Min(math.Max(f, 0), float64(fmtMask(w)))))
	case NfSSCALED:
		lim := float64(fmtMask(w - 1))
		return uint32(int32(math.RoundToEven(math.Min(math.Max(f, -lim-1), lim)))) & fmtMask(w)
	case NfUINT, NfSINT:
		return v & fmtMask(w)
	case NfFLOAT:
		switch w {
		case 32:
			return v
		case 16:
			return uint32(F32ToHalf(math.Float32frombits(v)))
		case 11:
			return f32ToSmallFloat(math.Float32frombits(v), 6)
		case 10:
			return f32ToSmallFloat(math.Float32frombits(v), 5)
		}
	}
	return 0
}

// HalfToF32 converts IEEE binary16 to float32 exactly.
func HalfToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp == 0:
		f := float32(man) / (1 << 24)
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+112)<<23 | man<<13)
}

// F32ToHalf converts to binary16, rounding to nearest even.
func F32ToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	man := b & 0x7fffff
	switch {
	case exp == 0xff:
		if man != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp-127 > 15:
		return sign | 0x7c00
	case exp-127 >= -14:
		h := uint32(exp-127+15)<<10 | man>>13
		rem := man & 0x1fff
		if rem > 0x1000 || rem == 0x1000 && h&1 == 1 {
			h++
		}
		return sign | uint16(h)
	case exp-127 >= -25:
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

// smallFloatToF32 decodes an unsigned 11- or 10-bit float (5-bit exponent,
// mbits of mantissa: 6 or 5).
func smallFloatToF32(raw uint32, mbits uint) float32 {
	exp := raw >> mbits & 0x1f
	man := raw & (1<<mbits - 1)
	switch {
	case exp == 0x1f:
		if man != 0 {
			return float32(math.NaN())
		}
		return float32(math.Inf(1))
	case exp == 0:
		return float32(math.Ldexp(float64(man), -14-int(mbits)))
	}
	return float32(math.Ldexp(1+float64(man)/float64(uint32(1)<<mbits), int(exp)-15))
}

// f32ToSmallFloat encodes an unsigned small float, clamping negatives to 0
// and rounding to nearest even.
func f32ToSmallFloat(f float32, mbits uint) uint32 {
	if math.IsNaN(float64(f)) {
		return 0x1f<<mbits | 1
	}
	if f <= 0 {
		return 0
	}
	h := uint32(F32ToHalf(f)) // binary16 has the same exponent range
	if h >= 0x7c00 {
		return 0x1f << mbits
	}
	drop := 10 - mbits
	r := h >> drop
	rem := h & (1<<drop - 1)
	half := uint32(1) << (drop - 1)
	if rem > half || rem == half && r&1 == 1 {
		r++
	}
	return r
}

// FormatLoad converts one element of data format df, number format nf into
// VGPR values after the DST_SEL selects (identity when sel is nil).
func FormatLoad(b []byte, df, nf uint8, sel []uint8) [4]uint32 {
	f := &BufFormats[df]
	raw := rawComps(df, b)
	var src [4]uint32
	one := uint32(1)
	if isFloatNF(nf) {
		one = math.Float32bits(1)
	}
	src[3] = one // a missing W reads as 1
	for i, r := range raw {
		src[i] = convertIn(r, f.Bits[i], nf)
	}
	if sel == nil {
		return src
	}
	var out [4]uint32
	for c := 0; c < 4; c++ {
		switch s := sel[c]; {
		case s == 1:
			out[c] = one
		case s >= 4:
			out[c] = src[s-4]
		}
	}
	return out
}

// FormatStore converts up to four VGPR values into one element.
func FormatStore(v [4]uint32, df, nf uint8, b []byte) {
	f := &BufFormats[df]
	raw := make([]uint32, len(f.Bits))
	for i, w := range f.Bits {
		raw[i] = convertOut(v[i], w, nf)
	}
	packComps(df, raw, b)
}

package lanes

import "encoding/binary"

// The narrow loads' and stores' data movement: consecutive bytes or
// little-endian shorts in memory, one to a lane, widened to or narrowed
// from a register row's words. Unlike the other rows these are exact:
// they read and write the lanes 0 to len-1 only, and in memory exactly
// their bytes, each once (a store writes no other byte: emu's
// memory_shared.go). Each runs its AVX2 version (widen_amd64.s) when
// SIMD is set, else its Go definition.

// WidenBytes sets dst[l] to the byte src[l], zero- or (signed)
// sign-extended, for each lane of dst.
func WidenBytes(dst []uint32, src []byte, signed bool) {
	src = src[:len(dst)]
	if SIMD {
		widenBytesAVX2(dst, src, signed)
		return
	}
	widenBytesGo(dst, src, signed)
}

// widenBytesGo is WidenBytes' Go definition, eight bytes a 64-bit read.
func widenBytesGo(dst []uint32, src []byte, signed bool) {
	src = src[:len(dst)]
	for ; len(dst) >= 8; dst, src = dst[8:], src[8:] {
		x, d := binary.LittleEndian.Uint64(src), (*[8]uint32)(dst)
		if signed {
			d[0], d[1], d[2], d[3] = uint32(int8(x)), uint32(int8(x>>8)), uint32(int8(x>>16)), uint32(int8(x>>24))
			d[4], d[5], d[6], d[7] = uint32(int8(x>>32)), uint32(int8(x>>40)), uint32(int8(x>>48)), uint32(int8(x>>56))
		} else {
			d[0], d[1], d[2], d[3] = uint32(uint8(x)), uint32(uint8(x>>8)), uint32(uint8(x>>16)), uint32(uint8(x>>24))
			d[4], d[5], d[6], d[7] = uint32(uint8(x>>32)), uint32(uint8(x>>40)), uint32(uint8(x>>48)), uint32(uint8(x>>56))
		}
	}
	for l, x := range src {
		if signed {
			dst[l] = uint32(int8(x))
		} else {
			dst[l] = uint32(x)
		}
	}
}

// WidenShorts sets dst[l] to the little-endian short at src[2l:],
// zero- or (signed) sign-extended, for each lane of dst.
func WidenShorts(dst []uint32, src []byte, signed bool) {
	src = src[:2*len(dst)]
	if SIMD {
		widenShortsAVX2(dst, src, signed)
		return
	}
	widenShortsGo(dst, src, signed)
}

// widenShortsGo is WidenShorts' Go definition, four shorts a 64-bit read.
func widenShortsGo(dst []uint32, src []byte, signed bool) {
	src = src[:2*len(dst)]
	for ; len(dst) >= 4; dst, src = dst[4:], src[8:] {
		x, d := binary.LittleEndian.Uint64(src), (*[4]uint32)(dst)
		if signed {
			d[0], d[1], d[2], d[3] = uint32(int16(x)), uint32(int16(x>>16)), uint32(int16(x>>32)), uint32(int16(x>>48))
		} else {
			d[0], d[1], d[2], d[3] = uint32(uint16(x)), uint32(uint16(x>>16)), uint32(uint16(x>>32)), uint32(uint16(x>>48))
		}
	}
	for l := range dst {
		x := binary.LittleEndian.Uint16(src[2*l:])
		if signed {
			dst[l] = uint32(int16(x))
		} else {
			dst[l] = uint32(x)
		}
	}
}

// NarrowBytes sets the byte dst[l] to the low byte of src[l], or (hi) of
// its high half, for each lane of src.
func NarrowBytes(dst []byte, src []uint32, hi bool) {
	dst = dst[:len(src)]
	if SIMD {
		narrowBytesAVX2(dst, src, hi)
		return
	}
	narrowBytesGo(dst, src, hi)
}

// narrowBytesGo is NarrowBytes' Go definition, eight bytes a 64-bit
// write.
func narrowBytesGo(dst []byte, src []uint32, hi bool) {
	dst = dst[:len(src)]
	shift := halfShift(hi)
	for ; len(src) >= 8; dst, src = dst[8:], src[8:] {
		s := (*[8]uint32)(src)
		binary.LittleEndian.PutUint64(dst, uint64(uint8(s[0]>>shift))|uint64(uint8(s[1]>>shift))<<8|
			uint64(uint8(s[2]>>shift))<<16|uint64(uint8(s[3]>>shift))<<24|
			uint64(uint8(s[4]>>shift))<<32|uint64(uint8(s[5]>>shift))<<40|
			uint64(uint8(s[6]>>shift))<<48|uint64(uint8(s[7]>>shift))<<56)
	}
	for l, x := range src {
		dst[l] = uint8(x >> shift)
	}
}

// NarrowShorts sets the little-endian short at dst[2l:] to the low half
// of src[l], or (hi) its high half, for each lane of src.
func NarrowShorts(dst []byte, src []uint32, hi bool) {
	dst = dst[:2*len(src)]
	if SIMD {
		narrowShortsAVX2(dst, src, hi)
		return
	}
	narrowShortsGo(dst, src, hi)
}

// narrowShortsGo is NarrowShorts' Go definition, four shorts a 64-bit
// write.
func narrowShortsGo(dst []byte, src []uint32, hi bool) {
	dst = dst[:2*len(src)]
	shift := halfShift(hi)
	for ; len(src) >= 4; dst, src = dst[8:], src[4:] {
		s := (*[4]uint32)(src)
		binary.LittleEndian.PutUint64(dst, uint64(uint16(s[0]>>shift))|uint64(uint16(s[1]>>shift))<<16|
			uint64(uint16(s[2]>>shift))<<32|uint64(uint16(s[3]>>shift))<<48)
	}
	for l, x := range src {
		binary.LittleEndian.PutUint16(dst[2*l:], uint16(x>>shift))
	}
}

// halfShift is the shift that brings a word's low half (16 when hi) to
// its bottom.
func halfShift(hi bool) uint {
	if hi {
		return 16
	}
	return 0
}

// MoveRow copies the register row src to dst: a whole-wave load's data to
// its VGPR as it completes.
func MoveRow(dst, src *[64]uint32) {
	if SIMD {
		moveRowAVX2(dst, src)
		return
	}
	moveRowGo(dst, src)
}

// moveRowGo is MoveRow's Go definition.
func moveRowGo(dst, src *[64]uint32) { *dst = *src }

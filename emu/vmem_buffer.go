package emu

// Buffer addressing by the V# (Vega ISA §8.1.8 Buffer Resource and §8.1.5
// Buffer Addressing; GCN3 ISA, the same sections by title). Decisions where
// the references are ambiguous:
//   - ELEMSIZE (bits 115–116) is used on GFX8; on GFX9 swizzled buffers use
//     a fixed 4-byte element (GFX9's V# has no such field: AMD rocRoller's
//     GFX9BufferDescriptorOptions puts USER_VM_ENABLE/MODE there).
//   - Range checks (§8.1.5) are read literally: with STRIDE 0 an access
//     is out of range when BUFOFFSET ≥ NUMRECORDS − SOFFSET (SOFFSET takes
//     part); with STRIDE ≠ 0 when AINDEX ≥ NUMRECORDS, or AOFFSET ≥ STRIDE
//     when IDXEN or ADD_TID is set. Each dword of a multi-dword access is
//     checked on its own (reads of out-of-range dwords return 0, writes are
//     dropped), lane by lane.

import (
	"math/bits"

	"github.com/wavedbg/wavedbg/isa"
)

// vsharp is a decoded 128-bit buffer resource.
type vsharp struct {
	base       uint64
	stride     uint32
	cacheSwz   bool
	swizzle    bool
	numRecords uint32
	dstSel     [4]uint8
	nfmt       uint8
	dfmt       uint8
	elemSize   uint32
	idxStride  uint32
	addTid     bool
	typ        uint8
}

// VSharp is the exported view of a V# (for front ends and tests).
type VSharp struct {
	Base         uint64
	Stride       uint32
	CacheSwizzle bool
	Swizzle      bool
	NumRecords   uint32
	DstSel       [4]uint8
	NumFormat    uint8
	DataFormat   uint8
	ElemSize     uint32 // bytes
	IndexStride  uint32 // lanes
	AddTID       bool
	Type         uint8
}

// DecodeVSharp decodes the four dwords of a buffer resource for target t.
func DecodeVSharp(words [4]uint32, t isa.Target) VSharp {
	v := decodeVSharp(words, t)
	return exportVSharp(&v)
}

func decodeVSharp(w [4]uint32, t isa.Target) vsharp {
	v := vsharp{
		base:       uint64(w[0]) | uint64(w[1]&0xffff)<<32,
		stride:     w[1] >> 16 & 0x3fff,
		cacheSwz:   w[1]>>30&1 != 0,
		swizzle:    w[1]>>31 != 0,
		numRecords: w[2],
		nfmt:       uint8(w[3] >> 12 & 7),
		dfmt:       uint8(w[3] >> 15 & 0xf),
		elemSize:   2 << (w[3] >> 19 & 3),
		idxStride:  8 << (w[3] >> 21 & 3),
		addTid:     w[3]>>23&1 != 0,
		typ:        uint8(w[3] >> 30),
	}
	for c := 0; c < 4; c++ {
		v.dstSel[c] = uint8(w[3] >> (3 * c) & 7)
	}
	if t == isa.GFX9 {
		v.elemSize = 4
	}
	return v
}

// vsCache is an operation's last decoded V#, keyed by its four SGPR
// words and the target: a kernel's buffer instructions see the same V#
// wave after wave.
type vsCache struct {
	words [4]uint32
	t     isa.Target
	ok    bool
	v     vsharp
}

// read reads the V# at SGPR sgpr (each word as an operand, with its
// hazard check) and decodes it, unless it is the one decoded last.
func (c *vsCache) read(w *Wave, sgpr int) *vsharp {
	var words [4]uint32
	for i := range words {
		words[i] = w.rs(sgpr + i)
	}
	if !c.ok || words != c.words || w.target != c.t {
		*c = vsCache{words: words, t: w.target, ok: true, v: decodeVSharp(words, w.target)}
	}
	return &c.v
}

// indexOffset returns a lane's AINDEX and AOFFSET.
func (v *vsharp) indexOffset(w *Wave, o *vmOp, lane int) (uint32, uint32) {
	var index, voff uint32
	switch {
	case o.idxen && o.offen:
		index, voff = w.v[o.vaddr][lane], w.v[o.vaddr+1][lane]
	case o.idxen:
		index = w.v[o.vaddr][lane]
	case o.offen:
		voff = w.v[o.vaddr][lane]
	}
	if v.addTid {
		index += uint32(lane)
	}
	return index, uint32(o.offset) + voff
}

// linear is BUFOFFSET for AINDEX and AOFFSET without swizzling.
func (v *vsharp) linear(index, aoff uint32) uint32 { return index*v.stride + aoff }

// bufOffset is BUFOFFSET for AINDEX and AOFFSET.
func (v *vsharp) bufOffset(index, aoff uint32) uint32 {
	if !v.swizzle {
		return v.linear(index, aoff)
	}
	// aoff%es + es*(index%is) + is*((index/is)*stride + (aoff/es)*es), with
	// es and is powers of two (decodeVSharp): shifts instead of divisions.
	es, is := v.elemSize, v.idxStride
	esh, ish := uint(bits.TrailingZeros32(es)), uint(bits.TrailingZeros32(is))
	return aoff&(es-1) + (index&(is-1))<<esh + ((index>>ish)*v.stride+(aoff>>esh)<<esh)<<ish
}

// check applies the range-checking rules to one access.
func (v *vsharp) check(o *vmOp, index, aoff, soff uint32) bool {
	return v.rule(o, index, aoff, soff) == InRange
}

// rule is the range-checking rule that puts one access out of range, or
// InRange.
func (v *vsharp) rule(o *vmOp, index, aoff, soff uint32) Rule {
	if v.stride == 0 {
		if uint64(v.bufOffset(index, aoff)) < uint64(v.numRecords)-min(uint64(soff), uint64(v.numRecords)) {
			return InRange
		}
		return OutNumRecords
	}
	if index >= v.numRecords {
		return OutIndex
	}
	if (o.idxen || v.addTid) && aoff >= v.stride {
		return OutStride
	}
	return InRange
}

package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
	"math/bits"
)

// Desc is a decoded 128-bit buffer resource.
type Desc struct {
	Base       uint64
	Stride     uint32
	cacheSwz   bool
	Swizzle    bool
	NumRecords uint32
	dstSel     [4]uint8
	nfmt       uint8
	dfmt       uint8
	ElemSize   uint32
	IdxStride  uint32
	AddTid     bool
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
	v := DecodeDesc(words, t)
	return exportVSharp(&v)
}

func DecodeDesc(w [4]uint32, t isa.Target) Desc {
	v := Desc{
		Base:       uint64(w[0]) | uint64(w[1]&0xffff)<<32,
		Stride:     w[1] >> 16 & 0x3fff,
		cacheSwz:   w[1]>>30&1 != 0,
		Swizzle:    w[1]>>31 != 0,
		NumRecords: w[2],
		nfmt:       uint8(w[3] >> 12 & 7),
		dfmt:       uint8(w[3] >> 15 & 0xf),
		ElemSize:   2 << (w[3] >> 19 & 3),
		IdxStride:  8 << (w[3] >> 21 & 3),
		AddTid:     w[3]>>23&1 != 0,
		typ:        uint8(w[3] >> 30),
	}
	for c := 0; c < 4; c++ {
		v.dstSel[c] = uint8(w[3] >> (3 * c) & 7)
	}
	if t == isa.GFX9 {
		v.ElemSize = 4
	}
	return v
}

// VsCache is an operation's last decoded V#, keyed by its four SGPR
// words and the target: a kernel's buffer instructions see the same V#
// wave after wave.
type VsCache struct {
	words [4]uint32
	t     isa.Target
	ok    bool
	v     Desc
}

// Read reads the V# at SGPR sgpr (each word as an operand, with its
// hazard check) and decodes it, unless it is the one decoded last.
func (c *VsCache) Read(w *core.Wave, sgpr int) *Desc {
	var words [4]uint32
	for i := range words {
		words[i] = w.Rs(sgpr + i)
	}
	if !c.ok || words != c.words || w.Target != c.t {
		*c = VsCache{words: words, t: w.Target, ok: true, v: DecodeDesc(words, w.Target)}
	}
	return &c.v
}

// IndexOffset returns a lane's AINDEX and AOFFSET.
func (v *Desc) IndexOffset(w *core.Wave, o *VmOp, lane int) (uint32, uint32) {
	var index, voff uint32
	switch {
	case o.Idxen && o.Offen:
		index, voff = w.V[o.Vaddr][lane], w.V[o.Vaddr+1][lane]
	case o.Idxen:
		index = w.V[o.Vaddr][lane]
	case o.Offen:
		voff = w.V[o.Vaddr][lane]
	}
	if v.AddTid {
		index += uint32(lane)
	}
	return index, uint32(o.Offset) + voff
}

// linear is BUFOFFSET for AINDEX and AOFFSET without swizzling.
func (v *Desc) linear(index, aoff uint32) uint32 { return index*v.Stride + aoff }

// BufOffset is BUFOFFSET for AINDEX and AOFFSET.
func (v *Desc) BufOffset(index, aoff uint32) uint32 {
	if !v.Swizzle {
		return v.linear(index, aoff)
	}
	// aoff%es + es*(index%is) + is*((index/is)*stride + (aoff/es)*es), with
	// es and is powers of two (decodeVSharp): shifts instead of divisions.
	es, is := v.ElemSize, v.IdxStride
	esh, ish := uint(bits.TrailingZeros32(es)), uint(bits.TrailingZeros32(is))
	return aoff&(es-1) + (index&(is-1))<<esh + ((index>>ish)*v.Stride+(aoff>>esh)<<esh)<<ish
}

// Check applies the range-checking rules to one access.
func (v *Desc) Check(o *VmOp, index, aoff, soff uint32) bool {
	return v.rule(o, index, aoff, soff) == InRange
}

// rule is the range-checking rule that puts one access out of range, or
// InRange.
func (v *Desc) rule(o *VmOp, index, aoff, soff uint32) Rule {
	if v.Stride == 0 {
		if uint64(v.BufOffset(index, aoff)) < uint64(v.NumRecords)-min(uint64(soff), uint64(v.NumRecords)) {
			return InRange
		}
		return OutNumRecords
	}
	if index >= v.NumRecords {
		return OutIndex
	}
	if (o.Idxen || v.AddTid) && aoff >= v.Stride {
		return OutStride
	}
	return InRange
}

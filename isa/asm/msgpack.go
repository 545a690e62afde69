package asm

import (
	"encoding/binary"
	"math"
	"sort"
)

// nodeKind orders kinds as LLVM's msgpack::Type does, which is how map
// keys of different kinds sort.
type nodeKind uint8

const (
	kInt nodeKind = iota
	kUint
	kNil
	kBool
	kFloat
	kStr
	kBinary
	kSeq
	kMap
)

// A node is a metadata document node: LLVM's msgpack::DocNode.
type node struct {
	kind nodeKind
	s    string
	i    int64
	u    uint64
	f    float64
	b    bool
	seq  []*node
	keys []*node // map keys, parallel to vals
	vals []*node
}

func strNode(s string) *node  { return &node{kind: kStr, s: s} }
func uintNode(u uint64) *node { return &node{kind: kUint, u: u} }

// set adds or replaces key k of map n.
func (n *node) set(k string, v *node) {
	for i, key := range n.keys {
		if key.kind == kStr && key.s == k {
			n.vals[i] = v
			return
		}
	}
	n.keys = append(n.keys, strNode(k))
	n.vals = append(n.vals, v)
}

// get returns map n's value for key k, or nil.
func (n *node) get(k string) *node {
	if n == nil || n.kind != kMap {
		return nil
	}
	for i, key := range n.keys {
		if key.kind == kStr && key.s == k {
			return n.vals[i]
		}
	}
	return nil
}

// less is DocNode's operator<.
func less(a, b *node) bool {
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	switch a.kind {
	case kInt:
		return a.i < b.i
	case kUint:
		return a.u < b.u
	case kBool:
		return !a.b && b.b
	case kFloat:
		return a.f < b.f
	case kStr, kBinary:
		return a.s < b.s
	}
	return false
}

// msgpack encodes n as LLVM's msgpack::Writer does: smallest forms, maps
// in key order.
func (n *node) msgpack(b []byte) []byte {
	switch n.kind {
	case kNil:
		return append(b, 0xc0)
	case kBool:
		if n.b {
			return append(b, 0xc3)
		}
		return append(b, 0xc2)
	case kUint:
		return putUint(b, n.u)
	case kInt:
		if n.i >= 0 {
			return putUint(b, uint64(n.i))
		}
		switch {
		case n.i >= -32:
			return append(b, byte(n.i))
		case n.i >= math.MinInt8:
			return append(b, 0xd0, byte(n.i))
		case n.i >= math.MinInt16:
			return binary.BigEndian.AppendUint16(append(b, 0xd1), uint16(n.i))
		case n.i >= math.MinInt32:
			return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(n.i))
		}
		return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(n.i))
	case kFloat:
		// LLVM writes a Float32 whenever the magnitude fits one.
		if a := math.Abs(n.f); a >= 0x1p-126 && a <= math.MaxFloat32 {
			return binary.BigEndian.AppendUint32(append(b, 0xca), math.Float32bits(float32(n.f)))
		}
		return binary.BigEndian.AppendUint64(append(b, 0xcb), math.Float64bits(n.f))
	case kStr:
		l := len(n.s)
		switch {
		case l < 32:
			b = append(b, 0xa0|byte(l))
		case l < 1<<8:
			b = append(b, 0xd9, byte(l))
		case l < 1<<16:
			b = binary.BigEndian.AppendUint16(append(b, 0xda), uint16(l))
		default:
			b = binary.BigEndian.AppendUint32(append(b, 0xdb), uint32(l))
		}
		return append(b, n.s...)
	case kSeq:
		b = putLen(b, len(n.seq), 0x90, 0xdc)
		for _, e := range n.seq {
			b = e.msgpack(b)
		}
		return b
	case kMap:
		idx := make([]int, len(n.keys))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(x, y int) bool { return less(n.keys[idx[x]], n.keys[idx[y]]) })
		b = putLen(b, len(idx), 0x80, 0xde)
		for _, i := range idx {
			b = n.keys[i].msgpack(b)
			b = n.vals[i].msgpack(b)
		}
		return b
	}
	return append(b, 0xc0)
}

func putUint(b []byte, u uint64) []byte {
	switch {
	case u < 128:
		return append(b, byte(u))
	case u < 1<<8:
		return append(b, 0xcc, byte(u))
	case u < 1<<16:
		return binary.BigEndian.AppendUint16(append(b, 0xcd), uint16(u))
	case u < 1<<32:
		return binary.BigEndian.AppendUint32(append(b, 0xce), uint32(u))
	}
	return binary.BigEndian.AppendUint64(append(b, 0xcf), u)
}

// putLen writes an array or map header: the fix form below 16, else the
// 16- or 32-bit form (code16, and code16+1 for 32 bits).
func putLen(b []byte, n int, fix, code16 byte) []byte {
	switch {
	case n < 16:
		return append(b, fix|byte(n))
	case n < 1<<16:
		return binary.BigEndian.AppendUint16(append(b, code16), uint16(n))
	}
	return binary.BigEndian.AppendUint32(append(b, code16+1), uint32(n))
}

package loader

import (
	"fmt"
	"math"
)

// A small MessagePack reader for NT_AMDGPU_METADATA. It decodes into a tree
// of mpValue with every length checked against the bytes that remain, so a
// lying length cannot allocate more than the note holds, and with a depth
// limit so nesting cannot exhaust the stack.

type mpKind uint8

const (
	mpNil mpKind = iota
	mpBool
	mpInt
	mpUint
	mpFloat
	mpStr
	mpBin
	mpArray
	mpMap
)

type mpValue struct {
	kind mpKind
	b    bool
	i    int64
	u    uint64
	f    float64
	s    string
	arr  []mpValue
	keys []mpValue // map keys, parallel to arr
}

const mpMaxDepth = 64

type mpReader struct {
	data []byte
	pos  int
	base int64 // file offset of data[0], for errors
}

func (r *mpReader) fail(format string, args ...any) error {
	return formatErr("NT_AMDGPU_METADATA", r.base+int64(r.pos), format, args...)
}

func (r *mpReader) need(n uint64) error {
	if n > uint64(len(r.data)-r.pos) {
		return r.fail("msgpack value needs %d bytes, %d left", n, len(r.data)-r.pos)
	}
	return nil
}

func (r *mpReader) uint(n int) (uint64, error) {
	if err := r.need(uint64(n)); err != nil {
		return 0, err
	}
	var v uint64
	for _, c := range r.data[r.pos : r.pos+n] {
		v = v<<8 | uint64(c)
	}
	r.pos += n
	return v, nil
}

func (r *mpReader) bytes(n uint64) ([]byte, error) {
	if err := r.need(n); err != nil {
		return nil, err
	}
	b := r.data[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return b, nil
}

// decodeMsgpack decodes the single MessagePack value in data.
func decodeMsgpack(data []byte, base int64) (mpValue, error) {
	r := &mpReader{data: data, base: base}
	v, err := r.value(0)
	if err != nil {
		return v, err
	}
	if r.pos != len(data) && !allZero(data[r.pos:]) {
		return v, r.fail("%d bytes of trailing data after the metadata map", len(data)-r.pos)
	}
	return v, nil
}

func (r *mpReader) value(depth int) (mpValue, error) {
	if depth > mpMaxDepth {
		return mpValue{}, r.fail("msgpack nesting deeper than %d", mpMaxDepth)
	}
	if err := r.need(1); err != nil {
		return mpValue{}, err
	}
	c := r.data[r.pos]
	r.pos++
	switch {
	case c <= 0x7f:
		return mpValue{kind: mpUint, u: uint64(c)}, nil
	case c >= 0xe0:
		return mpValue{kind: mpInt, i: int64(int8(c))}, nil
	case c&0xf0 == 0x80:
		return r.mapOf(uint64(c&0x0f), depth)
	case c&0xf0 == 0x90:
		return r.arrayOf(uint64(c&0x0f), depth)
	case c&0xe0 == 0xa0:
		return r.str(uint64(c & 0x1f))
	}
	switch c {
	case 0xc0:
		return mpValue{kind: mpNil}, nil
	case 0xc2, 0xc3:
		return mpValue{kind: mpBool, b: c == 0xc3}, nil
	case 0xc4, 0xc5, 0xc6: // bin 8/16/32
		n, err := r.uint(1 << (c - 0xc4))
		if err != nil {
			return mpValue{}, err
		}
		b, err := r.bytes(n)
		return mpValue{kind: mpBin, s: string(b)}, err
	case 0xca:
		u, err := r.uint(4)
		return mpValue{kind: mpFloat, f: float64(math.Float32frombits(uint32(u)))}, err
	case 0xcb:
		u, err := r.uint(8)
		return mpValue{kind: mpFloat, f: math.Float64frombits(u)}, err
	case 0xcc, 0xcd, 0xce, 0xcf:
		u, err := r.uint(1 << (c - 0xcc))
		return mpValue{kind: mpUint, u: u}, err
	case 0xd0, 0xd1, 0xd2, 0xd3:
		n := 1 << (c - 0xd0)
		u, err := r.uint(n)
		shift := 64 - 8*n
		return mpValue{kind: mpInt, i: int64(u<<shift) >> shift}, err
	case 0xd9, 0xda, 0xdb:
		n, err := r.uint(1 << (c - 0xd9))
		if err != nil {
			return mpValue{}, err
		}
		return r.str(n)
	case 0xdc, 0xdd:
		n, err := r.uint(2 << (c - 0xdc))
		if err != nil {
			return mpValue{}, err
		}
		return r.arrayOf(n, depth)
	case 0xde, 0xdf:
		n, err := r.uint(2 << (c - 0xde))
		if err != nil {
			return mpValue{}, err
		}
		return r.mapOf(n, depth)
	}
	r.pos--
	return mpValue{}, r.fail("unsupported msgpack type byte %#02x", c)
}

func (r *mpReader) str(n uint64) (mpValue, error) {
	b, err := r.bytes(n)
	return mpValue{kind: mpStr, s: string(b)}, err
}

func (r *mpReader) arrayOf(n uint64, depth int) (mpValue, error) {
	if err := r.need(n); err != nil { // every element takes at least a byte
		return mpValue{}, err
	}
	v := mpValue{kind: mpArray, arr: make([]mpValue, n)}
	for i := range v.arr {
		e, err := r.value(depth + 1)
		if err != nil {
			return v, err
		}
		v.arr[i] = e
	}
	return v, nil
}

func (r *mpReader) mapOf(n uint64, depth int) (mpValue, error) {
	if n > math.MaxInt32 {
		return mpValue{}, r.fail("map of %d entries", n)
	}
	if err := r.need(2 * n); err != nil {
		return mpValue{}, err
	}
	v := mpValue{kind: mpMap, arr: make([]mpValue, n), keys: make([]mpValue, n)}
	for i := range v.arr {
		k, err := r.value(depth + 1)
		if err != nil {
			return v, err
		}
		e, err := r.value(depth + 1)
		if err != nil {
			return v, err
		}
		v.keys[i], v.arr[i] = k, e
	}
	return v, nil
}

// Accessors used by the metadata decoder; each reports a type mismatch.

func (v mpValue) asUint(what string) (uint64, error) {
	switch v.kind {
	case mpUint:
		return v.u, nil
	case mpInt:
		if v.i >= 0 {
			return uint64(v.i), nil
		}
	}
	return 0, fmt.Errorf("%s: want a non-negative integer, have %s", what, v.describe())
}

func (v mpValue) asString(what string) (string, error) {
	if v.kind == mpStr || v.kind == mpBin {
		return v.s, nil
	}
	return "", fmt.Errorf("%s: want a string, have %s", what, v.describe())
}

func (v mpValue) asBool(what string) (bool, error) {
	if v.kind == mpBool {
		return v.b, nil
	}
	return false, fmt.Errorf("%s: want a boolean, have %s", what, v.describe())
}

func (v mpValue) asArray(what string) ([]mpValue, error) {
	if v.kind == mpArray {
		return v.arr, nil
	}
	return nil, fmt.Errorf("%s: want an array, have %s", what, v.describe())
}

func (v mpValue) describe() string {
	return [...]string{"nil", "a boolean", "an integer", "an integer", "a float", "a string", "binary data", "an array", "a map"}[v.kind]
}

// each calls fn for every string-keyed entry of a map value.
func (v mpValue) each(what string, fn func(key string, val mpValue) error) error {
	if v.kind != mpMap {
		return fmt.Errorf("%s: want a map, have %s", what, v.describe())
	}
	for i, k := range v.keys {
		if k.kind != mpStr {
			return fmt.Errorf("%s: map key is %s, not a string", what, k.describe())
		}
		if err := fn(k.s, v.arr[i]); err != nil {
			return err
		}
	}
	return nil
}

package loader

import (
	"fmt"
	"strconv"
)

// A streaming MessagePack reader for NT_AMDGPU_METADATA, decoding straight
// into the typed structs without building a tree. Like debug/dwarf's
// buf, it has a sticky error: reads never fail, the first problem is
// recorded (with its byte offset) and later reads return zero values, so
// the decoders check once at the end. Every length is checked against the
// bytes that remain, so a lying length cannot allocate more than the note
// holds, and nesting is limited so hostile input cannot exhaust the stack.

const mpMaxDepth = 64

type mpReader struct {
	data []byte
	pos  int
	base int64  // file offset of data[0], for errors
	key  []byte // the map key being decoded, for errors
	err  *FormatError
}

func (r *mpReader) fail(format string, args ...any) {
	if r.err != nil {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if r.key != nil {
		msg = quoteKey(r.key) + ": " + msg
	}
	r.err = formatErr("NT_AMDGPU_METADATA", r.base+int64(r.pos), "%s", msg)
	r.pos = len(r.data)
}

// quoteKey spells a map key for errors: as it is when it is printable
// ASCII without quotes or spaces (".name"), else quoted as Go quotes
// strings, so corrupt bytes never reach the terminal raw.
func quoteKey(k []byte) string {
	for _, c := range k {
		if c <= ' ' || c >= 0x7f || c == '"' || c == '\\' {
			return strconv.Quote(string(k))
		}
	}
	if len(k) == 0 {
		return `""`
	}
	return string(k)
}

func (r *mpReader) left() int { return len(r.data) - r.pos }

// next returns the next type byte, or 0xc1 (never used) at the end.
func (r *mpReader) next() byte {
	if r.left() < 1 {
		r.fail("unexpected end of the metadata")
		return 0xc1
	}
	c := r.data[r.pos]
	r.pos++
	return c
}

func (r *mpReader) be(n int) uint64 {
	if r.left() < n {
		r.fail("value needs %d bytes, %d left", n, r.left())
		return 0
	}
	var v uint64
	for _, c := range r.data[r.pos : r.pos+n] {
		v = v<<8 | uint64(c)
	}
	r.pos += n
	return v
}

func (r *mpReader) bytes(n uint64) []byte {
	if n > uint64(r.left()) {
		r.fail("%d bytes of data, %d left", n, r.left())
		return nil
	}
	b := r.data[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return b
}

func typeName(c byte) string {
	switch {
	case c <= 0x7f || c >= 0xe0 || (c >= 0xcc && c <= 0xd3):
		return "an integer"
	case c&0xf0 == 0x80 || c == 0xde || c == 0xdf:
		return "a map"
	case c&0xf0 == 0x90 || c == 0xdc || c == 0xdd:
		return "an array"
	case c&0xe0 == 0xa0 || (c >= 0xd9 && c <= 0xdb):
		return "a string"
	case c == 0xc0:
		return "nil"
	case c == 0xc2 || c == 0xc3:
		return "a boolean"
	case c == 0xca || c == 0xcb:
		return "a float"
	case c >= 0xc4 && c <= 0xc6:
		return "binary data"
	}
	return fmt.Sprintf("type byte %#02x", c)
}

// length reads a map or array header; entries is how many values follow
// per element (2 for maps).
func (r *mpReader) length(wantMap bool) int {
	c := r.next()
	var n uint64
	switch {
	case wantMap && c&0xf0 == 0x80:
		n = uint64(c & 0x0f)
	case !wantMap && c&0xf0 == 0x90:
		n = uint64(c & 0x0f)
	case wantMap && (c == 0xde || c == 0xdf):
		n = r.be(2 << (c - 0xde))
	case !wantMap && (c == 0xdc || c == 0xdd):
		n = r.be(2 << (c - 0xdc))
	default:
		if r.err == nil {
			r.pos--
			r.fail("want %s, have %s", map[bool]string{true: "a map", false: "an array"}[wantMap], typeName(c))
		}
		return 0
	}
	per := uint64(1)
	if wantMap {
		per = 2
	}
	if n > uint64(r.left())/per { // every value takes at least a byte
		r.fail("%d entries cannot fit in the %d bytes left", n, r.left())
		return 0
	}
	return int(n)
}

func (r *mpReader) mapLen() int   { return r.length(true) }
func (r *mpReader) arrayLen() int { return r.length(false) }

// strBytes reads a string (or binary) value without copying it.
func (r *mpReader) strBytes() []byte {
	c := r.next()
	switch {
	case c&0xe0 == 0xa0:
		return r.bytes(uint64(c & 0x1f))
	case c >= 0xd9 && c <= 0xdb:
		return r.bytes(r.be(1 << (c - 0xd9)))
	case c >= 0xc4 && c <= 0xc6:
		return r.bytes(r.be(1 << (c - 0xc4)))
	}
	if r.err == nil {
		r.pos--
		r.fail("want a string, have %s", typeName(c))
	}
	return nil
}

func (r *mpReader) str() string { return string(r.strBytes()) }

func (r *mpReader) uint() uint64 {
	c := r.next()
	switch {
	case c <= 0x7f:
		return uint64(c)
	case c >= 0xcc && c <= 0xcf:
		return r.be(1 << (c - 0xcc))
	case c >= 0xd0 && c <= 0xd3:
		n := 1 << (c - 0xd0)
		shift := 64 - 8*n
		v := int64(r.be(n)<<shift) >> shift
		if v >= 0 {
			return uint64(v)
		}
	}
	if r.err == nil {
		r.pos--
		r.fail("want a non-negative integer, have %s", typeName(c))
	}
	return 0
}

func (r *mpReader) bool() bool {
	switch c := r.next(); c {
	case 0xc2, 0xc3:
		return c == 0xc3
	default:
		if r.err == nil {
			r.pos--
			r.fail("want a boolean, have %s", typeName(c))
		}
	}
	return false
}

// boolOrUint accepts a boolean or an integer (LLVM writes some flags,
// such as .uniform_work_group_size, as the integer 1).
func (r *mpReader) boolOrUint() bool {
	if r.left() > 0 && (r.data[r.pos] == 0xc2 || r.data[r.pos] == 0xc3) {
		return r.bool()
	}
	return r.uint() != 0
}

func (r *mpReader) uints() []uint64 {
	n := r.arrayLen()
	out := make([]uint64, n)
	for i := range out {
		out[i] = r.uint()
	}
	return out
}

// skip passes over one value of any type.
func (r *mpReader) skip(depth int) {
	if depth > mpMaxDepth {
		r.fail("nesting deeper than %d", mpMaxDepth)
		return
	}
	c := r.next()
	switch {
	case c <= 0x7f || c >= 0xe0 || c == 0xc0 || c == 0xc2 || c == 0xc3:
	case c&0xf0 == 0x80 || c&0xf0 == 0x90 || c == 0xdc || c == 0xdd || c == 0xde || c == 0xdf:
		r.pos--
		isMap := c&0xf0 == 0x80 || c == 0xde || c == 0xdf
		n := r.length(isMap)
		if isMap {
			n *= 2
		}
		for i := 0; i < n && r.err == nil; i++ {
			r.skip(depth + 1)
		}
	case c&0xe0 == 0xa0 || (c >= 0xd9 && c <= 0xdb) || (c >= 0xc4 && c <= 0xc6):
		r.pos--
		r.strBytes()
	case c == 0xca:
		r.be(4)
	case c == 0xcb:
		r.be(8)
	case c >= 0xcc && c <= 0xcf:
		r.be(1 << (c - 0xcc))
	case c >= 0xd0 && c <= 0xd3:
		r.be(1 << (c - 0xd0))
	case c == 0xd4, c == 0xd5, c == 0xd6, c == 0xd7, c == 0xd8: // fixext
		r.bytes(1 + uint64(1)<<(c-0xd4))
	case c >= 0xc7 && c <= 0xc9: // ext
		n := r.be(1 << (c - 0xc7))
		r.bytes(1 + n)
	default:
		if r.err == nil {
			r.pos--
			r.fail("unsupported type byte %#02x", c)
		}
	}
}

// eachKey calls fn for every entry of a map, with the key's bytes; fn must
// consume the value.
func (r *mpReader) eachKey(fn func(key []byte)) {
	n := r.mapLen()
	outer := r.key
	for i := 0; i < n && r.err == nil; i++ {
		k := r.strBytes()
		if r.err != nil {
			return
		}
		r.key = k
		fn(k)
	}
	if r.err == nil {
		r.key = outer
	}
}

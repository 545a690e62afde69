package emu

import (
	"encoding/binary"
	"sync/atomic"
	"unsafe"
)

// Grid workers share pages (memory.go). A kernel may legally read a word
// that another work-group updates with an atomic, or store to it: on the
// hardware an aligned dword access is single-copy atomic. In a worker's
// view, aligned whole dwords therefore move with atomic loads and stores
// (plain MOVs and XCHGs on amd64), so such kernels are free of Go data
// races; other bytes are copied one by one. Outside views (a lone Machine,
// the debugger) plain copies are used.

// hostLE reports a little-endian host: the atomic path stores the value's
// native representation.
var hostLE = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// copyOut copies page bytes [off, off+len(dst)) into dst.
func (m *Memory) copyOut(dst []byte, pg *[pageSize]byte, off uint64) {
	if m.local == nil || !hostLE {
		copy(dst, pg[off:])
		return
	}
	for len(dst) > 0 {
		if off&3 == 0 && len(dst) >= 4 {
			binary.LittleEndian.PutUint32(dst, atomic.LoadUint32((*uint32)(unsafe.Pointer(&pg[off]))))
			dst, off = dst[4:], off+4
			continue
		}
		dst[0] = pg[off]
		dst, off = dst[1:], off+1
	}
}

// copyIn copies src into the page at off.
func (m *Memory) copyIn(pg *[pageSize]byte, off uint64, src []byte) {
	if m.local == nil || !hostLE {
		copy(pg[off:], src)
		return
	}
	for len(src) > 0 {
		if off&3 == 0 && len(src) >= 4 {
			atomic.StoreUint32((*uint32)(unsafe.Pointer(&pg[off])), binary.LittleEndian.Uint32(src))
			src, off = src[4:], off+4
			continue
		}
		pg[off] = src[0]
		src, off = src[1:], off+1
	}
}

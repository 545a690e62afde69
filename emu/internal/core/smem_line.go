package core

import (
	"encoding/binary"
	"sync/atomic"
	"unsafe"
)

// readLine reads the scalar-cache line at tag (line-aligned, so within one
// page) from mem into dst: a fixed-size copy from page pg of mem holding
// it (nil: looked up), with the same per-dword atomic loads as copyOut in
// a grid worker's view (other workers may be storing to the page).
// Unwritten pages read as zero.
func readLine(mem *Memory, tag uint64, pg *[PageSize]byte, dst *[LineBytes]byte) {
	if pg == nil {
		pg = mem.Page(tag>>PageBits, false)
	}
	if pg == nil {
		*dst = [LineBytes]byte{}
		return
	}
	off := tag & (PageSize - 1)
	if mem.local == nil || !HostLE {
		line := [LineBytes]byte(pg[off:]) // through a local: moves, no memmove call
		*dst = line
		return
	}
	src := (*[LineBytes / 4]uint32)(unsafe.Pointer(&pg[off]))
	for k := range src {
		binary.LittleEndian.PutUint32(dst[4*k:], atomic.LoadUint32(&src[k]))
	}
}

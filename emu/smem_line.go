package emu

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
func readLine(mem *Memory, tag uint64, pg *[pageSize]byte, dst *[lineBytes]byte) {
	if pg == nil {
		pg = mem.page(tag>>pageBits, false)
	}
	if pg == nil {
		*dst = [lineBytes]byte{}
		return
	}
	off := tag & (pageSize - 1)
	if mem.local == nil || !hostLE {
		line := [lineBytes]byte(pg[off:]) // through a local: moves, no memmove call
		*dst = line
		return
	}
	src := (*[lineBytes / 4]uint32)(unsafe.Pointer(&pg[off]))
	for k := range src {
		binary.LittleEndian.PutUint32(dst[4*k:], atomic.LoadUint32(&src[k]))
	}
}

package emu

import (
	"runtime"
	"syscall"
	"unsafe"
)

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14): fault a range in
// for writing, as writes would, without changing it.
const madvPopulateWrite = 23

// populate has the host map the pages of b writable in one system call,
// reporting whether it could. The range is widened to whole host pages:
// the bytes around b belong to the same heap mapping and are left as they
// are.
func populate(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	ps := uintptr(syscall.Getpagesize())
	start := uintptr(unsafe.Pointer(&b[0]))
	lo, hi := start&^(ps-1), (start+uintptr(len(b))+ps-1)&^(ps-1)
	_, _, e := syscall.Syscall(syscall.SYS_MADVISE, lo, hi-lo, madvPopulateWrite)
	runtime.KeepAlive(b)
	return e == 0
}

package core

import (
	"encoding/binary"
	"sync/atomic"
	"unsafe"
)

// Grid workers share pages (memory.go). A kernel may legally read a word
// that another work-group updates with an atomic, or store to it: on the
// hardware an aligned dword access is single-copy atomic, and so it is
// here. In a worker's view an aligned whole dword is always moved by one
// 32-bit load or store (loadWord, storeWord), never by memmove, whose
// overlapping and string moves promise nothing per dword; other bytes move
// one by one, or eight at a time (unit-step byte and short runs, fast/vmem_run.go)
// by 64-bit loads and stores that touch only the run's own bytes. Outside views (a lone Machine, the debugger, setup) plain
// copies are used.
//
// In a normal build those racing dword accesses are plain MOVs. That is
// sound: the Go memory model's restriction on programs with data races
// says a read of a memory location no larger than a machine word observes
// one write to it, never a mix of two, and a uint32 access through an
// aligned pointer compiles to one MOV, which amd64 and arm64 make
// single-copy atomic. What objects is the race detector, which reports
// every racing pair, so under -race (raceBuild) the same accesses use
// sync/atomic and a kernel that mixes stores and atomics on one word stays
// race-clean (TestGridWorkers). The price avoided is the normal build's:
// on amd64 atomic.StoreUint32 is an XCHG, a locked instruction of about 20
// cycles, some 0.4 µs of every 64-lane global_store_dword.

// HostLE reports a little-endian host: dwords are moved in the host's
// representation.
var HostLE = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// LoadWord reads the aligned dword at p of a page other views may write.
func LoadWord(p unsafe.Pointer) uint32 {
	if raceBuild {
		return atomic.LoadUint32((*uint32)(p))
	}
	return *(*uint32)(p)
}

// StoreWord writes the aligned dword at p of a page other views may read.
func StoreWord(p unsafe.Pointer, v uint32) {
	if raceBuild {
		atomic.StoreUint32((*uint32)(p), v)
		return
	}
	*(*uint32)(p) = v
}

// AtomicWords reports whether m's accesses must go through loadWord and
// storeWord to stay race-clean: a worker's view under the race detector.
func (m *Memory) AtomicWords() bool { return raceBuild && m.local != nil }

// copyOut copies page bytes [off, off+len(dst)) into dst.
func (m *Memory) copyOut(dst []byte, pg *[PageSize]byte, off uint64) {
	if m.local == nil || !HostLE {
		copy(dst, pg[off:])
		return
	}
	for len(dst) > 0 {
		if off&3 == 0 && len(dst) >= 4 {
			binary.LittleEndian.PutUint32(dst, LoadWord(unsafe.Pointer(&pg[off])))
			dst, off = dst[4:], off+4
			continue
		}
		dst[0] = pg[off]
		dst, off = dst[1:], off+1
	}
}

// copyIn copies src into the page at off.
func (m *Memory) copyIn(pg *[PageSize]byte, off uint64, src []byte) {
	if m.local == nil || !HostLE {
		copy(pg[off:], src)
		return
	}
	for len(src) > 0 {
		if off&3 == 0 && len(src) >= 4 {
			StoreWord(unsafe.Pointer(&pg[off]), binary.LittleEndian.Uint32(src))
			src, off = src[4:], off+4
			continue
		}
		pg[off] = src[0]
		src, off = src[1:], off+1
	}
}

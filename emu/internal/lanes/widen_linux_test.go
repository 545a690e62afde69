//go:build linux

package lanes

import (
	"syscall"
	"testing"
)

// guardedPage returns a page of memory whose neighbours on both sides
// allow no access, so that touching a byte outside it faults.
func guardedPage(t *testing.T) []byte {
	n := syscall.Getpagesize()
	m, err := syscall.Mmap(-1, 0, 3*n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(m) })
	for _, g := range [][]byte{m[:n], m[2*n:]} {
		if err := syscall.Mprotect(g, syscall.PROT_NONE); err != nil {
			t.Fatal(err)
		}
	}
	return m[n : 2*n : 2*n]
}

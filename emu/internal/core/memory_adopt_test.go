package core

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"
)

// TestAdoptMatchesWrite: a Memory that adopts buffers holds what one that
// copies them (Write) holds, before and after later writes through the
// memory — for buffers at any offset in a page, of any length, misaligned
// in the host's memory, over pages written before — and reading the range
// back into the adopted buffer leaves it with the memory's contents.
func TestAdoptMatchesWrite(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	fillRand := func(b []byte) {
		for i := range b {
			b[i] = byte(r.Uint32())
		}
	}
	for trial := 0; trial < 200; trial++ {
		ref, m := NewMemory(), NewMemory()
		base := uint64(1<<32) + uint64(r.IntN(3*PageSize))
		size := uint64(1 + r.IntN(6*PageSize))
		for _, mm := range []*Memory{ref, m} {
			if err := mm.Map("buf", base, size, false); err != nil {
				t.Fatal(err)
			}
		}
		// Some pages exist already.
		for k := 0; k < r.IntN(3); k++ {
			a := base + uint64(r.IntN(int(size)))
			v := byte(r.Uint32())
			ref.Write(a, []byte{v})
			m.Write(a, []byte{v})
		}
		// The data starts misaligned in the host's memory in some trials.
		skew := []int{0, 0, 1, 2}[r.IntN(4)]
		p := make([]byte, int(size)+skew)[skew:]
		fillRand(p)
		if err := ref.Write(base, p); err != nil {
			t.Fatal(err)
		}
		if err := m.Adopt(base, p); err != nil {
			t.Fatal(err)
		}
		// Later writes, through the memory, anywhere in the range.
		for k := 0; k < 5; k++ {
			a := base + uint64(r.IntN(int(size)))
			w := make([]byte, 1+r.IntN(int(min(base+size-a, 3*PageSize))))
			fillRand(w)
			ref.Write(a, w)
			m.Write(a, w)
		}
		want := make([]byte, size)
		ref.Read(base, want)
		got := make([]byte, size)
		if err := m.Read(base, got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("trial %d (base %#x, size %d, skew %d): memory differs from Write's", trial, base, size, skew)
		}
		if err := m.Read(base, p); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(p, want) {
			t.Fatalf("trial %d (base %#x, size %d, skew %d): read back into the adopted buffer differs", trial, base, size, skew)
		}
	}
}

// TestAdoptShares: the pages a buffer covers whole are its bytes (no copy);
// an unmapped range fails like Write and stores nothing.
func TestAdoptShares(t *testing.T) {
	m := NewMemory()
	addr, err := m.Alloc("buf", 3*PageSize, PageSize)
	if err != nil {
		t.Fatal(err)
	}
	p := make([]byte, 3*PageSize)
	if err := m.Adopt(addr, p); err != nil {
		t.Fatal(err)
	}
	if err := m.WriteU32(addr+PageSize+8, 0xdeadbeef); err != nil {
		t.Fatal(err)
	}
	if p[PageSize+8] != 0xef {
		t.Errorf("a write to an adopted page is not in the buffer")
	}
	q := []byte{1, 2, 3}
	var f *Fault
	if err := m.Adopt(addr+3*PageSize-1, q); !errors.As(err, &f) || f.Addr != addr+3*PageSize || !f.Write {
		t.Errorf("Adopt past the allocation: %v", err)
	}
	if v, _ := m.ReadU32(addr + 3*PageSize - 4); v != 0 {
		t.Errorf("a failed Adopt stored %#x", v)
	}
}

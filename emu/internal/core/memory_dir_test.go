package core

import (
	"math/rand/v2"
	"testing"
)

// TestPageDirMatchesMap writes random bytes into allocations laid out the
// ways a run lays them out — Alloc's buffers (the dense span), a mapping
// far below and one far above them (the map), one mapped between buffers
// before a later Alloc widens the span over it (its chunks move), and one
// beyond maxDense — and checks every byte reads back as a plain map of
// addresses to bytes says it should, and every unwritten byte as zero.
func TestPageDirMatchesMap(t *testing.T) {
	m := NewMemory()
	var ranges [][2]uint64
	mustMap := func(name string, addr, size uint64) {
		if err := m.Map(name, addr, size, false); err != nil {
			t.Fatal(err)
		}
		ranges = append(ranges, [2]uint64{addr, size})
	}
	alloc := func(size uint64) {
		addr, err := m.Alloc("buf", size, 1<<12)
		if err != nil {
			t.Fatal(err)
		}
		ranges = append(ranges, [2]uint64{addr, size})
	}
	mustMap("low", 0x1000, 3<<20)
	mustMap("high", SharedApertureBase, 1<<16)
	alloc(5 << 20)
	mustMap("between", m.Next+(8<<20), 2<<20)
	want := map[uint64]byte{}
	rng := rand.New(rand.NewPCG(1, 2))
	write := func() {
		for range 20000 {
			r := ranges[rng.IntN(len(ranges))]
			a := r[0] + rng.Uint64N(r[1])
			b := byte(rng.Uint32())
			if err := m.Write(a, []byte{b}); err != nil {
				t.Fatal(err)
			}
			want[a] = b
		}
	}
	write()
	alloc(32 << 20) // reserve after "between": its chunks move to the dense span
	mustMap("far", m.Next+(MaxDense+4)<<(PageBits+ChunkBits), 1<<20)
	alloc(1 << 20)
	write()
	for a, b := range want {
		if got := m.Pt.Get(a>>PageBits, false); got == nil || got[a&(PageSize-1)] != b {
			t.Fatalf("byte %#x: page %v, want %#x", a, got != nil, b)
		}
		var p [1]byte
		if err := m.Read(a, p[:]); err != nil || p[0] != b {
			t.Fatalf("Read %#x = %#x, %v; want %#x", a, p[0], err, b)
		}
	}
	for _, r := range ranges {
		for a := r[0]; a < r[0]+r[1]; a += 997 {
			var p [1]byte
			if err := m.Read(a, p[:]); err != nil || p[0] != want[a] {
				t.Fatalf("Read %#x = %#x, %v; want %#x", a, p[0], err, want[a])
			}
		}
	}
	if d := m.Pt.Dir.Load(); len(d.Dense) == 0 || len(d.Dense) > MaxDense {
		t.Errorf("dense span of %d chunks", len(d.Dense))
	}
}

// TestPageCacheSlots: the same page of buffers a power of two apart falls
// in different page-cache slots.
func TestPageCacheSlots(t *testing.T) {
	seen := map[uint64]bool{}
	for i := range uint64(9) {
		seen[PcSlot(1<<20+i<<13)] = true
	}
	if len(seen) < 6 {
		t.Errorf("9 pages 32 MiB apart use %d page-cache slots", len(seen))
	}
}

// TestLookupMatchesScan: Lookup's binary search finds what a scan of the
// allocations finds, at their edges and between them.
func TestLookupMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 12 {
		m := NewMemory()
		for range n {
			if _, err := m.Alloc("a", 1+rng.Uint64N(1<<14), 1<<rng.UintN(10)); err != nil {
				t.Fatal(err)
			}
		}
		var probes []uint64
		for _, a := range m.Allocs {
			probes = append(probes, a.Addr-1, a.Addr, a.End()-1, a.End())
		}
		probes = append(probes, 0, ^uint64(0))
		for _, p := range probes {
			got, ok := m.Lookup(p)
			var want Allocation
			found := false
			for _, a := range m.Allocs {
				if a.Addr <= p && p < a.End() {
					want, found = a, true
				}
			}
			if ok != found || got != want {
				t.Fatalf("%d allocations: Lookup(%#x) = %v %v, want %v %v", n, p, got, ok, want, found)
			}
		}
	}
}

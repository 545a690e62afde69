package emu

import (
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/fast"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
)

// The carry, borrow and select loops against per-lane references, for
// every live-lane count, carry-in masks empty, full, sparse and random,
// operands that carry in no lane, some or all, and destinations that are
// an operand or both. (TestFastMatchesGeneric holds the instructions that
// use them to execVOP under random EXEC masks.)

// addLanesRef is a lane-by-lane add with the carries cm in.
func addLanesRef(d, a, b *[64]uint32, cm uint64, n int) uint64 {
	var co uint64
	for l := range n {
		s := uint64(a[l]) + uint64(b[l]) + cm>>uint(l)&1
		d[l] = uint32(s)
		co |= s >> 32 << uint(l)
	}
	return co
}

// subLanesRef is a lane-by-lane subtract with the borrows cm in.
func subLanesRef(d, a, b *[64]uint32, cm uint64, n int) uint64 {
	var co uint64
	for l := range n {
		s := uint64(a[l]) - uint64(b[l]) - cm>>uint(l)&1
		d[l] = uint32(s)
		co |= s >> 63 << uint(l)
	}
	return co
}

// cndLanesRef selects b's lane where m has its bit, else a's.
func cndLanesRef(d, a, b *[64]uint32, m uint64, n int) {
	for l := range n {
		if m>>uint(l)&1 != 0 {
			d[l] = b[l]
		} else {
			d[l] = a[l]
		}
	}
}

// int64Rows draws two operand rows: random, small (no carries), all ones
// against small (every lane carries), or equal (zero differences).
func int64Rows(r *rand.Rand) (a, b [64]uint32) {
	mode := r.IntN(4)
	for l := range 64 {
		switch mode {
		case 0:
			a[l], b[l] = r.Uint32(), r.Uint32()
		case 1:
			a[l], b[l] = r.Uint32N(1<<20), r.Uint32N(1<<20)
		case 2:
			a[l], b[l] = ^r.Uint32N(4), r.Uint32N(4)
		case 3:
			a[l] = r.Uint32()
			b[l] = a[l]
		}
	}
	return a, b
}

func int64Mask(r *rand.Rand) uint64 {
	switch r.IntN(5) {
	case 0:
		return 0
	case 1:
		return ^uint64(0)
	case 2:
		return r.Uint64() & r.Uint64() & r.Uint64()
	}
	return r.Uint64()
}

func TestCarryLoopsMatchLanes(t *testing.T) {
	type loop struct {
		name      string
		fast, ref func(d, a, b *[64]uint32, cm uint64, n int) uint64
	}
	loops := []loop{
		{"addLanes", fast.AddLanes, addLanesRef},
		{"subLanes", fast.SubLanes, subLanesRef},
		{"Select", func(d, a, b *[64]uint32, m uint64, n int) uint64 { simd.Select(d, a, b, m, n); return 0 },
			func(d, a, b *[64]uint32, m uint64, n int) uint64 { cndLanesRef(d, a, b, m, n); return 0 }},
	}
	r := rand.New(rand.NewPCG(97, 98))
	for trial := range 30000 {
		lp := loops[trial%len(loops)]
		a, b := int64Rows(r)
		cm := int64Mask(r)
		n := 1 + r.IntN(64)
		if r.IntN(4) == 0 {
			n = 16 // a 16-item work-group's wave
		}
		alias := r.IntN(4) // 0: D fresh, 1: D is a, 2: D is b, 3: D is a and b
		if alias == 3 {
			b = a
		}
		var want [64]uint32
		wc := lp.ref(&want, &a, &b, cm, n)
		var d [64]uint32
		ga, gb := a, b
		dp, ap, bp := aliasRows(alias, &d, &ga, &gb)
		gc := lp.fast(dp, ap, bp, cm, n)
		if mask := fast.LowLanes(n); gc&mask != wc&mask {
			t.Fatalf("trial %d: %s (alias %d, %d lanes, carries in %#x): carries %#x, want %#x",
				trial, lp.name, alias, n, cm, gc&mask, wc&mask)
		}
		for l := range n {
			if dp[l] != want[l] {
				t.Fatalf("trial %d: %s (alias %d, %d lanes, carries in %#x): lane %d = %#x, want %#x",
					trial, lp.name, alias, n, cm, l, dp[l], want[l])
			}
		}
	}
}

// aliasRows returns the destination and source rows of a kernel test's
// aliasing case: 0 D apart, 1 D is a, 2 D is b, 3 D, a and b one row.
func aliasRows(alias int, d, a, b *[64]uint32) (dp, ap, bp *[64]uint32) {
	switch alias {
	case 1:
		return a, a, b
	case 2:
		return b, a, b
	case 3:
		return a, a, a
	}
	return d, a, b
}

package emu

import (
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/fast"
)

// TestMadU64UniformMatchesLanes: madU64Uniform (with its carry-free loop
// when the addends' high dwords allow it) computes what madU64Lanes
// computes with the factor in every lane — sums and carry-outs — for
// every live-lane count, for addend high dwords at and just past the
// bound 2^32-1-S1 (all lanes at it, or one lane at or past it and the rest
// zero), below it and random, and for a destination that is also the
// addend.
func TestMadU64UniformMatchesLanes(t *testing.T) {
	r := rand.New(rand.NewPCG(91, 92))
	for trial := range 20000 {
		var a, clo, chi [64]uint32
		y := r.Uint32()
		if r.IntN(3) == 0 {
			y = uint32(r.IntN(2000))
		}
		bound := ^uint32(0) - y // the largest high dword no lane can carry with
		mode := r.IntN(4)
		for l := range 64 {
			a[l], clo[l] = r.Uint32(), r.Uint32()
			switch mode {
			case 0:
				chi[l] = r.Uint32()
			case 1:
				chi[l] = r.Uint32N(bound/2 + 1)
			case 2:
				chi[l] = bound
			}
		}
		if mode == 3 && bound < ^uint32(0) { // one lane at or just past the bound, the rest zero
			l := r.IntN(64)
			chi[l] = bound + uint32(r.IntN(2))
			if r.IntN(2) == 0 { // S0 and the low dword large: a carry past the bound
				a[l], clo[l] = ^uint32(0), ^uint32(0)
			}
		}
		if r.IntN(2) == 0 {
			a[r.IntN(64)] = ^uint32(0)
			clo[r.IntN(64)] = ^uint32(0)
		}
		n := 1 + r.IntN(64)
		var b [64]uint32
		fast.Fill(&b, y)
		var wlo, whi, glo, ghi [64]uint32
		wc := fast.MadU64Lanes(&wlo, &whi, &a, &b, &clo, &chi, n)
		inPlace := trial%2 == 1
		dlo, dhi := &glo, &ghi
		clo2, chi2 := clo, chi
		if inPlace { // D is the addend
			dlo, dhi = &clo2, &chi2
		}
		gc := fast.MadU64Uniform(dlo, dhi, &a, &clo2, &chi2, y, n)
		live := 4 * core.Nquads(n)
		mask := fast.LowLanes(n)
		if wc&mask != gc&mask {
			t.Fatalf("trial %d (S1 %#x, %d lanes): carries %#x, want %#x", trial, y, n, gc&mask, wc&mask)
		}
		for l := range live {
			if dlo[l] != wlo[l] || dhi[l] != whi[l] {
				t.Fatalf("trial %d (S1 %#x, %d lanes, in place %v): lane %d = %#x:%#x, want %#x:%#x",
					trial, y, n, inPlace, l, dhi[l], dlo[l], whi[l], wlo[l])
			}
		}
	}
}

// TestAddNoCarryMatchesCarry: addUniform0 (one pass when the operands'
// ORs bound the sums below 2^32, a second for the carries otherwise) and
// addLanes0 give the sums and carry-outs of a lane-by-lane add
// (addLanesRef), for operands on both sides of the bound (one lane at
// or just past it, the rest zero), small and random, every live-lane count
// and every way D can be an operand.
func TestAddNoCarryMatchesCarry(t *testing.T) {
	r := rand.New(rand.NewPCG(93, 94))
	for trial := range 20000 {
		var a, b [64]uint32
		x := r.Uint32()
		if r.IntN(2) == 0 {
			x = uint32(r.IntN(1 << 20))
		}
		mode := r.IntN(3)
		for l := range 64 {
			switch mode {
			case 0:
				a[l], b[l] = r.Uint32(), r.Uint32()
			case 1:
				a[l], b[l] = r.Uint32N(1<<24), r.Uint32N(1<<24)
			}
		}
		if mode == 2 { // one lane at or just past the bound, the rest zero
			l := r.IntN(64)
			a[l] = r.Uint32()
			b[l] = ^a[l] + uint32(r.IntN(2))
			x = ^b[l] + uint32(r.IntN(2))
		}
		n := 1 + r.IntN(64)
		live, mask := 4*core.Nquads(n), fast.LowLanes(n)
		alias := trial % 4 // 0: D fresh, 1: D is a, 2: D is b, 3: D is a and b
		if alias == 3 {
			b = a
		}
		ua := a
		for l := range ua {
			ua[l] = x
		}
		for _, uni := range []bool{false, true} {
			if uni && alias != 0 && alias != 2 {
				continue // addUniform0's D can only be b
			}
			wa := a
			if uni {
				wa = ua
			}
			var want [64]uint32
			wc := addLanesRef(&want, &wa, &b, 0, live)
			var d [64]uint32
			ga, gb := a, b
			dp, ap, bp := aliasRows(alias, &d, &ga, &gb)
			var gc uint64
			if uni {
				gc = fast.AddUniform0(dp, x, bp, n)
			} else {
				gc = fast.AddLanes0(dp, ap, bp, n)
			}
			if gc&mask != wc&mask {
				t.Fatalf("trial %d (uniform %v, alias %d, %d lanes): carries %#x, want %#x", trial, uni, alias, n, gc&mask, wc&mask)
			}
			for l := range live {
				if dp[l] != want[l] {
					t.Fatalf("trial %d (uniform %v, alias %d, %d lanes): lane %d = %#x, want %#x", trial, uni, alias, n, l, dp[l], want[l])
				}
			}
		}
	}
}

// TestShlConstLanes: shlConstLanes shifts lanes 0 to n-1 as a per-lane
// 64-bit shift does and leaves the destination's other lanes alone, for
// high dwords all zero, zero but one lane, or random, every shift and
// live-lane count, and destinations that are the source rows (in place,
// or one register up as v_lshlrev_b64 v[1:2], s, v[0:1] writes).
func TestShlConstLanes(t *testing.T) {
	r := rand.New(rand.NewPCG(95, 96))
	for trial := range 20000 {
		var rows [3][64]uint32 // v0, v1 (zero unless set), v2
		for l := range 64 {
			rows[0][l], rows[2][l] = r.Uint32(), r.Uint32()
			if trial%3 == 0 {
				rows[1][l] = r.Uint32()
			}
		}
		if trial%3 == 2 {
			rows[1][r.IntN(64)] = 1 << r.IntN(32)
		}
		s, n := uint(r.IntN(64)), 1+r.IntN(64)
		want := rows
		for l := range n {
			x := (uint64(rows[0][l]) | uint64(rows[1][l])<<32) << s
			want[0][l], want[1][l] = uint32(x), uint32(x>>32)
		}
		got := rows
		layout := trial / 3 % 3
		switch layout {
		case 0: // v[0:1] = v[0:1] << s
			fast.ShlConstLanes(&got[0], &got[1], &got[0], &got[1], s, n)
		case 1: // v[1:2] = v[0:1] << s
			want = rows
			for l := range n {
				x := (uint64(rows[0][l]) | uint64(rows[1][l])<<32) << s
				want[1][l], want[2][l] = uint32(x), uint32(x>>32)
			}
			fast.ShlConstLanes(&got[1], &got[2], &got[0], &got[1], s, n)
		case 2: // into scratch rows
			var dlo, dhi [64]uint32
			fast.ShlConstLanes(&dlo, &dhi, &got[0], &got[1], s, n)
			got[0], got[1] = dlo, dhi
			for l := n; l < 64; l++ {
				got[0][l], got[1][l] = rows[0][l], rows[1][l]
			}
		}
		if got != want {
			t.Fatalf("trial %d (layout %d, shift %d, %d lanes): rows differ from a per-lane shift", trial, layout, s, n)
		}
	}
}

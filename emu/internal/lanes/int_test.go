package lanes

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// rows is a test's registers: the sources and destinations of one call.
type rows [6][64]uint32

// intOp is one lane loop under test: run calls it on rows of r (so a
// destination may be a source), m its mask operand; dst names the rows it
// writes (-1 for none) and ref computes a lane's results and mask bit from
// the lane's sources and bit of m, with a from row 2's lane 0 in every
// lane when uniform.
type intOp struct {
	name    string
	run     run
	dst     [2]int
	ref     laneRef
	uniform bool
}

// laneRef is a lane-by-lane reference: a, b and the 64-bit value c (rows
// 2 to 5: an addend, a compare's second value or a shift's value), the
// lane's bit of the mask in.
type laneRef func(a, b uint32, c, m uint64) (lo, hi uint32, bit uint64)

func addRef(a, b uint32, c, m uint64) (uint32, uint32, uint64) {
	s := uint64(a) + uint64(b) + m
	return uint32(s), 0, s >> 32
}

func subRef(a, b uint32, c, m uint64) (uint32, uint32, uint64) {
	s := uint64(a) - uint64(b) - m
	return uint32(s), 0, s >> 63
}

func selectRef(a, b uint32, c, m uint64) (uint32, uint32, uint64) {
	if m != 0 {
		return b, 0, 0
	}
	return a, 0, 0
}

func madRef(a, b uint32, c, m uint64) (uint32, uint32, uint64) {
	s, co := bits.Add64(uint64(a)*uint64(b), c, 0)
	return uint32(s), uint32(s >> 32), co
}

func mulLoRef(a, b uint32, c, m uint64) (uint32, uint32, uint64) { return a * b, 0, 0 }

// add3Ref adds c's low dword.
func add3Ref(a, b uint32, c, m uint64) (uint32, uint32, uint64) { return a + b + uint32(c), 0, 0 }

func mulHiRef(a, b uint32, c, m uint64) (uint32, uint32, uint64) {
	return uint32(uint64(a) * uint64(b) >> 32), 0, 0
}

// compareRef makes the reference of a compare.
func compareRef(f func(a, b uint32) bool) laneRef {
	return func(a, b uint32, c, m uint64) (uint32, uint32, uint64) { return 0, 0, bit64(f(a, b)) }
}

// noCarryIn and noAddend make a reference for a loop without that operand.
func noCarryIn(f laneRef) laneRef {
	return func(a, b uint32, c, m uint64) (uint32, uint32, uint64) { return f(a, b, c, 0) }
}

func noAddend(f laneRef) laneRef {
	return func(a, b uint32, c, m uint64) (uint32, uint32, uint64) { return f(a, b, 0, m) }
}

// wideRef makes the reference of a 64-bit compare or shift from its
// function of the 64-bit values a (rows 2, 3) and b (rows 4, 5).
func wideRef(f func(a, b uint64) (uint64, uint64)) laneRef {
	return func(alo, ahi uint32, b, m uint64) (uint32, uint32, uint64) {
		v, bit := f(uint64(alo)|uint64(ahi)<<32, b)
		return uint32(v), uint32(v >> 32), bit
	}
}

// shiftRef makes the reference of a 64-bit shift of b (rows 4, 5) by a's
// low dword (row 2).
func shiftRef(f func(x uint64, s uint) uint64) laneRef {
	return wideRef(func(a, b uint64) (uint64, uint64) { return f(b, uint(a&63)), 0 })
}

var (
	less64Ref       = wideRef(func(a, b uint64) (uint64, uint64) { return 0, bit64(a < b) })
	lessSigned64Ref = wideRef(func(a, b uint64) (uint64, uint64) { return 0, bit64(int64(a) < int64(b)) })
	equal64Ref      = wideRef(func(a, b uint64) (uint64, uint64) { return 0, bit64(a == b) })
	shlRef          = shiftRef(func(x uint64, s uint) uint64 { return x << s })
	shrRef          = shiftRef(func(x uint64, s uint) uint64 { return x >> s })
	sarRef          = shiftRef(func(x uint64, s uint) uint64 { return uint64(int64(x) >> s) })
)

// The shapes of the loops, as runs on rows with the sources from row 2 on
// and the destination rows d (and e).
type run = func(r *rows, m uint64, n int) uint64

func carryOut(f func(d, a, b *[64]uint32, n int) uint64, d int) run {
	return func(r *rows, m uint64, n int) uint64 { return f(&r[d], &r[2], &r[3], n) }
}

func carryIn(f func(d, a, b *[64]uint32, m uint64, n int) uint64, d int) run {
	return func(r *rows, m uint64, n int) uint64 { return f(&r[d], &r[2], &r[3], m, n) }
}

func plain(f func(d, a, b *[64]uint32, n int), d int) run {
	return func(r *rows, m uint64, n int) uint64 { f(&r[d], &r[2], &r[3], n); return 0 }
}

func wide(f func(dlo, dhi, a, b *[64]uint32, n int), d, e int) run {
	return func(r *rows, m uint64, n int) uint64 { f(&r[d], &r[e], &r[2], &r[3], n); return 0 }
}

func compare(f func(a, b *[64]uint32, n int) uint64) run {
	return func(r *rows, m uint64, n int) uint64 { return f(&r[2], &r[3], n) }
}

func compare64(f func(alo, ahi, blo, bhi *[64]uint32, n int) uint64) run {
	return func(r *rows, m uint64, n int) uint64 { return f(&r[2], &r[3], &r[4], &r[5], n) }
}

// shift64 shifts rows 4 and 5 by row 2.
func shift64(f func(dlo, dhi, s, lo, hi *[64]uint32, n int), d, e int) run {
	return func(r *rows, m uint64, n int) uint64 { f(&r[d], &r[e], &r[2], &r[4], &r[5], n); return 0 }
}

// intOps are the loops under test with their destination in rows 0 and 1
// or, in the aliased forms, in a source's rows.
var intOps = []intOp{
	{"Add", carryOut(Add, 0), [2]int{0, -1}, noCarryIn(addRef), false},
	{"Add d=a", carryOut(Add, 2), [2]int{2, -1}, noCarryIn(addRef), false},
	{"AddCarry", carryIn(AddCarry, 0), [2]int{0, -1}, addRef, false},
	{"AddCarry d=b", carryIn(AddCarry, 3), [2]int{3, -1}, addRef, false},
	{"AddUniform", func(r *rows, m uint64, n int) uint64 { return AddUniform(&r[0], r[2][0], &r[3], n) },
		[2]int{0, -1}, noCarryIn(addRef), true},
	{"AddUniform d=b", func(r *rows, m uint64, n int) uint64 { return AddUniform(&r[3], r[2][0], &r[3], n) },
		[2]int{3, -1}, noCarryIn(addRef), true},
	{"Sub", carryOut(Sub, 0), [2]int{0, -1}, noCarryIn(subRef), false},
	{"Sub d=b", carryOut(Sub, 3), [2]int{3, -1}, noCarryIn(subRef), false},
	{"SubBorrow", carryIn(SubBorrow, 0), [2]int{0, -1}, subRef, false},
	{"SubBorrow d=a", carryIn(SubBorrow, 2), [2]int{2, -1}, subRef, false},
	{"Select", carryIn(func(d, a, b *[64]uint32, m uint64, n int) uint64 { Select(d, a, b, m, n); return 0 }, 0),
		[2]int{0, -1}, selectRef, false},
	{"Select d=a", carryIn(func(d, a, b *[64]uint32, m uint64, n int) uint64 { Select(d, a, b, m, n); return 0 }, 2),
		[2]int{2, -1}, selectRef, false},
	{"MulWide", wide(MulWide, 0, 1), [2]int{0, 1}, noAddend(madRef), false},
	{"MulWide d=a,b", wide(MulWide, 2, 3), [2]int{2, 3}, noAddend(madRef), false},
	{"MadWide", func(r *rows, m uint64, n int) uint64 { return MadWide(&r[0], &r[1], &r[2], &r[3], &r[4], &r[5], n) },
		[2]int{0, 1}, madRef, false},
	{"MadWide d=c", func(r *rows, m uint64, n int) uint64 { return MadWide(&r[4], &r[5], &r[2], &r[3], &r[4], &r[5], n) },
		[2]int{4, 5}, madRef, false},
	{"MulLo", plain(MulLo, 0), [2]int{0, -1}, mulLoRef, false},
	{"MulLo d=a", plain(MulLo, 2), [2]int{2, -1}, mulLoRef, false},
	{"Add3", func(r *rows, m uint64, n int) uint64 { Add3(&r[0], &r[2], &r[3], &r[4], n); return 0 }, [2]int{0, -1}, add3Ref, false},
	{"Add3 d=c", func(r *rows, m uint64, n int) uint64 { Add3(&r[4], &r[2], &r[3], &r[4], n); return 0 }, [2]int{4, -1}, add3Ref, false},
	{"MulHi", plain(MulHi, 0), [2]int{0, -1}, mulHiRef, false},
	{"MulHi d=b", plain(MulHi, 3), [2]int{3, -1}, mulHiRef, false},
	{"Less", compare(Less), [2]int{-1, -1}, compareRef(func(a, b uint32) bool { return a < b }), false},
	{"LessSigned", compare(LessSigned), [2]int{-1, -1}, compareRef(func(a, b uint32) bool { return int32(a) < int32(b) }), false},
	{"Equal", compare(Equal), [2]int{-1, -1}, compareRef(func(a, b uint32) bool { return a == b }), false},
	{"Less64", compare64(Less64), [2]int{-1, -1}, less64Ref, false},
	{"LessSigned64", compare64(LessSigned64), [2]int{-1, -1}, lessSigned64Ref, false},
	{"Equal64", compare64(Equal64), [2]int{-1, -1}, equal64Ref, false},
	{"ShiftLeft64", shift64(ShiftLeft64, 0, 1), [2]int{0, 1}, shlRef, false},
	{"ShiftLeft64 d=b", shift64(ShiftLeft64, 4, 5), [2]int{4, 5}, shlRef, false},
	{"ShiftRight64 d=b+1", shift64(ShiftRight64, 5, 0), [2]int{5, 0}, shrRef, false},
	{"ShiftRightSigned64", shift64(ShiftRightSigned64, 0, 1), [2]int{0, 1}, sarRef, false},
	{"ShiftRightSigned64 d=b", shift64(ShiftRightSigned64, 4, 5), [2]int{4, 5}, sarRef, false},
}

// edges are the values where carries, borrows, signs and products change.
var edges = []uint32{0, 1, 2, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff}

// randomRows fills r in one of several styles: random, edge values,
// small, equal pairs of rows (zero differences, equal compares), or a mix.
func randomRows(rnd *rand.Rand, r *rows) {
	style := rnd.IntN(5)
	for k := range r {
		for l := range r[k] {
			switch style {
			case 0:
				r[k][l] = rnd.Uint32()
			case 1:
				r[k][l] = edges[rnd.IntN(len(edges))]
			case 2:
				r[k][l] = rnd.Uint32N(4)
			default:
				switch rnd.IntN(3) {
				case 0:
					r[k][l] = edges[rnd.IntN(len(edges))]
				case 1:
					r[k][l] = rnd.Uint32() >> rnd.UintN(32)
				default:
					r[k][l] = rnd.Uint32()
				}
			}
		}
	}
	if style == 3 { // b is a, lane by lane or offset by one
		for l := range r[2] {
			r[3][l] = r[2][l] + uint32(rnd.IntN(3)) - 1
		}
	}
}

// randomMask draws a carry-in or select mask: empty, full, sparse, dense
// or random.
func randomMask(rnd *rand.Rand) uint64 {
	switch rnd.IntN(5) {
	case 0:
		return 0
	case 1:
		return ^uint64(0)
	case 2:
		return rnd.Uint64() & rnd.Uint64() & rnd.Uint64()
	case 3:
		return rnd.Uint64() | rnd.Uint64()
	}
	return rnd.Uint64()
}

// withSIMD runs f with SIMD set to on, restoring it after.
func withSIMD(on bool, f func()) {
	saved := SIMD
	SIMD = on
	defer func() { SIMD = saved }()
	f()
}

// TestIntMatchesGo holds each assembly loop to its Go definition: the same
// rows (every row: destinations, sources, and the lanes past the last
// quad, which neither may write) and the same mask, for every lane count
// 0 to 64, random and edge-valued registers and masks, and destinations
// that are sources.
func TestIntMatchesGo(t *testing.T) {
	if !SIMD {
		t.Logf("no AVX2 assembly (purego=%v): checking the Go versions against the references only", purego)
	}
	simd := SIMD
	rnd := rand.New(rand.NewPCG(5, 6))
	for trial := range 400 {
		var start rows
		randomRows(rnd, &start)
		m := randomMask(rnd)
		for _, op := range intOps {
			for n := range 65 {
				goRows, asmRows := start, start
				var want, got uint64
				withSIMD(false, func() { want = op.run(&goRows, m, n) })
				withSIMD(simd, func() { got = op.run(&asmRows, m, n) })
				where := fmt.Sprintf("trial %d: %s, %d lanes, mask %#x", trial, op.name, n, m)
				if got != want {
					t.Fatalf("%s: mask out %#x, Go %#x", where, got, want)
				}
				if asmRows != goRows {
					t.Fatalf("%s: rows differ from Go's:\n%s", where, rowDiff(&asmRows, &goRows))
				}
				checkUntouched(t, where, &start, &goRows, n)
				checkReference(t, where, op, &start, &goRows, m, want, n)
			}
		}
	}
}

// rowDiff lists the lanes where two sets of rows differ.
func rowDiff(got, want *rows) string {
	s := ""
	for k := range got {
		for l := range got[k] {
			if got[k][l] != want[k][l] {
				s += fmt.Sprintf("row %d lane %d: %#x, want %#x\n", k, l, got[k][l], want[k][l])
			}
		}
	}
	return s
}

// checkUntouched checks that no lane past the quads holding lanes 0 to
// n-1 changed.
func checkUntouched(t *testing.T, where string, start, after *rows, n int) {
	t.Helper()
	for k := range start {
		for l := 4 * nquads(n); l < 64; l++ {
			if after[k][l] != start[k][l] {
				t.Fatalf("%s: row %d lane %d written past the last quad", where, k, l)
			}
		}
	}
}

// checkReference checks the Go definition's lanes 0 to n-1 and mask
// against op's lane-by-lane reference on the starting rows, and that the
// mask has no bits past the last quad.
func checkReference(t *testing.T, where string, op intOp, start, after *rows, m, mask uint64, n int) {
	t.Helper()
	for l := range n {
		c := uint64(start[4][l]) | uint64(start[5][l])<<32
		a := start[2][l]
		if op.uniform {
			a = start[2][0]
		}
		lo, hi, bit := op.ref(a, start[3][l], c, m>>uint(l)&1)
		for k, want := range [2]uint32{lo, hi} {
			if r := op.dst[k]; r >= 0 && after[r][l] != want {
				t.Fatalf("%s: row %d lane %d = %#x, want %#x", where, r, l, after[r][l], want)
			}
		}
		if got := mask >> uint(l) & 1; got != bit {
			t.Fatalf("%s: lane %d's mask bit is %d, want %d", where, l, got, bit)
		}
	}
	if g := 4 * nquads(n); g < 64 && mask>>uint(g) != 0 {
		t.Fatalf("%s: mask %#x has bits past the last quad", where, mask)
	}
}

// bit64 is 1 for true.
func bit64(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

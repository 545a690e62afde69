package lanes

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// f16Flushes are the flush words the rows take: keep, flush denormals,
// and odd ones (a lane's bits outside the exponent field).
var f16Flushes = []uint32{0, 0x7fff, 0x8000, 0x03ff, 0xffffffff}

// f32ForF16 draws an f32 lane where narrowing can part: every exponent
// with an edge mantissa (zero, all ones, a rounding tie at the normal or
// any subnormal shift, or a neighbour of one, quiet and signalling NaN
// payloads) or a random one, either sign.
func f32ForF16(r *rand.Rand) uint32 {
	e := r.Uint32N(256)
	m := r.Uint32() & 0x7fffff
	switch r.IntN(4) {
	case 0:
		sh := r.UintN(24) + 1 // a tie below bit sh: the subnormal shifts, 13 the normal one
		m = m>>sh<<sh | 1<<(sh-1) + r.Uint32N(3) - 1
		m &= 0x7fffff
	case 1:
		m = []uint32{0, 1, 0x7fffff, 0x400000, 0x400001, 0x3fffff, 0x1000, 0x2000, 0x3000, 0x7fe000}[r.IntN(10)]
	}
	return r.Uint32N(2)<<31 | e<<23 | m
}

// TestF16RowsMatchGo holds the rows' F16C versions (when the CPU has
// them) to their Go definitions, and those to the bit-level conversions
// lane by lane: every lane count 0 to 64, each flush word, abs and neg
// masks and random ones, a destination apart from the source or the
// source itself, and no lane past the last quad written.
func TestF16RowsMatchGo(t *testing.T) {
	rnd := rand.New(rand.NewPCG(17, 18))
	for trial := range 300 {
		var start rows
		randomRows(rnd, &start)
		for l := range start[1] {
			start[1][l] = f32ForF16(rnd)
			if trial%2 == 0 {
				start[2][l] = rnd.Uint32()<<16 | uint32(F16FromF32Bits(start[1][l]))
			}
		}
		flush := f16Flushes[trial%len(f16Flushes)]
		clear, flip := uint32(trial&1)<<15, uint32(trial&2)<<14
		if trial%7 == 0 {
			clear, flip = rnd.Uint32(), rnd.Uint32()
		}
		for n := range 65 {
			for _, d := range []int{0, 1} {
				where := fmt.Sprintf("trial %d, %d lanes, d=row %d, flush %#x", trial, n, d, flush)
				goRows, asmRows := start, start
				f16FromF32Go(&goRows[d], &goRows[1], n, flush)
				F16FromF32(&asmRows[d], &asmRows[1], n, flush)
				checkF16Row(t, where+": F16FromF32", &start, &goRows, &asmRows, d, n, func(l int) uint32 {
					return flushF16(uint32(F16FromF32Bits(start[1][l])), flush)
				})
				d++ // rows 1 and 2: the source row 2
				where = fmt.Sprintf("%s, clear %#x, flip %#x", where, clear, flip)
				goRows, asmRows = start, start
				f32FromF16Go(&goRows[d], &goRows[2], n, clear, flip, flush)
				F32FromF16(&asmRows[d], &asmRows[2], n, clear, flip, flush)
				checkF16Row(t, where+": F32FromF16", &start, &goRows, &asmRows, d, n, func(l int) uint32 {
					h := uint16(start[2][l]&^clear ^ flip)
					if h&0x7c00 == 0 {
						h &^= uint16(flush)
					}
					return F32FromF16Bits(h)
				})
			}
		}
	}
}

// checkF16Row checks that a row's two versions left the same rows, wrote
// nothing past the last quad, and gave lanes 0 to n-1 of the destination
// row d want's values.
func checkF16Row(t *testing.T, where string, start, goRows, asmRows *rows, d, n int, want func(l int) uint32) {
	t.Helper()
	if *asmRows != *goRows {
		t.Fatalf("%s: rows differ from Go's:\n%s", where, rowDiff(asmRows, goRows))
	}
	checkUntouched(t, where, start, asmRows, n)
	for l := range n {
		if w := want(l); goRows[d][l] != w {
			t.Fatalf("%s: lane %d = %#x, want %#x", where, l, goRows[d][l], w)
		}
	}
}

// TestF16RowsExhaustive runs every f16 through F32FromF16 and, for every
// f32 exponent and sign, rounding ties at every shift (and their
// neighbours), NaN payloads and random mantissas through F16FromF32,
// against the bit-level conversions.
func TestF16RowsExhaustive(t *testing.T) {
	var a, d [64]uint32
	for h := 0; h < 1<<16; h += 64 {
		for l := range a {
			a[l] = uint32(h + l)
		}
		F32FromF16(&d, &a, 64, 0, 0, 0)
		for l := range a {
			if want := F32FromF16Bits(uint16(a[l])); d[l] != want {
				t.Fatalf("F32FromF16(%#x) = %#x, want %#x", a[l], d[l], want)
			}
		}
	}
	rnd := rand.New(rand.NewPCG(19, 20))
	var ms []uint32
	for sh := uint32(1); sh <= 23; sh++ {
		for _, k := range []uint32{0, 1, 2, 3, 0x7fffff} {
			tie := (k<<sh | 1<<(sh-1)) & 0x7fffff
			ms = append(ms, tie-1, tie, tie+1)
		}
	}
	for range 600 {
		ms = append(ms, rnd.Uint32()&0x7fffff)
	}
	for e := uint32(0); e < 256; e++ {
		for s := uint32(0); s < 2; s++ {
			for i := 0; i < len(ms); i += 64 {
				for l := range a {
					a[l] = s<<31 | e<<23 | ms[(i+l)%len(ms)]&0x7fffff
				}
				F16FromF32(&d, &a, 64, 0)
				for l := range a {
					if want := uint32(F16FromF32Bits(a[l])); d[l] != want {
						t.Fatalf("F16FromF32(%#x) = %#x, want %#x", a[l], d[l], want)
					}
				}
			}
		}
	}
}

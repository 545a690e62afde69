package lanes

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// widenMove is one of widen.go's moves: size bytes a lane, a load (memory
// to row) or a store, and flag its signed or hi argument.
type widenMove struct {
	name string
	size int
	load bool
	run  func(row []uint32, mem []byte, flag bool)
}

var widenMoves = []widenMove{
	{"WidenBytes", 1, true, func(r []uint32, m []byte, f bool) { WidenBytes(r, m, f) }},
	{"WidenShorts", 2, true, func(r []uint32, m []byte, f bool) { WidenShorts(r, m, f) }},
	{"NarrowBytes", 1, false, func(r []uint32, m []byte, f bool) { NarrowBytes(m, r, f) }},
	{"NarrowShorts", 2, false, func(r []uint32, m []byte, f bool) { NarrowShorts(m, r, f) }},
}

// widenLane is the lane-by-lane reference: the register word a load of
// the element e gives, or the element a store of the word x writes.
func widenLane(size int, load, flag bool, e []byte, x uint32) (uint32, []byte) {
	switch {
	case load && size == 1 && flag:
		return uint32(int32(int8(e[0]))), nil
	case load && size == 1:
		return uint32(e[0]), nil
	case load && flag:
		return uint32(int32(int16(uint16(e[0]) | uint16(e[1])<<8))), nil
	case load:
		return uint32(e[0]) | uint32(e[1])<<8, nil
	}
	if flag {
		x >>= 16
	}
	return 0, []byte{byte(x), byte(x >> 8)}[:size]
}

// TestWidenMatchesGo holds each narrow move's assembly to its Go
// definition and the Go definition to the lane-by-lane reference, for
// every lane count 0 to 72, both flags, random and sign-edge data, and
// elements at the start, the end or anywhere in a page with no access on
// either side (so a read or write past the elements faults): loads write
// exactly the row's first n words, stores exactly the elements' bytes.
func TestWidenMatchesGo(t *testing.T) {
	simd := SIMD
	rnd := rand.New(rand.NewPCG(41, 42))
	page := guardedPage(t)
	edges := []uint32{0, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7f80, 0x807f, 0xffffffff, 0x80008000}
	for trial := range 60 {
		var row [80]uint32
		for l := range row {
			row[l] = rnd.Uint32()
			if trial%2 == 1 {
				row[l] = edges[rnd.IntN(len(edges))]
			}
		}
		start := make([]byte, len(page))
		for i := range start {
			start[i] = byte(rnd.Uint32())
			if trial%2 == 1 && rnd.IntN(2) == 0 {
				start[i] = []byte{0, 0x7f, 0x80, 0xff}[rnd.IntN(4)]
			}
		}
		for _, mv := range widenMoves {
			for n := range 73 {
				for _, flag := range []bool{false, true} {
					span := mv.size * n
					for _, off := range []int{0, len(page) - span, rnd.IntN(len(page) - span + 1)} {
						where := fmt.Sprintf("%s trial %d: %d lanes at %d, flag %v", mv.name, trial, n, off, flag)
						elems := page[off : off+span : off+span]
						var rows [2][80]uint32
						var mems [2][]byte
						for k, on := range []bool{false, simd} {
							copy(page, start)
							rows[k] = row
							withSIMD(on, func() { mv.run(rows[k][:n:n], elems, flag) })
							mems[k] = slices.Clone(page)
						}
						if rows[0] != rows[1] || !bytes.Equal(mems[0], mems[1]) {
							t.Fatalf("%s: assembly differs from Go:\nrow %x\nwant %x\nmem %x\nwant %x",
								where, rows[1][:n], rows[0][:n], mems[1][off:off+span], mems[0][off:off+span])
						}
						checkWiden(t, where, mv, flag, &row, &rows[0], start, mems[0], off, n)
					}
				}
			}
		}
	}
}

// checkWiden holds the Go definition's result to the reference: row and
// after are the row before and after the move, start and mem the page,
// the elements n at off.
func checkWiden(t *testing.T, where string, mv widenMove, flag bool, row, after *[80]uint32, start, mem []byte, off, n int) {
	t.Helper()
	want, wantMem := *row, slices.Clone(start)
	for l := range n {
		e := start[off+mv.size*l:][:mv.size]
		x, b := widenLane(mv.size, mv.load, flag, e, row[l])
		if mv.load {
			want[l] = x
		} else {
			copy(wantMem[off+mv.size*l:], b)
		}
	}
	if *after != want {
		t.Fatalf("%s: row %x, want %x", where, after[:], want[:])
	}
	if !bytes.Equal(mem, wantMem) {
		i := 0
		for mem[i] == wantMem[i] {
			i++
		}
		t.Fatalf("%s: page byte %d = %#x, want %#x", where, i, mem[i], wantMem[i])
	}
}

// TestMoveRowMatchesGo holds MoveRow's assembly to its Go definition: the
// whole row copied, the words on either side untouched, and a row moved
// onto itself unchanged.
func TestMoveRowMatchesGo(t *testing.T) {
	rnd := rand.New(rand.NewPCG(43, 44))
	for trial := range 20 {
		var src, a, b [66]uint32
		for l := range src {
			src[l], a[l] = rnd.Uint32(), rnd.Uint32()
		}
		b = a
		MoveRow((*[64]uint32)(a[1:65]), (*[64]uint32)(src[1:65]))
		moveRowGo((*[64]uint32)(b[1:65]), (*[64]uint32)(src[1:65]))
		if a != b || a[1] != src[1] || a[64] != src[64] {
			t.Fatalf("trial %d: MoveRow gave\n%x\nGo definition\n%x", trial, a, b)
		}
		c := src
		MoveRow((*[64]uint32)(c[1:65]), (*[64]uint32)(c[1:65]))
		if c != src {
			t.Fatalf("trial %d: MoveRow onto itself changed the row", trial)
		}
	}
}

package emu

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/wavedbg/wavedbg/isa"
)

// TestWaitOneMatchesLoop: with one operation in flight, s_waitcnt's
// waitOne leaves what the general waitLoop leaves — the clock, the SGPRs
// a scalar load writes, a vector completion, the pending marks, the list
// and Machine.due — for random operations (due before, at and after the
// clock) and limits.
func TestWaitOneMatchesLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(81, 82))
	cnts := []isa.Counters{isa.CntVM, isa.CntLGKM, isa.CntEXP}
	completed, left := 0, 0
	for trial := 0; trial < 3000; trial++ {
		now := uint64(r.IntN(60))
		cnt, inc := cnts[r.IntN(3)], uint8(1+r.IntN(3))
		done := uint64(r.IntN(120))
		vec := cnt == isa.CntVM && r.IntN(2) == 0
		var dst, n uint8
		if !vec {
			dst, n = uint8(r.IntN(100)), uint8(1+r.IntN(16))
		}
		var data [16]uint32
		for k := range data {
			data[k] = r.Uint32()
		}
		vm, exp, lgkm := r.IntN(4), r.IntN(3), r.IntN(4)
		var ws [2]*Wave
		var recs [2]*completions
		for k := range ws {
			m := NewMachine(hexProgram(t, isa.GFX9, hexEndpgm), nil, DefaultConfig(isa.GFX9))
			recs[k] = &completions{}
			m.VectorMemory = recs[k]
			w := m.w
			w.setClock(now)
			p := w.pushOp(cnt, inc, done)
			p.vec, p.dst, p.n, p.data = vec, uint16(dst), n, data
			w.issued(p)
			if k == 0 {
				w.waitOne(vm, exp, lgkm)
			} else {
				w.waitLoop(vm, exp, lgkm)
			}
			ws[k] = w
		}
		a, b := ws[0], ws[1]
		if a.s != b.s || a.pendS != b.pendS || a.npend != b.npend || a.m.due != b.m.due ||
			!reflect.DeepEqual(a.pend, b.pend) || !reflect.DeepEqual(recs[0].ids, recs[1].ids) {
			t.Fatalf("trial %d (clock %d; op cnt %d inc %d done %d; wait vm %d exp %d lgkm %d): waitOne clock %d due %d, %d left; waitLoop clock %d due %d, %d left",
				trial, now, cnt, inc, done, vm, exp, lgkm, a.clock(), a.m.due, len(a.pend), b.clock(), b.m.due, len(b.pend))
		}
		if len(a.pend) == 0 {
			completed++
		} else {
			left++
		}
	}
	if completed < 100 || left < 100 {
		t.Errorf("%d waits completed the operation and %d left it: too few of one kind", completed, left)
	}
}

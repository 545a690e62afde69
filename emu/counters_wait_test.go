package emu

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// TestWaitFastMatchesLoop: waitFast and waitOne (one operation in flight)
// leave what waitLoop leaves — the clock, the SGPRs the completed scalar
// loads write (several writing the same registers, so the order counts),
// the vector completions in order, the pending marks, the list left in
// flight and Machine.due — on random in-flight lists and waits, with due
// cycles before, at and after the clock, scalar loads writing disjoint
// or overlapping registers (some past code 127, some none) and a few
// vector LGKM operations.
func TestWaitFastMatchesLoop(t *testing.T) {
	drained, scalars := 0, 0 // waits waitDrain and waitScalars decided
	for _, c := range []struct {
		name    string
		wait    func(w *Wave, vm, exp, lgkm int)
		ops     func(r *rand.Rand) int // how many operations are in flight
		scalars bool                   // only scalar LGKM operations
	}{
		{"waitFast", (*Wave).WaitFast, func(r *rand.Rand) int { return r.IntN(core.MaxWaitOps + 1) }, false},
		{"waitSorted", (*Wave).WaitSorted, func(r *rand.Rand) int { return r.IntN(core.MaxWaitOps + 1) }, false},
		{"waitDrain", func(w *Wave, vm, exp, lgkm int) {
			if w.WaitDrain(vm, exp, lgkm) {
				drained++
			} else {
				w.WaitSorted(vm, exp, lgkm)
			}
		}, func(r *rand.Rand) int { return r.IntN(core.MaxWaitOps + 1) }, false},
		{"waitOne", (*Wave).WaitOne, func(*rand.Rand) int { return 1 }, false},
		{"waitScalars", func(w *Wave, vm, exp, lgkm int) {
			if lgkm == 0 && w.WaitScalars() {
				scalars++
			} else {
				w.WaitSorted(vm, exp, lgkm)
			}
		}, func(r *rand.Rand) int { return r.IntN(core.MaxWaitOps + 1) }, true},
		{"waitFast/scalars", (*Wave).WaitFast, func(r *rand.Rand) int { return r.IntN(core.MaxWaitOps + 1) }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkWaitMatchesLoop(t, c.wait, c.ops, c.scalars)
		})
	}
	if drained < 500 {
		t.Errorf("waitDrain decided %d waits: too few", drained)
	}
	if scalars < 300 {
		t.Errorf("waitScalars decided %d waits: too few", scalars)
	}
}

// checkWaitMatchesLoop holds wait to waitLoop on random in-flight lists of
// nops operations (only scalar LGKM ones when scalars is set).
func checkWaitMatchesLoop(t *testing.T, wait func(w *Wave, vm, exp, lgkm int), nops func(r *rand.Rand) int, scalars bool) {
	r := rand.New(rand.NewPCG(71, 72))
	cnts := []isa.Counters{isa.CntVM, isa.CntLGKM, isa.CntEXP}
	completed, left := 0, 0
	for trial := 0; trial < 3000; trial++ {
		now := uint64(r.IntN(100))
		type opSpec struct {
			cnt       isa.Counters
			inc       uint8
			done      uint64
			vec       bool
			dst, n    uint8
			data      [16]uint32
			clockStep uint64
		}
		specs := make([]opSpec, nops(r))
		disjoint := trial%2 == 0 // else overlapping destinations
		for i := range specs {
			o := &specs[i]
			o.cnt, o.inc = cnts[r.IntN(3)], uint8(1+r.IntN(3))
			o.done = uint64(r.IntN(40)) * uint64(1+r.IntN(8)) // repeated cycles: ties
			o.vec = o.cnt == isa.CntVM && r.IntN(2) == 0 || o.cnt == isa.CntLGKM && r.IntN(16) == 0
			if scalars {
				o.cnt, o.vec = isa.CntLGKM, false
			}
			switch {
			case o.vec:
			case r.IntN(32) == 0: // past code 127 (SCC, PC)
				o.dst, o.n = 126, uint8(1+r.IntN(4))
			case disjoint:
				o.dst, o.n = uint8(8*i), uint8(r.IntN(9))
			default:
				o.dst, o.n = uint8(r.IntN(8)), uint8(1+r.IntN(4))
			}
			for k := range o.data {
				o.data[k] = r.Uint32()
			}
			o.clockStep = uint64(r.IntN(3))
		}
		vm, exp, lgkm := r.IntN(4), r.IntN(3), r.IntN(4)
		if r.IntN(3) == 0 {
			vm, exp, lgkm = 0, 0, 0
		}
		var ws [2]*Wave
		var recs [2]*completions
		for k := range ws {
			m := NewMachine(hexProgram(t, isa.GFX9, hexEndpgm), nil, core.DefaultConfig(isa.GFX9))
			recs[k] = &completions{}
			m.VectorMemory = recs[k]
			w := m.w
			w.SetClock(now)
			for _, o := range specs {
				p := w.PushOp(o.cnt, o.inc, o.done)
				p.Vec, p.Dst, p.N, p.Data = o.vec, uint16(o.dst), o.n, o.data
				w.Issued(p)
				w.SetClock(w.Clock() + o.clockStep)
			}
			switch {
			case len(w.Pend) == 0: // waitcnt returns at once
			case k == 0:
				wait(w, vm, exp, lgkm)
			default:
				w.WaitLoop(vm, exp, lgkm)
			}
			ws[k] = w
		}
		a, b := ws[0], ws[1]
		if a.S != b.S || a.PendS != b.PendS || a.Npend != b.Npend || a.M.Due != b.M.Due ||
			!reflect.DeepEqual(a.Pend, b.Pend) || !reflect.DeepEqual(recs[0].ids, recs[1].ids) {
			t.Fatalf("trial %d (wait vm %d exp %d lgkm %d, %d ops): fast clock %d due %d, %d left, completed %v; waitLoop clock %d due %d, %d left, completed %v",
				trial, vm, exp, lgkm, len(specs), a.Clock(), a.M.Due, len(a.Pend), recs[0].ids, b.Clock(), b.M.Due, len(b.Pend), recs[1].ids)
		}
		if len(specs) > 0 && len(a.Pend) < len(specs) {
			completed++
		} else if len(specs) > 0 {
			left++
		}
	}
	if completed < 30 || left < 30 {
		t.Errorf("%d waits completed an operation and %d completed none: too few of one kind", completed, left)
	}
}

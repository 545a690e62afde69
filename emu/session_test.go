package emu

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// exchange: each wave writes its in elements to its LDS slot, meets the
// others at a barrier, reads the next wave's slot and stores it to out.
var exchange = append(append([]string(nil), groupPrologue...),
	"global_load_dword v8, v[2:3], off",
	"s_waitcnt vmcnt(0)",
	"ds_write_b32 v6, v8",
	"s_waitcnt lgkmcnt(0)",
	"s_barrier",
	"ds_read_b32 v9, v7",
	"s_waitcnt lgkmcnt(0)",
	"s_barrier",
	"global_store_dword v[4:5], v9, off",
	"s_endpgm",
)

// exchanged returns what exchange stores at out[i] with waves waves.
func exchanged(waves, i int) uint32 {
	src := (i/64+1)%4*64 + i%64
	if src/64 >= waves {
		return 0
	}
	return uint32(src*3 + 1)
}

// checkOut compares the out buffer's elements of wave w with exchange's.
func checkOut(t *testing.T, s *Session, waves, w int) {
	t.Helper()
	var out [4]byte
	base := readU64(t, s, s.Dispatch.KernargAddr+8)
	for l := range 64 {
		i := w*64 + l
		s.Memory.ReadRaw(base+uint64(4*i), out[:])
		if got, want := binary.LittleEndian.Uint32(out[:]), exchanged(waves, i); got != want {
			t.Fatalf("out[%d] = %d, want %d", i, got, want)
		}
	}
}

func readU64(t *testing.T, s *Session, addr uint64) uint64 {
	var b [8]byte
	if err := s.Memory.Read(addr, b[:]); err != nil {
		t.Fatal(err)
	}
	return binary.LittleEndian.Uint64(b[:])
}

// TestSessionBarrierBringsSiblings: the others stay where they are until
// the selected wave steps onto a barrier; passing it brings each of them
// there (arrived, not passed); the values exchanged through LDS are the
// ones a barrier guarantees, whichever wave is selected.
func TestSessionBarrierBringsSiblings(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ waves, sel int }{{2, 0}, {2, 1}, {4, 0}, {4, 3}} {
		s := openGroup(t, tc.waves, exchange...)
		if tc.sel != 0 { // wave 0 is selected on opening
			if err := s.Select(tc.sel); err != nil {
				t.Fatal(err)
			}
		}
		for n := 0; !s.AtBarrier(tc.sel); n++ {
			if _, st := s.Step(ctx, 1); st.Reason != StopBudget || n > 100 {
				t.Fatalf("%+v: step %d: %+v", tc, n, st)
			}
		}
		for o := range tc.waves {
			if o != tc.sel && s.Wave(o).Steps() != 0 {
				t.Fatalf("%+v: wave %d ran %d steps before the barrier was needed", tc, o, s.Wave(o).Steps())
			}
		}
		if _, st := s.Step(ctx, 1); st.Reason != StopBudget {
			t.Fatalf("%+v: step over the barrier: %+v", tc, st)
		}
		for o := range tc.waves {
			if o != tc.sel && (!s.AtBarrier(o) || s.Barriers(o) != 0) {
				t.Fatalf("%+v: wave %d at pc %#x with %d barriers passed, want waiting at the first", tc, o, s.Wave(o).PC(), s.Barriers(o))
			}
		}
		if s.Barriers(tc.sel) != 1 {
			t.Fatalf("%+v: the selected wave passed %d barriers", tc, s.Barriers(tc.sel))
		}
		for k := range tc.waves {
			w := (tc.sel + k) % tc.waves
			s.Select(w)
			if st := s.Continue(ctx, 0); st.Reason != StopEnded || st.Err != nil {
				t.Fatalf("%+v: continue wave %d: %+v", tc, w, st)
			}
			checkOut(t, s, tc.waves, w)
		}
	}
}

// TestSessionNoWavePassesEarly: whatever the moves (steps, continues,
// steps of every wave, from any selected wave), no wave passes a barrier
// before every other live wave has reached it: no wave is ahead of
// another by more than one barrier, and one ahead by one has the other
// waiting at the barrier (or ended).
func TestSessionNoWavePassesEarly(t *testing.T) {
	ctx := context.Background()
	loop := append(append([]string(nil), groupPrologue...),
		"s_mov_b32 s10, 0",
		"ds_write_b32 v6, v0",
		"s_waitcnt lgkmcnt(0)",
		"s_barrier",
		"ds_read_b32 v9, v7",
		"s_add_u32 s10, s10, 1",
		"s_cmp_lg_u32 s10, 20",
		"s_cbranch_scc1 -9",
		"s_endpgm",
	)
	for seed := range uint64(8) {
		r := rand.New(rand.NewPCG(seed, 18))
		waves := 2 + r.IntN(3)
		s := openGroup(t, waves, loop...)
		for move := 0; move < 40; move++ {
			s.Select(r.IntN(waves))
			var st Stop
			switch r.IntN(3) {
			case 0:
				_, st = s.Step(ctx, 1+int64(r.IntN(12)))
			case 1:
				st = s.Continue(ctx, 1+int64(r.IntN(60)))
			default:
				st = s.StepAll(ctx)
			}
			if st.Err != nil {
				t.Fatalf("seed %d move %d: %+v", seed, move, st)
			}
			for a := range waves {
				for o := range waves {
					ba, bo := s.Barriers(a), s.Barriers(o)
					if ba > bo+1 || ba == bo+1 && s.live(o) && !s.AtBarrier(o) {
						t.Fatalf("seed %d move %d: wave %d passed %d barriers, wave %d %d (at pc %#x)", seed, move, a, ba, o, bo, s.Wave(o).PC())
					}
				}
			}
		}
	}
}

// TestSessionEndedSiblingCountsAsArrived: a wave that ends without
// reaching the barrier does not hold the others back.
func TestSessionEndedSiblingCountsAsArrived(t *testing.T) {
	ctx := context.Background()
	s := openGroup(t, 2,
		"v_readfirstlane_b32 s12, v0",
		"s_cmp_ge_u32 s12, 64",
		"s_cbranch_scc1 2",
		"s_barrier",
		"s_add_u32 s13, s13, 1",
		"s_endpgm",
	)
	if st := s.Continue(ctx, 0); st.Reason != StopEnded || st.Err != nil {
		t.Fatalf("continue: %+v", st)
	}
	if s.Wave(1).State() != core.Ended {
		t.Fatalf("wave 1: %v, want ended", s.Wave(1).State())
	}
	if got := s.Wave(0).w.S[13]; got != 1 {
		t.Fatalf("wave 0 s13 = %d, want 1 (it passed the barrier)", got)
	}
}

// TestSessionContinueBudgetCoversGathering: a continue's budget counts
// the other waves' instructions on their way to the barrier too, and the
// next continue goes on with them from there (a front end's chunked
// continue stays responsive however far the others are).
func TestSessionContinueBudgetCoversGathering(t *testing.T) {
	ctx := context.Background()
	s := openGroup(t, 2,
		"v_readfirstlane_b32 s12, v0",
		"s_cmp_ge_u32 s12, 64",
		"s_cbranch_scc0 3",
		"s_add_u32 s10, s10, 1",
		"s_cmp_lg_u32 s10, 0x1388",
		"s_cbranch_scc1 -4",
		"s_barrier",
		"s_endpgm",
	)
	chunks := 0
	for ; chunks < 100; chunks++ {
		st := s.Continue(ctx, 1000)
		if st.Err != nil || st.Steps > 1000 {
			t.Fatalf("chunk %d: %+v", chunks, st)
		}
		if st.Reason == StopEnded {
			break
		}
		if st.Reason != StopBudget || st.Steps != 1000 {
			t.Fatalf("chunk %d: %+v, want 1000 instructions", chunks, st)
		}
	}
	if chunks < 10 || s.Wave(1).w.S[10] != 5000 || s.Barriers(0) != 1 {
		t.Fatalf("after %d chunks: wave 1 counted to %d, wave 0 passed %d barriers", chunks, s.Wave(1).w.S[10], s.Barriers(0))
	}
}

// TestSessionAnyWaveBreakpoint: a breakpoint applies to the selected
// wave, unless it is set for any wave: then a wave the session runs to a
// barrier stops there too, and the next continue goes on from it.
func TestSessionAnyWaveBreakpoint(t *testing.T) {
	ctx := context.Background()
	for _, anyWave := range []bool{false, true} {
		s := openGroup(t, 2, exchange...)
		write := s.Prog.Addrs[len(groupPrologue)+2] // ds_write_b32, before the barrier
		b, _ := s.Break(Breakpoint{PC: write, AnyWave: anyWave})
		if st := s.Continue(ctx, 0); st.Reason != StopBreakpoint || st.Wave != 0 {
			t.Fatalf("any wave %v: first continue: %+v", anyWave, st)
		}
		st := s.Continue(ctx, 0)
		if !anyWave {
			if st.Reason != StopEnded || s.Wave(1).PC() == write {
				t.Fatalf("any wave %v: the other wave stopped: %+v", anyWave, st)
			}
			continue
		}
		if st.Reason != StopBreakpoint || st.Wave != 1 || st.Breakpoint != b.ID || s.Wave(1).PC() != write || b.Hits != 2 {
			t.Fatalf("any wave %v: second continue: %+v, wave 1 at 0x%x, %d hits", anyWave, st, s.Wave(1).PC(), b.Hits)
		}
		if st := s.Continue(ctx, 0); st.Reason != StopEnded || s.Barriers(1) != 1 {
			t.Fatalf("any wave %v: third continue: %+v", anyWave, st)
		}
	}
}

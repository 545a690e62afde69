package emu

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// counter counts s10 to 5,000; s11 becomes 7 at 3,000 and 9 at 4,000.
// Iteration j's instructions are at positions 2+7(j-1) to 8+7(j-1).
var counter = []string{
	"s_mov_b32 s10, 0",
	"s_mov_b32 s11, 0",
	"s_add_u32 s10, s10, 1",
	"s_cmp_eq_u32 s10, 0xbb8",
	"s_cselect_b32 s11, 7, s11",
	"s_cmp_eq_u32 s10, 0xfa0",
	"s_cselect_b32 s11, 9, s11",
	"s_cmp_lg_u32 s10, 0x1388",
	"s_cbranch_scc1 -10",
	"s_endpgm",
}

func le(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

// TestSessionConditionalBreakpoints: a condition is evaluated at every
// hit and the run goes on while it does not hold, forwards and in
// reverse; a temporary breakpoint goes when hit, a disabled one does not
// stop, a failing condition stops with an error naming the breakpoint.
func TestSessionConditionalBreakpoints(t *testing.T) {
	ctx := context.Background()
	for _, waves := range []int{1, 2} {
		s := openGroup(t, waves, counter...)
		head := s.Prog.Addrs[2]
		b, err := s.Break(Breakpoint{PC: head, Cond: sgprIs(10, 1234)})
		if err != nil {
			t.Fatal(err)
		}
		st := s.Continue(ctx, 0)
		if st.Reason != StopBreakpoint || st.Breakpoint != b.ID || s.Wave(0).w.S[10] != 1234 || st.PC != head || b.Hits != 1 {
			t.Fatalf("%d waves: continue: %+v, s10 = %d, hits %d", waves, st, s.Wave(0).w.S[10], b.Hits)
		}
		tmp, _ := s.Break(Breakpoint{PC: head, Cond: sgprIs(10, 2000), Temp: true})
		if st := s.Continue(ctx, 0); st.Breakpoint != tmp.ID || s.Wave(0).w.S[10] != 2000 {
			t.Fatalf("%d waves: temporary: %+v, s10 = %d", waves, st, s.Wave(0).w.S[10])
		}
		if len(s.Breakpoints()) != 1 {
			t.Fatalf("%d waves: the temporary breakpoint is still set", waves)
		}
		if st := s.ReverseContinue(ctx); st.Reason != StopBreakpoint || s.Wave(0).w.S[10] != 1234 || s.Wave(0).PC() != head {
			t.Fatalf("%d waves: reverse-continue: %+v, s10 = %d", waves, st, s.Wave(0).w.S[10])
		}
		fail, _ := s.Break(Breakpoint{PC: s.Prog.Addrs[5], Cond: condFunc{"broken", func(*Machine) (bool, error) {
			return false, errors.New("no such register")
		}}})
		if st := s.Continue(ctx, 0); st.Breakpoint != fail.ID || st.Err == nil || !strings.Contains(st.Err.Error(), "breakpoint 3") {
			t.Fatalf("%d waves: failing condition: %+v", waves, st)
		}
		s.Enable(fail.ID, false)
		s.Enable(b.ID, false)
		if st := s.Continue(ctx, 0); st.Reason != StopEnded {
			t.Fatalf("%d waves: disabled: %+v", waves, st)
		}
	}
}

// TestSessionWatchpointStopsAtExactInstruction: a watched register stops
// a continue right after the instruction that changed it (found inside a
// chunk of the fast engine's run), with the values before and after;
// reverse-continue goes back to just before each change (the last one
// first, as gdb), then to the start.
func TestSessionWatchpointStopsAtExactInstruction(t *testing.T) {
	ctx := context.Background()
	s := openGroup(t, 1, counter...)
	w, err := s.Watch(Watchpoint{Kind: WatchScalar, Reg: 11})
	if err != nil {
		t.Fatal(err)
	}
	at := func(j int) uint64 { return uint64(2 + 7*(j-1) + 3) } // after iteration j's first s_cselect
	steps := []struct {
		pos      uint64
		old, new uint32
	}{{at(3000), 0, 7}, {at(4000) + 2, 7, 9}}
	for _, want := range steps {
		st := s.Continue(ctx, 0)
		if st.Reason != StopWatchpoint || st.Watchpoint != w.ID || s.Position() != want.pos ||
			!bytes.Equal(st.Old, le(want.old)) || !bytes.Equal(st.New, le(want.new)) {
			t.Fatalf("continue: %+v at %d, want a watch stop at %d (%d → %d)", st, s.Position(), want.pos, want.old, want.new)
		}
	}
	for k := len(steps) - 1; k >= 0; k-- {
		want := steps[k]
		st := s.ReverseContinue(ctx)
		if st.Reason != StopWatchpoint || s.Position() != want.pos-1 || !bytes.Equal(st.Old, le(want.old)) || !bytes.Equal(st.New, le(want.new)) {
			t.Fatalf("reverse-continue: %+v at %d, want before the change at %d (%d → %d)", st, s.Position(), want.pos-1, want.old, want.new)
		}
	}
	if st := s.ReverseContinue(ctx); st.Reason != StopStart || s.Position() != 0 {
		t.Fatalf("reverse-continue: %+v at %d, want the start", st, s.Position())
	}
	if st := s.Continue(ctx, 0); st.Reason != StopWatchpoint || s.Position() != steps[0].pos {
		t.Fatalf("continue again: %+v at %d", st, s.Position())
	}
}

// TestSessionWatchOtherWaves: watchpoints on another wave's register and
// lane and on memory stop at the instruction of whichever wave changed
// the value, while that wave runs to a barrier for the selected one; the
// position is exact (a fresh Step-by-Step run of the same schedule has
// the old value just before it and the new one there).
func TestSessionWatchOtherWaves(t *testing.T) {
	ctx := context.Background()
	loop := append(append([]string(nil), groupPrologue...),
		"s_mov_b32 s10, 0",
		"s_add_u32 s10, s10, 1",
		"s_barrier",
		"v_add_u32_e32 v8, 1, v8",
		"ds_write_b32 v6, v8",
		"s_cmp_lg_u32 s10, 0x7d0",
		"s_cbranch_scc1 -8",
		"s_endpgm",
	)
	mk := func() *Session { return openGroup(t, 2, loop...) }
	for _, tc := range []struct {
		name string
		w    Watchpoint
		wave int
	}{
		{"other wave's SGPR", Watchpoint{Kind: WatchScalar, Wave: 1, Reg: 10}, 1},
		{"other wave's lane", Watchpoint{Kind: WatchVGPR, Wave: 1, Reg: 8, Lane: 3}, 1},
		{"LDS the other wave writes", Watchpoint{Kind: WatchMemory, Addr: core.SharedApertureBase + 256 + 12, Size: 4}, 1},
		{"selected wave's SGPR", Watchpoint{Kind: WatchScalar, Wave: 0, Reg: 10}, 0},
	} {
		s := mk()
		// one round of the loop first, so that the change comes late in
		// a chunk of the fast engine's run
		if _, err := s.Break(Breakpoint{PC: s.Prog.Addrs[len(groupPrologue)+3], Temp: true}); err != nil {
			t.Fatal(err)
		}
		s.Continue(ctx, 0)
		wp, err := s.Watch(tc.w)
		if err != nil {
			t.Fatal(err)
		}
		st := s.Continue(ctx, 0)
		if st.Reason != StopWatchpoint || st.Wave != tc.wave || st.Watchpoint != wp.ID || bytes.Equal(st.Old, st.New) {
			t.Fatalf("%s: %+v", tc.name, st)
		}
		p := s.Position()
		after := freshRun(t, mk, s, p, s.rp.ev)
		before := freshRun(t, mk, s, p-1, s.rp.ev)
		if got := after.value(wp); !bytes.Equal(got, st.New) {
			t.Fatalf("%s: a fresh run has %x at %d, the stop says %x", tc.name, got, p, st.New)
		}
		if got := before.value(wp); !bytes.Equal(got, st.Old) {
			t.Fatalf("%s: a fresh run has %x at %d, the stop's old value is %x", tc.name, got, p-1, st.Old)
		}
	}
}

// TestSessionCanceled: a canceled context (Ctrl-C) stops a continue that
// would never end, and the gathering of a wave that never reaches the
// barrier, with StopCanceled and no error.
func TestSessionCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := openGroup(t, 1, "s_add_u32 s10, s10, 1", "s_branch -2")
	if st := s.Continue(ctx, 0); st.Reason != StopCanceled || st.Err != nil || st.Steps == 0 {
		t.Fatalf("continue: %+v", st)
	}
	s = openGroup(t, 2,
		"v_readfirstlane_b32 s12, v0",
		"s_cmp_ge_u32 s12, 64",
		"s_cbranch_scc0 1",
		"s_branch -1",
		"s_barrier",
		"s_endpgm",
	)
	if _, st := s.Step(context.Background(), 3); st.Reason != StopBudget || st.Err != nil || !s.AtBarrier(0) {
		t.Fatalf("wave 0 is not at the barrier: %+v", st)
	}
	if _, st := s.Step(ctx, 1); st.Reason != StopCanceled || st.Err != nil || !s.AtBarrier(0) {
		t.Fatalf("step over the barrier: %+v", st)
	}
}

// TestSessionOracleScan: scan_local (clang-built, two waves per
// work-group exchanging prefix sums through LDS between barriers) debugged
// from wave 0: continuing each wave to its end gives RunGrid's output; a
// reverse-continue to the start restores the initial memory and LDS.
// With one worker, group 0 ran on the worker whose vector memory
// operations the session's waves reuse: their cached page pointers must
// not let the first store of the recording go unmarked
// (TestSessionAfterEarlierGroupOnSameWorkerRestoresMemory).
func TestSessionOracleScan(t *testing.T) {
	for _, workers := range []int{0, 1} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) { sessionOracleScan(t, workers) })
	}
}

// TestSessionAfterEarlierGroupOnSameWorkerRestoresMemory is the one-worker
// case of TestSessionOracleScan on its own: reverse-continue to the start
// left group 1's output as the run wrote it.
func TestSessionAfterEarlierGroupOnSameWorkerRestoresMemory(t *testing.T) {
	sessionOracleScan(t, 1)
}

func sessionOracleScan(t *testing.T, workers int) {
	ctx := context.Background()
	mkLaunch := func() *Launch {
		l := scanLaunch(t)
		l.Grid, l.Block, l.Dims = [3]uint32{256, 1, 1}, [3]uint32{128, 1, 1}, 1
		in := make([]byte, 1024)
		for i := range 256 {
			binary.LittleEndian.PutUint32(in[4*i:], uint32(i*7+3))
		}
		l.Args = []LaunchArg{{Kind: ArgBuffer, Data: in}, {Kind: ArgBuffer, Data: make([]byte, 1024)}}
		return l
	}
	want, err := RunGrid(ctx, mkLaunch(), GridConfig{Config: core.DefaultConfig(isa.GFX9), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	s, err := OpenSession(ctx, mkLaunch(), GridConfig{Config: core.DefaultConfig(isa.GFX9), Workers: workers}, 2) // group 1
	if err != nil {
		t.Fatal(err)
	}
	outAddr := readU64(t, s, s.Dispatch.KernargAddr+8)
	state := func() string {
		mem := make([]byte, 2048)
		s.Memory.ReadRaw(outAddr, mem[:1024])
		s.Memory.ReadRaw(core.SharedApertureBase, mem[1024:])
		out := string(mem)
		for _, m := range s.waves {
			sn := m.Snapshot()
			sn.LastAddrs = nil
			out += fmt.Sprintf("%+v", *sn)
		}
		return out
	}
	start := state()
	for w := range s.Waves() {
		s.Select(w)
		if st := s.Continue(ctx, 0); st.Reason != StopEnded || st.Err != nil {
			t.Fatalf("wave %d: %+v", w, st)
		}
	}
	out := make([]byte, 1024)
	s.Memory.ReadRaw(outAddr, out)
	if !bytes.Equal(out[512:], want.Buffers[1][512:]) {
		t.Fatalf("group 1's output differs from RunGrid's")
	}
	if st := s.ReverseContinue(ctx); st.Reason != StopStart || state() != start {
		t.Fatalf("reverse-continue: %+v; the start's state restored: %v", st, state() == start)
	}
}

// TestSessionRunTo: run to an address stops the selected wave right
// before it (through barriers the session keeps), within a budget too,
// and says so when there is no instruction there.
func TestSessionRunTo(t *testing.T) {
	ctx := context.Background()
	s := openGroup(t, 2, exchange...)
	store := s.Prog.Addrs[len(s.Prog.Addrs)-2] // after both barriers
	if st := s.RunTo(ctx, store, 5); st.Reason != StopBudget || st.Steps != 5 {
		t.Fatalf("run to with a budget: %+v", st)
	}
	st := s.RunTo(ctx, store, 0)
	if st.Reason != StopBreakpoint || st.Breakpoint != 0 || s.Wave(0).PC() != store || s.Barriers(0) != 2 {
		t.Fatalf("run to 0x%x: %+v at 0x%x, %d barriers passed", store, st, s.Wave(0).PC(), s.Barriers(0))
	}
	if st := s.RunTo(ctx, store+2, 0); st.Err == nil || !strings.Contains(st.Err.Error(), fmt.Sprintf("0x%x", store+2)) {
		t.Fatalf("run to the middle of an instruction: %+v", st)
	}
}

package emu

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// storeLoop is a kernel with loads in flight across instructions, scalar
// loads and stores to eight pages, for 200 iterations (about 2,600
// instructions).
var storeLoop = []string{
	"s_mov_b32 s0, 0",
	"global_load_dword v4, v[2:3], off",
	"s_load_dword s8, s[2:3], 0x40",
	"s_and_b32 s1, s0, 7",
	"s_lshl_b32 s1, s1, 12",
	"v_add_u32_e32 v6, s1, v2",
	"v_mov_b32_e32 v7, v3",
	"s_waitcnt vmcnt(0) lgkmcnt(0)",
	"v_add_u32_e32 v4, s0, v4",
	"v_add_u32_e32 v4, s8, v4",
	"global_store_dword v[6:7], v4, off offset:256",
	"s_add_u32 s0, s0, 1",
	"s_cmp_lg_u32 s0, 200",
	"s_cbranch_scc1 -17", // to the global_load
	"s_endpgm",
}

// loopMachine sets storeLoop up over a buffer at bufAddr.
func loopMachine(t testing.TB, p *Program, seed uint64) *Machine {
	r := rand.New(rand.NewPCG(seed, 3))
	cfg := core.DefaultConfig(isa.GFX9)
	cfg.Cache = CacheConfig{Size: 512, Ways: 2}
	m := NewMachine(p, nil, cfg)
	if err := m.Mem.Map("buf", bufAddr, 0x10000, false); err != nil {
		t.Fatal(err)
	}
	m.VectorMemory = &ref.VMemUnit{Lds: ref.NewLDS(1024), Cfg: VMemConfig{LDSLatency: 4}, Ops: map[*isa.Inst]*ref.VmOp{}}
	m.SetSGPR(2, bufAddr)
	m.SetExec(r.Uint64() | 1)
	for l := 0; l < 64; l++ {
		a := bufAddr + uint64(4*l)
		m.SetVGPR(2, l, uint32(a))
		m.SetVGPR(3, l, uint32(a>>32))
	}
	return m
}

// unit is one unit of a recording's script: a step, or an edit.
type unit func(m *Machine)

// replayScript runs the first units of a script on a fresh machine, a step
// at a time through Step.
func replayScript(m *Machine, units []unit) {
	for _, u := range units {
		if u == nil {
			m.Step()
		} else {
			u(m)
		}
	}
}

// TestReverseEqualsFreshRun: for random kernels (random streams of the
// golden corpus's instructions from random states, and a loop with
// vector and scalar loads and stores) and random scripts of runs, steps
// and edits (registers, lanes, memory), reversing any number of units
// gives exactly the state — registers, in-flight operations, cache, clock
// and memory — that a fresh forward run reaches there, also after the
// checkpoints were thinned and after going forward again from the past.
func TestReverseEqualsFreshRun(t *testing.T) {
	straight := straightLineWords(t)
	loop := asmProgram(t, isa.GFX9, storeLoop...)
	r := rand.New(rand.NewPCG(21, 22))
	ctx := context.Background()
	for trial := 0; trial < 150; trial++ {
		seed := r.Uint64()
		var mk func() *Machine
		ranges := [][2]uint64{{0x10000, 0x10000}}
		if trial%3 == 0 {
			mk = func() *Machine { return loopMachine(t, loop, seed) }
			ranges = [][2]uint64{{bufAddr, 0x10000}}
		} else {
			text := randomProgram(r, straight, 60)
			mk = func() *Machine { return randomMachine(text, seed, true) }
		}
		m := mk()
		m.StartRecording(int64(64 << 10 << r.IntN(6)))
		m.SetCheckpointInterval(uint64(1 + r.IntN(40)))
		var units []unit
		// floor is the units a rebase (the recording restarting to stay
		// within a small budget) put out of reach.
		floor, rebases := 0, 0
		addr := ranges[0][0]
		for round := 0; round < 8; round++ {
			for op := r.IntN(4); op >= 0; op-- {
				switch k := r.IntN(10); {
				case k < 4:
					res, _ := m.Run(ctx, int64(1+r.IntN(600)))
					for range res.Steps {
						units = append(units, nil)
					}
					if m.Rebases() != rebases {
						floor, rebases = len(units)-int(m.Steps()-m.RecordingStart()), m.Rebases()
					}
				case k < 7:
					if m.State() == core.Ended || m.State() == core.Faulted {
						continue
					}
					m.Step()
					units = append(units, nil)
				default:
					var u unit
					n, v := r.IntN(16), r.Uint32()
					switch k {
					case 7:
						u = func(m *Machine) { m.SetSGPR(n, v) }
					case 8:
						u = func(m *Machine) { m.SetVGPR(n, r.IntN(64), v) }
						lane := r.IntN(64)
						u = func(m *Machine) { m.SetVGPR(n, lane, v) }
					default:
						a := addr + uint64(r.IntN(0x8000))
						u = func(m *Machine) { m.WriteMemory(a, []byte{byte(v), byte(v >> 8)}) }
					}
					u(m)
					units = append(units, u)
				}
			}
			n := r.IntN(len(units) + 2)
			if rebases > 0 {
				n = min(n, len(units)-floor)
			}
			if r.IntN(3) == 0 { // StepBack: the journal while it holds the steps, else replay
				n = min(n, 5)
				for k := 0; k < n; k++ {
					if err := m.StepBack(); err != nil && k < len(units) {
						t.Fatalf("trial %d round %d: StepBack %d of %d: %v", trial, round, k, n, err)
					}
				}
			} else if _, err := m.ReverseStep(ctx, uint64(n)); n > 0 && len(units) > 0 && err != nil {
				t.Fatalf("trial %d round %d: ReverseStep(%d): %v", trial, round, n, err)
			}
			units = units[:max(len(units)-n, 0)]
			floor = min(floor, len(units))
			f := mk()
			replayScript(f, units)
			if d := diffRuns([2]*Machine{f, m}, [2]error{}, ranges...); d != "" {
				sa, sb := f.Snapshot(), m.Snapshot()
				sa.LastAddrs, sb.LastAddrs = nil, nil
				t.Fatalf("trial %d round %d: back %d to unit %d (%d checkpoints): %s\n%s%s", trial, round, n, len(units), m.Checkpoints(), d, snapDiff(sa, sb), memDiff(f, m, ranges[0][0], ranges[0][1])+rpInfo(m))
			}
		}
	}
}

// TestRecordedRunStopsLikeRun: a recorded Run (the fast engine in
// stretches between checkpoints) stops at the same breakpoints, with the
// same steps, as an unrecorded one — also a breakpoint that falls on a
// stretch's first instruction.
func TestRecordedRunStopsLikeRun(t *testing.T) {
	loop := asmProgram(t, isa.GFX9, storeLoop...)
	var got [2][]RunResult
	for k := range 2 {
		m := loopMachine(t, loop, 1)
		if k == 1 {
			m.StartRecording(0)
			m.SetCheckpointInterval(13) // the loop is 13 instructions: every stretch starts on the breakpoint
		}
		m.SetBreakpoint(m.Prog.Addrs[1])
		for range 5 {
			res, _ := m.Run(context.Background(), 0)
			got[k] = append(got[k], res)
		}
	}
	for i := range got[0] {
		if got[0][i] != got[1][i] {
			t.Errorf("run %d: unrecorded %+v, recorded %+v", i, got[0][i], got[1][i])
		}
	}
}

// TestReverseContinueFindsLastHit: reverse-continue goes back to the last
// earlier breakpoint hit (an iteration earlier), and from the first hit
// to the start.
func TestReverseContinueFindsLastHit(t *testing.T) {
	loop := asmProgram(t, isa.GFX9, storeLoop...)
	m := loopMachine(t, loop, 1)
	m.StartRecording(0)
	m.SetCheckpointInterval(50)
	bp := m.Prog.Addrs[10] // the store
	m.SetBreakpoint(bp)
	ctx := context.Background()
	var hits []uint64
	for range 30 {
		m.Run(ctx, 0)
		hits = append(hits, m.Steps())
	}
	for i := len(hits) - 2; i >= 0; i-- {
		res, err := m.ReverseContinue(ctx)
		if err != nil || res.Reason != StopBreakpoint || m.Steps() != hits[i] || m.PC() != bp {
			t.Fatalf("reverse-continue %d: %+v %v at step %d, want the hit at %d", i, res, err, m.Steps(), hits[i])
		}
		f := loopMachine(t, loop, 1)
		f.Run(ctx, int64(hits[i]))
		if d := diffRuns([2]*Machine{f, m}, [2]error{}, [2]uint64{bufAddr, 0x10000}); d != "" {
			t.Fatalf("at hit %d: %s", i, d)
		}
	}
	if res, err := m.ReverseContinue(ctx); err != nil || res.Reason != StopStart || m.Steps() != 0 {
		t.Fatalf("to the start: %+v %v at %d", res, err, m.Steps())
	}
	if _, err := m.ReverseContinue(ctx); !errors.Is(err, core.ErrNoHistory) {
		t.Fatalf("at the start: %v", err)
	}
}

// TestEditIsUndone: setting a register while recording keeps the history
// (it used to clear it); stepping back first undoes the edit, then steps.
func TestEditIsUndone(t *testing.T) {
	m := asmMachine(t, "s_add_u32 s0, s0, 1", "s_add_u32 s0, s0, 1", "s_endpgm")
	m.StartRecording(0)
	m.Step()
	m.SetSGPR(0, 7)
	if err := m.StepBack(); err != nil || m.Wave().S[0] != 1 || m.Steps() != 1 {
		t.Fatalf("undoing the edit: %v, s0 = %d at step %d", err, m.Wave().S[0], m.Steps())
	}
	if err := m.StepBack(); err != nil || m.Wave().S[0] != 0 || m.Steps() != 0 {
		t.Fatalf("undoing the step: %v, s0 = %d at step %d", err, m.Wave().S[0], m.Steps())
	}
	if err := m.StepBack(); !errors.Is(err, core.ErrNoHistory) {
		t.Fatalf("at the start: %v", err)
	}
}

// TestRecordingWithinBudget: a long recorded run keeps its checkpoints
// within the budget, thinning old ones, and can still go back to any step.
func TestRecordingWithinBudget(t *testing.T) {
	loop := asmProgram(t, isa.GFX9, storeLoop...)
	m := loopMachine(t, loop, 2)
	const budget = 2 << 20
	m.StartRecording(budget)
	m.SetCheckpointInterval(10)
	ctx := context.Background()
	m.Run(ctx, 0)
	if b := m.RecordingBytes(); b > budget {
		t.Errorf("recording holds %d bytes, over its budget of %d", b, budget)
	}
	end := m.Steps()
	if n := m.Checkpoints(); n >= int(end/10) {
		t.Errorf("%d checkpoints for %d steps: none thinned", n, end)
	}
	for _, back := range []uint64{1, 7, end / 3, end - 5} {
		m.Run(ctx, 0)
		if _, err := m.ReverseStep(ctx, back); err != nil {
			t.Fatal(err)
		}
		f := loopMachine(t, loop, 2)
		f.Run(ctx, int64(end-back))
		if d := diffRuns([2]*Machine{f, m}, [2]error{}, [2]uint64{bufAddr, 0x10000}); d != "" {
			t.Fatalf("back %d: %s", back, d)
		}
	}
}

// TestEditInThePastDropsLaterCheckpoints: an edit made after going back
// changes the future, so the checkpoints past it (taken before the edit
// existed) must not serve a later reverse move.
func TestEditInThePastDropsLaterCheckpoints(t *testing.T) {
	loop := asmProgram(t, isa.GFX9, storeLoop...)
	ctx := context.Background()
	m := loopMachine(t, loop, 3)
	m.StartRecording(0)
	m.SetCheckpointInterval(10)
	m.Run(ctx, 300)
	m.ReverseStep(ctx, 250)
	m.SetSGPR(0, 150)
	m.Run(ctx, 100)
	m.ReverseStep(ctx, 10)
	f := loopMachine(t, loop, 3)
	f.Run(ctx, 50)
	f.SetSGPR(0, 150)
	f.Run(ctx, 90)
	if d := diffRuns([2]*Machine{f, m}, [2]error{}, [2]uint64{bufAddr, 0x10000}); d != "" {
		t.Fatal(d)
	}
}

// TestReverseContinueSeesNewBreakpoint: the spans a run found free of
// breakpoints do not hold for a breakpoint set after it.
func TestReverseContinueSeesNewBreakpoint(t *testing.T) {
	loop := asmProgram(t, isa.GFX9, storeLoop...)
	ctx := context.Background()
	m := loopMachine(t, loop, 4)
	m.StartRecording(0)
	m.SetCheckpointInterval(100)
	m.SetBreakpoint(m.Prog.Addrs[len(m.Prog.Addrs)-1]) // s_endpgm: hit only at the end
	if res, _ := m.Run(ctx, 0); res.Reason != StopBreakpoint {
		t.Fatalf("run: %+v", res)
	}
	end := m.Steps()
	m.SetBreakpoint(m.Prog.Addrs[1]) // the loop's head
	if res, err := m.ReverseContinue(ctx); err != nil || res.Reason != StopBreakpoint || m.Steps() != end-13 {
		t.Fatalf("reverse-continue: %+v %v at step %d, want %d", res, err, m.Steps(), end-13)
	}
}

// TestLatencyEditReplays: a latency changed while recording is an edit:
// replay before it uses the old latency, after it the new one.
func TestLatencyEditReplays(t *testing.T) {
	loop := asmProgram(t, isa.GFX9, storeLoop...)
	ctx := context.Background()
	slow := core.DefaultLatency()
	slow.VectorMem, slow.ScalarMiss = 900, 700
	for _, back := range []uint64{150, 250} { // 301 units: 100 steps, the edit, 200 steps
		m := loopMachine(t, loop, 5)
		m.StartRecording(0)
		m.SetCheckpointInterval(16)
		m.Run(ctx, 100)
		m.SetLatency(slow)
		m.Run(ctx, 200)
		if _, err := m.ReverseStep(ctx, back); err != nil {
			t.Fatal(err)
		}
		f := loopMachine(t, loop, 5)
		f.Run(ctx, min(int64(m.Steps()), 100))
		if back < 200 {
			f.SetLatency(slow)
		}
		if n := int64(m.Steps() - f.Steps()); n > 0 {
			f.Run(ctx, n)
		}
		if d := diffRuns([2]*Machine{f, m}, [2]error{}, [2]uint64{bufAddr, 0x10000}); d != "" {
			t.Fatalf("back %d: %s", back, d)
		}
	}
}

// TestCheckpointIntervalGrowsWithPages: with the default interval,
// checkpoints (which compare every written page) grow apart as more pages
// are written; an interval set by SetCheckpointInterval stays.
func TestCheckpointIntervalGrowsWithPages(t *testing.T) {
	r := &replay{interval: defaultInterval, log: core.NewPageLog()}
	r.log.Pns = make([]uint64, 1000)
	if got := r.every(); got != 1000*pageSteps {
		t.Errorf("default interval with 1000 pages: %d, want %d", got, 1000*pageSteps)
	}
	r.interval, r.fixed = 10, true
	if got := r.every(); got != 10 {
		t.Errorf("set interval: %d, want 10", got)
	}
}

// TestRecordedRunFreesLoadResults: a recorded run (history on) lets the
// vector memory unit free each load's result when it completes, as an
// unrecorded one does; it used to keep them all for StepBack, and each
// load then searched them all.
func TestRecordedRunFreesLoadResults(t *testing.T) {
	loop := asmProgram(t, isa.GFX9, storeLoop...)
	m := loopMachine(t, loop, 6)
	m.StartRecording(0)
	m.Run(context.Background(), 0)
	if n := len(m.VectorMemory.(*ref.VMemUnit).Pending); n > 4 {
		t.Errorf("%d load results kept after 200 loads", n)
	}
}

package emu

import (
	"context"
	"testing"
	"time"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// barrierLoop10M is two waves looping 500,000 times through LDS traffic
// and an s_barrier: 10 instructions an iteration each, some 10 M for
// the work-group.
var barrierLoop10M = append(append([]string(nil), groupPrologue...),
	"s_mov_b32 s10, 0",
	"s_add_u32 s10, s10, 1",
	"v_add_u32_e32 v8, 1, v8",
	"ds_write_b32 v6, v8",
	"s_waitcnt lgkmcnt(0)",
	"s_barrier",
	"ds_read_b32 v9, v7",
	"s_waitcnt lgkmcnt(0)",
	"v_add_u32_e32 v8, v8, v9",
	"s_cmp_lg_u32 s10, 0x7a120",
	"s_cbranch_scc1 -13",
	"s_endpgm",
)

// BenchmarkSessionContinue10M: a session over a work-group of two waves
// with a barrier in a long loop: opening it, continue from wave 0 to a
// breakpoint at its s_endpgm (some 10 M group instructions, every
// barrier gathered on the fast engine) against RunGrid of the same
// launch with one worker, then reverse-stepi and reverse-continue back to
// the start.
func BenchmarkSessionContinue10M(b *testing.B) {
	ctx := context.Background()
	var open, run, cont, rsi, rc time.Duration
	var steps, ran uint64
	for range b.N {
		cfg := core.DefaultConfig(isa.GFX9)
		cfg.HistoryBytes = 0 // as wavedbg run
		t0 := time.Now()
		res, err := RunGrid(ctx, groupLaunch(b, 2, barrierLoop10M...), GridConfig{Config: cfg, Workers: 1})
		run += time.Since(t0)
		if err != nil || len(res.Faults) > 0 {
			b.Fatalf("run: %v %v", err, res.Faults)
		}
		ran = res.Instructions

		t0 = time.Now()
		s, err := OpenSession(ctx, groupLaunch(b, 2, barrierLoop10M...), GridConfig{Config: core.DefaultConfig(isa.GFX9)}, 0)
		open += time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Break(Breakpoint{PC: s.Prog.Addrs[len(s.Prog.Addrs)-1]}); err != nil {
			b.Fatal(err)
		}
		t0 = time.Now()
		st := s.Continue(ctx, 0)
		cont += time.Since(t0)
		if st.Reason != StopBreakpoint {
			b.Fatalf("continue: %+v", st)
		}
		steps = s.Position()
		t0 = time.Now()
		if _, st := s.ReverseStep(ctx, 1); st.Err != nil {
			b.Fatal(st.Err)
		}
		rsi += time.Since(t0)
		t0 = time.Now()
		if st := s.ReverseContinue(ctx); st.Reason != StopStart {
			b.Fatalf("reverse-continue: %+v", st)
		}
		rc += time.Since(t0)
		if b.N == 1 {
			b.Logf("%d group instructions to the breakpoint (the grid runs %d); %d checkpoints, %.1f MiB recorded",
				steps, ran, s.Checkpoints(), float64(s.RecordingBytes())/(1<<20))
		}
	}
	n := float64(b.N)
	b.ReportMetric(open.Seconds()*1e3/n, "open-ms")
	b.ReportMetric(float64(ran)*n/run.Seconds()/1e6, "run-Minstr/s")
	b.ReportMetric(float64(steps)*n/cont.Seconds()/1e6, "continue-Minstr/s")
	b.ReportMetric(cont.Seconds()*1e3/n, "continue-ms")
	b.ReportMetric(rsi.Seconds()*1e3/n, "rsi-ms")
	b.ReportMetric(rc.Seconds()*1e3/n, "rc-ms")
}

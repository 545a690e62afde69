package emu

import (
	"context"
	"testing"
	"time"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// counted10M is a loop of six instructions (SALU and VALU) run 1,666,667
// times: the s_endpgm after it comes 10,000,002 instructions after the
// start.
var counted10M = []string{
	"s_add_u32 s0, s0, 1",
	"v_add_f32_e32 v1, v1, v2",
	"v_mul_f32_e32 v3, v1, v2",
	"v_add_u32_e32 v5, v5, v0",
	"s_cmp_lg_u32 s0, 1666667",
	"s_cbranch_scc1 -7",
	"s_endpgm",
}

// BenchmarkReverse10M: continue to a breakpoint 10 M instructions away on
// a recording machine against an unrecorded Run of the same wave (the
// rate of `wavedbg run` with one worker), then reverse-stepi right after
// it and reverse-continue back to the start.
func BenchmarkReverse10M(b *testing.B) {
	p := asmProgram(b, isa.GFX9, counted10M...)
	ctx := context.Background()
	var run, cont, rsi, rc time.Duration
	var steps int64
	for range b.N {
		m := NewMachine(p, nil, core.DefaultConfig(isa.GFX9))
		m.SetHistoryLimit(0)
		t0 := time.Now()
		res, err := m.Run(ctx, 0)
		run += time.Since(t0)
		if err != nil || res.Reason != StopEnded {
			b.Fatalf("run: %+v %v", res, err)
		}
		steps = res.Steps

		m = NewMachine(p, nil, core.DefaultConfig(isa.GFX9))
		m.SetHistoryLimit(32 << 20)
		m.StartRecording(192 << 20)
		m.SetBreakpoint(p.Addrs[len(p.Addrs)-1])
		t0 = time.Now()
		res, err = m.Run(ctx, 0)
		cont += time.Since(t0)
		if err != nil || res.Reason != StopBreakpoint || res.Steps != steps-1 {
			b.Fatalf("continue: %+v %v", res, err)
		}
		t0 = time.Now()
		if _, err := m.ReverseStep(ctx, 1); err != nil {
			b.Fatal(err)
		}
		rsi += time.Since(t0)
		t0 = time.Now()
		if res, err := m.ReverseContinue(ctx); err != nil || res.Reason != StopStart {
			b.Fatalf("reverse-continue: %+v %v", res, err)
		}
		rc += time.Since(t0)
		if b.N == 1 {
			b.Logf("%d checkpoints, %.1f MiB recorded", m.Checkpoints(), float64(m.RecordingBytes())/(1<<20))
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(steps)*n/run.Seconds()/1e6, "run-Minstr/s")
	b.ReportMetric(float64(steps)*n/cont.Seconds()/1e6, "continue-Minstr/s")
	b.ReportMetric(rsi.Seconds()*1e3/n, "rsi-ms")
	b.ReportMetric(rc.Seconds()*1e3/n, "rc-ms")
	b.ReportMetric(cont.Seconds()*1e3/n, "continue-ms")
}

// BenchmarkReverseStores is BenchmarkReverse10M's continue on storeLoop
// writing 256 pages (1 MiB) round robin, 769,231 iterations (10 M
// instructions): what checkpoints cost when memory is written.
func BenchmarkReverseStores(b *testing.B) {
	lines := append([]string(nil), storeLoop...)
	lines[3] = "s_and_b32 s1, s0, 0xff"
	lines[12] = "s_cmp_lg_u32 s0, 769231"
	lines[13] = "s_cbranch_scc1 -18" // the literal makes the loop a dword longer
	p := asmProgram(b, isa.GFX9, lines...)
	ctx := context.Background()
	var run, cont, rsi time.Duration
	var steps int64
	for range b.N {
		m := storesMachine(b, p)
		m.SetHistoryLimit(0)
		t0 := time.Now()
		res, err := m.Run(ctx, 0)
		run += time.Since(t0)
		if err != nil || res.Reason != StopEnded {
			b.Fatalf("run: %+v %v", res, err)
		}
		steps = res.Steps
		m = storesMachine(b, p)
		m.StartRecording(192 << 20)
		m.SetBreakpoint(p.Addrs[len(p.Addrs)-1])
		t0 = time.Now()
		if res, err = m.Run(ctx, 0); err != nil || res.Reason != StopBreakpoint {
			b.Fatalf("continue: %+v %v", res, err)
		}
		cont += time.Since(t0)
		t0 = time.Now()
		if _, err := m.ReverseStep(ctx, 1); err != nil {
			b.Fatal(err)
		}
		rsi += time.Since(t0)
	}
	n := float64(b.N)
	b.ReportMetric(float64(steps)*n/run.Seconds()/1e6, "run-Minstr/s")
	b.ReportMetric(float64(steps)*n/cont.Seconds()/1e6, "continue-Minstr/s")
	b.ReportMetric(rsi.Seconds()*1e3/n, "rsi-ms")
}

// storesMachine is loopMachine with a 1 MiB buffer.
func storesMachine(b testing.TB, p *Program) *Machine {
	m := NewMachine(p, nil, core.DefaultConfig(isa.GFX9))
	if err := m.Mem.Map("buf", bufAddr, 0x101000, false); err != nil {
		b.Fatal(err)
	}
	m.VectorMemory = &ref.VMemUnit{Lds: ref.NewLDS(1024), Cfg: VMemConfig{LDSLatency: 4}, Ops: map[*isa.Inst]*ref.VmOp{}}
	m.SetSGPR(2, bufAddr)
	for l := 0; l < 64; l++ {
		a := bufAddr + uint64(4*l)
		m.SetVGPR(2, l, uint32(a))
		m.SetVGPR(3, l, uint32(a>>32))
	}
	return m
}

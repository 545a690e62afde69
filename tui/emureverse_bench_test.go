package tui

import (
	"context"
	"testing"
	"time"

	"github.com/wavedbg/wavedbg/emu"
)

// BenchmarkContinue10M: in the debugger, continue to a breakpoint
// 10,000,002 instructions away (vector_add with a counted loop over its
// entry, one wave), against emu's unrecorded run of the same wave (the
// rate of `wavedbg run` with one worker); then reverse-stepi right after
// it and reverse-continue back to the start.
func BenchmarkContinue10M(b *testing.B) {
	var run, cont, rsi, rc time.Duration
	const steps = 3 * 3333334
	for range b.N {
		d, after := openCounted(b, 3333334)
		m := d.w().m
		m.StopRecording()
		m.SetHistoryLimit(0)
		if err := m.SetBreakpoint(after); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		res, err := m.Run(context.Background(), 0)
		run += time.Since(t0)
		if err != nil || res.Reason != emu.StopBreakpoint || res.Steps != steps {
			b.Fatalf("run: %+v %v", res, err)
		}

		d, _ = openCounted(b, 3333334)
		tm := New(d, Options{Color: ColorPlain})
		tm.Update(winSize(200, 60))
		line := func(s string) time.Duration {
			t0 := time.Now()
			drive(tm, keyMsg(":"), 0)
			for _, r := range s {
				drive(tm, keyMsg(string(r)), 0)
			}
			drive(tm, keyMsg("enter"), 1<<20)
			return time.Since(t0)
		}
		line("b " + hex(after))
		cont += line("c")
		if d.StepCount() != steps {
			b.Fatalf("continue stopped at step %d: %s", d.StepCount(), tm.msg)
		}
		rsi += line("rsi")
		if d.StepCount() != steps-1 {
			b.Fatalf("rsi: at step %d: %s", d.StepCount(), tm.msg)
		}
		rc += line("rc")
		if d.StepCount() != 0 {
			b.Fatalf("rc: at step %d: %s", d.StepCount(), tm.msg)
		}
	}
	n := float64(b.N)
	b.ReportMetric(steps*n/run.Seconds()/1e6, "run-Minstr/s")
	b.ReportMetric(steps*n/cont.Seconds()/1e6, "continue-Minstr/s")
	b.ReportMetric(rsi.Seconds()*1e3/n, "rsi-ms")
	b.ReportMetric(rc.Seconds()*1e3/n, "rc-ms")
	b.ReportMetric(cont.Seconds()*1e3/n, "continue-ms")
}

package tui

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/loader"
	"github.com/wavedbg/wavedbg/samples"
)

// openBarrierLoop opens the reduction sample (work-groups of four waves)
// with a loop over s_barrier at its entry, n times: four instructions an
// iteration for each wave. It returns the debuggee, the address after the
// loop and emu's launch of the same code (for a run without the
// debugger).
func openBarrierLoop(t testing.TB, n uint32) (*EmuDebuggee, uint64, *emu.Launch) {
	t.Helper()
	s, ok := samples.Lookup("reduction")
	if !ok {
		t.Fatal("no sample reduction")
	}
	mf, err := s.RunManifest()
	if err != nil {
		t.Fatal(err)
	}
	data := bytes.Clone(s.CodeObject)
	co, err := loader.NewCodeObject(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	entry := co.Kernels[0].Entry
	off := co.Text.Offset + entry - co.Text.Addr
	co.Close()
	loop := []byte{
		0x64, 0x81, 0x64, 0x80, // s_add_u32 s100, s100, 1
		0x00, 0x00, 0x8a, 0xbf, // s_barrier
		0x64, 0xff, 0x07, 0xbf, byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24), // s_cmp_lg_u32 s100, n
		0xfb, 0xff, 0x85, 0xbf, // s_cbranch_scc1 -5
	}
	copy(data[off:], loop)
	d, err := Open(data, Launch{Manifest: mf})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	co, err = loader.NewCodeObject(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { co.Close() })
	l, err := mf.Launch(co, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d, entry + uint64(len(loop)), l
}

// BenchmarkContinueGroup10M: the debugger on a work-group of four waves
// meeting at a barrier every four instructions: the time to the first
// frame, continue from wave 0 to a breakpoint 10 M group instructions
// away (every barrier enforced by emu's session, on the fast engine)
// against emu's unrecorded run of the work-group with one worker (the
// rate of `wavedbg run`), then reverse-stepi and reverse-continue back to
// the start.
func BenchmarkContinueGroup10M(b *testing.B) {
	const iters = 625_000
	var open, run, cont, rsi, rc time.Duration
	var steps, ran float64
	for range b.N {
		t0 := time.Now()
		d, after, l := openBarrierLoop(b, iters)
		tm := New(d, Options{Color: ColorPlain})
		tm.Update(winSize(200, 60))
		tm.Render()
		open += time.Since(t0)

		cfg := emu.DefaultConfig(d.k.target)
		cfg.HistoryBytes = 0
		l.Grid = l.Block // one work-group, as the debugger's
		t0 = time.Now()
		res, err := emu.RunGrid(context.Background(), l, emu.GridConfig{Config: cfg, Workers: 1, MaxSteps: 1 << 30})
		run += time.Since(t0)
		if err != nil {
			b.Fatal(err)
		}
		ran = float64(res.Instructions)

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
		if pc, _ := d.PC(); pc != after {
			b.Fatalf("continue stopped at %#x: %s", pc, tm.msg)
		}
		steps = float64(d.sess.Position())
		rsi += line("rsi")
		rc += line("rc")
		if d.sess.Position() != 0 {
			b.Fatalf("rc: at %d: %s", d.sess.Position(), tm.msg)
		}
	}
	n := float64(b.N)
	b.ReportMetric(open.Seconds()*1e3/n, "first-frame-ms")
	b.ReportMetric(ran*n/run.Seconds()/1e6, "run-Minstr/s")
	b.ReportMetric(steps*n/cont.Seconds()/1e6, "continue-Minstr/s")
	b.ReportMetric(cont.Seconds()*1e3/n, "continue-ms")
	b.ReportMetric(rsi.Seconds()*1e3/n, "rsi-ms")
	b.ReportMetric(rc.Seconds()*1e3/n, "rc-ms")
}

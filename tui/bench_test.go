package tui

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user+system CPU time; on the shared development
// machine it is steadier than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkStepRedraw measures one step of the sample plus a full redraw at
// 200×60 with every pane on screen, in colour. Each iteration steps forward
// and back (the sample is short), so it reports the time per step+frame.
//
//	go test ./tui -run '^$' -bench StepRedraw -benchtime 2s
//
// The VectorLoad variant steps vector_add's first global_load (64 lane
// addresses through emu's vector memory unit, the address decoder listing
// them) instead of the scale sample's first instruction.
func BenchmarkStepRedraw(b *testing.B) {
	b.Run("scale", func(b *testing.B) { benchStepRedraw(b, openSample(b)) })
	b.Run("VectorLoad", func(b *testing.B) {
		d := openBundled(b, "vector_add")
		for pc, _ := d.PC(); pc != 0x187c; pc, _ = d.PC() {
			if err := d.Step(); err != nil {
				b.Fatal(err)
			}
		}
		benchStepRedraw(b, d)
	})
}

func benchStepRedraw(b *testing.B, d Debuggee) {
	m := New(d, Options{Color: ColorFull})
	m.Update(winSize(200, 60))
	want := int(numPanes)
	if m.lineTable() == nil {
		want-- // the source pane is shown only with a line table
	}
	if s := m.slots(); len(s) != want {
		b.Fatalf("%d slots at 200×60, want every pane", len(s))
	}
	m.Render()
	start, cpu0 := time.Now(), cpuTime()
	n := 0
	for b.Loop() {
		m.stepN(1)
		_ = m.Render()
		m.backN(1)
		_ = m.Render()
		n += 2
	}
	b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(n)/1e6, "ms/step+frame")
	b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(n)/1e6, "cpu-ms/step+frame")
}

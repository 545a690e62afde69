package tui

import (
	"testing"
	"time"

	"github.com/wavedbg/wavedbg/samples"
)

// BenchmarkOpenLastWave1M opens the last wave of a 1,048,576-work-item
// grid — the dispatch of every work-group before it on the fast engine,
// then the debugger's first frame at 160×45 — as `wavedbg --wave 16383`
// does: vector_add (16,384 one-wave work-groups) and reduction (4,096
// work-groups of four waves meeting at barriers).
//
//	go test ./tui -run '^$' -bench OpenLastWave1M -benchtime 5x
func BenchmarkOpenLastWave1M(b *testing.B) {
	for _, name := range []string{"vector_add", "reduction"} {
		b.Run(name, func(b *testing.B) {
			s, _ := samples.Lookup(name)
			mf, err := s.RunManifest()
			if err != nil {
				b.Fatal(err)
			}
			mf.Grid.V[0] = 1 << 20
			if name == "reduction" {
				mf.Args[0].Size, mf.Args[1].Size = 4<<20, 4<<20/256
			}
			cpu := cpuTime()
			for b.Loop() {
				d, err := Open(s.CodeObject, Launch{Manifest: mf, Wave: 1<<20/64 - 1})
				if err != nil {
					b.Fatal(err)
				}
				m := New(d, Options{Color: ColorPlain})
				m.Update(winSize(160, 45))
				_ = m.Render()
			}
			b.ReportMetric(float64((cpuTime()-cpu)/time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}

package emu

import (
	"context"
	"encoding/binary"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// progressLog records a run's progress reports.
type progressLog struct {
	mu      sync.Mutex
	calls   []GridProgress
	overlap bool // a call began while another was running
	in      bool
}

func (l *progressLog) report(p GridProgress) {
	l.mu.Lock()
	if l.in {
		l.overlap = true
	}
	l.in = true
	l.calls = append(l.calls, p)
	l.mu.Unlock()
	l.mu.Lock()
	l.in = false
	l.mu.Unlock()
}

// check fails t unless the reports never overlap, never go back, and end
// with want.
func (l *progressLog) check(t *testing.T, want GridProgress) {
	t.Helper()
	if l.overlap {
		t.Error("Progress was called concurrently")
	}
	if len(l.calls) == 0 {
		t.Fatal("Progress was never called")
	}
	for i := 1; i < len(l.calls); i++ {
		a, b := l.calls[i-1], l.calls[i]
		if b.WorkGroups < a.WorkGroups || b.Instructions < a.Instructions || b.Total != a.Total {
			t.Errorf("report %d went back: %+v after %+v", i, b, a)
		}
	}
	if last := l.calls[len(l.calls)-1]; last != want {
		t.Errorf("last report %+v, want %+v", last, want)
	}
}

// endLaunch is scan_local with s_endpgm at its entry over a grid of n
// one-wave work-groups: each ends at once and touches no memory.
func endLaunch(t *testing.T, n uint32) *Launch {
	t.Helper()
	l := loadLaunch(t, "testdata/cl/gfx900/scan_local.co", "scan_local", isa.GFX9)
	l.Text = append([]byte(nil), l.Text...)
	binary.LittleEndian.PutUint32(l.Text[l.Kernel.Entry-l.TextAddr:], 0xbf810000) // s_endpgm
	l.Grid, l.Block, l.Dims = [3]uint32{64 * n, 1, 1}, [3]uint32{64, 1, 1}, 1
	l.Args = []LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 512)}, {Kind: ArgBuffer, Data: make([]byte, 512)}}
	return l
}

// TestGridProgressMonotonic: RunGrid's and PrepareWave's reports only go
// forward, never overlap, and end at the total with the instructions run.
func TestGridProgressMonotonic(t *testing.T) {
	scan := func() *Launch {
		l := loadLaunch(t, "testdata/cl/gfx900/scan_local.co", "scan_local", isa.GFX9)
		l.Grid, l.Block, l.Dims = [3]uint32{128 * 300, 1, 1}, [3]uint32{128, 1, 1}, 1
		l.Args = []LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 4*128*300)}, {Kind: ArgBuffer, Data: make([]byte, 4*128*300)}}
		return l
	}
	for _, workers := range []int{1, 2} {
		var log progressLog
		res, err := RunGrid(context.Background(), scan(), GridConfig{Config: core.DefaultConfig(isa.GFX9), Workers: workers, Progress: log.report})
		if err != nil {
			t.Fatalf("RunGrid, %d workers: %v", workers, err)
		}
		log.check(t, GridProgress{WorkGroups: 300, Total: 300, Instructions: res.Instructions})

		var plog progressLog
		if _, err := PrepareWave(context.Background(), scan(), GridConfig{Config: core.DefaultConfig(isa.GFX9), Workers: workers, Progress: plog.report}, 2*250+1); err != nil {
			t.Fatalf("PrepareWave, %d workers: %v", workers, err)
		}
		want := plog.calls[len(plog.calls)-1]
		if want.WorkGroups != 250 || want.Total != 250 || want.Instructions == 0 {
			t.Errorf("PrepareWave, %d workers: last report %+v, want the 250 work-groups before wave 501", workers, want)
		}
		plog.check(t, want)
	}
}

// TestPrepareWaveCancelStops: a cancellation stops PrepareWave's run of
// earlier work-groups, both between work-groups (many short ones) and
// inside one (waves looping forever): it returns an error wrapping
// context.Canceled that names the wave, having run fewer work-groups than
// it had to.
func TestPrepareWaveCancelStops(t *testing.T) {
	looping := func() *Launch {
		l := loopingLaunch(t)
		l.Grid[0] = 128 * 1000
		return l
	}
	for name, tc := range map[string]struct {
		l    func() *Launch
		wave uint64
	}{
		"between":         {func() *Launch { return endLaunch(t, 1<<25) }, 1<<25 - 1},
		"inside":          {looping, 2*1000 - 1},
		"inside/1 worker": {looping, 2*1000 - 1},
	} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var log progressLog
			cfg := GridConfig{Config: core.DefaultConfig(isa.GFX9), Progress: func(p GridProgress) {
				cancel() // at the first report
				log.report(p)
			}}
			if strings.HasSuffix(name, "1 worker") {
				cfg.Workers = 1
			}
			_, err := PrepareWave(ctx, tc.l(), cfg, tc.wave)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("PrepareWave: %v, want context.Canceled", err)
			}
			if want := "wave " + strconv.FormatUint(tc.wave, 10); !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not name %q", err, want)
			}
			last := log.calls[len(log.calls)-1]
			if last.WorkGroups >= last.Total {
				t.Errorf("last report %+v: every work-group ran", last)
			}
			log.check(t, last)
		})
	}
}

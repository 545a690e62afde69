package emu

import (
	"context"
	"encoding/binary"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// loopingLaunch is scan_local with `s_branch -1` at its entry: one
// work-group of two waves, both looping forever.
func loopingLaunch(t *testing.T) *Launch {
	t.Helper()
	l := loadLaunch(t, "testdata/cl/gfx900/scan_local.co", "scan_local", isa.GFX9)
	l.Text = append([]byte(nil), l.Text...)
	binary.LittleEndian.PutUint32(l.Text[l.Kernel.Entry-l.TextAddr:], 0xbf82ffff) // s_branch -1
	l.Grid, l.Block, l.Dims = [3]uint32{128, 1, 1}, [3]uint32{128, 1, 1}, 1
	l.Args = []LaunchArg{{Kind: ArgBuffer, Data: make([]byte, 512)}, {Kind: ArgBuffer, Data: make([]byte, 512)}}
	return l
}

// peakHeap samples the heap while f runs and returns the largest HeapAlloc
// seen above the live heap before it.
func peakHeap(f func()) uint64 {
	base := liveHeap()
	var peak atomic.Uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > peak.Load() {
				peak.Store(ms.HeapAlloc)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	<-stopped
	if p := peak.Load(); p > base {
		return p - base
	}
	return 0
}

// TestPrepareWaveSiblingLoopsForever: the chosen wave's partner never
// reaches a barrier. PrepareWave stops it after the sibling budget (not
// the launch's 100M-step MaxSteps), records none of its steps, and returns
// a usable session whose Unready names the partner; the chosen wave steps.
func TestPrepareWaveSiblingLoopsForever(t *testing.T) {
	l := loopingLaunch(t)
	var s *WaveSession
	var err error
	peak := peakHeap(func() {
		s, err = PrepareWave(context.Background(), l, GridConfig{Config: core.DefaultConfig(isa.GFX9), MaxSteps: 100_000_000}, 0)
	})
	if err != nil {
		t.Fatalf("PrepareWave: %v", err)
	}
	if len(s.Others) != 1 {
		t.Fatalf("%d other waves, want 1", len(s.Others))
	}
	o := s.Others[0]
	if o.Steps() != DefaultSiblingSteps || o.HistoryLen() != 0 || o.HistoryBytes() != 0 {
		t.Errorf("sibling: %d steps, %d recorded in %d bytes; want %d unrecorded", o.Steps(), o.HistoryLen(), o.HistoryBytes(), DefaultSiblingSteps)
	}
	var we WaveError
	if !errors.As(s.Unready, &we) || !errors.Is(s.Unready, ErrStepBudget) || we.Wave != 1 {
		t.Fatalf("Unready = %v, want wave 1's budget", s.Unready)
	}
	if msg := s.Unready.Error(); !strings.Contains(msg, "wave 1") || !strings.Contains(msg, "4194304 steps") {
		t.Errorf("Unready message %q names neither the wave nor the budget", msg)
	}
	if peak > 32<<20 {
		t.Errorf("peak heap %.1f MiB while preparing", float64(peak)/(1<<20))
	}
	for range 10 {
		mustStep(t, s.Machine)
	}
	if s.Machine.HistoryLen() != 10 || s.Machine.StepBack() != nil {
		t.Errorf("chosen wave: %d steps recorded", s.Machine.HistoryLen())
	}
	// SiblingSteps bounds the pre-run; SiblingsAtEntry skips it.
	s, err = PrepareWave(context.Background(), loopingLaunch(t), GridConfig{Config: core.DefaultConfig(isa.GFX9), SiblingSteps: 1000}, 1)
	if err != nil || s.Unready == nil || len(s.Others) != 1 || s.Others[0].Steps() != 1000 {
		t.Errorf("SiblingSteps 1000: %v, unready %v", err, s.Unready)
	}
	s, err = PrepareWave(context.Background(), loopingLaunch(t), GridConfig{Config: core.DefaultConfig(isa.GFX9), SiblingsAtEntry: true}, 1)
	if err != nil || s.Unready != nil || len(s.Others) != 1 || s.Others[0].Steps() != 0 || s.Others[0].PC() != s.Machine.PC() {
		t.Errorf("SiblingsAtEntry: %v, unready %v", err, s.Unready)
	}
}

package tui

import (
	"bytes"
	"encoding/binary"
	"runtime"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
	"github.com/wavedbg/wavedbg/samples"
)

// openLooping opens the reduction sample (work-groups of four waves) with
// `s_branch -1` at its entry, so that no wave ever reaches the barrier.
func openLooping(t *testing.T, cfg *emu.Config) *EmuDebuggee {
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
	binary.LittleEndian.PutUint32(data[off:], 0xbf82ffff) // s_branch -1
	d, err := Open(data, Launch{Manifest: mf, Config: cfg})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	return d
}

// TestDebuggerOpensWaveWithLoopingSibling: the other waves of the
// work-group never reach the barrier. The debugger opens the wave at once
// (the session runs no other wave until the selected one needs a
// barrier), every wave at the entry, and the wave steps.
func TestDebuggerOpensWaveWithLoopingSibling(t *testing.T) {
	d := openLooping(t, nil)
	m := New(d, Options{Color: ColorPlain})
	m.Update(winSize(160, 40))
	if m.msgErr {
		t.Fatalf("opening says %q", m.msg)
	}
	for _, w := range d.waves {
		if w.m.Steps() != 0 || w.m.HistoryLen() != 0 {
			t.Errorf("wave %d starts after %d steps (%d recorded)", w.index, w.m.Steps(), w.m.HistoryLen())
		}
	}
	drive(m, keyMsg("s"), 10)
	drive(m, keyMsg("s"), 10)
	if d.StepCount() != 2 || m.msgErr {
		t.Errorf("after two steps: %d steps, %q", d.StepCount(), m.msg)
	}
}

// TestDebuggerContinueWithinHistoryBudget: a long continue in the debugger
// keeps the live heap within the history budget (emu's history and the
// debugger's step records share it), and stepping back still works.
func TestDebuggerContinueWithinHistoryBudget(t *testing.T) {
	const budget = 8 << 20
	const slack = 2 << 20
	cfg := emu.DefaultConfig(isa.GFX9)
	cfg.HistoryBytes = budget
	base := liveHeap()
	d := openLooping(t, &cfg)
	opened := liveHeap()
	for i := range 400_000 {
		if err := d.Step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	live := liveHeap()
	if live > opened && live-opened > budget+slack {
		t.Errorf("live heap grew by %.1f MiB over %d steps with a %d MiB history budget", float64(live-opened)/(1<<20), d.StepCount(), budget>>20)
	}
	t.Logf("opened: %.1f MiB; after the steps: %.1f MiB more", float64(opened-base)/(1<<20), float64(live-opened)/(1<<20))
	// A wave of four steps back by the session's replay, a record less
	// each time.
	w := d.w()
	recs := len(w.recs)
	if recs == 0 || recs >= 400_000 {
		t.Fatalf("%d records", recs)
	}
	const n = 100
	for i := range n {
		if ok, err := d.StepBack(); !ok || err != nil {
			t.Fatalf("step back %d of %d: %v %v", i+1, n, ok, err)
		}
	}
	if d.StepCount() != 400_000-n || len(w.recs) != recs-n {
		t.Errorf("after undoing %d steps: %d steps, %d records left of %d", n, d.StepCount(), len(w.recs), recs)
	}
	runtime.KeepAlive(d)
}

// liveHeap returns the live heap after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestQuitDuringRun: q while a continue runs stops it and quits.
func TestQuitDuringRun(t *testing.T) {
	for _, k := range []string{"q", "ctrl+q"} {
		f := newFake()
		f.loop = true
		m := New(f, Options{Color: ColorPlain})
		_, run := m.Update(keyMsg("c"))
		if run == nil || m.run == nil {
			t.Fatal("a never-ending continue finished in one chunk")
		}
		msg := keyMsg(k)
		if k == "ctrl+q" {
			msg = tea.KeyPressMsg{Code: 'q', Mod: tea.ModCtrl}
		}
		_, cmd := m.Update(msg)
		if cmd == nil {
			t.Fatalf("%s during a run: no command", k)
		}
		if _, ok := cmd().(tea.QuitMsg); !ok || m.run != nil {
			t.Errorf("%s during a run: %T, run %v", k, cmd(), m.run)
		}
		if _, next := m.Update(run()); next != nil {
			t.Errorf("%s: the run went on after quitting", k)
		}
	}
}

package tui

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// This file is how EmuDebuggee steps its waves: stepping forward and back,
// gathering the work-group at s_barrier, and the step records it keeps,
// bounded like emu's own history.

// waveRun is one wave and what the debugger remembers about its steps.
type waveRun struct {
	m     *emu.Machine
	group [3]int
	index int
	// recs are the newest steps' records, newest last: no more than emu
	// can undo, within recLimit bytes (recBytes, as recSize counts them).
	recs     []*emu.StepRecord
	recBytes int64
	recLimit int64
	// tally is the cache events of every step emu can undo that had some,
	// so that stepping back keeps hits, misses and evicts right past recs.
	tally []cacheStep
	snap  *emu.Snapshot // cached until the next step
	prev  *emu.Preview  // emu's preview of the next instruction, likewise
	// smem is the preview of the latest SMEM step, for the address
	// decoder's "last" view of rec.
	smem struct {
		rec *emu.StepRecord
		mem *emu.MemPreview
	}
	err     error // why the wave stopped, if it faulted
	hits    uint64
	misses  uint64
	evicts  uint64
	lastMem int // index in recs of the last memory instruction, -1 if none
	bars    int // s_barrier instructions passed
}

// cacheStep is the scalar-cache tally of step seq.
type cacheStep struct {
	seq                  uint64
	hits, misses, evicts uint16
}

// recShare is the part of the history budget (1/recShare) the debugger's
// step records get; emu's history gets the rest.
const recShare = 8

// setBudget splits a wave's history budget between emu and the records.
// A wave that records (the only one of its work-group) gives emu's journal,
// which then holds only the single steps since the last continue, as much
// as the records, and the rest to emu's checkpoints.
func (w *waveRun) setBudget(b int64, record bool) {
	w.recLimit = b / recShare
	if record {
		w.m.SetHistoryLimit(w.recLimit)
		w.m.StartRecording(b - 2*w.recLimit)
	} else {
		w.m.SetHistoryLimit(b - w.recLimit)
	}
	w.forget()
}

// stale forgets the snapshot and preview: the wave's state changed.
func (w *waveRun) stale() { w.snap, w.prev = nil, nil }

// forget drops every record (emu's history was cleared).
func (w *waveRun) forget() {
	w.recs, w.recBytes, w.tally, w.lastMem = nil, 0, nil, -1
}

func (d *EmuDebuggee) Step() error {
	w := d.w()
	bar := d.atBarrier(w)
	if bar {
		if err := d.gather(w); err != nil {
			return err
		}
	}
	if err := d.stepWave(w); err != nil {
		if errors.Is(err, emu.ErrEnded) {
			return errors.New("the wave has ended")
		}
		return err
	}
	return nil
}

// stepWave steps one wave and keeps its record.
func (d *EmuDebuggee) stepWave(w *waveRun) error {
	bar := d.atBarrier(w)
	var smem *emu.MemPreview
	if i, ok := d.prog.IndexOf(w.m.PC()); ok && d.prog.Insts[i].Enc == isa.EncSMEM {
		smem = d.previewOf(w).Mem
	}
	rec, err := w.m.Step()
	w.stale()
	if rec != nil {
		if smem != nil {
			w.smem.rec, w.smem.mem = rec, smem
		}
		w.push(rec)
		if bar {
			w.bars++
		}
	}
	if err != nil && !errors.Is(err, emu.ErrEnded) {
		w.err = err
	}
	return err
}

// atBarrier reports whether w is live and about to execute s_barrier.
func (d *EmuDebuggee) atBarrier(w *waveRun) bool {
	if st := w.m.State(); st == emu.Ended || st == emu.Faulted {
		return false
	}
	i, ok := d.prog.IndexOf(w.m.PC())
	return ok && d.bar[i]
}

// maxGather bounds the steps another wave takes to reach a barrier.
const maxGather = 1 << 20

// gather brings every other live wave of the work-group to the s_barrier
// that w is about to pass (its bars-th): a wave behind runs (recorded, so
// it can be stepped back) until it waits there or ends. Waves that have
// passed more barriers than w stay where they are.
func (d *EmuDebuggee) gather(w *waveRun) error {
	for _, o := range d.waves {
		if o == w {
			continue
		}
		for n := 0; ; n++ {
			if o.m.State() == emu.Ended || o.err != nil || o.m.State() == emu.Faulted {
				break
			}
			if o.bars > w.bars || o.bars == w.bars && d.atBarrier(o) {
				break // ahead of w, or waiting at w's barrier
			}
			if n == maxGather {
				return fmt.Errorf("wave %d did not reach the barrier in %d steps", o.index, maxGather)
			}
			if err := d.stepWave(o); err != nil {
				if errors.Is(err, emu.ErrEnded) {
					break
				}
				return fmt.Errorf("wave %d, on its way to the barrier: %w", o.index, err)
			}
		}
	}
	return nil
}

// push keeps rec, then drops the oldest records when there are more than
// emu can undo or they exceed their budget. The newest record stays: it
// says what the last step changed.
func (w *waveRun) push(rec *emu.StepRecord) {
	w.recs = append(w.recs, rec)
	w.recBytes += recSize(rec)
	var t cacheStep
	for _, e := range rec.Cache {
		switch e.Kind {
		case emu.CacheHit:
			w.hits++
			t.hits++
		case emu.CacheMiss:
			w.misses++
			t.misses++
		case emu.CacheEvict:
			w.evicts++
			t.evicts++
		}
	}
	if t != (cacheStep{}) {
		t.seq = rec.Seq
		w.tally = append(w.tally, t)
	}
	if isMemory(rec.Inst) || len(rec.Addrs) > 0 {
		w.lastMem = len(w.recs) - 1
	}
	if keep := max(w.m.HistoryLen(), 1); len(w.recs) > keep || w.recBytes > w.recLimit && len(w.recs) > 1 {
		// Drop down to 3/4 of both bounds, so that dropping is rare.
		keep = max(keep*3/4, 1)
		drop, b := 0, w.recBytes
		for ; drop < len(w.recs)-1 && (len(w.recs)-drop > keep || b > w.recLimit*3/4); drop++ {
			b -= recSize(w.recs[drop])
		}
		w.dropRecs(drop)
	}
	if len(w.tally) >= 64 && len(w.tally) == cap(w.tally) {
		w.trimTally()
	}
}

// dropRecs forgets the n oldest records.
func (w *waveRun) dropRecs(n int) {
	for _, r := range w.recs[:n] {
		w.recBytes -= recSize(r)
	}
	k := copy(w.recs, w.recs[n:])
	clear(w.recs[k:])
	w.recs = w.recs[:k]
	if w.lastMem -= n; w.lastMem < 0 {
		w.lastMem = -1
	}
}

// trimTally forgets the tallies of steps emu can no longer undo.
func (w *waveRun) trimTally() {
	oldest := w.m.Steps() - uint64(w.m.HistoryLen()) // steps up to it are gone
	i := 0
	for i < len(w.tally) && w.tally[i].seq <= oldest {
		i++
	}
	w.tally = append(w.tally[:0], w.tally[i:]...)
}

// recSize estimates the heap a step record holds.
func recSize(r *emu.StepRecord) int64 {
	n := unsafe.Sizeof(*r) +
		uintptr(cap(r.SRegs))*unsafe.Sizeof(emu.SRegChange{}) +
		uintptr(cap(r.VRegs))*unsafe.Sizeof(emu.VRegChange{}) +
		uintptr(cap(r.Mem))*unsafe.Sizeof(emu.MemWrite{}) +
		uintptr(cap(r.Issued)+cap(r.Completed))*unsafe.Sizeof(emu.InFlight{}) +
		uintptr(cap(r.Cache))*unsafe.Sizeof(emu.CacheEvent{}) +
		uintptr(cap(r.Addrs))*unsafe.Sizeof(emu.LaneAddr{}) +
		uintptr(cap(r.Hazards))*unsafe.Sizeof(emu.Hazard{}) +
		uintptr(cap(r.Notes))*unsafe.Sizeof("")
	for _, m := range r.Mem {
		n += uintptr(cap(m.Old) + cap(m.New))
	}
	for _, f := range r.Issued {
		n += uintptr(cap(f.Dest)) * unsafe.Sizeof("")
	}
	for _, s := range r.Notes {
		n += uintptr(len(s))
	}
	return int64(n)
}

// StepBack undoes the last step: from emu's journal while it holds it,
// else (a recording wave, after a continue, an edit or a reverse move) by
// emu's replay.
func (d *EmuDebuggee) StepBack() (bool, error) {
	w := d.w()
	if w.m.HistoryLen() == 0 && w.m.Recording() {
		moved, _, err := d.ReverseStepN(1)
		return moved, err
	}
	if err := w.m.StepBack(); err != nil {
		if errors.Is(err, emu.ErrNoHistory) {
			return false, nil
		}
		return false, err
	}
	w.stale()
	w.err = nil
	// The undone step is the instruction the wave is back at.
	if i, ok := d.prog.IndexOf(w.m.PC()); ok && d.bar[i] && w.bars > 0 {
		w.bars--
	}
	if n := len(w.tally); n > 0 && w.tally[n-1].seq == w.m.Steps()+1 {
		t := w.tally[n-1]
		w.hits -= uint64(t.hits)
		w.misses -= uint64(t.misses)
		w.evicts -= uint64(t.evicts)
		w.tally = w.tally[:n-1]
	}
	if n := len(w.recs); n > 0 {
		w.recBytes -= recSize(w.recs[n-1])
		w.recs[n-1] = nil
		w.recs = w.recs[:n-1]
		if w.lastMem >= len(w.recs) {
			w.lastMem = -1
			for i := len(w.recs) - 1; i >= 0; i-- {
				if isMemory(w.recs[i].Inst) || len(w.recs[i].Addrs) > 0 {
					w.lastMem = i
					break
				}
			}
		}
	}
	return true, nil
}

package tui

import (
	"context"
	"errors"
	"unsafe"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// This file is how EmuDebuggee steps the selected wave — forward and back,
// on the session, which brings the other waves to a barrier itself — and
// the step records it keeps, bounded like emu's own history.

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
	// replay is set for a wave of a work-group of several: its steps are
	// undone by the session's replay (no journal), so its records are
	// bounded by bytes only
	replay  bool
	err     error // why the wave stopped, if it faulted
	hits    uint64
	misses  uint64
	evicts  uint64
	lastMem int // index in recs of the last memory instruction, -1 if none
}

// cacheStep is the scalar-cache tally of step seq.
type cacheStep struct {
	seq                  uint64
	hits, misses, evicts uint16
}

// recShare is the part of the history budget (1/recShare) the debugger's
// step records get; the session's recording gets the rest.
const recShare = 8

// stale forgets the snapshot and preview: the wave's state changed.
func (w *waveRun) stale() { w.snap, w.prev = nil, nil }

// forget drops every record (emu's history was cleared).
func (w *waveRun) forget() {
	w.recs, w.recBytes, w.tally, w.lastMem = nil, 0, nil, -1
}

// Step executes one instruction of the selected wave on the session
// (which first brings the other waves to a barrier it is about to pass)
// and keeps its record.
func (d *EmuDebuggee) Step() error {
	w := d.w()
	var smem *emu.MemPreview
	if i, ok := d.prog.IndexOf(w.m.PC()); ok && d.prog.Insts[i].Enc == isa.EncSMEM {
		smem = d.previewOf(w).Mem
	}
	before := d.positions()
	recs, st := d.sess.Step(context.Background(), 1)
	d.movedOthers(before)
	w.stale()
	for _, rec := range recs {
		if smem != nil {
			w.smem.rec, w.smem.mem = rec, smem
		}
		w.push(rec)
	}
	switch {
	case st.Reason == emu.StopEnded && len(recs) == 0:
		return errors.New("the wave has ended")
	case st.Err != nil && len(recs) == 0:
		return st.Err
	case st.Err != nil:
		w.err = st.Err
		return st.Err
	}
	return nil
}

// positions returns every wave's instructions retired.
func (d *EmuDebuggee) positions() []uint64 {
	out := make([]uint64, len(d.waves))
	for i, w := range d.waves {
		out[i] = w.m.Steps()
	}
	return out
}

// movedOthers forgets the records and views of the waves other than the
// selected one that moved since before (positions): the session ran them
// to a barrier, or a reverse move took them back.
func (d *EmuDebuggee) movedOthers(before []uint64) {
	for i, w := range d.waves {
		if i != d.sel && w.m.Steps() != before[i] {
			w.forget()
			w.stale()
			w.err = nil
		}
	}
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
	keep := max(w.m.HistoryLen(), 1)
	if w.replay {
		keep = len(w.recs)
	}
	if len(w.recs) > keep || w.recBytes > w.recLimit && len(w.recs) > 1 {
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
	if w.replay {
		oldest = w.m.Steps()
		if len(w.recs) > 0 {
			oldest = w.recs[0].Seq - 1 // the records' steps stay
		}
	}
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

// StepBack undoes the last step: from emu's journal while it holds it (a
// wave alone in its work-group, since its last continue, edit or reverse
// move), else by the session's replay; a wave of several keeps its
// records, less the undone step's.
func (d *EmuDebuggee) StepBack() (bool, error) {
	w := d.w()
	steps := w.m.Steps()
	switch {
	case w.m.HistoryLen() > 0:
		if err := w.m.StepBack(); err != nil {
			if errors.Is(err, emu.ErrNoHistory) {
				return false, nil
			}
			return false, err
		}
	case w.replay:
		before := d.positions()
		_, st := d.sess.ReverseStep(context.Background(), 1)
		if st.Reason == emu.StopStart {
			return false, nil
		}
		d.movedOthers(before)
		if st.Err != nil {
			return true, st.Err
		}
	default:
		moved, _, err := d.ReverseStepN(1)
		return moved, err
	}
	w.stale()
	w.err = nil
	if w.m.Steps() == steps {
		return true, nil // an edit was undone
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

package emu

import (
	"sync"
	"sync/atomic"
)

// groupStats are the counts of one work-group's run.
type groupStats struct {
	waves        uint64
	instructions uint64
	cycles       uint64
	maxCycles    uint64
	faults       []WaveError
}

// tally adds work-groups' counts to a GridResult in dispatch order, so that
// a run stopped by a fault or an error counts exactly the work-groups up to
// and including the one that stopped it, whatever other workers ran
// meanwhile. Workers finish out of order: a work-group's counts wait in
// early until every earlier work-group has been added.
type tally struct {
	mu    sync.Mutex
	res   *GridResult
	stop  *atomic.Uint64 // the first work-group that faulted or failed (^0: none)
	next  uint64         // the work-group to add next
	early []earlyStats   // early[head+i]: work-group next+i
	head  int
}

type earlyStats struct {
	done bool
	st   groupStats
}

func newTally(res *GridResult, stop *atomic.Uint64) *tally {
	return &tally{res: res, stop: stop}
}

// add records work-group n's counts. A worker that stops the run at n
// lowers stop before calling add.
func (t *tally) add(n uint64, st *groupStats) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n < t.next {
		return // cannot happen: each work-group is added once
	}
	i := t.head + int(n-t.next)
	for len(t.early) <= i {
		t.early = append(t.early, earlyStats{})
	}
	t.early[i] = earlyStats{done: true, st: *st}
	stop := t.stop.Load()
	for t.head < len(t.early) && t.early[t.head].done && t.next <= stop {
		c := &t.early[t.head]
		r := t.res
		r.WorkGroups++
		r.Waves += c.st.waves
		r.Instructions += c.st.instructions
		r.Cycles += c.st.cycles
		r.MaxCycles = max(r.MaxCycles, c.st.maxCycles)
		r.Faults = append(r.Faults, c.st.faults...)
		*c = earlyStats{}
		t.head++
		t.next++
	}
	if t.head == len(t.early) {
		t.early, t.head = t.early[:0], 0
	} else if t.head > 64 && t.head*2 > len(t.early) {
		k := copy(t.early, t.early[t.head:])
		clear(t.early[k:])
		t.early, t.head = t.early[:k], 0
	}
}

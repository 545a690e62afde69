package emu

import (
	"sync"
	"sync/atomic"
)

// groupStats are the counts of one work-group's run, or of a chunk of
// consecutive ones.
type groupStats struct {
	waves        uint64
	instructions uint64
	cycles       uint64
	maxCycles    uint64
	faults       []WaveError
}

// add adds o's counts to s.
func (s *groupStats) add(o *groupStats) {
	s.waves += o.waves
	s.instructions += o.instructions
	s.cycles += o.cycles
	s.maxCycles = max(s.maxCycles, o.maxCycles)
	s.faults = append(s.faults, o.faults...)
}

// tally adds chunks of work-groups' counts to a GridResult in dispatch
// order, so that a run stopped by a fault or an error counts exactly the
// work-groups up to and including the one that stopped it, whatever other
// workers ran meanwhile. Workers finish out of order: a chunk's counts wait
// in early until every earlier chunk has been added.
type tally struct {
	mu    sync.Mutex
	res   *GridResult
	stop  *atomic.Uint64        // the first work-group that faulted or failed (^0: none)
	next  uint64                // the work-group to add next
	early map[uint64]earlyStats // by first work-group
}

// earlyStats are the counts of work-groups [first, end), the key in early.
type earlyStats struct {
	end uint64
	st  groupStats
}

func newTally(res *GridResult, stop *atomic.Uint64) *tally {
	return &tally{res: res, stop: stop, early: map[uint64]earlyStats{}}
}

// add records the counts of work-groups [lo, hi). A worker that stops the
// run at a work-group lowers stop before adding the chunk that ends with
// it; chunks after stop are dropped.
func (t *tally) add(lo, hi uint64, st *groupStats) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.early[lo] = earlyStats{end: hi, st: *st}
	stop := t.stop.Load()
	for t.next <= stop {
		e, ok := t.early[t.next]
		if !ok {
			break
		}
		delete(t.early, t.next)
		r := t.res
		r.WorkGroups += e.end - t.next
		r.Waves += e.st.waves
		r.Instructions += e.st.instructions
		r.Cycles += e.st.cycles
		r.MaxCycles = max(r.MaxCycles, e.st.maxCycles)
		r.Faults = append(r.Faults, e.st.faults...)
		t.next = e.end
	}
}

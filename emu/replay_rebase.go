package emu

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// A recording keeps, for every page written since it began, the page's
// content before its first write: thinning checkpoints does not shrink
// that. When those originals pass half the budget, rebase makes the
// current position the start of the recording — reverse moves stop there
// from now on — and logs pages afresh, so that the recording stays within
// its budget however much memory the run writes.

// rebase restarts the recording at position now, where m is running.
func (r *replay) rebase(m *Machine, now uint64) {
	var base []int
	if r.n > 1 {
		base = make([]int, r.n)
		for w := range base {
			base[w] = r.passed(w, now)
		}
	}
	r.log = core.NewPageLog()
	r.mem.TrackPages(r.log) // drops cached page pointers (Memory.gen)
	r.events, r.ev = nil, 0
	r.clean = r.clean[:0]
	for _, w := range r.waves {
		w.Hist.Clear()
	}
	if r.n > 1 {
		r.sched = newSched(r.n, r.bar)
		r.base = base
	}
	r.cks = []*checkpoint{r.takeCheckpoint(nil, now, 0)}
	r.end, r.atEnd = now, true
	if r.n > 1 {
		r.note(r.index(m), m, now)
	}
	r.rebases++
}

// before returns the s_barrier instructions wave w passed before the
// recording's start.
func (s *sched) before(w int) int {
	if s.base == nil {
		return 0
	}
	return s.base[w]
}

// RecordingStart returns the position reverse moves go back to at most:
// where the recording began, or where it last restarted to stay within its
// budget (see Rebases).
func (m *Machine) RecordingStart() uint64 {
	if m.rp == nil {
		return 0
	}
	return m.rp.cks[0].steps
}

// Rebases returns how often the recording restarted because the memory it
// had to keep passed half its budget.
func (m *Machine) Rebases() int {
	if m.rp == nil {
		return 0
	}
	return m.rp.rebases
}

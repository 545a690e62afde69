package emu

import (
	"context"
	"errors"
	"fmt"
	"sort"
)

// Reverse execution by checkpoints and deterministic replay (the design rr
// and UndoDB use). While a machine records (StartRecording), Run takes a
// checkpoint every interval instructions and the user's edits (the setters,
// WriteMemory) go into a log with the step count they were made at.
// Going back to an earlier point restores the nearest checkpoint before it
// and replays forward on the fast engine — the same instructions from the
// same state give the same state — applying the logged edits on the way.
// The journal (history.go) still undoes single steps at once; it holds
// only the steps since the last Run, edit or reverse move.
//
// A point of the recording is a position: the instructions retired and the
// edits applied. Stepping back moves one unit: an edit made since the last
// step, else one instruction.

// defaultInterval is the instructions between checkpoints (at about 30 M
// instructions a second, a replay of one interval takes some 2 ms).
const defaultInterval = 1 << 16

// maxCheckpoints bounds the checkpoints kept, whatever the budget.
const maxCheckpoints = 1024

// event is one edit of the recording.
type event struct {
	steps uint64
	apply func(m *Machine)
}

// replay is a machine's recording.
type replay struct {
	interval  uint64
	fixed     bool // set by SetCheckpointInterval: no growth with the pages written
	budget    int64
	cks       []*checkpoint // in position order; cks[0] is the start
	events    []event
	ev        int // edits applied
	log       *pageLog
	replaying bool // inside a reverse move: no truncation, no checkpoints

	// clean are the spans of positions recorded runs found no breakpoint
	// at, for the breakpoints of Machine.bpVer: reverse-continue need not
	// replay them.
	clean []cleanSpan
}

// cleanSpan is the positions [lo, hi) with ev edits applied where the next
// instruction had none of the breakpoints of version ver.
type cleanSpan struct {
	lo, hi uint64
	ev     int
	ver    uint64
}

// maxClean bounds the clean spans kept.
const maxClean = 4096

// addClean notes a span of positions without breakpoints.
func (r *replay) addClean(lo, hi uint64, ev int, ver uint64) {
	if lo >= hi {
		return
	}
	if n := len(r.clean); n > 0 {
		if l := &r.clean[n-1]; l.ev == ev && l.ver == ver && l.hi >= lo && l.lo <= hi {
			l.lo, l.hi = min(l.lo, lo), max(l.hi, hi)
			return
		}
	}
	if len(r.clean) == maxClean {
		r.clean = append(r.clean[:0], r.clean[1:]...)
	}
	r.clean = append(r.clean, cleanSpan{lo, hi, ev, ver})
}

// covered reports whether the positions [lo, hi) with ev edits applied
// are all in clean spans of version ver.
func (r *replay) covered(lo, hi uint64, ev int, ver uint64) bool {
	for p := lo; p < hi; {
		next := p
		for _, c := range r.clean {
			if c.ev == ev && c.ver == ver && c.lo <= p && p < c.hi {
				next = max(next, c.hi)
			}
		}
		if next == p {
			return false
		}
		p = next
	}
	return true
}

// ErrNotRecording is returned by the reverse moves of a machine that is not
// recording.
var ErrNotRecording = errors.New("emu: reverse execution needs StartRecording")

// StartRecording makes the current state the start of a recording that
// reverse moves can go back to, within budget bytes of checkpoints (0:
// Config.HistoryBytes). From now on Run takes checkpoints; the setters and
// WriteMemory are logged edits, undone by stepping back, and no longer
// clear the history. The memory's written pages are tracked, so the
// machine must be the only one writing its memory while it records.
func (m *Machine) StartRecording(budget int64) {
	if budget <= 0 {
		budget = m.Config.HistoryBytes
	}
	l := newPageLog()
	m.hist.clear()
	m.rp = &replay{interval: defaultInterval, budget: budget, log: l}
	m.Mem.trackPages(l)
	m.rp.cks = []*checkpoint{m.takeCheckpoint(nil, 0, l)}
}

// StopRecording ends the recording and frees its checkpoints.
func (m *Machine) StopRecording() {
	if m.rp != nil {
		m.Mem.trackPages(nil)
		m.rp = nil
	}
}

// Recording reports whether the machine records for reverse execution.
func (m *Machine) Recording() bool { return m.rp != nil }

// SetCheckpointInterval sets the instructions between checkpoints (n > 0).
// By default they are 65,536, or more when many pages have been written
// (every checkpoint compares them).
func (m *Machine) SetCheckpointInterval(n uint64) {
	if m.rp != nil && n > 0 {
		m.rp.interval, m.rp.fixed = n, true
	}
}

// Checkpoints returns how many checkpoints the recording holds.
func (m *Machine) Checkpoints() int {
	if m.rp == nil {
		return 0
	}
	return len(m.rp.cks)
}

// RecordingBytes returns the memory the recording holds: checkpoints, their
// page versions and the pages' original content.
func (m *Machine) RecordingBytes() int64 {
	if m.rp == nil {
		return 0
	}
	return m.rp.bytes()
}

func (r *replay) bytes() int64 {
	n := r.log.bytes()
	for _, c := range r.cks {
		n += c.size() + int64(c.own)*pageSize
	}
	return n
}

// edit applies f, an edit of the state: logged when recording (the history
// stays), else it clears the history as every setter always did.
func (m *Machine) edit(f func(m *Machine)) {
	if r := m.rp; r != nil {
		r.truncate(m, true)
		r.clean = r.clean[:0]
	}
	f(m)
	m.hist.clear()
	if r := m.rp; r != nil {
		r.events = append(r.events, event{steps: m.Steps(), apply: f})
		r.ev++
	}
}

// WriteMemory writes b at addr as an edit (see StartRecording). It fails,
// writing nothing, if any byte is unmapped.
func (m *Machine) WriteMemory(addr uint64, b []byte) error {
	if ok, bad := m.Mem.Mapped(addr, len(b)); !ok {
		return fmt.Errorf("emu: write of %d bytes at 0x%x: 0x%x is unmapped", len(b), addr, bad)
	}
	b = append([]byte(nil), b...)
	m.edit(func(m *Machine) { m.Mem.writeRaw(addr, b) })
	return nil
}

// truncate forgets the recorded future past the current position before
// the machine moves forward from it: the edits not applied and the
// checkpoints that depend on them — before an edit, every later one.
func (r *replay) truncate(m *Machine, edit bool) {
	if r.replaying || r.ev == len(r.events) && !edit {
		return
	}
	r.events = r.events[:r.ev]
	s, k := m.Steps(), 0
	for _, c := range r.cks {
		if c.ev <= r.ev && (!edit || c.steps <= s) {
			r.cks[k] = c
			k++
		}
	}
	clear(r.cks[k:])
	r.cks = r.cks[:k]
	for i := 1; i < len(r.cks); i++ {
		r.cks[i].own = ownPages(r.cks[i], r.cks[i-1])
	}
}

// maybeCheckpoint takes a checkpoint when the last is interval or more
// instructions behind.
func (r *replay) maybeCheckpoint(m *Machine) {
	if r.replaying {
		return
	}
	s := m.Steps()
	i := r.find(s, r.ev)
	if i >= 0 && s-r.cks[i].steps < r.every() {
		return
	}
	r.insert(m, i)
}

// pageSteps is the instructions between checkpoints per written page
// under the default interval: a checkpoint compares every page written
// since recording began with its last version (some 0.4 µs a page), so
// that it costs a few percent of the run between checkpoints.
const pageSteps = 128

// every returns the instructions between checkpoints.
func (r *replay) every() uint64 {
	if r.fixed {
		return r.interval
	}
	return max(r.interval, uint64(len(r.log.pns))*pageSteps)
}

// find returns the index of the last checkpoint at or before (steps, ev),
// or -1. Along the recording both coordinates only grow, so the ones at
// or before a position are a prefix of cks.
func (r *replay) find(steps uint64, ev int) int {
	return sort.Search(len(r.cks), func(i int) bool {
		c := r.cks[i]
		return c.steps > steps || c.ev > ev
	}) - 1
}

// insert takes a checkpoint of the current position after cks[i], then
// thins the checkpoints to the budget.
func (r *replay) insert(m *Machine, i int) {
	var prev *checkpoint
	if i >= 0 {
		prev = r.cks[i]
		if prev.steps == m.Steps() && prev.ev == r.ev {
			return
		}
	}
	c := m.takeCheckpoint(prev, r.ev, r.log)
	r.cks = append(r.cks, nil)
	copy(r.cks[i+2:], r.cks[i+1:])
	r.cks[i+1] = c
	if i+2 < len(r.cks) {
		r.cks[i+2].own = ownPages(r.cks[i+2], c)
	}
	r.thin(m.Steps())
}

// thin drops checkpoints until they fit the budget and maxCheckpoints:
// each time the one whose neighbours are closest together for its distance
// from now, so that the spacing grows with the distance (exponentially,
// as the budget allows). The start and the newest checkpoint stay.
func (r *replay) thin(now uint64) {
	for len(r.cks) > 2 && (len(r.cks) > maxCheckpoints || r.bytes() > r.budget) {
		best, bestScore := 0, 0.0
		for i := 1; i < len(r.cks)-1; i++ {
			gap := float64(r.cks[i+1].steps - r.cks[i-1].steps)
			d := float64(stepGap(r.cks[i].steps, now) + r.interval)
			if s := gap / d; best == 0 || s < bestScore {
				best, bestScore = i, s
			}
		}
		copy(r.cks[best:], r.cks[best+1:])
		r.cks[len(r.cks)-1] = nil
		r.cks = r.cks[:len(r.cks)-1]
		r.cks[best].own = ownPages(r.cks[best], r.cks[best-1])
	}
}

func stepGap(a, b uint64) uint64 {
	if a > b {
		return a - b
	}
	return b - a
}

// position returns the current position.
func (m *Machine) position() (uint64, int) { return m.Steps(), m.rp.ev }

// back returns the position n units before (steps, ev), stopping at the
// start of the recording; ok is false when it is already there.
func (r *replay) back(steps uint64, ev int, n uint64) (uint64, int, bool) {
	start := r.cks[0]
	moved := false
	for ; n > 0; n-- {
		if ev > start.ev && r.events[ev-1].steps == steps && (steps > start.steps || ev > start.ev) {
			ev--
		} else if steps > start.steps {
			steps--
			for ev > 0 && r.events[ev-1].steps > steps {
				ev--
			}
		} else {
			break
		}
		moved = true
	}
	return steps, ev, moved
}

// goTo moves the machine to the position (steps, ev) of the recording:
// it restores the last checkpoint before it and replays forward. When the
// position is an instruction's end (no edit follows it there), that
// instruction is replayed through Step, so that its record — what the last
// step did — is returned.
func (m *Machine) goTo(ctx context.Context, steps uint64, ev int) (*StepRecord, error) {
	r := m.rp
	r.replaying = true
	defer func() { r.replaying = false }()
	var rec *StepRecord
	lastStep := steps > r.cks[0].steps && (ev == 0 || r.events[ev-1].steps < steps)
	ts, tev := steps, ev
	if lastStep {
		ts, tev = steps-1, r.eventsUpTo(steps-1, ev)
	}
	i := r.find(ts, tev)
	if i < 0 {
		return nil, ErrNoHistory
	}
	m.restore(r.cks[i], r.log)
	r.ev = r.cks[i].ev
	if err := m.advance(ctx, ts, tev, nil, nil); err != nil {
		return nil, err
	}
	if lastStep {
		rec, _ = m.Step()
		if err := m.advance(ctx, steps, ev, nil, nil); err != nil {
			return rec, err
		}
	}
	return rec, nil
}

// eventsUpTo returns how many of the first max edits were made at or
// before steps.
func (r *replay) eventsUpTo(steps uint64, max int) int {
	n := 0
	for n < max && r.events[n].steps <= steps {
		n++
	}
	return n
}

// AtStart reports whether a recording machine is at the start of its
// recording.
func (m *Machine) AtStart() bool {
	r := m.rp
	return r != nil && m.Steps() == r.cks[0].steps && r.ev == r.cks[0].ev
}

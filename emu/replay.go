package emu

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// Reverse execution by checkpoints and deterministic replay (the design rr
// and UndoDB use). While a machine records (StartRecording), Run takes a
// checkpoint every interval instructions and the user's edits (the setters,
// WriteMemory) go into a log with the step count they were made at.
// Going back to an earlier point restores the nearest checkpoint before it
// and replays forward on the fast engine — the same instructions from the
// same state give the same state — applying the logged edits on the way.
// The journal (internal/core/history.go) still undoes single steps at once; it holds
// only the steps since the last Run, edit or reverse move.
//
// A point of the recording is a position: the instructions retired and the
// edits applied. Stepping back moves one unit: an edit made since the last
// step, else one instruction.
//
// A recording covers a group of waves over one memory: one wave
// (StartRecording) or a Session's work-group. A group checkpoint holds
// every wave's state and the pages at one moment; positions count the
// group's instructions, and a schedule log (replay_sched.go) says which
// wave ran each, so that replay runs the same waves in the same order.
// One wave is a group of one and keeps no schedule.

// defaultInterval is the instructions between checkpoints (at about 30 M
// instructions a second, a replay of one interval takes some 2 ms).
const defaultInterval = 1 << 16

// maxCheckpoints bounds the checkpoints kept, whatever the budget.
const maxCheckpoints = 1024

// event is one edit of the recording, made on wave (its index in the
// group) at position steps.
type event struct {
	steps uint64
	wave  int
	apply func(m *Machine)
}

// replay is a group's recording: one wave's (StartRecording) or a whole
// work-group's (Session), over one memory. Positions count the group's
// instructions; with several waves a schedule log says which wave ran
// each of them (replay_sched.go).
type replay struct {
	waves     []*Machine
	mem       *Memory
	interval  uint64
	fixed     bool // set by SetCheckpointInterval: no growth with the pages written
	budget    int64
	cks       []*checkpoint // in position order; cks[0] is the start
	events    []event
	ev        int // edits applied
	log       *core.PageLog
	replaying bool // inside a reverse move: no truncation, no checkpoints

	sched // several waves: who ran when, barriers passed

	// clean are the spans of positions recorded runs found no breakpoint
	// at, for the breakpoints of version ver (Machine.bpVer; with several
	// waves the Session's gver, for its selected wave): reverse-continue
	// need not replay them.
	clean []cleanSpan
	gver  uint64

	rebases int // restarts to stay within the budget (replay_rebase.go)
}

// ver is the version of m's breakpoints that clean spans are for.
func (r *replay) ver(m *Machine) uint64 {
	if len(r.waves) == 1 {
		return m.bpVer
	}
	return r.gver
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
	m.StopRecording()
	newReplay([]*Machine{m}, nil, budget)
}

// newReplay starts recording the group waves, which share one memory,
// within budget bytes; bar marks the s_barrier instructions (several
// waves only).
func newReplay(waves []*Machine, bar []bool, budget int64) *replay {
	l := core.NewPageLog()
	r := &replay{waves: waves, mem: waves[0].Mem, interval: defaultInterval, budget: budget, log: l}
	if len(waves) > 1 {
		r.sched = newSched(len(waves), bar)
	}
	for _, m := range waves {
		m.Hist.Clear()
		m.rp = r
	}
	r.mem.TrackPages(l)
	r.cks = []*checkpoint{r.takeCheckpoint(nil, r.now(), 0)}
	return r
}

// StopRecording ends the recording (of the machine's whole group) and
// frees its checkpoints.
func (m *Machine) StopRecording() {
	if r := m.rp; r != nil {
		r.mem.TrackPages(nil)
		for _, w := range r.waves {
			w.rp = nil
		}
	}
}

// now returns the current position's instruction count: the group's
// instructions retired.
func (r *replay) now() uint64 {
	if len(r.waves) == 1 {
		return r.waves[0].Steps()
	}
	var n uint64
	for _, m := range r.waves {
		n += m.Steps()
	}
	return n
}

// index returns m's index in the group.
func (r *replay) index(m *Machine) int {
	for i, w := range r.waves {
		if w == m {
			return i
		}
	}
	return 0
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
	n := r.log.Bytes() + r.sched.bytes()
	for _, c := range r.cks {
		n += c.size() + int64(c.own)*core.PageSize
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
	m.Hist.Clear()
	if r := m.rp; r != nil {
		r.events = append(r.events, event{steps: r.now(), wave: r.index(m), apply: f})
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
	m.edit(func(m *Machine) { m.Mem.WriteRaw(addr, b) })
	return nil
}

// truncate forgets the recorded future past the current position before
// m moves forward from it (or, with edit, before an edit): the edits not
// applied and the checkpoints that depend on them — before an edit, every
// later one. One wave's future does not depend on anything else; a
// group's depends on the schedule, so all of it goes. It returns the
// position.
func (r *replay) truncate(m *Machine, edit bool) (now uint64) {
	now = r.now()
	if r.replaying {
		return now
	}
	if len(r.waves) > 1 {
		if now < r.end || r.ev < len(r.events) {
			r.cut(now, true)
		}
		if !edit {
			r.note(r.index(m), m, now)
		}
		return now
	}
	if r.ev < len(r.events) || edit {
		r.cut(now, edit)
	}
	return now
}

// cut drops the edits not applied and the checkpoints after them, or with
// all, every checkpoint after now.
func (r *replay) cut(now uint64, all bool) {
	r.events = r.events[:r.ev]
	k := 0
	for _, c := range r.cks {
		if c.ev <= r.ev && (!all || c.steps <= now) {
			r.cks[k] = c
			k++
		}
	}
	clear(r.cks[k:])
	r.cks = r.cks[:k]
	for i := 1; i < len(r.cks); i++ {
		r.cks[i].own = ownPages(r.cks[i], r.cks[i-1])
	}
	if r.sched.n > 1 {
		r.sched.cut(now)
		k := 0
		for _, c := range r.clean {
			if c.lo < now {
				c.hi = min(c.hi, now)
				r.clean[k] = c
				k++
			}
		}
		r.clean = r.clean[:k]
	}
}

// maybeCheckpoint takes a checkpoint when the last is interval or more
// instructions behind.
func (r *replay) maybeCheckpoint(m *Machine) {
	if !r.replaying {
		r.checkpointAt(m, r.now())
	}
}

// checkpointAt is maybeCheckpoint at the current position s.
func (r *replay) checkpointAt(m *Machine, s uint64) {
	if r.replaying {
		return
	}
	r.end, r.atEnd = max(r.end, s), true
	i := r.find(s, r.ev)
	if i >= 0 && s-r.cks[i].steps < r.every() {
		return
	}
	r.insert(m, i)
	if r.log.Bytes() > r.budget/2 || r.bytes() > r.budget {
		r.rebase(m, s) // replay_rebase.go
	}
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
	return max(r.interval, uint64(len(r.log.Pns))*pageSteps)
}

// find returns the index of the last checkpoint at or before (steps, ev),
// or -1. Along the recording both coordinates only grow, so the ones at
// or before a position are a prefix of cks.
func (r *replay) find(steps uint64, ev int) int {
	if n := len(r.cks); n > 0 && !r.cks[n-1].after(steps, ev) {
		return n - 1 // at the end of the recording, as a forward run is
	}
	return sort.Search(len(r.cks), func(i int) bool { return r.cks[i].after(steps, ev) }) - 1
}

// insert takes a checkpoint of the current position after cks[i], then
// thins the checkpoints to the budget.
func (r *replay) insert(m *Machine, i int) {
	var prev *checkpoint
	now := r.now()
	if i >= 0 {
		prev = r.cks[i]
		if prev.steps == now && prev.ev == r.ev {
			return
		}
	}
	c := r.takeCheckpoint(prev, now, r.ev)
	r.cks = append(r.cks, nil)
	copy(r.cks[i+2:], r.cks[i+1:])
	r.cks[i+1] = c
	if i+2 < len(r.cks) {
		r.cks[i+2].own = ownPages(r.cks[i+2], c)
	}
	r.thin(now)
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
func (m *Machine) position() (uint64, int) { return m.rp.now(), m.rp.ev }

// back returns the position n units of wave w before (steps, ev),
// stopping at the start of the recording; ok is false when it is already
// there. A unit is an edit made at that position, else the wave's last
// instruction before it: the group goes back to just before it.
func (r *replay) back(w int, steps uint64, ev int, n uint64) (uint64, int, bool) {
	start := r.cks[0]
	moved := false
	for ; n > 0; n-- {
		if ev > start.ev && r.events[ev-1].steps == steps && (steps > start.steps || ev > start.ev) {
			ev--
		} else if p, ok := r.lastOf(w, steps); ok {
			steps = p
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

// lastOf returns the position of wave w's last instruction before steps
// in the recording, if it has one there.
func (r *replay) lastOf(w int, steps uint64) (uint64, bool) {
	start := r.cks[0].steps
	if steps <= start {
		return 0, false
	}
	if len(r.waves) == 1 {
		return steps - 1, true
	}
	p, ok := r.sched.lastOf(w, steps)
	return p, ok && p >= start
}

// goTo moves the group to the position (steps, ev) of the recording: it
// restores the last checkpoint before it and replays forward. When m ran
// an instruction before the position and no edit follows it there, that
// instruction is replayed through Step, so that its record — what m's
// last step did — is returned.
func (m *Machine) goTo(ctx context.Context, steps uint64, ev int) (*StepRecord, error) {
	r := m.rp
	r.replaying = true
	defer func() { r.replaying = false }()
	var rec *StepRecord
	p, lastStep := r.lastOf(r.index(m), steps)
	lastStep = lastStep && (ev == 0 || r.events[ev-1].steps < steps)
	ts, tev := steps, ev
	if lastStep {
		ts, tev = p, r.eventsUpTo(p, ev)
	}
	i := r.find(ts, tev)
	if i < 0 {
		return nil, core.ErrNoHistory
	}
	r.restore(r.cks[i])
	if err := r.advance(ctx, ts, tev, nil, nil, nil); err != nil {
		return nil, err
	}
	if lastStep {
		rec, _ = m.Step()
		if p+1 < steps {
			m.Hist.Clear() // other waves ran after it: it cannot be undone alone
		}
		if err := r.advance(ctx, steps, ev, nil, nil, nil); err != nil {
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
	return r != nil && r.now() == r.cks[0].steps && r.ev == r.cks[0].ev
}

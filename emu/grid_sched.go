package emu

import (
	"context"
	"sync/atomic"
)

// chunkWaves bounds a chunk: about this many waves (at least one
// work-group). A few hundred µs of work for short kernels; a worker that is
// descheduled holds back at most one chunk at the end of the run.
const chunkWaves = 128

// schedule hands out the work-groups [0, count) of a run and records where
// it stops.
type schedule struct {
	g     *gridRun
	count uint64
	next  atomic.Uint64 // the first work-group not yet claimed
	stop  atomic.Uint64 // the first work-group that faulted or failed (^0: none)
	div   uint64        // a chunk is at most 1/div of what is left …
	limit uint64        // … and at most limit work-groups
	t     *tally
	prog  *progress // nil without GridConfig.Progress
}

func newSchedule(g *gridRun, count uint64) *schedule {
	s := &schedule{g: g, count: count, div: 4 * uint64(g.nworkers),
		limit: max(chunkWaves/uint64(max(g.d.WavesPerGroup, 1)), 1)}
	s.stop.Store(^uint64(0))
	s.t = newTally(g.res, &s.stop)
	return s
}

// claim returns the next chunk of work-groups, [lo, hi), or false when
// every work-group is claimed or the run has stopped before the next one.
// Chunks shrink towards the end (guided scheduling) so that workers finish
// together.
func (s *schedule) claim() (lo, hi uint64, ok bool) {
	for {
		lo = s.next.Load()
		if lo >= s.count || lo > s.stop.Load() {
			return 0, 0, false
		}
		hi = lo + min(max((s.count-lo)/s.div, 1), s.limit)
		if s.next.CompareAndSwap(lo, hi) {
			return lo, hi, true
		}
	}
}

// lower records that the run stops at work-group n (it faulted or failed,
// or, canceled, was not started): no work-group after the first such one
// is counted or started.
func (s *schedule) lower(n uint64) {
	for {
		v := s.stop.Load()
		if n >= v || s.stop.CompareAndSwap(v, n) {
			return
		}
	}
}

// run has worker wk run chunks until none is left or the run stops. A
// work-group that failed with an error returns it, with its number.
func (s *schedule) run(ctx context.Context, wk *groupWorker) (at uint64, err error) {
	g := s.g
	for {
		lo, hi, ok := s.claim()
		if !ok {
			return 0, nil
		}
		if err := ctx.Err(); err != nil {
			// Waves notice a cancellation every 1024 instructions; short
			// ones end first, so it is checked between chunks too.
			s.lower(lo) // nothing from lo on is counted
			return lo, err
		}
		var sum groupStats
		wave := g.d.firstWave(lo)
		for n := lo; n < hi && n <= s.stop.Load(); n++ {
			id := g.d.GroupID(n)
			st, err := wk.runGroup(ctx, n, id, wave)
			wave += g.wavesOf(id)
			sum.add(&st)
			if err == nil {
				s.prog.add(st.instructions)
			}
			if err != nil || len(st.faults) > 0 {
				s.lower(n) // before add, so that nothing after n is counted
				s.t.add(lo, n+1, &sum)
				return n, err
			}
		}
		s.t.add(lo, hi, &sum)
	}
}

// firstWave returns the number, in dispatch order, of work-group n's first
// wave: the waves of the whole planes (z), whole rows (y) and work-groups
// (x) before it.
func (d *Dispatch) firstWave(n uint64) uint64 {
	id, G := d.GroupID(n), d.Groups
	x, y, z := id[0], id[1], id[2]
	return d.wavesIn([3]uint32{0, 0, 0}, [3]uint32{G[0], G[1], z}) +
		d.wavesIn([3]uint32{0, 0, z}, [3]uint32{G[0], y, z + 1}) +
		d.wavesIn([3]uint32{0, y, z}, [3]uint32{x, y + 1, z + 1})
}

// wavesIn returns the number of waves of the work-groups whose ids lie in
// [lo[i], hi[i]) in every dimension i. In each dimension every work-group
// but the last has Block's size, so the box holds at most eight sizes of
// work-group: each counts its waves times how many of the box's
// work-groups have it.
func (d *Dispatch) wavesIn(lo, hi [3]uint32) uint64 {
	var sum uint64
	for c := range 8 { // bit i: the last work-group of dimension i
		groups, size := uint64(1), d.Block
		for i := range 3 {
			last := d.Groups[i] - 1
			if c>>i&1 == 0 {
				groups *= uint64(max(min(hi[i], last), lo[i]) - lo[i])
				continue
			}
			if lo[i] > last || last >= hi[i] {
				groups = 0
			}
			size[i] = d.Grid[i] - last*d.Block[i]
		}
		sum += groups * uint64(groupWaves(size))
	}
	return sum
}

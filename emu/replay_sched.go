package emu

import (
	"math"
	"slices"
	"sort"

	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// sched is a group's schedule log: which wave ran each instruction of the
// recording and where each wave passed an s_barrier, so that replay from
// a group checkpoint runs the same waves in the same order. A wave that
// records alone (n 0) keeps no log.
type sched struct {
	n    int        // waves
	segs []schedSeg // in position order; each runs to the next's start
	bars [][]uint64 // per wave: the positions of its s_barrier instructions
	bar  []bool     // instruction index → s_barrier
	base []int      // per wave: barriers passed before the recording's start (replay_rebase.go)
	end  uint64     // the furthest position recorded
	// atEnd is set while the group is at end, where every forward move
	// leaves it (maybeCheckpoint), and cleared by restore
	atEnd bool
}

// schedSeg is a stretch of the recording where one wave ran: its start
// position and the wave, in one word (a work-group has at most 16 waves).
type schedSeg uint64

func mkSeg(start uint64, w int) schedSeg { return schedSeg(start<<8 | uint64(w)) }
func (g schedSeg) start() uint64         { return uint64(g) >> 8 }
func (g schedSeg) wave() int             { return int(g & 0xff) }

func newSched(n int, bar []bool) sched {
	return sched{n: n, bars: make([][]uint64, n), bar: bar}
}

// note records that wave w, m, runs from position now on (and passes an
// s_barrier now when it is about to execute one).
func (s *sched) note(w int, m *Machine, now uint64) {
	if k := len(s.segs); k > 0 && s.segs[k-1].start() == now {
		s.segs = s.segs[:k-1] // ran nothing: replaced
	}
	if k := len(s.segs); k == 0 || s.segs[k-1].wave() != w {
		if len(s.segs) == cap(s.segs) {
			s.segs = slices.Grow(s.segs, max(len(s.segs), 256)) // double: the log gets long
		}
		s.segs = append(s.segs, mkSeg(now, w))
	}
	if s.bar != nil && s.bar[m.w.Pc()] && m.State() != core.Ended && m.State() != core.Faulted {
		if b := s.bars[w]; len(b) == 0 || b[len(b)-1] != now {
			s.bars[w] = append(b, now)
		}
	}
}

// cut forgets the schedule from position now on.
func (s *sched) cut(now uint64) {
	i := sort.Search(len(s.segs), func(i int) bool { return s.segs[i].start() >= now })
	s.segs = s.segs[:i]
	for w, b := range s.bars {
		s.bars[w] = b[:sort.Search(len(b), func(i int) bool { return b[i] >= now })]
	}
	s.end, s.atEnd = now, true
}

// seg returns the index of the stretch holding position p, or -1.
func (s *sched) seg(p uint64) int {
	return sort.Search(len(s.segs), func(i int) bool { return s.segs[i].start() > p }) - 1
}

// at returns the wave that runs the instruction at position p and where
// its stretch ends (ok false: p is before the log).
func (s *sched) at(p uint64) (w int, end uint64, ok bool) {
	if s.n <= 1 {
		return 0, math.MaxUint64, true
	}
	i := s.seg(p)
	if i < 0 {
		return 0, 0, false
	}
	end = math.MaxUint64
	if i+1 < len(s.segs) {
		end = s.segs[i+1].start()
	}
	return s.segs[i].wave(), end, true
}

// lastOf returns the position of wave w's last instruction before p.
func (s *sched) lastOf(w int, p uint64) (uint64, bool) {
	if p == 0 {
		return 0, false
	}
	end := p
	for i := s.seg(p - 1); i >= 0; i-- {
		if g := s.segs[i]; g.wave() == w && end > g.start() {
			return end - 1, true
		}
		end = s.segs[i].start()
	}
	return 0, false
}

// passed returns how many s_barrier instructions wave w executed before
// position p.
func (s *sched) passed(w int, p uint64) int {
	b := s.bars[w]
	if n := len(b); n == 0 || b[n-1] < p {
		return s.before(w) + n // at the end of the recording, as a forward run is
	}
	return s.before(w) + sort.Search(len(b), func(i int) bool { return b[i] >= p })
}

// bytes returns the memory the log holds.
func (s *sched) bytes() int64 {
	n := int64(cap(s.segs)) * 8
	for _, b := range s.bars {
		n += int64(cap(b)) * 8
	}
	return n
}

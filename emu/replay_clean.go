package emu

// Clean spans: the positions where recorded runs met none of the
// breakpoints, which reverse-continue need not replay.

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

package tui

import "github.com/wavedbg/wavedbg/emu"

// WaveCount is the number of waves in the dispatch.
func (d *EmuDebuggee) WaveCount() int { return int(d.sess.Dispatch.WaveCount()) }

// Waves lists the waves around the selected one (at most waveWindow). The
// loaded work-group's waves are live; the ones before it have run to
// completion (memory holds their results) and the ones after it have not
// started.
func (d *EmuDebuggee) Waves() []WaveRow {
	lo, hi := window(d.Selected(), d.WaveCount(), waveWindow)
	out := gridWaves(d.sess.Dispatch, lo, hi)
	for i := range out {
		switch id := out[i].ID; {
		case id < d.first:
			out[i].State, out[i].Idle = "done", true
		case id >= d.first+len(d.waves):
			out[i].State, out[i].Idle = "not run", true
		}
	}
	for i, w := range d.waves {
		k := d.first + i - lo
		if k < 0 || k >= len(out) {
			continue
		}
		st := w.m.State().String()
		if w.err != nil && w.m.State() == emu.Faulted {
			st = "faulted"
		} else if d.sess.AtBarrier(i) && w.m.Steps() > 0 {
			st = "barrier"
		}
		out[k] = WaveRow{ID: d.first + i, Group: w.group, Wave: w.index, PC: w.m.PC(), State: st}
	}
	return out
}

// window returns the range [lo, hi) of at most size of total items that
// centres on sel (clamped to the ends).
func window(sel, total, size int) (lo, hi int) {
	lo = max(min(sel-size/2, total-size), 0)
	return lo, min(lo+size, total)
}

// gridWaves lists the dispatch's waves [lo, hi) in dispatch order: each
// work-group's work-items split into 64-lane waves.
func gridWaves(ds *emu.Dispatch, lo, hi int) []WaveRow {
	out := make([]WaveRow, 0, max(hi-lo, 0))
	for n := lo; n < hi; n++ {
		gi, w, ok := ds.WaveAt(uint64(n))
		if !ok {
			break
		}
		id := ds.GroupID(gi)
		out = append(out, WaveRow{ID: n, Group: [3]int{int(id[0]), int(id[1]), int(id[2])}, Wave: w})
	}
	return out
}

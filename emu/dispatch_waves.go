package emu

// Wave geometry: each work-group's work-items split into 64-lane waves,
// work-groups in dispatch order (x fastest). Groups are uniform except at
// the grid's upper edges, so a dimension has at most two group sizes: the
// full block and the partial last group.

// span is a run of count work-groups of one size along a dimension.
type span struct{ count, size uint64 }

// spans returns dimension i's group sizes: the full groups, then the last
// (a run of count 0 when there is none).
func (d *Dispatch) spans(i int) [2]span {
	g := uint64(d.Groups[i])
	if g == 0 {
		return [2]span{}
	}
	last := uint64(d.Grid[i]) - (g-1)*uint64(d.Block[i])
	return [2]span{{g - 1, max(uint64(d.Block[i]), 1)}, {1, max(last, 1)}}
}

// itemWaves is how many waves a work-group of x×y×z work-items has.
func itemWaves(x, y, z uint64) uint64 { return (x*y*z + 63) / 64 }

// rowWaves counts the waves of the groups along x with sizes y and z.
func (d *Dispatch) rowWaves(y, z uint64) uint64 {
	var n uint64
	for _, s := range d.spans(0) {
		n += s.count * itemWaves(s.size, y, z)
	}
	return n
}

// planeWaves counts the waves of the groups in the x-y plane of size z.
func (d *Dispatch) planeWaves(z uint64) uint64 {
	var n uint64
	for _, s := range d.spans(1) {
		n += s.count * d.rowWaves(s.size, z)
	}
	return n
}

// WaveCount returns the number of waves in the dispatch.
func (d *Dispatch) WaveCount() uint64 {
	var n uint64
	for _, s := range d.spans(2) {
		n += s.count * d.planeWaves(s.size)
	}
	return n
}

// WaveAt locates wave n of the dispatch (dispatch order): the index of its
// work-group (as GroupID takes) and its index within that group. ok is
// false when n is past the last wave.
func (d *Dispatch) WaveAt(n uint64) (group uint64, wave int, ok bool) {
	var pos [3]uint64
	var size [3]uint64
	for i := 2; i >= 0; i-- {
		found := false
		for _, s := range d.spans(i) {
			var per uint64
			switch i {
			case 2:
				per = d.planeWaves(s.size)
			case 1:
				per = d.rowWaves(s.size, size[2])
			default:
				per = itemWaves(s.size, size[1], size[2])
			}
			if s.count == 0 || per == 0 {
				continue
			}
			if n < s.count*per {
				pos[i] += n / per
				n %= per
				size[i] = s.size
				found = true
				break
			}
			n -= s.count * per
			pos[i] += s.count
		}
		if !found {
			return 0, 0, false
		}
	}
	gx, gy := uint64(d.Groups[0]), uint64(d.Groups[1])
	return pos[0] + gx*(pos[1]+gy*pos[2]), int(n), true
}

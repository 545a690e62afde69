package tui

// paneID names a pane; the numbers are the keys that focus them.
type paneID int

const (
	paneDisasm paneID = iota
	paneSGPR
	paneVGPR
	paneCounters
	paneCache
	paneAddr
	paneMemory
	paneWaves
	paneSource
	numPanes
)

var paneNames = [numPanes]string{"disasm", "sgpr", "vgpr", "counters", "scalar cache", "address", "memory", "waves", "source"}

func (p paneID) String() string { return paneNames[p] }

// rect is a screen rectangle.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }

// slot is a rectangle that shows one of several panes: the one among them
// focused most recently.
type slot struct {
	rect
	panes []paneID
}

// Layout tiers, chosen by the space left for panes.
const (
	largeW, largeH   = 170, 44
	mediumW, mediumH = 110, 24
	smallW, smallH   = 50, 8
)

// layoutSlots divides a w×h area into slots. Maximised, or when the
// terminal is tiny, one slot shows the focused pane; small terminals show
// the disassembly beside one other pane; medium ones six slots; large ones
// every pane at once. The source pane is placed by Model.placeSource.
func layoutSlots(w, h int, maximised bool) []slot {
	all := []paneID{paneDisasm, paneSGPR, paneVGPR, paneCounters, paneCache, paneAddr, paneMemory, paneWaves}
	if maximised || w < smallW || h < smallH {
		return []slot{{rect{0, 0, w, h}, all}}
	}
	if w < mediumW || h < mediumH {
		lw := w * 55 / 100
		return []slot{
			{rect{0, 0, lw, h}, []paneID{paneDisasm}},
			{rect{lw, 0, w - lw, h}, all[1:]},
		}
	}
	split := func(x, y, w, h int, weights []int, panes [][]paneID) []slot {
		total := 0
		for _, wt := range weights {
			total += wt
		}
		var out []slot
		used := 0
		for i, wt := range weights {
			cw := w * wt / total
			if i == len(weights)-1 {
				cw = w - used
			}
			out = append(out, slot{rect{x + used, y, cw, h}, panes[i]})
			used += cw
		}
		return out
	}
	if w < largeW || h < largeH {
		th := h * 60 / 100
		top := split(0, 0, w, th, []int{40, 24, 36}, [][]paneID{{paneDisasm}, {paneSGPR}, {paneVGPR}})
		bottom := split(0, th, w, h-th, []int{34, 33, 33}, [][]paneID{{paneCounters, paneWaves}, {paneAddr, paneCache}, {paneMemory}})
		return append(top, bottom...)
	}
	th := h * 55 / 100
	top := split(0, 0, w, th, []int{34, 26, 40}, [][]paneID{{paneDisasm}, {paneSGPR}, {paneVGPR}})
	bottom := split(0, th, w, h-th, []int{22, 18, 24, 19, 17}, [][]paneID{{paneCounters}, {paneCache}, {paneAddr}, {paneMemory}, {paneWaves}})
	return append(top, bottom...)
}

// shown picks the pane a slot shows: the first of its panes in mru (most
// recently focused first).
func (s slot) shown(mru []paneID) paneID {
	for _, p := range mru {
		for _, q := range s.panes {
			if p == q {
				return p
			}
		}
	}
	return s.panes[0]
}

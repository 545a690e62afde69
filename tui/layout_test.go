package tui

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// TestRenderSizes draws the fake debuggee at many sizes: no panic, and
// every frame exactly fills the terminal.
func TestRenderSizes(t *testing.T) {
	for _, sz := range [][2]int{{20, 10}, {1, 1}, {3, 2}, {40, 12}, {80, 24}, {100, 30}, {120, 40}, {200, 60}, {300, 90}} {
		m := New(newFake(), Options{Color: ColorPlain})
		m.Update(winSize(sz[0], sz[1]))
		for _, maxd := range []bool{false, true} {
			m.maximised = maxd
			for p := paneID(0); p < numPanes; p++ {
				m.setFocus(p)
				out := m.Render()
				lines := strings.Split(out, "\n")
				if len(lines) != sz[1] {
					t.Fatalf("%v focus %v: %d lines", sz, p, len(lines))
				}
				for i, l := range lines {
					if w := lipgloss.Width(l); w != sz[0] {
						t.Fatalf("%v focus %v: line %d is %d wide: %q", sz, p, i, w, l)
					}
				}
			}
		}
	}
}

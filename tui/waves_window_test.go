package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/samples"
)

// TestWavesWindowBounded: a grid of 2^22 waves opened at its last wave
// lists only a window of rows around it (not every wave up to it), says
// how many waves there are, and the selected row names its work-group.
func TestWavesWindowBounded(t *testing.T) {
	s, _ := samples.Lookup("vector_add")
	mf, err := s.RunManifest()
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(s.CodeObject, Launch{Manifest: mf})
	if err != nil {
		t.Fatal(err)
	}
	// Running 2^22 waves to reach the last is too slow for a test: widen
	// the dispatch's grid and load its work-group as the last one.
	const total = 1 << 22
	ds := *d.sess.Dispatch
	per := uint32(d.sess.Dispatch.WaveCount() / d.sess.Dispatch.GroupCount())
	ds.Grid = [3]uint32{ds.Block[0] * total / per, 1, 1}
	ds.Groups = [3]uint32{total / per, 1, 1}
	d.sess.Dispatch = &ds
	last := [3]int{int(ds.Groups[0]) - 1, 0, 0}
	for _, w := range d.waves {
		w.group = last
	}
	d.first, d.sel = total-len(d.waves), len(d.waves)-1

	rows := d.Waves()
	if len(rows) > waveWindow || d.WaveCount() != total || d.Selected() != total-1 {
		t.Fatalf("%d rows of %d, wave %d selected; want at most %d rows of %d, the last selected", len(rows), d.WaveCount(), d.Selected(), waveWindow, total)
	}
	if r := rows[len(rows)-1]; r.ID != total-1 || r.Group != last || r.Idle {
		t.Errorf("last row %+v, want wave %d of group %v, live", r, total-1, last)
	}
	if r := rows[0]; r.ID != total-len(rows) || r.Group != [3]int{(total - len(rows)) / int(per), 0, 0} || !r.Idle {
		t.Errorf("first row %+v, want wave %d, done", r, total-len(rows))
	}

	m := New(d, Options{Color: ColorPlain})
	m.Update(winSize(160, 40))
	if want := fmt.Sprintf("wave %d/%d", total-1, total); !strings.Contains(m.statusLine(), want) {
		t.Errorf("status line %q lacks %q", m.statusLine(), want)
	}
	m.execCommand("wave")
	if want := fmt.Sprintf("wave %d of %d: work-group %s,", total-1, total, groupText(last)); !strings.HasPrefix(m.msg, want) {
		t.Errorf(":wave: %q, want %q…", m.msg, want)
	}
	p := m.panes[paneWaves]
	if title := p.Title(&m.frame); !strings.HasPrefix(title, fmt.Sprintf("8 waves (%d)  group %s", total, groupText(last))) {
		t.Errorf("waves pane title %q", title)
	}
	if out := strings.Join(p.Render(&m.frame), "\n"); !strings.Contains(out, fmt.Sprintf("▸%d ", total-1)) {
		t.Errorf("waves pane lacks the selected wave %d:\n%s", total-1, out)
	}
	for _, d := range []int{-total, 2 * total} { // scrolling stays in the window
		p.Scroll(d)
		if out := p.Render(&m.frame); len(out) < 2 {
			t.Errorf("scrolled by %d: %q", d, out)
		}
	}
	runScript(t, m, []gdbStep{
		{"info waves", fmt.Sprintf("(%d waves before;", total-len(rows))},
		{"info waves", fmt.Sprintf("* wave %d  group %s", total-1, groupText(last))},
	})
	m.execCommand(fmt.Sprintf("wave %d", total))
	if !m.msgErr || !strings.Contains(m.msg, fmt.Sprintf("there are %d", total)) {
		t.Errorf(":wave %d: %q", total, m.msg)
	}
}

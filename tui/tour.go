package tui

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/samples"
)

// The guided tour: a bundled sample's walkthrough (samples.Tour, from its
// tour.yaml) on screen. A band above the explain line (on terminals of
// tourMinHeight rows or more) shows the step the wave last reached, its
// text and each claim ticked live (✓ holds now, ✗ does not, with what is
// there instead); t runs to the next stop and sums it up on the status
// line. The
// claims are judged by package samples against emu's state, the same code
// the walkthrough tests run.

// tourRows is the height of the tour band, frame included.
const tourRows = 10

// tourMinHeight is the smallest terminal that shows the band: below it
// the panes keep their room and t reports each stop on the status line.
const tourMinHeight = 45

// tour is the walkthrough of the open sample and where the student is in it.
type tour struct {
	name  string
	t     *samples.Tour
	stops []samples.Stop // those about wave 0 of work-group 0, the wave shown first
	src   []string       // the sample's instruction lines, Program's order
	cur   int            // the stop last reached; -1 before the first
	execs map[int]int    // executions of each instruction the t key has seen
	steps int            // the wave's step count when the tour last moved it
}

// tourSource is what a debuggee offers the tour: the selected wave's
// state and the step that led to it, and the generation it runs (GFX8 or
// GFX9: a sample may be built for both). EmuDebuggee has them.
type tourSource interface {
	tourState() (*emu.Snapshot, *emu.StepRecord)
	isaTarget() isa.Target
}

func (d *EmuDebuggee) isaTarget() isa.Target { return d.k.target }

func (d *EmuDebuggee) tourState() (*emu.Snapshot, *emu.StepRecord) {
	s := d.snapshot()
	w := d.w()
	if n := len(w.recs); n > 0 && w.recs[n-1].Seq == s.Steps {
		return s, w.recs[n-1]
	}
	return s, nil
}

// newTour returns the tour of the bundled sample d runs, or nil: the
// kernel must be a sample's, with the sample's instructions.
func newTour(d Debuggee) *tour {
	ts, ok := d.(tourSource)
	if !ok {
		return nil
	}
	s, ok := sampleFor(d.Name(), ts.isaTarget())
	if !ok {
		return nil
	}
	t, err := s.Tour()
	if err != nil || t == nil {
		return nil
	}
	src := samples.SourceInstructions(s)
	if len(src) != len(d.Program()) {
		return nil // the same kernel name, another program
	}
	tr := &tour{name: s.ID(), t: t, src: src, cur: -1, execs: map[int]int{}}
	for _, st := range t.Stops {
		if st.Group == 0 && st.Wave == 0 {
			tr.stops = append(tr.stops, st)
		}
	}
	if len(tr.stops) == 0 {
		return nil
	}
	return tr
}

// sampleFor finds the build of sample name that runs on target: the
// sample itself or one of its variants (smem_gfx8_gfx9 (gfx803)).
func sampleFor(name string, target isa.Target) (samples.Sample, bool) {
	s, ok := samples.Lookup(name)
	if !ok {
		return s, false
	}
	for _, v := range append([]samples.Sample{s}, s.Variants...) {
		if t, _ := isa.TargetOf(v.Target); t == target {
			return v, true
		}
	}
	return s, false
}

// tourFormat shows the SGPR and VGPR panes in the number formats the
// tour chooses for stop st (tour.yaml's format); a pane it does not name
// keeps its format.
func (m *Model) tourFormat(st samples.Stop) {
	f := m.tour.t.FormatAt(st)
	if v, ok := numFormatNamed(f.SGPR); ok {
		m.panes[paneSGPR].(*sgprPane).format = v
	}
	if v, ok := numFormatNamed(f.VGPR); ok {
		m.panes[paneVGPR].(*vgprPane).format = v
	}
}

// numFormatNamed is the NumFormat called name ("hex", "float", ...).
func numFormatNamed(name string) (NumFormat, bool) {
	for f := FmtHex; f < numFormats; f++ {
		if f.String() == name {
			return f, true
		}
	}
	return 0, false
}

// state is what the claims are judged against now.
func (t *tour) state(d Debuggee) *samples.State {
	snap, last := d.(tourSource).tourState()
	bufs := map[string]emu.Allocation{}
	for _, b := range d.Buffers() {
		bufs[b.Name] = emu.Allocation{Name: b.Name, Addr: b.Addr, Size: b.Size}
	}
	prog := d.Program()
	return &samples.State{Snap: snap, Last: last, Buffers: bufs,
		Mem: func(buf string, i int) (uint32, error) {
			b, ok := bufs[buf]
			if !ok || uint64(i)*4+4 > b.Size {
				return 0, fmt.Errorf("no dword %s[%d]", buf, i)
			}
			data, valid := d.ReadMem(b.Addr+uint64(i)*4, 4, false)
			if len(data) < 4 || slices.Contains(valid, false) {
				return 0, fmt.Errorf("%s[%d] is not backed", buf, i)
			}
			return binary.LittleEndian.Uint32(data), nil
		},
		PCOf: func(at string) (uint64, error) {
			i, err := samples.Locate(t.src, at)
			if err != nil {
				return 0, err
			}
			return prog[i].Addr, nil
		},
	}
}

// tourNext runs the wave to the next stop of the tour: until it has
// executed the stop's instruction as often as the stop says.
func (m *Model) tourNext() {
	t := m.tour
	m.msg = ""
	switch {
	case t == nil:
		m.status("no tour: this kernel is not a bundled sample with a walkthrough")
		return
	case m.dbg.Selected() != 0:
		m.status("the tour follows wave 0; press [ to go back to it")
		return
	case t.cur+1 >= len(t.stops):
		m.status("the tour is over: every step has been shown")
		return
	}
	prog := m.dbg.Program()
	if m.dbg.StepCount() != t.steps {
		t.resync(m.dbg, prog)
		if t.cur+1 >= len(t.stops) {
			m.status("the wave is past the tour's last step")
			return
		}
	}
	next := t.stops[t.cur+1]
	want, err := samples.Locate(t.src, next.At)
	if err != nil {
		m.fail(err)
		return
	}
	defer func() { t.steps = m.dbg.StepCount() }()
	for range maxTourSteps {
		pc, ok := m.dbg.PC()
		if !ok {
			m.status("the wave ended before tour stop %d (after %s)", t.cur+2, next.At)
			break
		}
		if err := m.dbg.Step(); err != nil {
			m.fail(err)
			break
		}
		i, _ := slices.BinarySearchFunc(prog, pc, func(l DisasmLine, pc uint64) int { return cmpU64(l.Addr, pc) })
		t.execs[i]++
		if i == want && t.execs[i] > next.Nth {
			t.cur++
			m.tourFormat(next)
			m.status("tour %d/%d %s %s", t.cur+1, len(t.stops), t.ticks(m.dbg), next.Claim)
			break
		}
	}
	m.afterMove()
}

// ticks is the stop's claims judged now, one ✓ or ✗ each.
func (t *tour) ticks(d Debuggee) string {
	st := t.state(d)
	var b strings.Builder
	for _, c := range t.stops[t.cur].Checks {
		if c.Holds(st) == nil {
			b.WriteString("✓")
		} else {
			b.WriteString("✗")
		}
	}
	return b.String()
}

// resync finds the tour's place after the wave moved without it (s, b,
// continue, ...): the last stop whose instruction lies before the PC, in
// program order, counted as passed.
func (t *tour) resync(d Debuggee, prog []DisasmLine) {
	at := len(prog)
	if pc, ok := d.PC(); ok {
		at, _ = slices.BinarySearchFunc(prog, pc, func(l DisasmLine, pc uint64) int { return cmpU64(l.Addr, pc) })
	}
	t.cur, t.execs = -1, map[int]int{}
	for j, s := range t.stops {
		i, err := samples.Locate(t.src, s.At)
		if err != nil || i >= at {
			break
		}
		t.cur, t.execs[i] = j, s.Nth+1
	}
	t.steps = d.StepCount()
}

// maxTourSteps bounds one press of the tour key.
const maxTourSteps = 100000

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// tourHeight is the rows the tour band takes.
func (m *Model) tourHeight() int {
	if m.tour == nil || m.height < tourMinHeight {
		return 0
	}
	return tourRows
}

// tourLines draws the tour band, w wide.
func (m *Model) tourLines(w int) []string {
	h := m.tourHeight()
	if h == 0 {
		return nil
	}
	st := m.common.Styles
	t := m.tour
	inner := max(w-2, 1)
	var body []string
	title := fmt.Sprintf("tour: %s  t runs to the next step", t.name)
	if t.cur < 0 {
		title = fmt.Sprintf("tour: %s  press t to run to the first step", t.name)
	}
	s := t.shownStop()
	title = fmt.Sprintf("%s  [%d/%d]", title, t.cur+1, len(t.stops))
	head := fmt.Sprintf("%s (after %s)", s.Claim, s.At)
	if t.cur >= 0 && m.dbg.StepCount() != t.steps {
		head += "  · the wave has moved since: claims are judged now"
	}
	body = append(body, st.render(st.Label, head))
	var claims []string
	var names []string
	var state *samples.State
	if t.cur >= 0 {
		state = t.state(m.dbg)
	}
	for _, c := range s.Checks {
		line := "[ ] " + c.Text
		if state != nil {
			if err := c.Holds(state); err != nil {
				line = st.render(st.Error, "[✗] "+c.Text+"  — now "+err.Error())
			} else {
				line = "[✓] " + c.Text
			}
		}
		claims = append(claims, line)
		for _, n := range c.Names() {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	if len(names) > 0 {
		w := "watch: " + strings.Join(names, " ")
		if slices.ContainsFunc(names, isRegName) {
			w += "  (registers marked < in their panes)"
		}
		body = append(body, w)
	}
	room := h - 2 - len(body) - len(claims)
	for _, n := range s.Steps {
		text := fmt.Sprintf("%d. %s", n, strings.ReplaceAll(t.t.Steps[n-1].Text, "\n", " "))
		for _, l := range wrapWords(text, inner) {
			if room <= 0 {
				break
			}
			body = append(body, l)
			room--
		}
	}
	body = append(body, claims...)
	return strings.Split(frame(" "+title+" ", body, st, w, h, false), "\n")
}

// shownStop is the stop the band shows: the one last reached, or the first.
func (t *tour) shownStop() samples.Stop { return t.stops[max(t.cur, 0)] }

// markTour marks the registers the shown stop's claims name in the SGPR
// and VGPR panes: on wave 0, the wave the tour follows, once the band is
// shown or t has been pressed.
func (m *Model) markTour(f *Frame) {
	if m.tour == nil {
		return
	}
	names := map[string]bool{}
	if m.dbg.Selected() == 0 && (m.tourHeight() > 0 || m.tour.cur >= 0) {
		for _, c := range m.tour.shownStop().Checks {
			for _, n := range c.Names() {
				names[n] = true
			}
		}
	}
	for i := range f.SGPR.Regs {
		r := &f.SGPR.Regs[i]
		base, _, _ := strings.Cut(r.Name, "_") // exec_lo, vcc_hi: exec, vcc
		r.Tour = names[r.Name] || names[base]
	}
	f.VGPR.Tour = make([]bool, len(f.VGPR.Values))
	for i := range f.VGPR.Tour {
		f.VGPR.Tour[i] = names[fmt.Sprintf("v%d", i)]
	}
}

// isRegName reports whether a claim's name is a register the SGPR or VGPR
// pane shows (markTour marks it).
func isRegName(n string) bool {
	if n == "m0" || n == "exec" || n == "vcc" {
		return true
	}
	return len(n) > 1 && (n[0] == 's' || n[0] == 'v') && '0' <= n[1] && n[1] <= '9'
}

// wrapWords breaks s into lines of at most w cells at spaces.
func wrapWords(s string, w int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case cellWidth(line)+1+cellWidth(word) <= w:
			line += " " + word
		default:
			out = append(out, line)
			line = word
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

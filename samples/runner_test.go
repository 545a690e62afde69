package samples

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// This file runs the walkthroughs' stops (NAME/tour.yaml) in emu: the same
// data the debugger's tour pane and README.md's steps come from.
//
// A walkthrough runs on one emu.Machine with full snapshots for as long as
// it can. At the first instruction only a whole-grid run executes (vector
// memory, LDS, barriers: see grid_test.go) the remaining stops are checked
// on a replay of the same wave from an emu.RunGrid trace. If emu cannot
// execute an instruction at all and the tour declared that machinery in
// needs, the test skips (fails under CI) and lists every claim it did not
// check; any other failure to run is an error.

// walk is the stops of one tour about one wave.
type walk struct {
	sample string
	tour   *Tour
	group  uint32
	wave   int
	stops  []Stop
}

// walks groups every sample's stops by the wave they are about.
func walks(t *testing.T) (map[string]*Tour, []walk) {
	t.Helper()
	tours := map[string]*Tour{}
	var out []walk
	for _, p := range All() {
		// Each build of the sample (its variants: other targets) runs the
		// stops about it; the coverage of the steps is the primary's.
		for _, s := range append([]Sample{p}, p.Variants...) {
			tr, err := s.Tour()
			if err != nil {
				t.Fatal(err)
			}
			if tr == nil {
				continue
			}
			if s.Target == DefaultTarget {
				tours[s.Name] = tr
			}
			for _, st := range tr.Stops {
				i := slices.IndexFunc(out, func(w walk) bool {
					return w.tour == tr && w.group == st.Group && w.wave == st.Wave
				})
				if i < 0 {
					out = append(out, walk{sample: s.ID(), tour: tr, group: st.Group, wave: st.Wave})
					i = len(out) - 1
				}
				out[i].stops = append(out[i].stops, st)
			}
		}
	}
	return tours, out
}

// TestWalkthroughData checks that every sample has a tour with stops.
func TestWalkthroughData(t *testing.T) {
	tours, _ := walks(t)
	for _, s := range All() {
		if tr := tours[s.Name]; tr == nil || len(tr.Stops) == 0 {
			t.Errorf("sample %s has no tour stops (%s/tour.yaml)", s.Name, s.Name)
		}
	}
}

// TestWalkthroughCoverage checks that every numbered step of every
// walkthrough is claimed by a stop or listed in unchecked with a reason.
func TestWalkthroughCoverage(t *testing.T) {
	tours, _ := walks(t)
	for name, tr := range tours {
		claimed := map[int]bool{}
		for _, st := range tr.Stops {
			for _, n := range st.Steps {
				claimed[n] = true
			}
		}
		for n := 1; n <= len(tr.Steps); n++ {
			if !claimed[n] && tr.Unchecked[n] == "" {
				t.Errorf("%s: walkthrough step %d is neither checked nor listed as unchecked", name, n)
			}
			if claimed[n] && tr.Unchecked[n] != "" {
				t.Errorf("%s: step %d is both checked and listed as unchecked", name, n)
			}
		}
	}
}

// TestWalkthroughs runs every sample's walkthrough in emu.
func TestWalkthroughs(t *testing.T) {
	_, ws := walks(t)
	for _, wk := range ws {
		t.Run(fmt.Sprintf("%s/group%d/wave%d", wk.sample, wk.group, wk.wave), func(t *testing.T) { runWalk(t, wk) })
	}
}

const maxSteps = 100000

// state is what the claims of a stop see.
func (w *wave) state(rec *emu.StepRecord, snap *emu.Snapshot, sh *shadow, group uint32) *State {
	st := &State{Snap: snap, Last: rec, Group: group, Mem: w.u32,
		PCOf: func(at string) (uint64, error) {
			i, err := Locate(w.src, at)
			if err != nil {
				return 0, err
			}
			return w.pc(i), nil
		},
	}
	if w.m != nil {
		st.Buffers = w.bufs
	}
	if sh != nil {
		st.Unknown = func(n int) bool { return sh.unknown[n] }
	}
	return st
}

func runWalk(t *testing.T, wk walk) {
	s, _ := Lookup(wk.sample)
	unchecked := func(from int) string {
		var b strings.Builder
		for _, e := range wk.stops[from:] {
			fmt.Fprintf(&b, "\n  - %s (after %q): %d checks", e.Claim, e.At, len(e.Checks))
			for _, c := range e.Checks {
				fmt.Fprintf(&b, "\n      %s", c)
			}
		}
		return b.String()
	}
	w, err := newWave(s, wk.group, uint32(wk.wave))
	if err != nil {
		t.Fatal(err)
	}
	idx := make([]int, len(wk.stops))
	for i, e := range wk.stops {
		if idx[i], err = Locate(w.src, e.At); err != nil {
			t.Fatal(err)
		}
	}
	evaluate := func(e Stop, st *State) {
		for _, k := range e.Checks {
			if err := k.Holds(st); err != nil {
				t.Errorf("%s:%d: %s: after %q: want %s: %v", wk.tour.File, k.Line, e.Claim, e.At, k, err)
			}
		}
	}
	needs := wk.tour.Needs

	// Machine mode: step one wave with full snapshots until the end or an
	// instruction that only a grid run can execute.
	execs := map[int]int{}
	next, checked := 0, 0
	var stop *emu.ExecError
	for steps := 0; next < len(wk.stops) && stop == nil; steps++ {
		if steps == maxSteps {
			t.Fatalf("no end after %d steps; waiting for %q", steps, wk.stops[next].At)
		}
		rec, err := w.m.Step()
		if err != nil {
			var ee *emu.ExecError
			if errors.As(err, &ee) && unimplemented(ee) {
				if n, ok := needOf(w, ee.PC); ok && slices.Contains(needs, n) {
					stop = ee
					break
				}
			}
			t.Fatalf("step %d: %v; unchecked claims:%s", steps+1, err, unchecked(next))
		}
		for next < len(wk.stops) && idx[next] == rec.Index && execs[rec.Index] == wk.stops[next].Nth {
			evaluate(wk.stops[next], w.state(rec, w.m.Snapshot(), nil, wk.group))
			checked++
			next++
		}
		execs[rec.Index]++
		if rec.State == emu.Ended && next < len(wk.stops) {
			t.Fatalf("the wave ended before the claims:%s", unchecked(next))
		}
	}
	if next == len(wk.stops) {
		t.Logf("checked %d stops on one machine", checked)
		return
	}

	// Grid mode: the rest of the stops on a replay of the same wave from
	// a whole-grid run.
	t.Logf("checked %d stops on one machine; %s at pc %#x needs a grid run (%s)", checked, stop.Op, stop.PC, stop.Msg)
	w0, err := newWave(s, wk.group, uint32(wk.wave))
	if err != nil {
		t.Fatal(err)
	}
	sh := newShadow(w0.m.Snapshot(), int(w.k.Descriptor.Rsrc2.UserSGPRCount))
	gw := &wave{s: s, co: w.co, k: w.k, src: w.src, insts: w.insts, addrs: w.addrs}
	recs, _, err := gridTrace(gw, wk.group, wk.wave)
	if err != nil {
		var ee *emu.ExecError
		if errors.As(err, &ee) && unimplemented(ee) {
			if n, ok := needOf(w, ee.PC); ok && slices.Contains(needs, n) {
				if os.Getenv("CI") == "true" {
					t.Fatalf("emu does not implement %s (%s at pc %#x, needed for %s)", ee.Op, s.Name, ee.PC, n)
				}
				t.Skipf("not yet checkable: emu does not implement %s (%s at pc %#x, needed for %s); unchecked claims:%s",
					ee.Op, s.Name, ee.PC, n, unchecked(next))
			}
		}
		t.Fatalf("%v; unchecked claims:%s", err, unchecked(next))
	}
	// The run's buffers are what memory holds after the wave's last step
	// only: a memory claim at an earlier stop must fail, not read them.
	final := gw.final
	gw.final = nil
	execs = map[int]int{}
	for j, rec := range recs {
		if j == len(recs)-1 {
			gw.final = final
		}
		i, ok := gw.index(rec.PC)
		if !ok {
			t.Fatalf("the grid run executed pc %#x, outside the kernel", rec.PC)
		}
		sh.apply(rec)
		for next < len(wk.stops) && idx[next] == i && execs[i] == wk.stops[next].Nth {
			evaluate(wk.stops[next], gw.state(rec, sh.snapshot(), sh, wk.group))
			checked++
			next++
		}
		execs[i]++
	}
	if next < len(wk.stops) {
		t.Fatalf("the traced wave ended before the claims:%s", unchecked(next))
	}
	t.Logf("checked %d stops in all", checked)
}

// unimplemented reports whether emu refused an instruction because it does
// not model it (as opposed to an error in the program or in emu).
func unimplemented(e *emu.ExecError) bool {
	return strings.Contains(e.Msg, "not implemented") || strings.Contains(e.Msg, "not modelled")
}

// needOf says which machinery (a tour's need) the instruction at pc belongs to.
func needOf(w *wave, pc uint64) (string, bool) {
	i, ok := w.m.Prog.IndexOf(pc)
	if !ok {
		return "", false
	}
	switch w.insts[i].Enc {
	case isa.EncVOP1, isa.EncVOP2, isa.EncVOP3, isa.EncVOPC, isa.EncVOP3P:
		return "valu", true
	case isa.EncSMEM:
		return "smem", true
	case isa.EncMUBUF, isa.EncMTBUF, isa.EncFLAT, isa.EncMIMG:
		return "vmem", true
	case isa.EncDS:
		return "ds", true
	}
	return "", false
}

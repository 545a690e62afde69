package samples

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// This file runs the expectations of walkthrough_test.go.

// TestWalkthroughData checks the expectations themselves: every sample has a
// walkthrough, every expectation makes at least one check and names an
// instruction of its sample.
func TestWalkthroughData(t *testing.T) {
	covered := map[string]bool{}
	for _, wk := range walks {
		s, ok := Lookup(wk.sample)
		if !ok {
			t.Errorf("walkthrough for unknown sample %q", wk.sample)
			continue
		}
		covered[wk.sample] = true
		src, err := sourceInstructions(s)
		if err != nil {
			t.Fatal(err)
		}
		if len(wk.expect) == 0 {
			t.Errorf("%s: no expectations", wk.sample)
		}
		for _, e := range wk.expect {
			if len(e.checks) == 0 {
				t.Errorf("%s: %q checks nothing", wk.sample, e.claim)
			}
			if _, err := locate(src, e.at); err != nil {
				t.Errorf("%s: %q: %v", wk.sample, e.claim, err)
			}
		}
	}
	for _, s := range All() {
		if !covered[s.Name] {
			t.Errorf("sample %s has no walkthrough expectations", s.Name)
		}
	}
}

// TestWalkthroughCoverage checks that every numbered step of every
// walkthrough is claimed by an expectation (its claim starts with the step
// numbers: "3: ...", "1-4: ...", "5 and ...", "5: ...; 7: ...") or is
// listed in unchecked with a reason.
func TestWalkthroughCoverage(t *testing.T) {
	stepRE := regexp.MustCompile(`(?m)^(\d+)\. `)
	claimRE := regexp.MustCompile(`(?:^|; )(\d+)(?:-(\d+))?(?:[:,]| and)`)
	for _, s := range All() {
		claimed := map[int]bool{}
		unchecked := map[int]string{}
		for _, wk := range walks {
			if wk.sample != s.Name {
				continue
			}
			for n, why := range wk.unchecked {
				unchecked[n] = why
			}
			for _, e := range wk.expect {
				for _, m := range claimRE.FindAllStringSubmatch(e.claim, -1) {
					lo, _ := strconv.Atoi(m[1])
					hi := lo
					if m[2] != "" {
						hi, _ = strconv.Atoi(m[2])
					}
					for n := lo; n <= hi; n++ {
						claimed[n] = true
					}
				}
			}
		}
		steps := map[int]bool{}
		for _, m := range stepRE.FindAllStringSubmatch(s.Walkthrough, -1) {
			n, _ := strconv.Atoi(m[1])
			steps[n] = true
			if !claimed[n] && unchecked[n] == "" {
				t.Errorf("%s: walkthrough step %d is neither checked nor listed as unchecked", s.Name, n)
			}
			if claimed[n] && unchecked[n] != "" {
				t.Errorf("%s: step %d is both checked and listed as unchecked", s.Name, n)
			}
		}
		for n := range claimed {
			if !steps[n] {
				t.Errorf("%s: an expectation claims step %d, which the walkthrough does not have", s.Name, n)
			}
		}
	}
}

// locate finds "text" or "text#n" among the source instructions.
func locate(src []string, at string) (int, error) {
	text, nth := at, 1
	if i := strings.LastIndexByte(at, '#'); i >= 0 {
		n, err := strconv.Atoi(at[i+1:])
		if err != nil || n < 1 {
			return 0, fmt.Errorf("bad occurrence in %q", at)
		}
		text, nth = at[:i], n
	}
	text = normalize(text)
	seen := 0
	for i, s := range src {
		if s == text {
			seen++
			if seen == nth {
				return i, nil
			}
		}
	}
	if seen > 0 && !strings.Contains(at, "#") {
		return 0, fmt.Errorf("%q is ambiguous", at)
	}
	return 0, fmt.Errorf("no instruction %q (occurrence %d) in the source", text, nth)
}

// TestWalkthroughs runs every sample's walkthrough in emu.
func TestWalkthroughs(t *testing.T) {
	for _, wk := range walks {
		t.Run(fmt.Sprintf("%s/group%d/wave%d", wk.sample, wk.group, wk.wave), func(t *testing.T) { runWalk(t, wk) })
	}
}

const maxSteps = 100000

func runWalk(t *testing.T, wk walk) {
	s, _ := Lookup(wk.sample)
	unchecked := func(from int) string {
		var b strings.Builder
		for _, e := range wk.expect[from:] {
			fmt.Fprintf(&b, "\n  - %s (after %q): %d checks", e.claim, e.at, len(e.checks))
			for _, c := range e.checks {
				fmt.Fprintf(&b, "\n      %s", c)
			}
		}
		return b.String()
	}
	w, err := newWave(s, wk.group, uint32(wk.wave))
	if err != nil {
		t.Fatal(err)
	}
	idx := make([]int, len(wk.expect))
	for i, e := range wk.expect {
		if idx[i], err = locate(w.src, e.at); err != nil {
			t.Fatal(err)
		}
	}
	evaluate := func(e expect, c *checkCtx) {
		for _, k := range e.checks {
			if err := k.check(c); err != nil {
				t.Errorf("%s: after %q: want %s: %v", e.claim, e.at, k, err)
			}
		}
	}

	// Machine mode: step one wave with full snapshots until the end or an
	// instruction that only a grid run can execute.
	execs := map[int]int{}
	next, checked := 0, 0
	var stop *emu.ExecError
	for steps := 0; next < len(wk.expect) && stop == nil; steps++ {
		if steps == maxSteps {
			t.Fatalf("no end after %d steps; waiting for %q", steps, wk.expect[next].at)
		}
		rec, err := w.m.Step()
		if err != nil {
			var ee *emu.ExecError
			if errors.As(err, &ee) && unimplemented(ee) {
				if n, ok := needOf(w, ee.PC); ok && contains(wk.needs, n) {
					stop = ee
					break
				}
			}
			t.Fatalf("step %d: %v; unchecked claims:%s", steps+1, err, unchecked(next))
		}
		for next < len(wk.expect) && idx[next] == rec.Index && execs[rec.Index] == wk.expect[next].nth {
			evaluate(wk.expect[next], &checkCtx{w: w, rec: rec, logf: t.Logf})
			checked++
			next++
		}
		execs[rec.Index]++
		if rec.State == emu.Ended && next < len(wk.expect) {
			t.Fatalf("the wave ended before the claims:%s", unchecked(next))
		}
	}
	if next == len(wk.expect) {
		t.Logf("checked %d claims on one machine", checked)
		return
	}

	// Grid mode: the rest of the claims on a replay of the same wave from
	// a whole-grid run.
	t.Logf("checked %d claims on one machine; %s at pc %#x needs a grid run (%s)", checked, stop.Op, stop.PC, stop.Msg)
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
			if n, ok := needOf(w, ee.PC); ok && contains(wk.needs, n) {
				if os.Getenv("CI") == "true" {
					t.Fatalf("emu does not implement %s (%s at pc %#x, needed for %s)", ee.Op, s.Name, ee.PC, n)
				}
				t.Skipf("not yet checkable: emu does not implement %s (%s at pc %#x, needed for %s); unchecked claims:%s",
					ee.Op, s.Name, ee.PC, n, unchecked(next))
			}
		}
		t.Fatalf("%v; unchecked claims:%s", err, unchecked(next))
	}
	execs = map[int]int{}
	for _, rec := range recs {
		i, ok := gw.index(rec.PC)
		if !ok {
			t.Fatalf("the grid run executed pc %#x, outside the kernel", rec.PC)
		}
		sh.apply(rec)
		for next < len(wk.expect) && idx[next] == i && execs[i] == wk.expect[next].nth {
			evaluate(wk.expect[next], &checkCtx{w: gw, rec: rec, sh: sh, logf: t.Logf})
			checked++
			next++
		}
		execs[i]++
	}
	if next < len(wk.expect) {
		t.Fatalf("the traced wave ended before the claims:%s", unchecked(next))
	}
	t.Logf("checked %d claims in all", checked)
}

// unimplemented reports whether emu refused an instruction because it does
// not model it (as opposed to an error in the program or in emu).
func unimplemented(e *emu.ExecError) bool {
	return strings.Contains(e.Msg, "not implemented") || strings.Contains(e.Msg, "not modelled")
}

// needOf says which machinery the instruction at pc belongs to.
func needOf(w *wave, pc uint64) (need, bool) {
	i, ok := w.m.Prog.IndexOf(pc)
	if !ok {
		return "", false
	}
	switch w.insts[i].Enc {
	case isa.EncVOP1, isa.EncVOP2, isa.EncVOP3, isa.EncVOPC, isa.EncVOP3P:
		return needVALU, true
	case isa.EncSMEM:
		return needSMEM, true
	case isa.EncMUBUF, isa.EncMTBUF, isa.EncFLAT, isa.EncMIMG:
		return needVMEM, true
	case isa.EncDS:
		return needDS, true
	}
	return "", false
}

func contains(ns []need, n need) bool {
	for _, m := range ns {
		if m == n {
			return true
		}
	}
	return false
}

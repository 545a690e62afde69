package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// chromeTrace is the Chrome trace event format's JSON object form.
type chromeTrace struct {
	TraceEvents []chromeEvent     `json:"traceEvents"`
	OtherData   map[string]string `json:"otherData"`
}

type chromeEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat"`
	Ph   string         `json:"ph"`
	Ts   *float64       `json:"ts"`
	Dur  *float64       `json:"dur"`
	Pid  *int           `json:"pid"`
	Tid  *uint64        `json:"tid"`
	ID   *uint64        `json:"id"`
	Bp   string         `json:"bp"`
	Args map[string]any `json:"args"`
}

func parseChromeTrace(t *testing.T, out string) chromeTrace {
	t.Helper()
	var tr chromeTrace
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&tr); err != nil {
		t.Fatalf("not a Chrome trace JSON object: %v", err)
	}
	return tr
}

// TestTracePerfettoStructure: trace --format perfetto is a Chrome trace
// whose events carry the fields their phase needs, one named thread per
// traced wave, instruction slices in cycle order, flows that pair up inside
// slices, and counter tracks in time order.
func TestTracePerfettoStructure(t *testing.T) {
	out := mustRun(t, scanArgs("trace", t.TempDir(), "--wave", "0,3", "--format", "perfetto")...)
	tr := parseChromeTrace(t, out)
	if tr.OtherData["schema"] != "wavedbg/1" || tr.OtherData["clock"] == "" {
		t.Errorf("otherData %v", tr.OtherData)
	}
	type slice struct{ b, e float64 }
	threads := map[uint64]string{}
	slices := map[uint64][]slice{}
	type flowEnd struct {
		ev    chromeEvent
		count int
	}
	starts, ends := map[uint64]*flowEnd{}, map[uint64]*flowEnd{}
	lastCounter := map[string]float64{}
	counterArgs := map[string]bool{}
	for i, e := range tr.TraceEvents {
		where := fmt.Sprintf("event %d (%s %q)", i, e.Ph, e.Name)
		if e.Name == "" || e.Pid == nil || e.Tid == nil || e.Ts == nil {
			t.Fatalf("%s lacks name, pid, tid or ts", where)
		}
		switch e.Ph {
		case "M":
			if n, ok := e.Args["name"].(string); e.Name == "thread_name" {
				if !ok {
					t.Fatalf("%s: no name", where)
				}
				threads[*e.Tid] = n
			}
		case "X":
			if e.Dur == nil || *e.Dur < 0 || e.Cat == "" || e.Args["pc"] == nil {
				t.Fatalf("%s: dur, cat or pc missing", where)
			}
			s := slices[*e.Tid]
			if len(s) > 0 && *e.Ts < s[len(s)-1].e {
				t.Fatalf("%s starts at %v, before the previous slice ends at %v", where, *e.Ts, s[len(s)-1].e)
			}
			slices[*e.Tid] = append(s, slice{*e.Ts, *e.Ts + *e.Dur})
		case "s", "f":
			if e.ID == nil || e.Cat == "" || e.Ph == "f" && e.Bp != "e" {
				t.Fatalf("%s: id, cat or bp missing", where)
			}
			m := starts
			if e.Ph == "f" {
				m = ends
			}
			if m[*e.ID] == nil {
				m[*e.ID] = &flowEnd{ev: e}
			}
			m[*e.ID].count++
		case "C":
			if len(e.Args) == 0 {
				t.Fatalf("%s: no values", where)
			}
			for k, v := range e.Args {
				if _, ok := v.(float64); !ok {
					t.Fatalf("%s: %s = %v is not a number", where, k, v)
				}
				counterArgs[k] = true
			}
			if last, ok := lastCounter[e.Name]; ok && *e.Ts < last {
				t.Fatalf("%s at %v goes back in time (last %v)", where, *e.Ts, last)
			}
			lastCounter[e.Name] = *e.Ts
		default:
			t.Fatalf("%s: unexpected phase", where)
		}
	}

	// One thread per traced wave, named after it.
	if len(slices) != 2 || len(threads) != 2 {
		t.Fatalf("slices on threads %v, thread names %v; want waves 0 and 3", len(slices), threads)
	}
	for _, w := range []uint64{0, 3} {
		if threads[tid(w)] != fmt.Sprintf("wave %d", w) || len(slices[tid(w)]) < 50 {
			t.Errorf("wave %d: thread %d named %q with %d slices", w, tid(w), threads[tid(w)], len(slices[tid(w)]))
		}
	}
	// Flows pair up, on one thread, in time order, each end inside a slice.
	within := func(tid uint64, ts float64) bool {
		for _, s := range slices[tid] {
			if ts >= s.b && ts <= s.e {
				return true
			}
		}
		return false
	}
	cats := map[string]bool{}
	for id, s := range starts {
		f := ends[id]
		if s.count != 1 || f == nil || f.count != 1 {
			t.Fatalf("flow %d: %d starts, ends %v", id, s.count, f)
		}
		if s.ev.Name != f.ev.Name || s.ev.Cat != f.ev.Cat || *s.ev.Tid != *f.ev.Tid || *s.ev.Ts > *f.ev.Ts {
			t.Fatalf("flow %d: start %+v does not match end %+v", id, s.ev, f.ev)
		}
		if !within(*s.ev.Tid, *s.ev.Ts) || !within(*f.ev.Tid, *f.ev.Ts) {
			t.Fatalf("flow %d: an end lies outside every slice of its wave", id)
		}
		cats[s.ev.Cat] = true
	}
	if len(ends) != len(starts) || !cats["vm_cnt"] || !cats["lgkm_cnt"] {
		t.Errorf("%d flow starts, %d ends, categories %v; want VM and LGKM flows", len(starts), len(ends), cats)
	}
	for _, k := range []string{"vm_cnt", "lgkm_cnt", "hits", "misses"} {
		if !counterArgs[k] {
			t.Errorf("no counter track for %s (have %v)", k, counterArgs)
		}
	}
	for _, name := range []string{"wave 0 counters", "wave 3 counters", "wave 0 scalar cache"} {
		if _, ok := lastCounter[name]; !ok {
			t.Errorf("no counter track %q", name)
		}
	}
}

// TestTracePerfettoFaultStillValid: a faulting run's Perfetto trace is a
// complete JSON document, the faulting instruction's slice naming the error.
func TestTracePerfettoFaultStillValid(t *testing.T) {
	code, stdout, stderr := runCmd("trace", filepath.Join("testdata", "run", "bad.co"), "--kernel", "wild", "--grid", "64", "--block", "64",
		"--arg", "buffer,type=int,count=64,out=o.bin", "--out", t.TempDir(), "-q", "--format", "perfetto")
	if code == 0 || !strings.Contains(stderr, "memory fault") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	tr := parseChromeTrace(t, stdout)
	last := tr.TraceEvents[len(tr.TraceEvents)-1]
	for _, e := range tr.TraceEvents {
		if e.Ph == "X" {
			last = e
		}
	}
	if s, _ := last.Args["error"].(string); !strings.Contains(s, "memory fault") {
		t.Errorf("last slice %+v does not name the fault", last)
	}
}

// TestTraceBadFormat: an unknown --format is a usage error naming the flag.
func TestTraceBadFormat(t *testing.T) {
	code, _, stderr := runCmd(scanArgs("trace", t.TempDir(), "--format", "csv")...)
	if code != 2 || !strings.Contains(stderr, `--format "csv"`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

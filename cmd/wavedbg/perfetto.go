package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
)

// perfettoWriter writes trace --format perfetto: the Chrome trace event
// format (JSON object form), which ui.perfetto.dev and chrome://tracing
// open. The clock is the waves' cycle clock, one cycle shown as 1 µs.
//
//   - one process (the launch), one thread per traced wave ("wave N",
//     tid N+1), sorted by wave;
//   - each instruction a complete ("X") slice from cycle_before to
//     cycle_after, its name the mnemonic;
//   - each memory operation a flow ("s" to "f") from the instruction that
//     issued it to the one during which it completed;
//   - counter ("C") tracks per wave: "wave N counters" (vm_cnt, lgkm_cnt)
//     and "wave N scalar cache" (hits, misses, cumulative).
type perfettoWriter struct {
	w      io.Writer
	err    error
	events int
	flows  uint64 // flow ids issued so far
	waves  map[uint64]*perfettoWave
	kernel string
}

// perfettoWave is what the writer tracks of one wave.
type perfettoWave struct {
	pending      map[uint64]perfettoIssue // in-flight operations by id
	vm, lgkm     int
	hits, misses uint64
}

// perfettoIssue is where an in-flight operation's flow starts.
type perfettoIssue struct {
	ts float64
}

// perfettoEvent is one trace event.
type perfettoEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"`
	Dur  *uint64        `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  uint64         `json:"tid"`
	ID   uint64         `json:"id,omitempty"`
	Bp   string         `json:"bp,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// perfettoPid is the launch's process id.
const perfettoPid = 1

func newPerfettoWriter(w io.Writer, kernel string) *perfettoWriter {
	p := &perfettoWriter{w: w, waves: map[uint64]*perfettoWave{}, kernel: kernel}
	p.write([]byte(`{"traceEvents":[` + "\n"))
	p.emit(perfettoEvent{Name: "process_name", Ph: "M", Pid: perfettoPid, Args: map[string]any{"name": "wavedbg " + kernel}})
	return p
}

func (p *perfettoWriter) write(b []byte) {
	if p.err == nil {
		_, p.err = p.w.Write(b)
	}
}

// Write lets the writer stand where launch takes a trace io.Writer; it
// takes step records only (traceFunc hands them to traceStep), never bytes.
func (p *perfettoWriter) Write([]byte) (int, error) {
	return 0, errors.New("a Perfetto trace takes step records, not bytes")
}

func (p *perfettoWriter) emit(e perfettoEvent) {
	b, err := json.Marshal(e)
	if err != nil && p.err == nil {
		p.err = err
	}
	if p.events > 0 {
		p.write([]byte(",\n"))
	}
	p.events++
	p.write(b)
}

// tid is wave's thread id.
func tid(wave uint64) uint64 { return wave + 1 }

// inside returns ts moved into the slice [b, a], half a cycle in from its
// ends when the slice is long enough, so that flow ends bind to it and not
// to a neighbour.
func inside(ts, b, a uint64) float64 {
	lo, hi := float64(b), float64(a)
	if a > b {
		m := min(0.5, (hi-lo)/2)
		lo, hi = lo+m, hi-m
	}
	return min(max(float64(ts), lo), hi)
}

// traceStep adds one step of a wave.
func (p *perfettoWriter) traceStep(wave uint64, r *emu.StepRecord) error {
	w := p.waves[wave]
	t := tid(wave)
	if w == nil {
		w = &perfettoWave{pending: map[uint64]perfettoIssue{}}
		p.waves[wave] = w
		p.emit(perfettoEvent{Name: "thread_name", Ph: "M", Pid: perfettoPid, Tid: t, Args: map[string]any{"name": fmt.Sprintf("wave %d", wave)}})
		p.emit(perfettoEvent{Name: "thread_sort_index", Ph: "M", Pid: perfettoPid, Tid: t, Args: map[string]any{"sort_index": wave}})
		w.vm, w.lgkm = r.CountersBefore.VM, r.CountersBefore.LGKM
		p.counters(wave, w, float64(r.CycleBefore))
		p.cache(wave, w, float64(r.CycleBefore))
	}
	b, a := r.CycleBefore, r.CycleAfter
	dur := a - b
	name, inst := "?", ""
	if r.Inst != nil {
		inst = r.Inst.String()
		name, _, _ = strings.Cut(inst, " ")
	}
	args := map[string]any{"pc": hexAddr(r.PC), "inst": inst, "seq": r.Seq}
	if r.Stall > 0 {
		args["stall"] = r.Stall
	}
	if r.Err != nil {
		args["error"] = r.Err.Error()
	}
	p.emit(perfettoEvent{Name: name, Cat: "inst", Ph: "X", Ts: float64(b), Dur: &dur, Pid: perfettoPid, Tid: t, Args: args})

	for _, o := range r.Issued {
		w.pending[o.ID] = perfettoIssue{ts: inside(o.Issue, b, a)}
	}
	for _, o := range r.Completed {
		is, ok := w.pending[o.ID]
		if !ok {
			continue
		}
		delete(w.pending, o.ID)
		p.flows++
		op, cat := strings.ToLower(o.Op.String()), counterName(o.Counter)
		p.emit(perfettoEvent{Name: op, Cat: cat, Ph: "s", Ts: is.ts, Pid: perfettoPid, Tid: t, ID: p.flows,
			Args: map[string]any{"pc": hexAddr(o.PC), "issue_cycle": o.Issue, "done_cycle": o.Done}})
		p.emit(perfettoEvent{Name: op, Cat: cat, Ph: "f", Bp: "e", Ts: inside(o.Done, b, a), Pid: perfettoPid, Tid: t, ID: p.flows})
	}
	if c := r.CountersAfter; c.VM != w.vm || c.LGKM != w.lgkm {
		w.vm, w.lgkm = c.VM, c.LGKM
		p.counters(wave, w, float64(a))
	}
	if len(r.Cache) > 0 {
		h, m := w.hits, w.misses
		for _, e := range r.Cache {
			switch e.Kind {
			case emu.CacheHit:
				w.hits++
			case emu.CacheMiss:
				w.misses++
			}
		}
		if w.hits != h || w.misses != m {
			p.cache(wave, w, float64(a))
		}
	}
	return p.err
}

func (p *perfettoWriter) counters(wave uint64, w *perfettoWave, ts float64) {
	p.emit(perfettoEvent{Name: fmt.Sprintf("wave %d counters", wave), Ph: "C", Ts: ts, Pid: perfettoPid, Tid: tid(wave),
		Args: map[string]any{"vm_cnt": w.vm, "lgkm_cnt": w.lgkm}})
}

func (p *perfettoWriter) cache(wave uint64, w *perfettoWave, ts float64) {
	p.emit(perfettoEvent{Name: fmt.Sprintf("wave %d scalar cache", wave), Ph: "C", Ts: ts, Pid: perfettoPid, Tid: tid(wave),
		Args: map[string]any{"hits": w.hits, "misses": w.misses}})
}

// close ends the JSON document (also after a fault, so that the steps up
// to it can be looked at).
func (p *perfettoWriter) close() error {
	other, err := json.Marshal(map[string]string{"schema": jsonSchema, "kernel": p.kernel, "clock": "1 cycle = 1 us"})
	if err != nil {
		return err
	}
	p.write([]byte("\n],\"otherData\":"))
	p.write(other)
	p.write([]byte("}\n"))
	return p.err
}

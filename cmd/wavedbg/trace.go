package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"math/bits"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
)

func init() {
	register(command{name: "trace", summary: "run a kernel and stream one JSON step record per instruction", run: runTrace})
}

// waveSelection is the --wave flag: which waves' steps are traced.
type waveSelection struct {
	all   bool
	waves map[uint64]bool
}

func (w *waveSelection) String() string {
	if w.all {
		return "all"
	}
	var s []string
	for id := range w.waves {
		s = append(s, strconv.FormatUint(id, 10))
	}
	return strings.Join(s, ",")
}

func (w *waveSelection) Set(s string) error {
	if s == "all" {
		w.all = true
		return nil
	}
	if w.waves == nil {
		w.waves = map[uint64]bool{}
	}
	for _, p := range strings.Split(s, ",") {
		id, err := strconv.ParseUint(p, 10, 64)
		if err != nil {
			return fmt.Errorf("%q: want wave numbers N[,N...] or all", s)
		}
		w.waves[id] = true
	}
	return nil
}

// Has reports whether wave id (its index in dispatch order) is traced.
func (w *waveSelection) Has(id uint64) bool {
	if w.all {
		return true
	}
	if len(w.waves) == 0 {
		return id == 0
	}
	return w.waves[id]
}

// traceSel is the trace command's wave selection, read by launch.
var traceSel waveSelection

func runTrace(args []string, stdout, stderr io.Writer) error {
	traceSel = waveSelection{}
	cfg, err := parseRunArgs("trace", args, stderr, func(fs *flag.FlagSet) {
		fs.Var(&traceSel, "wave", "waves to trace, by dispatch order: `N[,N...]` or all (default 0)")
	})
	if err != nil {
		return err
	}
	if err := checkOutputPaths(cfg); err != nil {
		return err
	}
	defer cfg.outputs().abort() // unless committed
	co, k, inputs, err := prepare(cfg)
	if err != nil {
		return err
	}
	defer co.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bw := bufio.NewWriterSize(stdout, 1<<16)
	res, err := launch(ctx, co, k, cfg, inputs, bw)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return err
	}
	if err := runFailed(ctx, res); err != nil {
		return err
	}
	if !cfg.quiet {
		printSummary(stderr, cfg, res)
	}
	return writeOutputs(cfg, res, stderr)
}

// traceRecord is one JSON line of wavedbg trace: a step record of one wave.
type traceRecord struct {
	Wave        uint64           `json:"wave"`
	Seq         uint64           `json:"seq"`
	PC          string           `json:"pc"`
	Inst        string           `json:"inst"`
	NextPC      string           `json:"next_pc"`
	CycleBefore uint64           `json:"cycle_before"`
	CycleAfter  uint64           `json:"cycle_after"`
	Stall       uint64           `json:"stall,omitempty"`
	SRegs       []traceSReg      `json:"sregs,omitempty"`
	VRegs       []traceVReg      `json:"vregs,omitempty"`
	Mem         []traceMem       `json:"mem,omitempty"`
	Counters    [2]emu.Counters  `json:"counters"`
	Addrs       []emu.LaneAddr   `json:"addrs,omitempty"`
	Lines       int              `json:"lines,omitempty"`
	Notes       []string         `json:"notes,omitempty"`
	Hazards     []emu.Hazard     `json:"hazards,omitempty"`
	Cache       []emu.CacheEvent `json:"cache,omitempty"`
	State       string           `json:"state"`
	Err         string           `json:"error,omitempty"`
}

type traceSReg struct {
	Name string `json:"name"`
	Old  uint32 `json:"old"`
	New  uint32 `json:"new"`
}

type traceVReg struct {
	Reg   int            `json:"reg"`
	Lanes string         `json:"lanes"`
	New   map[int]uint32 `json:"new"`
}

type traceMem struct {
	Addr string `json:"addr"`
	New  string `json:"new"`
	Why  string `json:"why"`
}

// traceLine converts a step record to its JSON line.
func traceLine(wave uint64, r *emu.StepRecord) traceRecord {
	t := traceRecord{Wave: wave, Seq: r.Seq, PC: fmt.Sprintf("%#x", r.PC), NextPC: fmt.Sprintf("%#x", r.NextPC),
		CycleBefore: r.CycleBefore, CycleAfter: r.CycleAfter, Stall: r.Stall,
		Counters: [2]emu.Counters{r.CountersBefore, r.CountersAfter}, Addrs: r.Addrs, Notes: r.Notes,
		Hazards: r.Hazards, Cache: r.Cache, State: r.State.String()}
	if r.Inst != nil {
		t.Inst = r.Inst.String()
	}
	if r.Err != nil {
		t.Err = r.Err.Error()
	}
	for _, s := range r.SRegs {
		t.SRegs = append(t.SRegs, traceSReg{s.Name, s.Old, s.New})
	}
	for _, v := range r.VRegs {
		tv := traceVReg{Reg: v.Reg, Lanes: fmt.Sprintf("%#016x", v.Lanes), New: map[int]uint32{}}
		for m := v.Lanes; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			tv.New[l] = v.New[l]
		}
		t.VRegs = append(t.VRegs, tv)
	}
	for _, m := range r.Mem {
		t.Mem = append(t.Mem, traceMem{fmt.Sprintf("%#x", m.Addr), fmt.Sprintf("%x", m.New), m.Why})
	}
	if len(r.Addrs) > 0 {
		t.Lines = emu.DistinctLines(r.Addrs)
	}
	return t
}

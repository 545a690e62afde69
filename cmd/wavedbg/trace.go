package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
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
	var format string
	cfg, err := parseRunArgs("trace", args, stderr, func(fs *flag.FlagSet) {
		fs.Var(&traceSel, "wave", "waves to trace, by dispatch order: `N[,N...]` or all (default 0)")
		fs.StringVar(&format, "format", "jsonl", "`jsonl`: one JSON step record per line (schema wavedbg/1, doc/wavedbg.schema.json); "+
			"perfetto: a Chrome/Perfetto trace JSON for ui.perfetto.dev or chrome://tracing (1 cycle shown as 1 µs)")
	})
	if err != nil {
		return err
	}
	if format != "jsonl" && format != "perfetto" {
		return usageError{fmt.Sprintf("--format %q: want jsonl or perfetto", format)}
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
	var tw io.Writer = bw
	var pw *perfettoWriter
	if format == "perfetto" {
		pw = newPerfettoWriter(bw, cfg.m.Kernel)
		tw = pw
	}
	res, err := launch(ctx, co, k, cfg, inputs, tw)
	if pw != nil {
		if cerr := pw.close(); err == nil {
			err = cerr
		}
	}
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

// stepTracer writes the step records of a traced wave.
type stepTracer interface {
	traceStep(wave uint64, r *emu.StepRecord) error
}

// traceFunc returns the emulator's trace hook writing to w: w's own
// traceStep (--format perfetto) or JSON lines.
func traceFunc(w io.Writer) func(wave uint64, r *emu.StepRecord) error {
	if t, ok := w.(stepTracer); ok {
		return t.traceStep
	}
	enc := json.NewEncoder(w)
	return func(wave uint64, r *emu.StepRecord) error {
		return enc.Encode(traceLine(wave, r))
	}
}

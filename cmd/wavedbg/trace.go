package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
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

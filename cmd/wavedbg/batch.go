package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/tui"
)

// batchResult is --json's object for one command.
type batchResult struct {
	Command string `json:"command"`
	From    string `json:"from"` // "--ex 2" or "FILE:LINE"
	Output  string `json:"output"`
	Error   string `json:"error,omitempty"`
}

// batchLine is one command of a batch run and where it came from.
type batchLine struct {
	cmd, from string
}

// batchLines gathers the --ex commands, then the -x file's lines (blank
// lines and # comments skipped).
func batchLines(o *debugOptions) ([]batchLine, error) {
	var out []batchLine
	for i, c := range o.ex {
		out = append(out, batchLine{c, fmt.Sprintf("--ex %d", i+1)})
	}
	if o.cmdFile != "" {
		b, err := os.ReadFile(o.cmdFile)
		if err != nil {
			return nil, fmt.Errorf("-x: %w", err)
		}
		for i, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				out = append(out, batchLine{strings.TrimPrefix(l, ":"), fmt.Sprintf("%s:%d", o.cmdFile, i+1)})
			}
		}
	}
	return out, nil
}

// runBatch runs the debugger's commands headless, printing each command
// and its result; the first failing command ends the run with an error
// that names it.
//
// SIGINT (Ctrl-C) stops the opening of a wave (at the start or by a
// command) and the batch with an error; a second one ends the process.
// When stderr is a terminal, it shows the opening's progress.
func runBatch(o *debugOptions, stdout, stderr io.Writer) error {
	lines, err := batchLines(o)
	if err != nil {
		return err
	}
	ctx, stop := interrupts()
	defer stop()
	progress := progressLine(stderr)
	co, l, err := loadDebuggee(o)
	if err != nil {
		return err
	}
	open := func(ctx context.Context, p func(emu.GridProgress)) (tui.Debuggee, error) {
		l.Progress = p
		return openLoaded(ctx, o, co, l)
	}
	d, err := tui.OpenWithProgress(ctx, o.wave, open, progress)
	if progress != nil {
		progress("")
	}
	if err != nil {
		return err
	}
	m := tui.New(d, tui.Options{Color: tui.ColorPlain, Context: ctx, Progress: progress})
	if err := attachSource(m, o, false); err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	for _, l := range lines {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted before %s", l.from)
		}
		if !o.json {
			fmt.Fprintf(stdout, "(wavedbg) %s\n", l.cmd)
		}
		out, quit, err := m.Batch(l.cmd)
		if progress != nil {
			progress("")
		}
		if o.json {
			r := batchResult{Command: l.cmd, From: l.from, Output: out}
			if err != nil {
				r.Error = err.Error()
			}
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %v", l.from, err)
		}
		if quit {
			return nil
		}
		if out != "" && !o.json {
			fmt.Fprintln(stdout, out)
		}
	}
	return nil
}

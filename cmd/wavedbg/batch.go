package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

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
func runBatch(o *debugOptions, stdout io.Writer) error {
	lines, err := batchLines(o)
	if err != nil {
		return err
	}
	d, err := openDebuggee(o)
	if err != nil {
		return err
	}
	m := tui.New(d, tui.Options{Color: tui.ColorPlain})
	if err := attachSource(m, o, false); err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	for _, l := range lines {
		if !o.json {
			fmt.Fprintf(stdout, "(wavedbg) %s\n", l.cmd)
		}
		out, quit, err := m.Batch(l.cmd)
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

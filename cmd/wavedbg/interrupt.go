package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/charmbracelet/x/term"
)

// interrupts is interruptContext (tests replace it).
var interrupts = interruptContext

// interruptContext returns a context that the first SIGINT cancels; the
// second ends the process as usual. stop releases the signal.
func interruptContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
			signal.Stop(ch) // the next one is the default: the end
			cancel()
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}

// progressLine returns what shows a progress line on w, rewriting it in
// place (an empty line clears it), or nil when w is not a terminal.
func progressLine(w io.Writer) func(line string) {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	if !term.IsTerminal(f.Fd()) {
		return nil
	}
	shown := false
	return func(line string) {
		if line == "" && !shown {
			return
		}
		fmt.Fprintf(w, "\r\033[K%s", line)
		shown = line != ""
	}
}

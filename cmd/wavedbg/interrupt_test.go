package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestBatchInterruptStopsOpening: SIGINT while --batch opens a late wave
// of a big grid stops the opening with a clear error and exit status 1,
// before any command runs.
func TestBatchInterruptStopsOpening(t *testing.T) {
	for _, tc := range []struct {
		name string
		ctx  func() (context.Context, func())
	}{
		{"SIGINT", func() (context.Context, func()) {
			ctx, stop := interruptContext()
			if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			<-ctx.Done()
			return ctx, stop
		}},
		{"canceled", func() (context.Context, func()) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx, cancel
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func(f func() (context.Context, func())) { interrupts = f }(interrupts)
			interrupts = tc.ctx
			var out, errOut bytes.Buffer
			code := mainExit([]string{"--sample", "vector_add", "--grid", "262144", "--wave", "4095", "--batch", "--ex", "info waves"}, &out, &errOut)
			if code != 1 || !strings.Contains(errOut.String(), "wavedbg: opening wave 4095 interrupted") {
				t.Errorf("exit %d, stderr %q; want 1, opening wave 4095 interrupted", code, errOut.String())
			}
			if out.Len() > 0 {
				t.Errorf("commands ran: %q", out.String())
			}
		})
	}
}

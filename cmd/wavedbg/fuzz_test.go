package main

// CLI-level fuzz targets: mutated code objects through info, disasm, run
// and trace, and mutated manifests through run and trace, each command run
// in-process by mainExit as the other tests do. Errors are fine; a panic or
// a command that does not return fails the case. The seeds under
// testdata/fuzz run as ordinary tests; CI (.ci/run) also fuzzes each target
// for a fixed time:
//
//	go test ./cmd/wavedbg -run '^$' -fuzz '^FuzzCLICodeObject$' -fuzztime 60s -fuzzminimizetime 0

import (
	"bytes"
	"fmt"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/wavedbg/wavedbg/emu/manifest"
	"github.com/wavedbg/wavedbg/loader"
	"github.com/wavedbg/wavedbg/tui"
	"github.com/wavedbg/wavedbg/tui/sample"
)

// Each launch of a fuzz case runs under these budgets.
const (
	fuzzMaxSteps = "1000" // --max-steps, per wave
	fuzzMemLimit = "64Mi" // --mem-limit
	// fuzzWatchdog bounds one command: a hang detector, not a speed
	// assertion (a case takes milliseconds).
	fuzzWatchdog = 10 * time.Second
)

// FuzzCLICodeObject writes the input as a code object file and runs it
// through info, info --json, info --list-bundles, disasm, run and trace
// (of wave 0).
// The launch is the debugger's default for the first kernel the loader
// finds (a made-up one when it finds none).
func FuzzCLICodeObject(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		c := newCLICase(t)
		file := c.write("k.co", data)
		c.run("info", file)
		c.run("info", "--json", file)
		c.run("info", "--list-bundles", file)
		c.run("disasm", file)
		launch := c.budget(file)
		if m := c.defaultManifest(file); m != "" {
			launch = append(launch, "--manifest", m)
		} else {
			launch = append(launch, "--kernel", "k", "--grid", "64", "--block", "64")
		}
		c.run(append([]string{"run"}, launch...)...)
		c.run(append([]string{"trace"}, launch...)...)
	})
}

// FuzzCLIManifest writes the input as a manifest for the debugger's
// bundled sample (kernel "scale", a buffer and a factor) and runs it
// through run and trace (of wave 0). The case's directory also holds in.bin, 512
// bytes, for manifests that name an input file.
func FuzzCLIManifest(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		c := newCLICase(t)
		if m, err := manifest.Parse(data, c.dir); err == nil && !fuzzable(m) {
			return
		}
		co := c.write("scale.co", sample.CodeObject())
		c.write("in.bin", bytes.Repeat([]byte{1, 2, 3, 4}, 128))
		launch := append(c.budget(co), "--manifest", c.write("m.json", data))
		c.run(append([]string{"run"}, launch...)...)
		c.run(append([]string{"trace"}, launch...)...)
	})
}

// fuzzMaxItems bounds the grid of a fuzzed launch, so that the step budget
// bounds its time.
const fuzzMaxItems = 4096

// fuzzable reports whether a valid manifest is worth running: not when its
// grid is larger than fuzzMaxItems (a long run, not a hang), nor when a
// buffer reads a file outside the manifest's directory (the host's files,
// a FIFO, a terminal).
func fuzzable(m *manifest.Manifest) bool {
	grid, _, _ := m.Sizes()
	if items, ok := mulU64Test(grid[:]...); !ok || items > fuzzMaxItems {
		return false
	}
	for _, a := range m.Args {
		if a.Input != "" && !filepath.IsLocal(a.Input) {
			return false
		}
	}
	return true
}

// mulU64Test multiplies xs, reporting false on overflow.
func mulU64Test(xs ...uint64) (uint64, bool) {
	p := uint64(1)
	for _, x := range xs {
		hi, lo := bits.Mul64(p, x)
		if hi != 0 {
			return 0, false
		}
		p = lo
	}
	return p, true
}

// cliCase is one fuzz case: a scratch directory and the watchdog.
type cliCase struct {
	t   *testing.T
	dir string
}

func newCLICase(t *testing.T) *cliCase { return &cliCase{t: t, dir: t.TempDir()} }

// write writes a file of the case's directory and returns its path.
func (c *cliCase) write(name string, data []byte) string {
	p := filepath.Join(c.dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		c.t.Fatal(err)
	}
	return p
}

// budget returns the arguments of a bounded, quiet launch of file whose
// outputs go to the case's directory.
func (c *cliCase) budget(file string) []string {
	return []string{file, "--max-steps", fuzzMaxSteps, "--mem-limit", fuzzMemLimit,
		"--workers", "1", "--out", filepath.Join(c.dir, "out"), "-q"}
}

// defaultManifest writes the debugger's default launch of the first
// kernel of file, or returns "" when the file has no kernel.
func (c *cliCase) defaultManifest(file string) (path string) {
	c.guard("load "+file, func() {
		co, err := loader.Load(file, loader.LoadOptions{})
		if err != nil {
			return
		}
		defer co.Close()
		if len(co.Kernels) == 0 {
			return
		}
		b, err := tui.DefaultManifest(&co.Kernels[0], manifest.Dim{}, manifest.Dim{}).Marshal()
		if err != nil {
			c.t.Fatalf("default manifest of %s: %v", co.Kernels[0].Name, err)
		}
		path = c.write("m.json", b)
	})
	return path
}

// run runs wavedbg with args; the exit status does not matter.
func (c *cliCase) run(args ...string) {
	c.guard("wavedbg "+strings.Join(args, " "), func() {
		mainExit(args, io.Discard, io.Discard)
	})
}

// guard runs fn on its own goroutine and fails the case if fn panics or
// has not returned after fuzzWatchdog.
func (c *cliCase) guard(what string, fn func()) {
	c.t.Helper()
	done := make(chan string, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Sprintf("panic: %v\n%s", r, debug.Stack())
			}
		}()
		fn()
		done <- ""
	}()
	timer := time.NewTimer(fuzzWatchdog)
	defer timer.Stop()
	select {
	case msg := <-done:
		if msg != "" {
			c.t.Fatalf("%s: %s", what, msg)
		}
	case <-timer.C:
		c.t.Fatalf("%s: hang: no return after %v", what, fuzzWatchdog)
	}
}

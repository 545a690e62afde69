package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/wavedbg/wavedbg/tui"
	"github.com/wavedbg/wavedbg/tui/sample"
)

func init() {
	register(command{name: "debug", summary: "open the interactive debugger", run: runDebug})
}

// defaultCodeObject is what `wavedbg` opens without a file; the samples
// package may replace it.
var defaultCodeObject = func() (data []byte, kernel string, block int) {
	return sample.CodeObject(), sample.Name, 128
}

// argList collects repeated --arg NAME=VALUE flags.
type argList map[string]string

func (a argList) String() string { return fmt.Sprint(map[string]string(a)) }

func (a argList) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("want NAME=VALUE, got %q", s)
	}
	a[k] = v
	return nil
}

// debugOptions is the parsed command line of the debug command.
type debugOptions struct {
	file   string
	launch tui.Launch
}

func parseDebugArgs(args []string, stderr io.Writer) (*debugOptions, error) {
	fs := flag.NewFlagSet("wavedbg", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &debugOptions{launch: tui.Launch{Args: argList{}}}
	fs.StringVar(&o.launch.Kernel, "kernel", "", "kernel `NAME` (default: the first)")
	fs.IntVar(&o.launch.Block, "block", 0, "work-items per work-group (default 64; the bundled sample uses 128)")
	fs.IntVar(&o.launch.Groups, "groups", 1, "number of work-groups")
	fs.Var(argList(o.launch.Args), "arg", "kernel argument `NAME=VALUE` (repeatable; by-value arguments default to 3)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: wavedbg [FILE] [--kernel NAME] [--block N] [--groups N] [--arg NAME=VALUE]...\n\n"+
			"Opens the interactive debugger on FILE, or on a bundled sample kernel without it.\nPress ? inside for keys and commands.\n\n")
		fs.PrintDefaults()
	}
	var rest []string
	for len(args) > 0 {
		if !strings.HasPrefix(args[0], "-") {
			rest = append(rest, args[0])
			args = args[1:]
			continue
		}
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
	}
	switch len(rest) {
	case 0:
	case 1:
		o.file = rest[0]
	default:
		return nil, usageError{fmt.Sprintf("one code object at a time, got %q", rest)}
	}
	return o, nil
}

// openDebuggee loads the file (or the bundled sample) for the debugger.
func openDebuggee(o *debugOptions) (*tui.EmuDebuggee, error) {
	l := o.launch
	var data []byte
	if o.file == "" {
		var kernel string
		var block int
		data, kernel, block = defaultCodeObject()
		if l.Kernel == "" {
			l.Kernel = kernel
		}
		if l.Block == 0 {
			l.Block = block
		}
	} else {
		b, err := os.ReadFile(o.file)
		if err != nil {
			return nil, err
		}
		data = b
	}
	d, err := tui.Open(data, l)
	if err != nil && o.file != "" {
		return nil, fmt.Errorf("%s: %w", o.file, err)
	}
	return d, err
}

func runDebug(args []string, stdout, stderr io.Writer) error {
	o, err := parseDebugArgs(args, stderr)
	if err != nil {
		return err
	}
	d, err := openDebuggee(o)
	if err != nil {
		return err
	}
	m := tui.New(d, tui.Options{Color: tui.ColorModeFromEnv()})
	p := tea.NewProgram(m, tea.WithOutput(stdout))
	_, err = p.Run()
	return err
}

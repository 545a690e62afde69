package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/wavedbg/wavedbg/loader"
	"github.com/wavedbg/wavedbg/samples"
	"github.com/wavedbg/wavedbg/tui"
	"github.com/wavedbg/wavedbg/tui/sample"
)

func init() {
	register(command{name: "debug", summary: "open the interactive debugger", run: runDebug})
}

// bundled returns the launch of a bundled teaching sample (package samples)
// by name, or of samples.Default() for "". The tui's own small sample
// (tui/sample) remains under the name "scale".
func bundled(name string) (data []byte, l tui.Launch, err error) {
	if name == sample.Name {
		return sample.CodeObject(), tui.Launch{Kernel: sample.Name, Block: 128}, nil
	}
	s := samples.Default()
	if name != "" {
		var ok bool
		if s, ok = samples.Lookup(name); !ok {
			var names []string
			for _, x := range samples.All() {
				names = append(names, x.Name)
			}
			return nil, l, usageError{fmt.Sprintf("no sample %q (have %s, %s)", name, strings.Join(names, ", "), sample.Name)}
		}
	}
	l = tui.Launch{Kernel: s.Kernel, Data: map[string][]byte{}}
	if mf, err := s.RunManifest(); err == nil {
		l.Block = int(mf.Block.V[0] * mf.Block.V[1] * mf.Block.V[2])
		if l.Block > 0 {
			l.Groups = max(int(mf.Grid.V[0]*mf.Grid.V[1]*mf.Grid.V[2])/l.Block, 1)
		}
		for i := range mf.Args {
			if b, err := mf.Args[i].Bytes(""); err == nil && mf.Args[i].Name != "" {
				l.Data[mf.Args[i].Name] = b
			}
		}
	}
	return s.CodeObject, l, nil
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
	sample string
	target string
	launch tui.Launch
}

func parseDebugArgs(args []string, stderr io.Writer) (*debugOptions, error) {
	fs := flag.NewFlagSet("wavedbg", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &debugOptions{launch: tui.Launch{Args: argList{}}}
	fs.StringVar(&o.launch.Kernel, "kernel", "", "kernel `NAME` (default: the first)")
	fs.IntVar(&o.launch.Block, "block", 0, "work-items per work-group (default 64; the bundled sample uses 128)")
	fs.IntVar(&o.launch.Groups, "groups", 0, "number of work-groups (default 1)")
	fs.StringVar(&o.sample, "sample", "", "open the bundled sample `NAME` instead of a file")
	fs.StringVar(&o.target, "target", "", "pick the code object for `gfxNNN` from a bundle or fat binary")
	fs.Var(argList(o.launch.Args), "arg", "kernel argument `NAME=VALUE` (repeatable; by-value arguments default to 3)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: wavedbg [FILE | --sample NAME] [--kernel NAME] [--block N] [--groups N] [--arg NAME=VALUE]...\n\n"+
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
		var sl tui.Launch
		var err error
		if data, sl, err = bundled(o.sample); err != nil {
			return nil, err
		}
		if l.Kernel == "" {
			l.Kernel = sl.Kernel
		}
		if l.Block == 0 {
			l.Block = sl.Block
		}
		if l.Groups == 0 {
			l.Groups = sl.Groups
		}
		l.Data = sl.Data
		return tui.Open(data, l)
	}
	co, err := loader.Load(o.file, loader.LoadOptions{Target: o.target})
	if err != nil {
		return nil, err
	}
	defer co.Close()
	d, err := tui.OpenFile(co.File, l)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.file, err)
	}
	return d, nil
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

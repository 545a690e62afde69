package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/emu/manifest"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
	"github.com/wavedbg/wavedbg/samples"
	"github.com/wavedbg/wavedbg/tui"
	"github.com/wavedbg/wavedbg/tui/sample"
)

func init() {
	register(command{name: "debug", summary: "open the interactive debugger", run: runDebug})
}

// debugOptions is the parsed command line of the debug command: the run
// command's launch flags (parsed the same way), plus the sample and the
// wave to debug.
type debugOptions struct {
	file, sample, target string
	bundle               *int // --bundle: the bundle of a fat binary to use
	manifest             string
	kernel               string
	grid, block, offset  string
	args                 []string // --arg specs, as for run
	wave                 uint64
	vmLat, ldsLat        uint
	batch                bool     // --batch: run commands headless (batch.go)
	ex                   []string // --ex commands, in order
	cmdFile              string   // -x: a file of commands
	json                 bool     // --json: one JSON object per batch command
}

func parseDebugArgs(args []string, stderr io.Writer) (*debugOptions, error) {
	fs := flag.NewFlagSet("wavedbg", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := &debugOptions{}
	fs.StringVar(&o.kernel, "kernel", "", "kernel `NAME` (default: the manifest's, or the first)")
	fs.StringVar(&o.grid, "grid", "", "global size in work-items, `X[,Y,Z]` (default 64)")
	fs.StringVar(&o.block, "block", "", "work-group size, `X[,Y,Z]` (default: up to 64)")
	fs.StringVar(&o.offset, "offset", "", "global offset, `X[,Y,Z]`")
	fs.Func("arg", "a kernel argument, as for run (repeat, in order; default: buffers counting 0, 1, 2, ..., scalars 3)", func(s string) error {
		o.args = append(o.args, s)
		return nil
	})
	fs.StringVar(&o.manifest, "manifest", "", "read the launch from JSON manifest `M.json`")
	fs.Uint64Var(&o.wave, "wave", 0, "debug wave `N` (dispatch order) and its work-group; earlier work-groups run first, under a progress line (Ctrl-C stops them)")
	fs.UintVar(&o.vmLat, "vm-latency", 0, "vector memory latency in `cycles` (0: the default)")
	fs.UintVar(&o.ldsLat, "lds-latency", 0, "DS (LDS) latency in `cycles` (0: the default)")
	fs.StringVar(&o.sample, "sample", "", "open the bundled sample `NAME` instead of a file")
	fs.StringVar(&o.target, "target", "", "pick the code object for `gfxNNN` from a bundle or fat binary")
	bundleFlag(fs, &o.bundle)
	fs.BoolVar(&o.batch, "batch", false, "run the --ex and -x commands without a terminal, print their results, and exit")
	fs.Func("ex", "run debugger command `CMD` (repeat; with --batch)", func(s string) error {
		o.ex = append(o.ex, s)
		return nil
	})
	fs.BoolVar(&o.json, "json", false, "with --batch: print one JSON object per command")
	fs.StringVar(&o.cmdFile, "x", "", "run the debugger commands in `CMDFILE`, one a line (with --batch)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: wavedbg [FILE [--kernel NAME] [--grid X] [--block X] [--arg ...]... | --manifest M.json] [--wave N]\n"+
			"       wavedbg --sample NAME\n       wavedbg FILE|--sample NAME --batch [--ex CMD]... [-x CMDFILE]\n       wavedbg            (pick a bundled sample)\n\n"+
			"Opens the interactive debugger on FILE, on a bundled sample, or on the sample picker.\nPress ? inside for keys and commands.\n\n")
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\n%s", runUsage)
	}
	var rest []string
	for len(args) > 0 {
		if !strings.HasPrefix(args[0], "-") {
			rest = append(rest, args[0])
			args = args[1:]
			continue
		}
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError{err.Error()}
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
	if o.manifest != "" && len(o.args) > 0 {
		return nil, usageError{"--arg and --manifest cannot be combined"}
	}
	if o.file != "" && o.sample != "" {
		return nil, usageError{"a FILE or --sample, not both"}
	}
	if (len(o.ex) > 0 || o.cmdFile != "" || o.json) && !o.batch {
		return nil, usageError{"--ex, -x and --json run with --batch"}
	}
	if o.batch && o.file == "" && o.sample == "" {
		return nil, usageError{"--batch needs a FILE or --sample"}
	}
	return o, nil
}

// sampleNames lists the bundled samples for messages.
func sampleNames() string {
	var names []string
	for _, it := range samples.Items() {
		n := it.Title()
		if strings.Contains(n, " ") {
			n = strconv.Quote(n) // a variant: --sample "NAME (TARGET)"
		}
		names = append(names, n)
	}
	return strings.Join(append(names, sample.Name), ", ")
}

// pickerItems lists every sample --sample opens, in teaching order, then
// the tui's own small one.
func pickerItems() []tui.PickerItem {
	var out []tui.PickerItem
	for _, it := range samples.Items() {
		out = append(out, it)
	}
	return append(out, scaleItem{})
}

// scaleItem is the tui's own sample (tui/sample) in the picker.
type scaleItem struct{}

func (scaleItem) Title() string { return sample.Name }
func (scaleItem) Description() string {
	return "The debugger's first kernel: a global load, a loop and EXEC masking (buf[i] = buf[i]*factor + 2, work-items 0-31)"
}
func (i scaleItem) FilterValue() string { return i.Title() + " " + i.Description() }
func (scaleItem) Group() string         { return "waves and control" }

// bundled returns a bundled sample's code object and run manifest; the
// tui's own small sample (tui/sample) is under the name "scale".
func bundled(name string) ([]byte, *manifest.Manifest, error) {
	if name == sample.Name {
		m, err := manifest.Parse([]byte(sample.Manifest), ".")
		return sample.CodeObject(), m, err
	}
	s, ok := samples.Lookup(name)
	if !ok {
		return nil, nil, usageError{fmt.Sprintf("no sample %q (have %s)", name, sampleNames())}
	}
	m, err := s.RunManifest()
	return s.CodeObject, m, err
}

// launchManifest is the run manifest for kernel k: --manifest, else the
// --arg list, else base (a sample's), else the debugger's default; then
// --kernel, --grid, --block and --offset override it.
func (o *debugOptions) launchManifest(k *loader.Kernel, base *manifest.Manifest) (*manifest.Manifest, error) {
	var dims [3]manifest.Dim
	for i, d := range []struct{ flag, s string }{{"grid", o.grid}, {"block", o.block}, {"offset", o.offset}} {
		if d.s == "" {
			continue
		}
		v, err := manifest.ParseDim(d.s)
		if err != nil {
			return nil, usageError{fmt.Sprintf("--%s %v", d.flag, err)}
		}
		dims[i] = v
	}
	m := base
	switch {
	case o.manifest != "":
		var err error
		if m, err = manifest.Load(o.manifest); err != nil {
			return nil, usageError{err.Error()}
		}
	case len(o.args) > 0:
		m = &manifest.Manifest{Dir: ".", Kernel: k.Name}
		for i, s := range o.args {
			a, err := parseArgSpec(s)
			if err != nil {
				return nil, usageError{fmt.Sprintf("--arg %d %q: %v", i, s, err)}
			}
			m.Args = append(m.Args, a)
		}
		if m.Grid = tui.DefaultManifest(k, dims[0], dims[1]).Grid; dims[1].Dims == 0 {
			m.Block = tui.DefaultManifest(k, dims[0], dims[1]).Block
		}
	case m == nil:
		m = tui.DefaultManifest(k, dims[0], dims[1])
	}
	m.Kernel = k.Name
	if dims[0].Dims > 0 {
		m.Grid = dims[0]
	}
	if dims[1].Dims > 0 {
		m.Block = dims[1]
	}
	if dims[2].Dims > 0 {
		m.Offset = dims[2]
	}
	if err := m.Validate(); err != nil {
		return nil, usageError{err.Error()}
	}
	return m, nil
}

// openDebuggee loads the file (or the bundled sample) for the debugger.
func openDebuggee(o *debugOptions) (*tui.EmuDebuggee, error) {
	co, l, err := loadDebuggee(o)
	if err != nil {
		return nil, err
	}
	return openLoaded(context.Background(), o, co, l)
}

// loadDebuggee loads the file (or the bundled sample) and checks the
// launch: what opening it needs but the run of the work-groups before the
// wave (openLoaded). The caller closes co.
func loadDebuggee(o *debugOptions) (co *loader.CodeObject, l tui.Launch, err error) {
	var base *manifest.Manifest
	if o.file == "" {
		var data []byte
		if data, base, err = bundled(o.sample); err != nil {
			return nil, l, err
		}
		if co, err = loader.NewCodeObject(strings.NewReader(string(data)), int64(len(data))); err != nil {
			return nil, l, err
		}
	}
	name := o.kernel
	if name == "" && base != nil {
		name = base.Kernel
	}
	if name == "" && o.manifest != "" {
		if m, err := manifest.Load(o.manifest); err == nil {
			name = m.Kernel
		}
	}
	if co == nil {
		if co, err = loadInput(o.file, loadOptions(o.target, name, o.bundle)); err != nil {
			return nil, l, withBundleHint(err)
		}
	}
	defer func() {
		if err != nil {
			co.Close()
		}
	}()
	if name == "" && len(co.Kernels) > 0 {
		name = co.Kernels[0].Name
		for _, k := range co.Kernels[1:] {
			name = min(name, k.Name)
		}
	}
	k := co.Kernel(name)
	if k == nil {
		if _, err = (&manifest.Manifest{Kernel: name}).Check(co); err == nil {
			err = fmt.Errorf("no kernel %q", name)
		}
		return nil, l, err
	}
	m, err := o.launchManifest(k, base)
	if err != nil {
		return nil, l, err
	}
	if _, err := m.Check(co); err != nil {
		return nil, l, err
	}
	l = tui.Launch{Kernel: k.Name, Manifest: m, Wave: o.wave, VMem: emu.VMemConfig{LDSLatency: uint64(o.ldsLat)}}
	if o.vmLat > 0 {
		t, _ := isa.TargetOf(co.Target.Processor)
		cfg := emu.DefaultConfig(t)
		cfg.Latency.VectorMem = uint32(o.vmLat)
		l.Config = &cfg
	}
	return co, l, nil
}

// openLoaded opens the wave of what loadDebuggee loaded, stopped by ctx,
// and closes co.
func openLoaded(ctx context.Context, o *debugOptions, co *loader.CodeObject, l tui.Launch) (*tui.EmuDebuggee, error) {
	defer co.Close()
	d, err := tui.OpenCodeObjectContext(ctx, co, l)
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
	if o.batch {
		return runBatch(o, stdout, stderr)
	}
	opt := tui.Options{Color: tui.ColorModeFromEnv()}
	pick := func(name string) (tui.Debuggee, error) {
		return openDebuggee(&debugOptions{sample: name})
	}
	app := tui.NewApp(pickerItems(), pick, opt)
	if o.file == "" && o.sample == "" {
		_, err = tea.NewProgram(app, tea.WithOutput(stdout)).Run()
		return err
	}
	// The wave opens in the background, under a progress line.
	co, l, err := loadDebuggee(o)
	if err != nil {
		return err
	}
	open := func(ctx context.Context, progress func(emu.GridProgress)) (tui.Debuggee, error) {
		l.Progress = progress
		return openLoaded(ctx, o, co, l)
	}
	start := tui.NewStarting(app, o.wave, open, func(m *tui.Model) error { return attachSource(m, o, true) })
	if _, err = tea.NewProgram(start, tea.WithOutput(stdout)).Run(); err == nil {
		err = start.Err()
	}
	return err
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"time"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/emu/manifest"
	"github.com/wavedbg/wavedbg/loader"
)

func init() {
	register(command{name: "run", summary: "run a kernel over a whole grid and write its output buffers", run: runRun})
}

// runConfig is a parsed `wavedbg run` (or `trace`) command line.
type runConfig struct {
	file     string // code object, bundle or fat binary
	target   string
	bundle   *int
	m        *manifest.Manifest
	outDir   string
	maxSteps uint64 // per wave; 0 = unlimited
	vmLat    uint   // vector memory latency in cycles (0: the default)
	ldsLat   uint   // DS latency in cycles (0: the default)
	workers  uint   // work-groups run at once (0: GOMAXPROCS)
	engine   emu.Engine
	writeMan string // write the effective manifest here
	quiet    bool
	cpuProf  string // write a CPU profile of the launch here
	goTrace  string // write a Go execution trace of the launch here
	manFile  string // the --manifest file, if any

	outs *outputSet // the outputs written so far, committed on success
}

// outputs returns the run's output set.
func (cfg *runConfig) outputs() *outputSet {
	if cfg.outs == nil {
		cfg.outs = &outputSet{}
	}
	return cfg.outs
}

// runUsage documents the --arg syntax; it is printed by --help.
const runUsage = `Arguments (--arg, once per kernel argument, in order):
  buffer,type=T,size=BYTES|count=N[,in=FILE|fill=PATTERN][,out=FILE][,ulp=N][,name=S]
  scalar,type=T,value=V        or the shorthand  T=V   (e.g. uint=48)
  V  or  value=V               a scalar of the type the kernel declares (3 to a float is 3.0f)
  struct,fields=T:V;T:V;...    (natural alignment, as OpenCL C lays it out)
  local,size=BYTES             (a __local pointer: dynamic LDS)
  null                         (a null pointer)
Buffer placement (add to a buffer): offset=N (the pointer is N bytes in),
  address=0x... (a fixed device address), pointers=NAME[+OFF]@AT;... (write
  buffer NAME's address at byte AT once placed); buffer,buffer=NAME[,offset=N]
  points into argument NAME's buffer (name it with name=NAME).
Types: char uchar short ushort int uint long ulong half float double.
Fill patterns: zero, const:V, iota[:START:STEP], random:SEED[:LO:HI].
The same launch can be described by a JSON manifest (--manifest; --write-manifest writes one);
see 'go doc github.com/wavedbg/wavedbg/emu/manifest'.
Outputs (out= buffers, --write-manifest, --cpuprofile, --gotrace) are written to temporary
files beside their destinations (.NAME.wavedbg-tmp-*; profiles during the run) and put in
place together only when the run succeeds: a run that faults, fails or is interrupted leaves
every destination as it was. No output may name an input of the run.
`

// parseRunArgs parses the flags shared by run and trace. extra registers
// command-specific flags.
func parseRunArgs(name string, args []string, stderr io.Writer, extra func(*flag.FlagSet)) (*runConfig, error) {
	fs := flag.NewFlagSet("wavedbg "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		kernel, grid, block, offset, man string
		cargs                            []string
	)
	cfg := &runConfig{}
	memLimit := manifest.ByteSize(manifest.DefaultMemLimit())
	fs.StringVar(&kernel, "kernel", "", "kernel `NAME` (default: the code object's only kernel)")
	fs.StringVar(&grid, "grid", "", "global size in work-items, `X[,Y,Z]`")
	fs.StringVar(&block, "block", "", "work-group size, `X[,Y,Z]`")
	fs.StringVar(&offset, "offset", "", "global offset, `X[,Y,Z]`")
	fs.Func("arg", "a kernel argument (repeat, in order; see below)", func(s string) error {
		cargs = append(cargs, s)
		return nil
	})
	fs.StringVar(&man, "manifest", "", "read the launch from JSON manifest `M.json` (--kernel, --grid, --block, --offset override it)")
	fs.StringVar(&cfg.outDir, "out", "", "directory for output files (default: the current directory)")
	fs.StringVar(&cfg.target, "target", "", "pick a code object from a bundle by `gfxNNN` or target ID")
	bundleFlag(fs, &cfg.bundle)
	fs.Uint64Var(&cfg.maxSteps, "max-steps", 100_000_000, "step budget per wave; 0 means none")
	fs.UintVar(&cfg.vmLat, "vm-latency", 0, "vector memory latency in `cycles` (VM_CNT operations complete in order; 0: the default)")
	fs.UintVar(&cfg.ldsLat, "lds-latency", 0, "DS (LDS) latency in `cycles` (0: the default)")
	fs.UintVar(&cfg.workers, "workers", 0, "work-groups run at once, `N` goroutines (0: one per CPU; a trace runs them one at a time)")
	fs.Func("engine", "instruction `engine`: fast (the default) or reference, every instruction through the debugger's step, slower; both must give the same results, so a run with each cross-checks a kernel", func(s string) error {
		e, err := emu.ParseEngine(s)
		cfg.engine = e
		return err
	})
	fs.StringVar(&cfg.writeMan, "write-manifest", "", "also write the launch as a JSON manifest to `FILE`")
	fs.Var(&memLimit, "mem-limit", "refuse a launch whose buffers need more than `BYTES` (K, M, G or Ki, Mi, Gi suffixes; 0: no limit; default: half the machine's memory, MemTotal or the cgroup's limit if lower)")
	fs.BoolVar(&cfg.quiet, "q", false, "no summary")
	fs.StringVar(&cfg.cpuProf, "cpuprofile", "", "write a CPU profile of the launch (go tool pprof format) to `FILE`")
	fs.StringVar(&cfg.goTrace, "gotrace", "", "write a Go execution trace of the launch (go tool trace format) to `FILE`")
	if extra != nil {
		extra(fs)
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: wavedbg %s FILE [--kernel NAME] --grid X[,Y,Z] --block X[,Y,Z] [--offset X[,Y,Z]] --arg ... \n", name)
		fmt.Fprintf(stderr, "       wavedbg %s FILE --manifest M.json\n\nFlags:\n", name)
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\n%s", runUsage)
	}
	// FILE may come before or after the flags.
	var pos []string
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) > 0 {
			pos = append(pos, args[0])
			args = args[1:]
		}
	}
	if len(pos) != 1 {
		return nil, usageError{fmt.Sprintf("%s: want exactly one code object FILE, got %d", name, len(pos))}
	}
	cfg.file = pos[0]
	cfg.manFile = man

	var m *manifest.Manifest
	if man != "" {
		if len(cargs) > 0 {
			return nil, usageError{"--arg and --manifest cannot be combined"}
		}
		var err error
		if m, err = manifest.Load(man); err != nil {
			return nil, usageError{err.Error()}
		}
	} else {
		m = &manifest.Manifest{Dir: "."}
		for i, s := range cargs {
			a, err := parseArgSpec(s)
			if err != nil {
				return nil, usageError{fmt.Sprintf("--arg %d %q: %v", i, s, err)}
			}
			m.Args = append(m.Args, a)
		}
	}
	if kernel != "" {
		m.Kernel = kernel
	}
	for _, d := range []struct {
		flag, s string
		dst     *manifest.Dim
	}{{"grid", grid, &m.Grid}, {"block", block, &m.Block}, {"offset", offset, &m.Offset}} {
		if d.s == "" {
			continue
		}
		v, err := manifest.ParseDim(d.s)
		if err != nil {
			return nil, usageError{fmt.Sprintf("--%s %v", d.flag, err)}
		}
		*d.dst = v
	}
	// With no --kernel, prepare takes the code object's only kernel
	// (manifest.Check).
	switch {
	case m.Grid.Dims == 0:
		return nil, usageError{"--grid X[,Y,Z] is required"}
	case m.Block.Dims == 0:
		return nil, usageError{"--block X[,Y,Z] is required"}
	}
	if err := m.Validate(); err != nil {
		return nil, usageError{err.Error()}
	}
	// Before anything is read or allocated.
	if err := m.CheckBudget(int64(memLimit)); err != nil {
		return nil, fmt.Errorf("%v; --mem-limit raises it", err)
	}
	cfg.m = m
	return cfg, nil
}

// runResult is what a completed launch reports.
type runResult struct {
	Waves, WorkGroups uint64
	Instructions      uint64
	Cycles            uint64 // the longest wave's clock
	WaveCycles        uint64 // summed over waves
	Faults            []string
	WaveFaults        []emu.WaveError // the faults as the emulator reports them
	Outputs           [][]byte        // final buffer contents, by argument index (nil for non-buffers)
	Elapsed           time.Duration   // wall time of emu.RunGrid: the timed window (see emuLaunch)
}

// errNoDispatch is returned for code objects the emulator cannot run.
var errNoDispatch = errors.New("the emulator cannot run this code object")

// launch runs a checked launch on the emulator (a variable so tests can
// substitute it).
var launch = emuLaunch

// emuLaunch builds an emu.Launch from the code object and manifest (k is the
// kernel prepare checked; the manifest names the same one) and runs the
// whole grid.
func emuLaunch(ctx context.Context, co *loader.CodeObject, k *loader.Kernel, cfg *runConfig, inputs [][]byte, trace io.Writer) (*runResult, error) {
	l, err := cfg.m.Launch(co, inputs)
	if nd, ok := errors.AsType[*manifest.NoDispatchError](err); ok {
		return nil, fmt.Errorf("%w: %v", errNoDispatch, nd.Err)
	}
	if err != nil {
		return nil, err
	}
	clear(inputs) // the Launch owns the buffers now; RunGrid releases them once copied
	gc := emu.GridConfig{Config: emu.DefaultConfig(l.Target), MaxSteps: int64(cfg.maxSteps)}
	gc.Config.HistoryBytes = 0
	if cfg.vmLat > 0 {
		gc.Config.Latency.VectorMem = uint32(cfg.vmLat)
	}
	gc.VMem.LDSLatency = uint64(cfg.ldsLat)
	gc.Workers = int(min(cfg.workers, 1024))
	gc.Engine = cfg.engine
	if trace != nil {
		gc.Select = func(w uint64) bool { return traceSel.Has(w) }
		gc.Trace = traceFunc(trace)
	}
	stop, err := startProfiles(cfg)
	if err != nil {
		return nil, err
	}
	defer stop()
	// The timed window is emu.RunGrid, the counterpart of the kernel time
	// PoCL's runner reports (its second, warm run): decoding the program,
	// laying out memory (code segments, the input buffers adopted in place,
	// kernarg, AQL packet, queue, scratch), running every work-group and
	// reading the outputs back (a copy of the pages not adopted). It leaves
	// out loading the code object, reading the manifest, making the inputs
	// (prepare; a generated buffer's pages are faulted in there, as the
	// runner's buffers are written before its timer) and writing the
	// outputs.
	start := time.Now()
	res, err := emu.RunGrid(ctx, l, gc)
	if err != nil {
		return nil, err
	}
	out := &runResult{Waves: res.Waves, WorkGroups: res.WorkGroups, Instructions: res.Instructions, Cycles: res.MaxCycles, WaveCycles: res.Cycles, Outputs: res.Buffers,
		Elapsed: time.Since(start)}
	for _, f := range res.Faults {
		out.Faults = append(out.Faults, f.Error())
	}
	out.WaveFaults = res.Faults
	return out, nil
}

// startProfiles starts the CPU profile and execution trace the flags ask
// for, each into a temporary file of the run's output set (committed only
// with the other outputs); stop ends them.
func startProfiles(cfg *runConfig) (stop func(), err error) {
	var stops []func()
	stop = func() {
		for _, f := range slices.Backward(stops) {
			f()
		}
	}
	for _, p := range []struct {
		file        string
		start       func(io.Writer) error
		stopProfile func()
	}{{cfg.cpuProf, pprof.StartCPUProfile, pprof.StopCPUProfile}, {cfg.goTrace, trace.Start, trace.Stop}} {
		if p.file == "" {
			continue
		}
		f, err := cfg.outputs().create(p.file)
		if err != nil {
			stop()
			return nil, err
		}
		if err := p.start(f); err != nil {
			stop()
			return nil, err
		}
		stops = append(stops, p.stopProfile)
	}
	return stop, nil
}

// prepare loads the code object, checks the launch and reads every input.
// The --write-manifest file joins the run's outputs, written on success.
func prepare(cfg *runConfig) (*loader.CodeObject, *loader.Kernel, [][]byte, error) {
	co, err := loadInput(cfg.file, loadOptions(cfg.target, cfg.m.Kernel, cfg.bundle))
	if err != nil {
		return nil, nil, nil, withBundleHint(err)
	}
	k, err := cfg.m.Check(co)
	if err != nil {
		co.Close()
		return nil, nil, nil, err
	}
	inputs, err := cfg.m.Inputs()
	if err != nil {
		co.Close()
		return nil, nil, nil, err
	}
	if cfg.writeMan != "" {
		b, err := cfg.m.Marshal()
		if err == nil {
			err = cfg.outputs().write(cfg.writeMan, b)
		}
		if err != nil {
			co.Close()
			return nil, nil, nil, err
		}
	}
	return co, k, inputs, nil
}

func runRun(args []string, stdout, stderr io.Writer) error {
	var asJSON bool
	cfg, err := parseRunArgs("run", args, stderr, func(fs *flag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "print the summary as one JSON document (schema wavedbg/1, doc/wavedbg.schema.json) instead of text")
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
	res, err := launch(ctx, co, k, cfg, inputs, nil)
	if err != nil {
		return err
	}
	if asJSON {
		return runJSON(ctx, cfg, res, stdout)
	}
	if !cfg.quiet {
		printSummary(stdout, cfg, res)
	}
	if err := runFailed(ctx, res); err != nil {
		return err
	}
	return writeOutputs(cfg, res, stdout)
}

func printSummary(w io.Writer, cfg *runConfig, res *runResult) {
	fmt.Fprintf(w, "kernel %s: grid %s block %s", cfg.m.Kernel, cfg.m.Grid, cfg.m.Block)
	if cfg.m.Offset.Dims > 0 {
		fmt.Fprintf(w, " offset %s", cfg.m.Offset)
	}
	if cfg.engine != emu.EngineFast {
		fmt.Fprintf(w, " engine %s", cfg.engine)
	}
	fmt.Fprintf(w, "\nwork-groups %d  waves %d  instructions %d  cycles %d (longest wave; %d over all waves)  faults %d\n",
		res.WorkGroups, res.Waves, res.Instructions, res.Cycles, res.WaveCycles, len(res.Faults))
	if res.Elapsed > 0 {
		fmt.Fprintf(w, "executed in %.3f s (set-up, run and read-back of the grid; not loading, making inputs or writing files): %.1f M wave instructions/s\n",
			res.Elapsed.Seconds(), float64(res.Instructions)/res.Elapsed.Seconds()/1e6)
	}
}

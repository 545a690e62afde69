package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
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
	m        *manifest.Manifest
	outDir   string
	maxSteps uint64 // per wave; 0 = unlimited
	vmLat    uint   // vector memory latency in cycles (0: the default)
	ldsLat   uint   // DS latency in cycles (0: the default)
	workers  uint   // work-groups run at once (0: GOMAXPROCS)
	writeMan string // write the effective manifest here
	quiet    bool
	cpuProf  string // write a CPU profile of the launch here
}

// runUsage documents the --arg syntax; it is printed by --help.
const runUsage = `Arguments (--arg, once per kernel argument, in order):
  buffer,type=T,size=BYTES|count=N[,in=FILE|fill=PATTERN][,out=FILE][,ulp=N][,name=S]
  scalar,type=T,value=V        or the shorthand  T=V   (e.g. uint=48)
  struct,fields=T:V;T:V;...    (natural alignment, as OpenCL C lays it out)
  local,size=BYTES             (a __local pointer: dynamic LDS)
Types: char uchar short ushort int uint long ulong half float double.
Fill patterns: zero, const:V, iota[:START:STEP], random:SEED[:LO:HI].
The same launch can be described by a JSON manifest (--manifest; --write-manifest writes one);
see 'go doc github.com/wavedbg/wavedbg/emu/manifest'.
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
	fs.StringVar(&kernel, "kernel", "", "kernel `NAME`")
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
	fs.Uint64Var(&cfg.maxSteps, "max-steps", 100_000_000, "step budget per wave; 0 means none")
	fs.UintVar(&cfg.vmLat, "vm-latency", 0, "vector memory latency in `cycles` (VM_CNT operations complete in order; 0: the default)")
	fs.UintVar(&cfg.ldsLat, "lds-latency", 0, "DS (LDS) latency in `cycles` (0: the default)")
	fs.UintVar(&cfg.workers, "workers", 0, "work-groups run at once, `N` goroutines (0: one per CPU; a trace runs them one at a time)")
	fs.StringVar(&cfg.writeMan, "write-manifest", "", "also write the launch as a JSON manifest to `FILE`")
	fs.BoolVar(&cfg.quiet, "q", false, "no summary")
	fs.StringVar(&cfg.cpuProf, "cpuprofile", "", "write a CPU profile of the launch (go tool pprof format) to `FILE`")
	if extra != nil {
		extra(fs)
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: wavedbg %s FILE --kernel NAME --grid X[,Y,Z] --block X[,Y,Z] [--offset X[,Y,Z]] --arg ... \n", name)
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
	switch {
	case m.Kernel == "":
		return nil, usageError{"--kernel NAME is required"}
	case m.Grid.Dims == 0:
		return nil, usageError{"--grid X[,Y,Z] is required"}
	case m.Block.Dims == 0:
		return nil, usageError{"--block X[,Y,Z] is required"}
	}
	if err := m.Validate(); err != nil {
		return nil, usageError{err.Error()}
	}
	cfg.m = m
	return cfg, nil
}

// parseArgSpec parses one --arg.
func parseArgSpec(s string) (manifest.Arg, error) {
	parts := strings.Split(s, ",")
	var a manifest.Arg
	if k, v, ok := strings.Cut(parts[0], "="); ok && len(parts) == 1 {
		// The scalar shorthand TYPE=VALUE.
		a = manifest.Arg{Kind: manifest.Scalar, Type: manifest.Type(k), Value: manifest.Value(v)}
		return a, nil
	}
	a.Kind = manifest.Kind(parts[0])
	count := int64(-1)
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return a, fmt.Errorf("%q is not key=value", p)
		}
		var err error
		switch k {
		case "name":
			a.Name = v
		case "type":
			a.Type = manifest.Type(v)
		case "size":
			a.Size, err = strconv.ParseInt(v, 0, 64)
		case "count":
			count, err = strconv.ParseInt(v, 0, 64)
		case "value":
			a.Value = manifest.Value(v)
		case "in", "input":
			a.Input = v
		case "fill":
			a.Fill = v
		case "out", "output":
			a.Output = v
		case "ulp":
			a.ULP, err = strconv.Atoi(v)
		case "fields":
			for _, f := range strings.Split(v, ";") {
				ft, fv, ok := strings.Cut(f, ":")
				if !ok {
					return a, fmt.Errorf("struct field %q is not TYPE:VALUE", f)
				}
				a.Fields = append(a.Fields, manifest.Field{Type: manifest.Type(ft), Value: manifest.Value(fv)})
			}
		default:
			return a, fmt.Errorf("unknown key %q", k)
		}
		if err != nil {
			return a, fmt.Errorf("%s: %v", k, err)
		}
	}
	if count >= 0 {
		if a.Size != 0 {
			return a, errors.New("give size or count, not both")
		}
		es, err := a.Type.Size()
		if err != nil {
			return a, err
		}
		a.Size = count * int64(es)
	}
	return a, nil
}

// checkKernel checks a launch against the kernel's metadata: argument count,
// kinds and sizes, the work-group size limits and LDS.
func checkKernel(co *loader.CodeObject, m *manifest.Manifest) (*loader.Kernel, error) {
	k := co.Kernel(m.Kernel)
	if k == nil {
		var names []string
		for _, k := range co.Kernels {
			names = append(names, k.Name)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("no kernel %q in the code object (it has: %s)", m.Kernel, strings.Join(names, ", "))
	}
	if k.Meta == nil {
		return nil, fmt.Errorf("kernel %s has no metadata to check arguments against", k.Name)
	}
	var want []loader.Arg
	for _, a := range k.Meta.Args {
		if !a.ValueKind.Hidden() {
			want = append(want, a)
		}
	}
	if len(want) != len(m.Args) {
		var sig []string
		for _, a := range want {
			sig = append(sig, argLabel(a))
		}
		return nil, fmt.Errorf("kernel %s takes %d arguments (%s); %d given", k.Name, len(want), strings.Join(sig, ", "), len(m.Args))
	}
	lds := k.Meta.GroupSegmentFixedSize
	for i, w := range want {
		a := m.Args[i]
		bad := func(format string, args ...any) error {
			return fmt.Errorf("argument %d (%s): %s", i, argLabel(w), fmt.Sprintf(format, args...))
		}
		switch w.ValueKind {
		case loader.GlobalBuffer:
			if a.Kind != manifest.Buffer {
				return nil, bad("a pointer needs a buffer, not a %s", a.Kind)
			}
		case loader.DynamicSharedPointer:
			if a.Kind != manifest.Local {
				return nil, bad("a __local pointer needs a local argument, not a %s", a.Kind)
			}
			lds += uint64(a.Size)
		case loader.ByValue:
			if a.Kind != manifest.Scalar && a.Kind != manifest.Struct {
				return nil, bad("needs a scalar or struct of %d bytes, not a %s", w.Size, a.Kind)
			}
			if n := a.ByValueSize(); uint64(n) != w.Size {
				return nil, bad("the value has %d bytes; the kernel expects %d", n, w.Size)
			}
		default:
			return nil, bad("this argument kind is not supported")
		}
	}
	_, block, _ := m.Sizes()
	items := block[0] * block[1] * block[2]
	if max := k.Meta.MaxFlatWorkgroupSize; max != 0 && items > max {
		return nil, fmt.Errorf("block %s has %d work-items; kernel %s allows at most %d", m.Block, items, k.Name, max)
	}
	if r := k.Meta.ReqdWorkgroupSize; len(r) == 3 && (r[0] != block[0] || r[1] != block[1] || r[2] != block[2]) {
		return nil, fmt.Errorf("kernel %s requires block %d,%d,%d; got %s", k.Name, r[0], r[1], r[2], m.Block)
	}
	if lds > 65536 {
		return nil, fmt.Errorf("kernel %s needs %d bytes of LDS per work-group (at most 65536)", k.Name, lds)
	}
	return k, nil
}

// argLabel names a kernel argument for messages: "int* a (global_buffer)".
func argLabel(a loader.Arg) string {
	s := strings.TrimSpace(a.TypeName + " " + a.Name)
	if s == "" {
		return string(a.ValueKind)
	}
	return s + " (" + string(a.ValueKind) + ")"
}

// runResult is what a completed launch reports.
type runResult struct {
	Waves, WorkGroups uint64
	Instructions      uint64
	Cycles            uint64 // the longest wave's clock
	WaveCycles        uint64 // summed over waves
	Faults            []string
	Outputs           [][]byte      // final buffer contents, by argument index (nil for non-buffers)
	Elapsed           time.Duration // wall time of dispatch and execution (not loading or writing files)
}

// errNoDispatch is returned for code objects the emulator cannot run.
var errNoDispatch = errors.New("the emulator cannot run this code object")

// launch runs a checked launch on the emulator (a variable so tests can
// substitute it).
var launch = emuLaunch

// emuLaunch builds an emu.Launch from the code object and manifest and runs
// the whole grid.
func emuLaunch(ctx context.Context, co *loader.CodeObject, k *loader.Kernel, cfg *runConfig, inputs [][]byte, trace io.Writer) (*runResult, error) {
	l, err := emu.NewLaunch(co, k)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNoDispatch, err)
	}
	l.Dims = cfg.m.Grid.Dims
	grid, block, off := cfg.m.Sizes()
	for i := 0; i < 3; i++ {
		l.Grid[i], l.Block[i], l.Offset[i] = uint32(grid[i]), uint32(block[i]), uint32(off[i])
	}
	for i, a := range cfg.m.Args {
		switch a.Kind {
		case manifest.Buffer:
			l.Args = append(l.Args, emu.LaunchArg{Kind: emu.ArgBuffer, Data: inputs[i]})
			inputs[i] = nil // RunGrid releases it once copied
		case manifest.Local:
			l.Args = append(l.Args, emu.LaunchArg{Kind: emu.ArgLocal, Size: uint32(a.Size)})
		default:
			b, err := a.Bytes("")
			if err != nil {
				return nil, err
			}
			l.Args = append(l.Args, emu.LaunchArg{Kind: emu.ArgValue, Data: b})
		}
	}
	gc := emu.GridConfig{Config: emu.DefaultConfig(l.Target), MaxSteps: int64(cfg.maxSteps)}
	gc.Config.HistoryBytes = 0
	if cfg.vmLat > 0 {
		gc.Config.Latency.VectorMem = uint32(cfg.vmLat)
	}
	gc.VMem.LDSLatency = uint64(cfg.ldsLat)
	gc.Workers = int(min(cfg.workers, 1024))
	if trace != nil {
		enc := json.NewEncoder(trace)
		gc.Select = func(w uint64) bool { return traceSel.Has(w) }
		gc.Trace = func(wave uint64, rec *emu.StepRecord) error {
			return enc.Encode(traceLine(wave, rec))
		}
	}
	if cfg.cpuProf != "" {
		f, err := os.Create(cfg.cpuProf)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return nil, err
		}
		defer pprof.StopCPUProfile()
	}
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
	return out, nil
}

// prepare loads the code object, checks the launch and reads every input.
func prepare(cfg *runConfig) (*loader.CodeObject, *loader.Kernel, [][]byte, error) {
	co, err := loader.Load(cfg.file, loader.LoadOptions{Target: cfg.target})
	if err != nil {
		return nil, nil, nil, err
	}
	k, err := checkKernel(co, cfg.m)
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
			err = manifest.WriteFileAtomic(cfg.writeMan, b)
		}
		if err != nil {
			co.Close()
			return nil, nil, nil, err
		}
	}
	return co, k, inputs, nil
}

func runRun(args []string, stdout, stderr io.Writer) error {
	cfg, err := parseRunArgs("run", args, stderr, nil)
	if err != nil {
		return err
	}
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
	if !cfg.quiet {
		printSummary(stdout, cfg, res)
	}
	if len(res.Faults) > 0 {
		return fmt.Errorf("%d wave(s) faulted; no outputs written (first: %s)", len(res.Faults), res.Faults[0])
	}
	return writeOutputs(cfg, res, stdout)
}

func printSummary(w io.Writer, cfg *runConfig, res *runResult) {
	fmt.Fprintf(w, "kernel %s: grid %s block %s", cfg.m.Kernel, cfg.m.Grid, cfg.m.Block)
	if cfg.m.Offset.Dims > 0 {
		fmt.Fprintf(w, " offset %s", cfg.m.Offset)
	}
	fmt.Fprintf(w, "\nwork-groups %d  waves %d  instructions %d  cycles %d (longest wave; %d over all waves)  faults %d\n",
		res.WorkGroups, res.Waves, res.Instructions, res.Cycles, res.WaveCycles, len(res.Faults))
	if res.Elapsed > 0 {
		fmt.Fprintf(w, "executed in %.3f s (dispatch and run, without loading or writing files): %.1f M wave instructions/s\n",
			res.Elapsed.Seconds(), float64(res.Instructions)/res.Elapsed.Seconds()/1e6)
	}
}

// writeOutputs writes every output buffer, all or none: each goes to a
// temporary file first, and the renames happen only once all are written.
func writeOutputs(cfg *runConfig, res *runResult, stdout io.Writer) error {
	type pending struct{ tmp, dst string }
	var done []pending
	cleanup := func() {
		for _, p := range done {
			os.Remove(p.tmp)
		}
	}
	for _, i := range cfg.m.Outputs() {
		a := cfg.m.Args[i]
		if i >= len(res.Outputs) || int64(len(res.Outputs[i])) != a.Size {
			cleanup()
			return fmt.Errorf("internal error: no result for output %s", a.Output)
		}
		dst := filepath.Join(cfg.outDir, a.Output)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			cleanup()
			return err
		}
		f, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp*")
		if err != nil {
			cleanup()
			return err
		}
		_, err = f.Write(res.Outputs[i])
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		done = append(done, pending{f.Name(), dst})
		if err == nil {
			err = os.Chmod(f.Name(), 0o644)
		}
		if err != nil {
			cleanup()
			return err
		}
	}
	for _, p := range done {
		if err := os.Rename(p.tmp, p.dst); err != nil {
			cleanup()
			return err
		}
		if !cfg.quiet {
			fmt.Fprintf(stdout, "wrote %s\n", p.dst)
		}
	}
	return nil
}

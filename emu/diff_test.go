package emu_test

// The differential suite: the same launch runs on both engines (EngineFast
// and EngineReference) and must leave equal final memory (every buffer and
// each work-group's LDS), equal registers and state of every wave (SGPRs,
// VGPRs, EXEC, VCC, M0, SCC, PC, hardware registers, counters, operations
// in flight, scalar cache), equal instruction counts and cycles, and equal
// faults. diff_*_test.go feed it the oracle kernels, the samples, the
// assembly kernels and random instruction streams.

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// perPart bounds the differences one comparison lists for each part of
// the run (its counts, each buffer, each wave); maxParts bounds the parts
// listed.
const (
	perPart  = 6
	maxParts = 4
)

// waveEnd is a wave's state where its work-group stopped.
type waveEnd struct {
	snap *emu.Snapshot
	lds  []byte // its work-group's LDS
}

// engineRun is what one engine left.
type engineRun struct {
	res   *emu.GridResult
	err   error
	waves map[uint64]*waveEnd
}

// runEngine runs the launch mk builds on engine e, one work-group at a time
// (so that atomics between work-groups apply in the same order on both),
// recording every wave's final state.
func runEngine(mk func() (*emu.Launch, error), e emu.Engine, maxSteps int64) (*engineRun, error) {
	l, err := mk()
	if err != nil {
		return nil, err
	}
	cfg := emu.GridConfig{Config: emu.DefaultConfig(l.Target), MaxSteps: maxSteps, Workers: 1, Engine: e}
	cfg.Config.HistoryBytes = 0
	r := &engineRun{waves: map[uint64]*waveEnd{}}
	ldsSize := ldsBound(l)
	var mu sync.Mutex
	cfg.WaveEnd = func(wave uint64, m *emu.Machine) {
		s := m.Snapshot()
		s.LastAddrs = nil // only journaled steps decode them
		s.VGPR = trimZero(s.VGPR)
		lds := make([]byte, ldsSize)
		if err := m.Mem.Read(emu.SharedApertureBase, lds); err != nil {
			lds = []byte(err.Error())
		}
		mu.Lock()
		r.waves[wave] = &waveEnd{snap: s, lds: lds}
		mu.Unlock()
	}
	r.res, r.err = emu.RunGrid(context.Background(), l, cfg)
	if r.res != nil && r.res.Dispatch != nil {
		for _, w := range r.waves {
			w.lds = w.lds[:min(len(w.lds), int(r.res.Dispatch.GroupLDS))]
		}
	}
	return r, nil
}

// ldsBound returns at least the LDS size of l's work-groups: the
// kernel's static LDS and every __local argument, each aligned.
func ldsBound(l *emu.Launch) int {
	n := 0
	if abi, err := emu.ABIOf(l.Kernel, l.Version); err == nil {
		n = int(abi.GroupSegmentFixedSize)
	}
	for _, a := range l.Args {
		if a.Kind == emu.ArgLocal {
			n += int(a.Size) + 256
		}
	}
	return min(n, 1<<16)
}

// trimZero drops the trailing all-zero registers of a VGPR file.
func trimZero(v [][64]uint32) [][64]uint32 {
	n := len(v)
	for n > 0 && v[n-1] == [64]uint32{} {
		n--
	}
	return slices.Clip(v[:n])
}

// enginesAgree runs mk's launch on both engines and fails t with a readable
// list of differences, naming the run, the wave and the register and lane
// or byte. It returns the fast engine's run.
func enginesAgree(t testing.TB, name string, mk func() (*emu.Launch, error), maxSteps int64) *engineRun {
	t.Helper()
	var runs [2]*engineRun
	for i, e := range []emu.Engine{emu.EngineFast, emu.EngineReference} {
		r, err := runEngine(mk, e, maxSteps)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		runs[i] = r
	}
	if d := diffRuns(runs[0], runs[1]); len(d) > 0 {
		t.Errorf("%s: the engines disagree (fast, then reference):\n\t%s\n\t%s", name, strings.Join(d, "\n\t"), locate(mk, runs[0]))
	}
	return runs[0]
}

// locate names the first instruction after which a wave's registers
// differ between the engines, found by bisecting the step budget (every
// wave stops after as many instructions). A wrong store shows only once a
// wave loads what it wrote.
func locate(mk func() (*emu.Launch, error), fast *engineRun) string {
	run := func(n int64) (a, b *engineRun) {
		a, _ = runEngine(mk, emu.EngineFast, n)
		b, _ = runEngine(mk, emu.EngineReference, n)
		return a, b
	}
	var hi int64
	for _, w := range fast.waves {
		hi = max(hi, int64(w.snap.Steps))
	}
	if a, b := run(hi); hi == 0 || a == nil || b == nil || len(diffWaves(a, b)) == 0 {
		return "(no wave's registers differ at any step budget: the difference is in memory only)"
	}
	lo := int64(0) // the engines agree after lo instructions of every wave
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if a, b := run(mid); a != nil && b != nil && len(diffWaves(a, b)) > 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	a, b := run(hi)
	n := diffWaves(a, b)[0]
	l, err := mk()
	if err != nil {
		return err.Error()
	}
	pc := l.Kernel.Entry
	if lo > 0 {
		if before, _ := run(lo); before != nil && before.waves[n] != nil {
			pc = before.waves[n].snap.PC
		}
	}
	text := "?"
	if off := pc - l.TextAddr; off < uint64(len(l.Text)) {
		if in, err := isa.Decode(l.Text[off:], l.Target); err == nil {
			text = in.String()
		}
	}
	return fmt.Sprintf("registers first differ after wave %d's instruction %d: pc %#x %s", n, hi, pc, text)
}

// diffWaves returns the waves whose final states differ.
func diffWaves(a, b *engineRun) []uint64 {
	var ns []uint64
	for _, n := range sortedKeys(a.waves, b.waves) {
		var d differ
		if wa, wb := a.waves[n], b.waves[n]; wa == nil || wb == nil {
			ns = append(ns, n)
		} else if d.wave(n, wa, wb); len(d.out) > 0 {
			ns = append(ns, n)
		}
	}
	return ns
}

// diffRuns lists how two runs differ: a few differences of each part (the
// counts, then each wave, then each buffer) and the number of the rest.
func diffRuns(a, b *engineRun) []string {
	var d differ
	d.start("run")
	if (a.err == nil) != (b.err == nil) || a.err != nil && a.err.Error() != b.err.Error() {
		d.add("error: %v, %v", a.err, b.err)
	}
	if a.res == nil || b.res == nil {
		return d.lines()
	}
	ra, rb := a.res, b.res
	d.cmp("work-groups", ra.WorkGroups, rb.WorkGroups)
	d.cmp("waves", ra.Waves, rb.Waves)
	d.cmp("instructions", ra.Instructions, rb.Instructions)
	d.cmp("cycles", ra.Cycles, rb.Cycles)
	d.cmp("longest wave's cycles", ra.MaxCycles, rb.MaxCycles)
	d.cmp("faults", fmt.Sprint(ra.Faults), fmt.Sprint(rb.Faults))
	for _, n := range sortedKeys(a.waves, b.waves) {
		wa, wb := a.waves[n], b.waves[n]
		d.start(fmt.Sprintf("wave %d", n))
		if wa == nil || wb == nil {
			d.add("seen by one engine only")
			continue
		}
		d.wave(n, wa, wb)
	}
	for i := range max(len(ra.Buffers), len(rb.Buffers)) {
		d.start(fmt.Sprintf("buffer argument %d", i))
		if i >= len(ra.Buffers) || i >= len(rb.Buffers) {
			d.add("only one run has it")
			continue
		}
		d.bytes("", ra.Buffers[i], rb.Buffers[i])
	}
	return d.lines()
}

func sortedKeys(a, b map[uint64]*waveEnd) []uint64 {
	var ks []uint64
	for k := range a {
		ks = append(ks, k)
	}
	for k := range b {
		if a[k] == nil {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

// differ collects differences, a few from each part of the run.
type differ struct {
	out   []string
	part  string // the part being compared
	n     int    // differences listed from it
	parts int    // parts with differences
	more  int    // differences not listed
}

// start begins comparing part.
func (d *differ) start(part string) { d.part, d.n = part, 0 }

func (d *differ) add(format string, args ...any) {
	if d.n == 0 {
		d.parts++
	}
	d.n++
	if d.n > perPart || d.parts > maxParts {
		d.more++
		return
	}
	d.out = append(d.out, d.part+": "+fmt.Sprintf(format, args...))
}

func (d *differ) lines() []string {
	if d.more > 0 {
		return append(d.out, fmt.Sprintf("… and %d more differences", d.more))
	}
	return d.out
}

func (d *differ) cmp(what string, a, b any) {
	if !reflect.DeepEqual(a, b) {
		d.add("%s: %v, %v", what, a, b)
	}
}

// bytes lists the differing bytes of a and b, of what (a name and ": ",
// or "").
func (d *differ) bytes(what string, a, b []byte) {
	if len(a) != len(b) {
		d.add("%s%d bytes, %d bytes", what, len(a), len(b))
	}
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			d.add("%sbyte %#x: %#02x, %#02x", what, i, a[i], b[i])
		}
	}
}

// wave lists how wave n's final states differ.
func (d *differ) wave(n uint64, wa, wb *waveEnd) {
	a, b := wa.snap, wb.snap
	d.start(fmt.Sprintf("wave %d (pc %#x, %#x)", n, a.PC, b.PC))
	d.bytes("its work-group's LDS: ", wa.lds, wb.lds)
	for _, f := range []struct {
		name string
		a, b any
	}{
		{"state", a.State, b.State}, {"pc", hex64(a.PC), hex64(b.PC)}, {"instructions", a.Steps, b.Steps}, {"cycle", a.Cycle, b.Cycle},
		{"exec", hex64(a.EXEC), hex64(b.EXEC)}, {"vcc", hex64(a.VCC), hex64(b.VCC)}, {"m0", hex64(uint64(a.M0)), hex64(uint64(b.M0))},
		{"scc", a.SCC, b.SCC}, {"flat_scratch", hex64(a.FlatScratch), hex64(b.FlatScratch)},
		{"xnack_mask", hex64(a.XnackMask), hex64(b.XnackMask)}, {"ttmp", a.TTMP, b.TTMP}, {"tba", a.TBA, b.TBA},
		{"tma", a.TMA, b.TMA}, {"hardware registers", a.HW, b.HW}, {"counters", a.Counters, b.Counters},
		{"in flight", a.InFlight, b.InFlight}, {"pending", a.Pending, b.Pending},
	} {
		d.cmp(f.name, f.a, f.b)
	}
	for i := range max(len(a.SGPR), len(b.SGPR)) {
		if i >= len(a.SGPR) || i >= len(b.SGPR) || a.SGPR[i] != b.SGPR[i] {
			d.add("s%d: %s, %s", i, reg(a.SGPR, i), reg(b.SGPR, i))
		}
	}
	for r := range max(len(a.VGPR), len(b.VGPR)) {
		var ra, rb [64]uint32
		if r < len(a.VGPR) {
			ra = a.VGPR[r]
		}
		if r < len(b.VGPR) {
			rb = b.VGPR[r]
		}
		for lane := range 64 {
			if ra[lane] != rb[lane] {
				d.add("v%d lane %d: %#x, %#x", r, lane, ra[lane], rb[lane])
			}
		}
	}
	if !reflect.DeepEqual(a.Cache, b.Cache) {
		for i := range max(len(a.Cache), len(b.Cache)) {
			if i >= len(a.Cache) || i >= len(b.Cache) || !reflect.DeepEqual(a.Cache[i], b.Cache[i]) {
				d.add("scalar cache line %d differs", i)
			}
		}
	}
	// anything Snapshot gains later
	ca, cb := *a, *b
	ca.SGPR, cb.SGPR, ca.VGPR, cb.VGPR, ca.Cache, cb.Cache = nil, nil, nil, nil, nil, nil
	if !reflect.DeepEqual(ca, cb) && d.n == 0 {
		d.add("snapshots differ: %+v, %+v", ca, cb)
	}
}

func hex64(v uint64) string { return fmt.Sprintf("%#x", v) }

func reg(s []uint32, i int) string {
	if i < len(s) {
		return fmt.Sprintf("%#x", s[i])
	}
	return "none"
}

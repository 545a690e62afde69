package tui

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/emu/manifest"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// EmuDebuggee adapts package emu to Debuggee: one emu.Machine per wave over
// shared memory, the step records kept for "changed by the last step", the
// scalar-cache totals and the address decoder.
type EmuDebuggee struct {
	k       *kernelCode
	prog    *emu.Program
	mem     *emu.Memory
	sess    *emu.WaveSession
	waves   []*waveRun
	sel     int
	lines   []DisasmLine
	labels  map[string]uint64
	nSGPR   int
	nVGPR   int
	buffers []Buffer
	bar     []bool // instruction index → s_barrier

	// The grid: every wave in dispatch order (capped at maxWaveRows), the
	// dispatch number of the loaded work-group's first wave, and how to
	// prepare another wave (a fresh dispatch up to its work-group).
	grid     []WaveRow
	first    int
	relaunch func(n uint64) (*EmuDebuggee, error)
}

// maxWaveRows caps the waves listed (and reachable from the waves pane).
const maxWaveRows = 4096

// waveRun is one wave and what the debugger remembers about its steps.
type waveRun struct {
	m       *emu.Machine
	group   [3]int
	index   int
	recs    []*emu.StepRecord // the records StepBack can undo, newest last
	snap    *emu.Snapshot     // cached until the next step
	err     error             // why the wave stopped, if it faulted
	hits    uint64
	misses  uint64
	evicts  uint64
	lastMem int // index in recs of the last memory instruction, -1 if none
	bars    int // s_barrier instructions passed
}

const maxRecords = 1 << 16

// launch dispatches mf's launch of kernel k from co, which mf names, up to
// wave l.Wave's work-group.
func launch(co *loader.CodeObject, k *kernelCode, _ *loader.Kernel, mf *manifest.Manifest, l Launch) (*EmuDebuggee, error) {
	base, err := mf.Launch(co, nil)
	if err != nil {
		return nil, err
	}
	sizes := make([]uint64, len(base.Args))
	for i, a := range base.Args {
		if a.Kind == emu.ArgBuffer {
			sizes[i] = uint64(len(a.Data))
		}
	}
	cfg := emu.DefaultConfig(k.target)
	if l.Config != nil {
		cfg = *l.Config
	}
	// prepare dispatches afresh up to wave n's work-group; the code object
	// has been read, so it can run again for another work-group.
	var prepare func(n uint64) (*EmuDebuggee, error)
	prepare = func(n uint64) (*EmuDebuggee, error) {
		// PrepareWave takes ownership of buffer data: give it copies.
		el := *base
		el.Args = slices.Clone(base.Args)
		for i := range el.Args {
			if el.Args[i].Kind == emu.ArgBuffer {
				el.Args[i].Data = slices.Clone(el.Args[i].Data)
			}
		}
		sess, err := emu.PrepareWave(context.Background(), &el, emu.GridConfig{Config: cfg, MaxSteps: 100_000_000, VMem: l.VMem}, n)
		if err != nil {
			return nil, err
		}
		return newEmuDebuggee(k, mf, sess, sizes, prepare), nil
	}
	return prepare(l.Wave)
}

// newEmuDebuggee wraps a prepared wave and its work-group.
func newEmuDebuggee(k *kernelCode, mf *manifest.Manifest, sess *emu.WaveSession, sizes []uint64, prepare func(uint64) (*EmuDebuggee, error)) *EmuDebuggee {
	d := &EmuDebuggee{k: k, sess: sess, mem: sess.Memory, prog: sess.Machine.Prog, labels: map[string]uint64{}}
	d.nSGPR, d.nVGPR = 16, 8
	if k.desc != nil {
		d.nSGPR = min(max(k.desc.Rsrc1.SGPRs(k.proc), 16), 102)
		d.nVGPR = min(max(k.desc.Rsrc1.VGPRs(k.proc, false), 4), 256)
	}
	if k.meta != nil && k.meta.SGPRCount > 0 {
		d.nSGPR = min(max(int(k.meta.SGPRCount), 16), 102)
	}
	d.buildListing(d.prog.Insts)
	d.bar = make([]bool, len(d.prog.Insts))
	for i := range d.prog.Insts {
		d.bar[i] = d.prog.Insts[i].Op.String() == "s_barrier"
	}
	d.buffers = d.dispatchBuffers(mf, sizes)
	group := [3]int{int(sess.Group[0]), int(sess.Group[1]), int(sess.Group[2])}
	others := sess.Others
	for i := 0; i < len(others)+1; i++ {
		var m *emu.Machine
		switch {
		case i == sess.Index:
			m = sess.Machine
		case i < sess.Index:
			m = others[i]
		default:
			m = others[i-1]
		}
		d.waves = append(d.waves, &waveRun{m: m, group: group, index: i, lastMem: -1})
	}
	d.sel = sess.Index
	d.first = int(sess.Wave) - sess.Index
	d.grid = gridWaves(sess.Dispatch)
	d.relaunch = prepare
	// emu ran the work-group's other waves up to their first s_barrier (or
	// their end); rewind them to the kernel's entry, the last one run
	// first so that their memory and LDS writes are undone in reverse, and
	// let the debugger's barrier gathering move them from there.
	for i := len(d.waves) - 1; i >= 0; i-- {
		if i == sess.Index {
			continue
		}
		m := d.waves[i].m
		for m.HistoryLen() > 0 {
			if err := m.StepBack(); err != nil {
				break
			}
		}
	}
	return d
}

// gridWaves lists the dispatch's waves in dispatch order: each work-group's
// work-items split into 64-lane waves.
func gridWaves(ds *emu.Dispatch) []WaveRow {
	var out []WaveRow
	for gi := uint64(0); gi < ds.GroupCount() && len(out) < maxWaveRows; gi++ {
		id := ds.GroupID(gi)
		sz := ds.GroupSize(id)
		items := uint64(sz[0]) * uint64(max(sz[1], 1)) * uint64(max(sz[2], 1))
		for w := 0; uint64(w) < (items+63)/64 && len(out) < maxWaveRows; w++ {
			out = append(out, WaveRow{ID: len(out), Group: [3]int{int(id[0]), int(id[1]), int(id[2])}, Wave: w})
		}
	}
	return out
}

// dispatchBuffers names the dispatch's memory: the kernel arguments, each
// global buffer (its address read back from the kernarg segment), the AQL
// packet, the queue and scratch.
func (d *EmuDebuggee) dispatchBuffers(mf *manifest.Manifest, sizes []uint64) []Buffer {
	ds := d.sess.Dispatch
	out := []Buffer{{Name: "kernarg", Addr: ds.KernargAddr, Size: max(d.k.kernargSize(), 64)}}
	if d.k.meta != nil {
		i := 0
		for _, a := range d.k.meta.Args {
			if a.ValueKind.Hidden() {
				continue
			}
			if i < len(mf.Args) && mf.Args[i].Kind == manifest.Buffer && a.Size == 8 {
				var b [8]byte
				if d.mem.Read(ds.KernargAddr+a.Offset, b[:]) == nil {
					name := a.Name
					if name == "" {
						name = fmt.Sprintf("arg%d", i)
					}
					out = append(out, Buffer{Name: name, Addr: binary.LittleEndian.Uint64(b[:]), Size: max(sizes[i], 1)})
				}
			}
			i++
		}
	}
	out = append(out, Buffer{Name: "dispatch packet", Addr: ds.PacketAddr, Size: 64}, Buffer{Name: "queue", Addr: ds.QueueAddr, Size: 256})
	if ds.ScratchBytes > 0 {
		out = append(out, Buffer{Name: "scratch", Addr: ds.ScratchAddr, Size: ds.ScratchBytes})
	}
	return out
}

func (k *kernelCode) kernargSize() uint64 {
	if k.meta != nil && k.meta.KernargSegmentSize > 0 {
		return k.meta.KernargSegmentSize
	}
	if k.desc != nil {
		return uint64(k.desc.KernargSize)
	}
	return 0
}

// buildListing prints every instruction once and names branch targets.
func (d *EmuDebuggee) buildListing(insts []isa.Inst) {
	k := d.k
	addrs := d.prog.Addrs
	targets := map[uint64]bool{}
	for i := range insts {
		if t, ok := branchTarget(&insts[i], addrs[i]); ok {
			targets[t] = true
		}
	}
	names := map[uint64]string{}
	for a, n := range k.symbols {
		names[a] = n
		d.labels[n] = a
	}
	var ts []uint64
	for t := range targets {
		if _, ok := names[t]; !ok {
			ts = append(ts, t)
		}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	for i, t := range ts {
		n := fmt.Sprintf(".LBB0_%d", i)
		names[t] = n
		d.labels[n] = t
	}
	for i := range insts {
		in := &insts[i]
		text := "<invalid>"
		if in.Form != nil {
			text = string(in.AppendText(nil, addrs[i], nil))
		} else {
			text = fmt.Sprintf(".long 0x%08x", in.Words[0])
		}
		var enc []string
		for w := 0; w < max(in.Len/4, 1); w++ {
			enc = append(enc, fmt.Sprintf("%08X", in.Words[w]))
		}
		dl := DisasmLine{Addr: addrs[i], Text: text, Enc: strings.Join(enc, " "), Label: names[addrs[i]]}
		if t, ok := branchTarget(in, addrs[i]); ok {
			dl.Target = names[t]
		}
		d.lines = append(d.lines, dl)
	}
}

// ---- Debuggee ----

func (d *EmuDebuggee) w() *waveRun { return d.waves[d.sel] }

func (d *EmuDebuggee) Name() string              { return d.k.name }
func (d *EmuDebuggee) Program() []DisasmLine     { return d.lines }
func (d *EmuDebuggee) Labels() map[string]uint64 { return d.labels }
func (d *EmuDebuggee) Selected() int             { return d.first + d.sel }
func (d *EmuDebuggee) Buffers() []Buffer         { return d.buffers }

// Waves lists the grid. The loaded work-group's waves are live; the ones
// before it have run to completion (memory holds their results) and the
// ones after it have not started.
func (d *EmuDebuggee) Waves() []WaveRow {
	out := make([]WaveRow, max(len(d.grid), d.first+len(d.waves)))
	copy(out, d.grid)
	for i := range out {
		switch {
		case i < d.first:
			out[i].State, out[i].Idle = "done", true
		case i >= d.first+len(d.waves):
			out[i].State, out[i].Idle = "not run", true
		}
	}
	for i, w := range d.waves {
		st := w.m.State().String()
		if w.err != nil && w.m.State() == emu.Faulted {
			st = "faulted"
		} else if d.atBarrier(w) && w.m.Steps() > 0 {
			st = "barrier"
		}
		out[d.first+i] = WaveRow{ID: d.first + i, Group: w.group, Wave: w.index, PC: w.m.PC(), State: st}
	}
	return out
}

// SelectWave selects wave i of the grid (dispatch order). A wave of another
// work-group means a fresh dispatch: the work-groups before it run to
// completion and the selected one starts at the kernel's entry.
func (d *EmuDebuggee) SelectWave(i int) error {
	if i >= d.first && i < d.first+len(d.waves) {
		d.sel = i - d.first
		return nil
	}
	if i < 0 || i >= len(d.grid) || d.relaunch == nil {
		return fmt.Errorf("no wave %d", i)
	}
	nd, err := d.relaunch(uint64(i))
	if err != nil {
		return err
	}
	*d = *nd
	return nil
}

func (d *EmuDebuggee) PC() (uint64, bool) {
	w := d.w()
	switch w.m.State() {
	case emu.Ended:
		return w.m.PC(), false
	}
	return w.m.PC(), true
}

func (d *EmuDebuggee) StepCount() int { return int(d.w().m.Steps()) }

func (d *EmuDebuggee) Step() error {
	w := d.w()
	bar := d.atBarrier(w)
	if bar {
		if err := d.gather(w); err != nil {
			return err
		}
	}
	if err := d.stepWave(w); err != nil {
		if errors.Is(err, emu.ErrEnded) {
			return errors.New("the wave has ended")
		}
		return err
	}
	return nil
}

// stepWave steps one wave and keeps its record.
func (d *EmuDebuggee) stepWave(w *waveRun) error {
	bar := d.atBarrier(w)
	rec, err := w.m.Step()
	w.snap = nil
	if rec != nil {
		w.push(rec)
		if bar {
			w.bars++
		}
	}
	if err != nil && !errors.Is(err, emu.ErrEnded) {
		w.err = err
	}
	return err
}

// atBarrier reports whether w is live and about to execute s_barrier.
func (d *EmuDebuggee) atBarrier(w *waveRun) bool {
	if st := w.m.State(); st == emu.Ended || st == emu.Faulted {
		return false
	}
	i, ok := d.prog.IndexOf(w.m.PC())
	return ok && d.bar[i]
}

// maxGather bounds the steps another wave takes to reach a barrier.
const maxGather = 1 << 20

// gather brings every other live wave of the work-group to the s_barrier
// that w is about to pass (its bars-th): a wave behind runs (recorded, so
// it can be stepped back) until it waits there or ends. Waves that have
// passed more barriers than w stay where they are.
func (d *EmuDebuggee) gather(w *waveRun) error {
	for _, o := range d.waves {
		if o == w {
			continue
		}
		for n := 0; ; n++ {
			if o.m.State() == emu.Ended || o.err != nil || o.m.State() == emu.Faulted {
				break
			}
			if o.bars > w.bars || o.bars == w.bars && d.atBarrier(o) {
				break // ahead of w, or waiting at w's barrier
			}
			if n == maxGather {
				return fmt.Errorf("wave %d did not reach the barrier in %d steps", o.index, maxGather)
			}
			if err := d.stepWave(o); err != nil {
				if errors.Is(err, emu.ErrEnded) {
					break
				}
				return fmt.Errorf("wave %d, on its way to the barrier: %w", o.index, err)
			}
		}
	}
	return nil
}

func (w *waveRun) push(rec *emu.StepRecord) {
	if len(w.recs) == maxRecords {
		w.recs = append(w.recs[:0], w.recs[maxRecords/2:]...)
		w.lastMem = -1
	}
	w.recs = append(w.recs, rec)
	for _, e := range rec.Cache {
		switch e.Kind {
		case emu.CacheHit:
			w.hits++
		case emu.CacheMiss:
			w.misses++
		case emu.CacheEvict:
			w.evicts++
		}
	}
	if isMemory(rec.Inst) || len(rec.Addrs) > 0 {
		w.lastMem = len(w.recs) - 1
	}
}

func (d *EmuDebuggee) StepBack() (bool, error) {
	w := d.w()
	if err := w.m.StepBack(); err != nil {
		if errors.Is(err, emu.ErrNoHistory) {
			return false, nil
		}
		return false, err
	}
	w.snap, w.err = nil, nil
	if n := len(w.recs); n > 0 {
		rec := w.recs[n-1]
		w.recs = w.recs[:n-1]
		if rec.Index >= 0 && rec.Index < len(d.bar) && d.bar[rec.Index] {
			w.bars--
		}
		for _, e := range rec.Cache {
			switch e.Kind {
			case emu.CacheHit:
				w.hits--
			case emu.CacheMiss:
				w.misses--
			case emu.CacheEvict:
				w.evicts--
			}
		}
		if w.lastMem >= len(w.recs) {
			w.lastMem = -1
			for i := len(w.recs) - 1; i >= 0; i-- {
				if isMemory(w.recs[i].Inst) || len(w.recs[i].Addrs) > 0 {
					w.lastMem = i
					break
				}
			}
		}
	}
	return true, nil
}

func (d *EmuDebuggee) snapshot() *emu.Snapshot {
	w := d.w()
	if w.snap == nil {
		w.snap = w.m.Snapshot()
	}
	return w.snap
}

func (d *EmuDebuggee) Reg(r RegRef) (uint32, error) {
	s := d.snapshot()
	switch r.File {
	case 's':
		if r.Num < len(s.SGPR) {
			return s.SGPR[r.Num], nil
		}
		if r.Num >= 108 && r.Num-108 < len(s.TTMP) {
			return s.TTMP[r.Num-108], nil
		}
	case 'v':
		if r.Num < len(s.VGPR) {
			return s.VGPR[r.Num][max(r.Lane, 0)], nil
		}
	case 'x':
		switch isa.Special(r.Num) {
		case isa.VCCLo:
			return uint32(s.VCC), nil
		case isa.VCCHi:
			return uint32(s.VCC >> 32), nil
		case isa.ExecLo:
			return uint32(s.EXEC), nil
		case isa.ExecHi:
			return uint32(s.EXEC >> 32), nil
		case isa.M0:
			return s.M0, nil
		case isa.SCC:
			if s.SCC {
				return 1, nil
			}
			return 0, nil
		case isa.FlatScratchLo:
			return uint32(s.FlatScratch), nil
		case isa.FlatScratchHi:
			return uint32(s.FlatScratch >> 32), nil
		}
	}
	return 0, fmt.Errorf("cannot read %s", r)
}

func (d *EmuDebuggee) SetReg(r RegRef, v uint32) error {
	w := d.w()
	w.snap = nil
	defer func() { w.recs, w.lastMem = nil, -1 }() // setters clear emu's history
	switch r.File {
	case 's':
		if r.Num < 102 {
			return w.m.SetSGPR(r.Num, v)
		}
		return w.m.SetScalar(r.Num, v)
	case 'v':
		if r.Lane >= 0 {
			return w.m.SetVGPR(r.Num, r.Lane, v)
		}
		for l := 0; l < 64; l++ {
			if err := w.m.SetVGPR(r.Num, l, v); err != nil {
				return err
			}
		}
		return nil
	case 'x':
		if r.Num < 128 {
			return w.m.SetScalar(r.Num, v)
		}
	}
	return fmt.Errorf("cannot set %s", r)
}

func (d *EmuDebuggee) ReadMem(addr uint64, n int, lds bool) ([]byte, []bool) {
	b, valid := make([]byte, n), make([]bool, n)
	if lds {
		// The work-group's LDS is a window of memory at the shared
		// aperture; bytes past its allocation read as invalid.
		size := uint64(d.sess.Dispatch.GroupLDS)
		if addr < size && d.mem.Read(emu.SharedApertureBase+addr, b[:min(uint64(n), size-addr)]) == nil {
			for i := range valid {
				valid[i] = addr+uint64(i) < size
			}
		}
		return b, valid
	}
	if err := d.mem.Read(addr, b); err == nil {
		for i := range valid {
			valid[i] = true
		}
		return b, valid
	}
	for i := 0; i < n; i++ {
		if d.mem.Read(addr+uint64(i), b[i:i+1]) == nil {
			valid[i] = true
		}
	}
	return b, valid
}

func (d *EmuDebuggee) WriteMem(addr uint64, b []byte, lds bool) error {
	for _, w := range d.waves {
		w.snap = nil
	}
	if lds {
		if addr+uint64(len(b)) > uint64(d.sess.Dispatch.GroupLDS) {
			return fmt.Errorf("the work-group has %d bytes of LDS", d.sess.Dispatch.GroupLDS)
		}
		addr += emu.SharedApertureBase
	}
	return d.mem.Write(addr, b)
}

// latencyFields names the latency-model parameters :latency sets: those
// package emu reads at each use. (Issue costs — SALU, VALU, ... — are
// fixed when a Machine is made.)
func latencyFields(l *emu.Latency) map[string]*uint32 {
	return map[string]*uint32{
		"branch": &l.Branch, "smem_hit": &l.ScalarHit, "smem_miss": &l.ScalarMiss, "smem_op": &l.ScalarOp,
		"memtime": &l.MemTime, "vmem": &l.VectorMem, "export": &l.Export,
	}
}

func (d *EmuDebuggee) SetLatency(name string, cycles int) error {
	for _, w := range d.waves {
		p, ok := latencyFields(&w.m.Config.Latency)[name]
		if !ok {
			return fmt.Errorf("no latency %q (have %s)", name, strings.Join(d.Latencies(), " "))
		}
		*p = uint32(cycles)
	}
	return nil
}

func (d *EmuDebuggee) Latencies() []string {
	var out []string
	for n, p := range latencyFields(&d.w().m.Config.Latency) {
		out = append(out, fmt.Sprintf("%s=%d", n, *p))
	}
	sort.Strings(out)
	return out
}

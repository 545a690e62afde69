package tui

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/emu/manifest"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// EmuDebuggee adapts package emu to Debuggee, a thin layer over an
// emu.Session (which runs the work-group's waves, enforces barriers,
// evaluates breakpoints and watchpoints and records): the step records
// kept for "changed by the last step", the scalar-cache totals and the
// address decoder.
type EmuDebuggee struct {
	k       *kernelCode
	prog    *emu.Program
	mem     *emu.Memory
	sess    *emu.Session
	waves   []*waveRun
	sel     int
	lines   []DisasmLine
	labels  map[string]uint64
	nSGPR   int
	nVGPR   int
	buffers []Buffer

	// The dispatch number of the loaded work-group's first wave, and how
	// to prepare another wave (a fresh dispatch up to its work-group).
	first    int
	relaunch prepareFunc

	// the stops last handed to the session (SetStops)
	stops struct {
		breaks  []*breakpoint
		watches []*watchpoint
		ids     map[int]*watchpoint // emu watchpoint id → tui's
		bids    map[int]*breakpoint // emu breakpoint id → tui's
		sel     int                 // the wave register watches are on
	}
}

// waveWindow caps the waves listed per frame: the ones around the
// selected wave (any wave of the grid can be selected).
const waveWindow = 4096

// launch dispatches mf's launch of kernel k from co, which mf names, up to
// wave l.Wave's work-group.
func launch(ctx context.Context, co *loader.CodeObject, k *kernelCode, _ *loader.Kernel, mf *manifest.Manifest, l Launch) (*EmuDebuggee, error) {
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
	// has been read, so it can run again for another work-group. The
	// session records within the history budget less the step records'
	// share.
	var prepare prepareFunc
	prepare = func(ctx context.Context, n uint64, progress func(emu.GridProgress)) (*EmuDebuggee, error) {
		gc := emu.GridConfig{Config: cfg, MaxSteps: 100_000_000, VMem: l.VMem, Progress: progress}
		gc.Config.HistoryBytes = cfg.HistoryBytes - cfg.HistoryBytes/recShare
		sess, err := emu.OpenSession(ctx, copyArgs(base), gc, n)
		if err != nil {
			return nil, err
		}
		d := newEmuDebuggee(k, mf, sess, sizes, prepare)
		for _, w := range d.waves {
			w.recLimit = cfg.HistoryBytes / recShare / int64(len(d.waves))
		}
		return d, nil
	}
	return prepare(ctx, l.Wave, l.Progress)
}

// copyArgs returns l with copies of its buffers (PrepareWave takes
// ownership of buffer data).
func copyArgs(l *emu.Launch) *emu.Launch {
	el := *l
	el.Args = slices.Clone(l.Args)
	for i := range el.Args {
		if el.Args[i].Kind == emu.ArgBuffer {
			el.Args[i].Data = slices.Clone(el.Args[i].Data)
		}
	}
	return &el
}

// newEmuDebuggee wraps a session over a work-group.
func newEmuDebuggee(k *kernelCode, mf *manifest.Manifest, sess *emu.Session, sizes []uint64, prepare prepareFunc) *EmuDebuggee {
	d := &EmuDebuggee{k: k, sess: sess, mem: sess.Memory, prog: sess.Prog, labels: map[string]uint64{}}
	d.nSGPR, d.nVGPR = 16, 8
	if k.desc != nil {
		d.nSGPR = min(max(k.desc.Rsrc1.SGPRs(k.proc), 16), 102)
		d.nVGPR = min(max(k.desc.Rsrc1.VGPRs(k.proc, false), 4), 256)
	}
	if k.meta != nil && k.meta.SGPRCount > 0 {
		d.nSGPR = min(max(int(k.meta.SGPRCount), 16), 102)
	}
	d.buildListing(d.prog.Insts)
	d.buffers = d.dispatchBuffers(mf, sizes)
	group := [3]int{int(sess.Group[0]), int(sess.Group[1]), int(sess.Group[2])}
	for i := range sess.Waves() {
		d.waves = append(d.waves, &waveRun{m: sess.Wave(i), group: group, index: i, lastMem: -1, replay: sess.Waves() > 1})
	}
	d.sel = sess.Selected()
	d.first = int(sess.First)
	d.relaunch = prepare
	return d
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
					buf := Buffer{Name: name, Addr: binary.LittleEndian.Uint64(b[:]), Size: max(sizes[i], 1)}
					if mn := mf.Args[i].Name; mn != "" && mn != name {
						buf.Alias = mn
					}
					out = append(out, buf)
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
		if t, ok := insts[i].BranchTarget(addrs[i]); ok {
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
	pad := zeroTail(insts)
	for i := range insts[:pad] {
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
		dl := DisasmLine{Addr: addrs[i], Text: text, Enc: strings.Join(enc, " "), Label: names[addrs[i]], Op: in.Op}
		if t, ok := in.BranchTarget(addrs[i]); ok {
			dl.Target = names[t]
		}
		d.lines = append(d.lines, dl)
	}
	if pad < len(insts) {
		// Zero padding after the last kernel: llvm-objdump's "...".
		d.lines = append(d.lines, DisasmLine{Addr: addrs[pad], Text: "..."})
	}
}

// zeroTail returns the index where a trailing run of all-zero words of at
// least 8 bytes starts (len(insts) when there is none).
func zeroTail(insts []isa.Inst) int {
	i := len(insts)
	for i > 0 {
		in := &insts[i-1]
		zero := in.Len > 0
		for w := 0; w < max(in.Len/4, 1) && zero; w++ {
			zero = in.Words[w] == 0
		}
		if !zero {
			break
		}
		i--
	}
	n := 0
	for _, in := range insts[i:] {
		n += max(in.Len, 4)
	}
	if n < 8 {
		return len(insts)
	}
	return i
}

// ---- Debuggee ----

func (d *EmuDebuggee) w() *waveRun { return d.waves[d.sel] }

func (d *EmuDebuggee) Name() string              { return d.k.name }
func (d *EmuDebuggee) Program() []DisasmLine     { return d.lines }
func (d *EmuDebuggee) Labels() map[string]uint64 { return d.labels }
func (d *EmuDebuggee) Selected() int             { return d.first + d.sel }
func (d *EmuDebuggee) Buffers() []Buffer         { return d.buffers }

// SelectWave selects wave i of the grid (dispatch order). A wave of another
// work-group means a fresh dispatch: the work-groups before it run to
// completion and the selected one starts at the kernel's entry.
func (d *EmuDebuggee) SelectWave(i int) error {
	if i >= d.first && i < d.first+len(d.waves) {
		d.sel = i - d.first
		return d.sess.Select(d.sel)
	}
	if i < 0 || i >= d.WaveCount() || d.relaunch == nil {
		return fmt.Errorf("no wave %d", i)
	}
	nd, err := d.relaunch(context.Background(), uint64(i), nil)
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

func (d *EmuDebuggee) snapshot() *emu.Snapshot {
	w := d.w()
	if w.snap == nil {
		w.snap = w.m.Snapshot()
	}
	return w.snap
}

func (d *EmuDebuggee) Reg(r RegRef) (uint32, error) {
	// SGPRs, TTMPs and VGPR lanes straight from the machine (a condition
	// at every hit of a loop reads one register); the rest from a snapshot.
	m := d.w().m
	switch r.File {
	case 's':
		if v, err := m.SGPR(r.Num); err == nil {
			return v, nil
		}
	case 't':
		if v, err := m.TTMP(r.Num); err == nil {
			return v, nil
		}
	case 'v':
		if v, err := m.VGPR(r.Num, max(r.Lane, 0)); err == nil {
			return v, nil
		}
	}
	s := d.snapshot()
	switch r.File {
	case 's':
		if r.Num < len(s.SGPR) {
			return s.SGPR[r.Num], nil
		}
	case 't':
		if r.Num < len(s.TTMP) {
			return s.TTMP[r.Num], nil
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
	w.stale()
	if !w.m.Recording() {
		defer w.forget() // setters clear emu's history
	}
	switch r.File {
	case 's':
		if r.Num < 102 {
			return w.m.SetSGPR(r.Num, v)
		}
		return w.m.SetScalar(r.Num, v)
	case 't':
		return w.m.SetTTMP(r.Num, v)
	case 'v':
		if r.Lane >= 0 {
			return w.m.SetVGPR(r.Num, r.Lane, v)
		}
		return w.m.SetVGPRLanes(r.Num, ^uint64(0), v)
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
		w.stale()
	}
	if lds {
		if addr+uint64(len(b)) > uint64(d.sess.Dispatch.GroupLDS) {
			return fmt.Errorf("the work-group has %d bytes of LDS", d.sess.Dispatch.GroupLDS)
		}
		addr += emu.SharedApertureBase
	}
	if m := d.w().m; m.Recording() {
		return m.WriteMemory(addr, b) // an edit stepping back undoes
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

// SetLatency sets a latency of every wave; for a recording wave it is an
// edit, so that replay before it uses the old latency.
func (d *EmuDebuggee) SetLatency(name string, cycles int) error {
	for _, w := range d.waves {
		l := w.m.Config.Latency
		p, ok := latencyFields(&l)[name]
		if !ok {
			return fmt.Errorf("no latency %q (have %s)", name, strings.Join(d.Latencies(), " "))
		}
		*p = uint32(cycles)
		if w.m.Recording() {
			w.m.SetLatency(l)
		} else {
			w.m.Config.Latency = l
		}
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

package tui

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/isa"
)

// EmuDebuggee adapts package emu to Debuggee: one emu.Machine per wave over
// shared memory, the step records kept for "changed by the last step", the
// scalar-cache totals and the address decoder.
type EmuDebuggee struct {
	k       *kernelCode
	prog    *emu.Program
	mem     *emu.Memory
	waves   []*waveRun
	sel     int
	lines   []DisasmLine
	labels  map[string]uint64
	nSGPR   int
	nVGPR   int
	buffers []Buffer
}

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
}

const maxRecords = 1 << 16

func launch(k *kernelCode, l Launch) (*EmuDebuggee, error) {
	cfg := emu.DefaultConfig(k.target)
	if l.Config != nil {
		cfg = *l.Config
	}
	insts := decodeAll(k)
	d := &EmuDebuggee{k: k, mem: emu.NewMemory(), labels: map[string]uint64{}}
	d.prog = emu.NewProgram(k.target, k.base, insts)
	d.nSGPR, d.nVGPR = 16, 8
	if k.desc != nil {
		d.nSGPR = min(max(k.desc.Rsrc1.SGPRs(k.proc), 16), 102)
		d.nVGPR = min(max(k.desc.Rsrc1.VGPRs(k.proc, false), 4), 256)
	}
	if k.meta != nil && k.meta.SGPRCount > 0 {
		d.nSGPR = min(max(int(k.meta.SGPRCount), 16), 102)
	}
	d.buildListing(insts)
	block, groups := max(l.Block, 1), max(l.Groups, 1)
	if l.Block == 0 {
		block = 64
	}
	kernarg, err := d.layoutArgs(l, block, groups)
	if err != nil {
		return nil, err
	}
	packet, queue, err := d.layoutPacket(kernarg, block, groups)
	if err != nil {
		return nil, err
	}
	for g := 0; g < groups; g++ {
		for w := 0; w*64 < block; w++ {
			m := emu.NewMachine(d.prog, d.mem, cfg)
			if err := d.preload(m, preloads{kernarg: kernarg, packet: packet, queue: queue}, g, w, block); err != nil {
				return nil, err
			}
			d.waves = append(d.waves, &waveRun{m: m, group: [3]int{g, 0, 0}, index: w, lastMem: -1})
		}
	}
	return d, nil
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

// layoutArgs allocates the kernel-argument segment and a buffer for every
// global pointer argument (4 bytes per work-item, filled with 0, 1, 2, ...),
// and writes by-value arguments from l.Args (default 3).
func (d *EmuDebuggee) layoutArgs(l Launch, block, groups int) (uint64, error) {
	items := block * groups
	size := uint64(256)
	if d.k.desc != nil && d.k.desc.KernargSize > 0 {
		size = uint64(d.k.desc.KernargSize)
	}
	if d.k.meta != nil && d.k.meta.KernargSegmentSize > 0 {
		size = d.k.meta.KernargSegmentSize
	}
	ka, err := d.mem.Alloc("kernarg", max(size, 64), 64)
	if err != nil {
		return 0, err
	}
	d.buffers = append(d.buffers, Buffer{Name: "kernarg", Addr: ka, Size: max(size, 64)})
	if d.k.meta == nil {
		return ka, nil
	}
	for _, a := range d.k.meta.Args {
		switch {
		case string(a.ValueKind) == "global_buffer":
			n := uint64(max(items, 64) * 4)
			name := a.Name
			if name == "" {
				name = fmt.Sprintf("arg%d", a.Offset)
			}
			init, given := l.Data[a.Name]
			if given {
				n = max(uint64(len(init)), 4)
			}
			b, err := d.mem.Alloc(name, n, 256)
			if err != nil {
				return 0, err
			}
			buf := make([]byte, n)
			if given {
				copy(buf, init)
			} else {
				for i := uint64(0); i < n/4; i++ {
					binary.LittleEndian.PutUint32(buf[4*i:], uint32(i))
				}
			}
			if err := d.mem.Write(b, buf); err != nil {
				return 0, err
			}
			if err := d.mem.WriteU64(ka+a.Offset, b); err != nil {
				return 0, err
			}
			d.buffers = append(d.buffers, Buffer{Name: name, Addr: b, Size: n})
		case strings.HasPrefix(string(a.ValueKind), "hidden_") && a.Size <= 8:
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], hiddenArg(string(a.ValueKind), block, groups))
			if err := d.mem.Write(ka+a.Offset, b[:a.Size]); err != nil {
				return 0, err
			}
		case string(a.ValueKind) == "by_value" && a.Size <= 8:
			v := uint64(3)
			if b, ok := l.Data[a.Name]; ok {
				var w [8]byte
				copy(w[:], b)
				v = binary.LittleEndian.Uint64(w[:])
			}
			if s, ok := l.Args[a.Name]; ok {
				x, err := parseArgValue(s)
				if err != nil {
					return 0, fmt.Errorf("argument %s: %v", a.Name, err)
				}
				v = x
			}
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], v)
			if err := d.mem.Write(ka+a.Offset, b[:a.Size]); err != nil {
				return 0, err
			}
		}
	}
	return ka, nil
}

// hiddenArg is the value of a hidden kernel argument for a 1-D launch of
// groups work-groups of block work-items.
func hiddenArg(kind string, block, groups int) uint64 {
	switch kind {
	case "hidden_block_count_x":
		return uint64(groups)
	case "hidden_block_count_y", "hidden_block_count_z", "hidden_group_size_y", "hidden_group_size_z", "hidden_grid_dims":
		return 1
	case "hidden_group_size_x":
		return uint64(block)
	}
	return 0 // offsets, remainders, pointers the debugger does not provide
}

// layoutPacket writes an AQL kernel dispatch packet and an empty queue for
// kernels that read their launch size through the dispatch pointer.
func (d *EmuDebuggee) layoutPacket(kernarg uint64, block, groups int) (packet, queue uint64, err error) {
	if packet, err = d.mem.Alloc("dispatch packet", 64, 64); err != nil {
		return 0, 0, err
	}
	if queue, err = d.mem.Alloc("queue", 256, 64); err != nil {
		return 0, 0, err
	}
	b := make([]byte, 64)
	le := binary.LittleEndian
	le.PutUint16(b[2:], 1) // dimensions
	le.PutUint16(b[4:], uint16(block))
	le.PutUint16(b[6:], 1)
	le.PutUint16(b[8:], 1)
	le.PutUint32(b[12:], uint32(block*groups))
	le.PutUint32(b[16:], 1)
	le.PutUint32(b[20:], 1)
	le.PutUint64(b[40:], kernarg)
	return packet, queue, d.mem.Write(packet, b)
}

// preloads are the addresses the dispatcher hands a wave in SGPRs.
type preloads struct{ kernarg, packet, queue uint64 }

func parseArgValue(s string) (uint64, error) {
	if strings.ContainsAny(s, ".") {
		f, err := strconv.ParseFloat(s, 32)
		return uint64(math.Float32bits(float32(f))), err
	}
	if strings.HasPrefix(s, "-") {
		v, err := strconv.ParseInt(s, 0, 64)
		return uint64(v), err
	}
	return strconv.ParseUint(s, 0, 64)
}

// preload sets the registers the dispatcher fills in, as the kernel
// descriptor asks: user SGPRs, then work-group ids, and v0-v2 work-item ids.
func (d *EmuDebuggee) preload(m *emu.Machine, pl preloads, group, wave, block int) error {
	kd := d.k.desc
	s := 0
	set := func(v uint32) error {
		err := m.SetSGPR(s, v)
		s++
		return err
	}
	set64 := func(v uint64) error {
		if err := set(uint32(v)); err != nil {
			return err
		}
		return set(uint32(v >> 32))
	}
	if kd == nil {
		return set64(pl.kernarg)
	}
	p := kd.Properties
	if p.EnableSGPRPrivateSegmentBuffer {
		for range 4 {
			set(0)
		}
	}
	if p.EnableSGPRDispatchPtr {
		set64(pl.packet)
	}
	if p.EnableSGPRQueuePtr {
		set64(pl.queue)
	}
	if p.EnableSGPRKernargSegmentPtr {
		set64(pl.kernarg)
	}
	if p.EnableSGPRDispatchID {
		set64(0)
	}
	if p.EnableSGPRFlatScratchInit {
		set64(0)
	}
	if p.EnableSGPRPrivateSegmentSize {
		set(0)
	}
	s = max(s, int(kd.Rsrc2.UserSGPRCount))
	r2 := kd.Rsrc2
	if r2.EnableSGPRWorkgroupIDX {
		set(uint32(group))
	}
	if r2.EnableSGPRWorkgroupIDY {
		set(0)
	}
	if r2.EnableSGPRWorkgroupIDZ {
		set(0)
	}
	if r2.EnableSGPRWorkgroupInfo {
		set(0)
	}
	if r2.EnablePrivateSegment {
		set(0)
	}
	lanes := min(block-wave*64, 64)
	for l := 0; l < 64; l++ {
		if err := m.SetVGPR(0, l, uint32(wave*64+l)); err != nil {
			return err
		}
	}
	if lanes < 64 {
		m.SetExec(1<<uint(lanes) - 1)
	}
	return nil
}

// ---- Debuggee ----

func (d *EmuDebuggee) w() *waveRun { return d.waves[d.sel] }

func (d *EmuDebuggee) Name() string              { return d.k.name }
func (d *EmuDebuggee) Program() []DisasmLine     { return d.lines }
func (d *EmuDebuggee) Labels() map[string]uint64 { return d.labels }
func (d *EmuDebuggee) Selected() int             { return d.sel }
func (d *EmuDebuggee) Buffers() []Buffer         { return d.buffers }

func (d *EmuDebuggee) Waves() []WaveRow {
	out := make([]WaveRow, len(d.waves))
	for i, w := range d.waves {
		st := w.m.State().String()
		if w.err != nil && w.m.State() == emu.Faulted {
			st = "faulted"
		}
		out[i] = WaveRow{ID: i, Group: w.group, Wave: w.index, PC: w.m.PC(), State: st}
	}
	return out
}

func (d *EmuDebuggee) SelectWave(i int) error {
	if i < 0 || i >= len(d.waves) {
		return fmt.Errorf("no wave %d", i)
	}
	d.sel = i
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
	rec, err := w.m.Step()
	w.snap = nil
	if rec != nil {
		w.push(rec)
	}
	if err != nil {
		if errors.Is(err, emu.ErrEnded) {
			return errors.New("the wave has ended")
		}
		w.err = err
		return err
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
		return b, valid // LDS is not modelled by package emu yet
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
	if lds {
		return errors.New("LDS is not modelled yet")
	}
	for _, w := range d.waves {
		w.snap = nil
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

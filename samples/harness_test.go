package samples

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/wavedbg/wavedbg/emu"
	"github.com/wavedbg/wavedbg/emu/manifest"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// This file sets one wave of a sample up in an emu.Machine the way the
// packet processor would (AMDGPUUsage, "Initial Kernel Execution
// State"): arguments from the sample's manifest in memory, the kernarg
// segment, an AQL dispatch packet, the enabled user and system SGPRs and
// v0 = work-item id X. It is only what the walkthrough tests need; the
// debugger itself goes through emu's dispatch. The machine has no vector
// memory unit (emu builds one only inside RunGrid), so vector memory, LDS and
// barriers are checked on a grid replay (grid_test.go).

// wave is one wave of a sample, ready to step.
type wave struct {
	s     Sample
	co    *loader.CodeObject
	k     *loader.Kernel
	m     *emu.Machine              // nil when the wave is replayed from a grid trace
	bufs  map[string]emu.Allocation // manifest buffers by argument name (machine mode)
	src   []string                  // source text of each instruction, by index
	insts []isa.Inst
	addrs []uint64 // address of each instruction
	// final holds the buffers' contents after a grid run, by argument
	// name (grid mode); memory is only observable there at the end.
	final map[string][]byte
}

// newWave loads s and sets up wave number waveInGroup of workgroup group.
func newWave(s Sample, group, waveInGroup uint32) (*wave, error) {
	co, err := loader.NewCodeObject(bytes.NewReader(s.CodeObject), int64(len(s.CodeObject)))
	if err != nil {
		return nil, err
	}
	k := co.Kernel(s.Kernel)
	if k == nil || k.Descriptor == nil || k.Meta == nil {
		return nil, fmt.Errorf("%s: no kernel %q with a descriptor and metadata", s.Name, s.Kernel)
	}
	code, err := co.Code(k)
	if err != nil {
		return nil, err
	}
	var insts []isa.Inst
	feat := isa.FeaturesOf(co.Target.Processor)
	target, ok := isa.TargetOf(co.Target.Processor)
	if !ok {
		return nil, fmt.Errorf("%s: processor %q is neither GFX8 nor GFX9", s.ID(), co.Target.Processor)
	}
	for off := 0; off < len(code); {
		var in isa.Inst
		err := isa.DecodeWith(code[off:], target, feat, &in)
		if err != nil {
			return nil, fmt.Errorf("%s: decoding at +0x%x: %v", s.Name, off, err)
		}
		insts = append(insts, in)
		off += in.Len
	}
	src := SourceInstructions(s)
	if len(src) != len(insts) {
		return nil, fmt.Errorf("%s: %d instructions in the source, %d in the code object", s.Name, len(src), len(insts))
	}

	w := &wave{s: s, co: co, k: k, bufs: map[string]emu.Allocation{}, src: src, insts: insts}
	addr := k.Entry
	for _, in := range insts {
		w.addrs = append(w.addrs, addr)
		addr += uint64(in.Len)
	}
	rm, err := s.RunManifest()
	if err != nil {
		return nil, err
	}
	mem := emu.NewMemory()
	kernarg := make([]byte, max(k.Meta.KernargSegmentSize, 8))
	if len(rm.Args) > len(k.Meta.Args) {
		return nil, fmt.Errorf("%s: the manifest has %d arguments, the metadata %d", s.Name, len(rm.Args), len(k.Meta.Args))
	}
	for i := range rm.Args {
		a, meta := &rm.Args[i], k.Meta.Args[i]
		b, err := a.Bytes("")
		if err != nil {
			return nil, fmt.Errorf("%s: argument %s: %v", s.Name, a.Name, err)
		}
		switch a.Kind {
		case manifest.Buffer:
			addr, err := mem.Alloc(a.Name, uint64(a.Size), 256)
			if err != nil {
				return nil, err
			}
			if err := mem.Write(addr, b); err != nil {
				return nil, err
			}
			w.bufs[a.Name] = emu.Allocation{Name: a.Name, Addr: addr, Size: uint64(a.Size)}
			binary.LittleEndian.PutUint64(kernarg[meta.Offset:], addr)
		case manifest.Scalar:
			copy(kernarg[meta.Offset:], b)
		default:
			return nil, fmt.Errorf("%s: argument kind %s is not supported by the test harness", s.Name, a.Kind)
		}
	}
	kaddr, err := mem.Alloc("kernarg", uint64(len(kernarg)), 64)
	if err != nil {
		return nil, err
	}
	if err := mem.Write(kaddr, kernarg); err != nil {
		return nil, err
	}
	grid, block, _ := rm.Sizes()
	var pkt [64]byte // hsa_kernel_dispatch_packet_t
	binary.LittleEndian.PutUint16(pkt[2:], 1)
	binary.LittleEndian.PutUint16(pkt[4:], uint16(block[0]))
	binary.LittleEndian.PutUint16(pkt[6:], uint16(block[1]))
	binary.LittleEndian.PutUint16(pkt[8:], uint16(block[2]))
	binary.LittleEndian.PutUint32(pkt[12:], uint32(grid[0]))
	binary.LittleEndian.PutUint32(pkt[16:], uint32(grid[1]))
	binary.LittleEndian.PutUint32(pkt[20:], uint32(grid[2]))
	binary.LittleEndian.PutUint32(pkt[28:], uint32(k.Meta.GroupSegmentFixedSize))
	binary.LittleEndian.PutUint64(pkt[40:], kaddr)
	paddr, err := mem.Alloc("dispatch packet", 64, 64)
	if err != nil {
		return nil, err
	}
	if err := mem.Write(paddr, pkt[:]); err != nil {
		return nil, err
	}

	prog := emu.NewProgram(target, k.Entry, insts)
	m := emu.NewMachine(prog, mem, emu.DefaultConfig(target))
	w.m = m

	// User SGPRs in their fixed order, then the system SGPRs.
	d := k.Descriptor
	n := 0
	pair := func(on bool, v uint64) {
		if on {
			m.SetSGPR(n, uint32(v))
			m.SetSGPR(n+1, uint32(v>>32))
			n += 2
		}
	}
	// Scratch as emu's dispatch lays it out: one wave's slot, 64 lanes of
	// the per-lane size in 1 KiB granules, at wave offset 0.
	var scratch uint64
	perLane := uint64(d.PrivateSegmentFixedSize+3) &^ 3
	slot := (64*perLane + 1023) &^ 1023
	if slot > 0 {
		if scratch, err = mem.Alloc("scratch", slot, 1<<16); err != nil {
			return nil, err
		}
	}
	if d.Properties.EnableSGPRPrivateSegmentBuffer {
		// The V# emu's dispatch gives kernels, as ROCr does: swizzled,
		// index stride 64, lane id added to the index (tui's
		// TestTourEverySample checks the claims on it against emu's).
		rsrc := [4]uint32{uint32(scratch), uint32(scratch>>32)&0xffff | 1<<31, uint32(slot), 0x00ea4fac}
		for i, v := range rsrc {
			m.SetSGPR(n+i, v)
		}
		n += 4
	}
	pair(d.Properties.EnableSGPRDispatchPtr, paddr)
	pair(d.Properties.EnableSGPRQueuePtr, 0)
	pair(d.Properties.EnableSGPRKernargSegmentPtr, kaddr)
	pair(d.Properties.EnableSGPRDispatchID, 0)
	pair(d.Properties.EnableSGPRFlatScratchInit, scratch)
	if d.Properties.EnableSGPRPrivateSegmentSize {
		n++
	}
	if n != int(d.Rsrc2.UserSGPRCount) {
		return nil, fmt.Errorf("%s: %d user SGPRs set up, the descriptor says %d", s.Name, n, d.Rsrc2.UserSGPRCount)
	}
	if d.Rsrc2.EnableSGPRWorkgroupIDX {
		m.SetSGPR(n, group)
		n++
	}
	if d.Rsrc2.EnablePrivateSegment && !(d.Rsrc2.EnableSGPRWorkgroupIDY || d.Rsrc2.EnableSGPRWorkgroupIDZ || d.Rsrc2.EnableSGPRWorkgroupInfo) {
		m.SetSGPR(n, 0) // the private segment wave offset
		n++
	} else if d.Rsrc2.EnableSGPRWorkgroupIDY || d.Rsrc2.EnableSGPRWorkgroupIDZ || d.Rsrc2.EnableSGPRWorkgroupInfo || d.Rsrc2.EnablePrivateSegment {
		return nil, fmt.Errorf("%s: system SGPRs beyond the workgroup id X are not supported by the test harness", s.Name)
	}
	if block[1] != 1 || block[2] != 1 {
		return nil, fmt.Errorf("%s: the test harness runs one-dimensional blocks only", s.Name)
	}
	first := uint64(waveInGroup) * 64
	if first >= block[0] {
		return nil, fmt.Errorf("%s: workgroup of %d has no wave %d", s.Name, block[0], waveInGroup)
	}
	active := min(block[0]-first, 64)
	for lane := range 64 {
		m.SetVGPR(0, lane, uint32(first)+uint32(lane))
	}
	if active < 64 {
		m.SetExec(1<<active - 1)
	}
	return w, nil
}

// find returns the index of the instruction whose source text is at.
func (w *wave) find(at string) (int, error) {
	at = normalize(at)
	idx := -1
	for i, s := range w.src {
		if s == at {
			if idx >= 0 {
				return 0, fmt.Errorf("%q occurs twice in %s; make the expectation unique", at, w.s.Name)
			}
			idx = i
		}
	}
	if idx < 0 {
		return 0, fmt.Errorf("no instruction %q in %s", at, w.s.Name)
	}
	return idx, nil
}

// pc returns the address of instruction i.
func (w *wave) pc(i int) uint64 { return w.addrs[i] }

// index returns the instruction index of pc.
func (w *wave) index(pc uint64) (int, bool) {
	for i, a := range w.addrs {
		if a == pc {
			return i, true
		}
	}
	return 0, false
}

// u32 reads dword i of buffer name.
func (w *wave) u32(name string, i int) (uint32, error) {
	if w.m == nil {
		b, ok := w.final[name]
		switch {
		case !ok:
			return 0, fmt.Errorf("memory is observable only at the end of a grid run (after s_endpgm)")
		case i*4+4 > len(b):
			return 0, fmt.Errorf("%s[%d] is past the buffer's %d bytes", name, i, len(b))
		}
		return binary.LittleEndian.Uint32(b[i*4:]), nil
	}
	a, ok := w.bufs[name]
	if !ok {
		return 0, fmt.Errorf("no buffer %q", name)
	}
	if uint64(i)*4+4 > a.Size {
		return 0, fmt.Errorf("%s[%d] is past the buffer's %d bytes", name, i, a.Size)
	}
	return w.m.Mem.ReadU32(a.Addr + uint64(i)*4)
}

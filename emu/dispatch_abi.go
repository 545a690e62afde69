package emu

import (
	"encoding/binary"
	"fmt"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
	"github.com/wavedbg/wavedbg/loader"
)

// KernelABI is what dispatch needs from a kernel descriptor or an
// amd_kernel_code_t, in one form for every code object version.
type KernelABI struct {
	Version int // code object version (2–5)

	Rsrc1 loader.ComputePgmRsrc1
	Rsrc2 loader.ComputePgmRsrc2

	// Enabled user SGPRs, in set-up order.
	PrivateSegmentBuffer bool    // 4 SGPRs: the scratch V#
	DispatchPtr          bool    // 2
	QueuePtr             bool    // 2
	KernargSegmentPtr    bool    // 2
	DispatchID           bool    // 2
	FlatScratchInit      bool    // 2
	PrivateSegmentSize   bool    // 1
	GridWorkgroupCount   [3]bool // 1 each (v2 only)

	GroupSegmentFixedSize   uint32 // static LDS bytes
	PrivateSegmentFixedSize uint32 // scratch bytes per work-item
	DynamicStack            bool
	KernargSize             uint32
	KernargAlign            uint32
	Entry                   uint64 // address of the first instruction
}

// ABIOf extracts the dispatch facts of k.
func ABIOf(k *loader.Kernel, version int) (*KernelABI, error) {
	a := &KernelABI{Version: version, Entry: k.Entry, KernargAlign: 8}
	switch {
	case k.Descriptor != nil:
		d := k.Descriptor
		a.Rsrc1, a.Rsrc2 = d.Rsrc1, d.Rsrc2
		p := d.Properties
		a.PrivateSegmentBuffer = p.EnableSGPRPrivateSegmentBuffer
		a.DispatchPtr = p.EnableSGPRDispatchPtr
		a.QueuePtr = p.EnableSGPRQueuePtr
		a.KernargSegmentPtr = p.EnableSGPRKernargSegmentPtr
		a.DispatchID = p.EnableSGPRDispatchID
		a.FlatScratchInit = p.EnableSGPRFlatScratchInit
		a.PrivateSegmentSize = p.EnableSGPRPrivateSegmentSize
		a.DynamicStack = p.UsesDynamicStack
		a.GroupSegmentFixedSize = d.GroupSegmentFixedSize
		a.PrivateSegmentFixedSize = d.PrivateSegmentFixedSize
		a.KernargSize = d.KernargSize
	case k.CodeT != nil:
		c := k.CodeT
		a.Rsrc1, a.Rsrc2 = c.Rsrc1, c.Rsrc2
		p := c.Properties
		a.PrivateSegmentBuffer = p.EnableSGPRPrivateSegmentBuffer
		a.DispatchPtr = p.EnableSGPRDispatchPtr
		a.QueuePtr = p.EnableSGPRQueuePtr
		a.KernargSegmentPtr = p.EnableSGPRKernargSegmentPtr
		a.DispatchID = p.EnableSGPRDispatchID
		a.FlatScratchInit = p.EnableSGPRFlatScratchInit
		a.PrivateSegmentSize = p.EnableSGPRPrivateSegmentSize
		a.GridWorkgroupCount = [3]bool{p.EnableSGPRGridWorkgroupCountX, p.EnableSGPRGridWorkgroupCountY, p.EnableSGPRGridWorkgroupCountZ}
		a.DynamicStack = p.IsDynamicCallstack
		a.GroupSegmentFixedSize = c.WorkgroupGroupSegmentByteSize
		a.PrivateSegmentFixedSize = c.WorkitemPrivateSegmentByteSize
		a.KernargSize = uint32(c.KernargSegmentByteSize)
		if c.KernargSegmentAlignment < 16 {
			a.KernargAlign = 1 << c.KernargSegmentAlignment
		}
	default:
		return nil, fmt.Errorf("kernel %s has neither a kernel descriptor nor an amd_kernel_code_t", k.Name)
	}
	if m := k.Meta; m != nil {
		if m.KernargSegmentSize > uint64(a.KernargSize) {
			a.KernargSize = uint32(m.KernargSegmentSize)
		}
		if m.KernargSegmentAlign > uint64(a.KernargAlign) {
			a.KernargAlign = uint32(m.KernargSegmentAlign)
		}
		if m.UsesDynamicStack {
			a.DynamicStack = true
		}
	}
	return a, nil
}

// UserSGPRs returns how many user SGPRs the enabled fields take, which
// must equal COMPUTE_PGM_RSRC2.USER_SGPR_COUNT.
func (a *KernelABI) UserSGPRs() int {
	n := 0
	add := func(on bool, k int) {
		if on {
			n += k
		}
	}
	add(a.PrivateSegmentBuffer, 4)
	add(a.DispatchPtr, 2)
	add(a.QueuePtr, 2)
	add(a.KernargSegmentPtr, 2)
	add(a.DispatchID, 2)
	add(a.FlatScratchInit, 2)
	add(a.PrivateSegmentSize, 1)
	for _, on := range a.GridWorkgroupCount {
		add(on, 1)
	}
	return n
}

// Dispatch is one kernel launch laid out in memory.
type Dispatch struct {
	Target isa.Target
	ABI    *KernelABI

	Grid, Block, Offset [3]uint32 // work-items; Offset is the global offset
	Dims                int
	Groups              [3]uint32 // work-groups per dimension (rounded up)
	WavesPerGroup       int

	PacketAddr  uint64 // the AQL kernel dispatch packet
	QueueAddr   uint64 // the amd_queue_t
	KernargAddr uint64
	DispatchID  uint64

	ScratchAddr    uint64 // scratch backing memory
	ScratchBytes   uint64
	ScratchPerItem uint32 // bytes per work-item (dword multiple)
	ScratchPerWave uint64 // bytes per wave slot (64 lanes, 1 KiB granules)
	ScratchSlots   int    // wave slots in the backing memory
	GroupLDS       uint32 // static + dynamic LDS bytes per work-group
}

// Work-group geometry.

// GroupCount returns the number of work-groups in the grid.
func (d *Dispatch) GroupCount() uint64 {
	return uint64(d.Groups[0]) * uint64(d.Groups[1]) * uint64(d.Groups[2])
}

// GroupID returns work-group n's id (x fastest).
func (d *Dispatch) GroupID(n uint64) [3]uint32 {
	x := n % uint64(d.Groups[0])
	n /= uint64(d.Groups[0])
	y := n % uint64(d.Groups[1])
	return [3]uint32{uint32(x), uint32(y), uint32(n / uint64(d.Groups[1]))}
}

// GroupSize returns the size of work-group id, smaller than Block at the
// grid's upper edges when the grid is not a multiple of the block.
func (d *Dispatch) GroupSize(id [3]uint32) [3]uint32 {
	var s [3]uint32
	for i := range s {
		s[i] = min(d.Block[i], d.Grid[i]-id[i]*d.Block[i])
	}
	return s
}

// aqlPacket encodes the 64-byte hsa_kernel_dispatch_packet_t.
func (d *Dispatch) aqlPacket(kernelObject uint64) []byte {
	b := make([]byte, 64)
	le := binary.LittleEndian
	// header: type KERNEL_DISPATCH (2), barrier, system-scope fences.
	le.PutUint16(b[0:], 2|1<<8|2<<9|2<<11)
	le.PutUint16(b[2:], uint16(d.Dims))
	le.PutUint16(b[4:], uint16(d.Block[0]))
	le.PutUint16(b[6:], uint16(d.Block[1]))
	le.PutUint16(b[8:], uint16(d.Block[2]))
	le.PutUint32(b[12:], d.Grid[0])
	le.PutUint32(b[16:], d.Grid[1])
	le.PutUint32(b[20:], d.Grid[2])
	le.PutUint32(b[24:], d.ScratchPerItem)
	le.PutUint32(b[28:], d.GroupLDS)
	le.PutUint64(b[32:], kernelObject)
	le.PutUint64(b[40:], d.KernargAddr)
	return b
}

// amdQueue encodes the 256-byte amd_queue_t (the fields kernels read:
// the aperture bases at 0x40/0x44 and the scratch fields).
func (d *Dispatch) amdQueue() []byte {
	b := make([]byte, 256)
	le := binary.LittleEndian
	le.PutUint32(b[0:], 0) // hsa_queue_t.type: multiple producers
	le.PutUint32(b[4:], 1) // features: kernel dispatch
	le.PutUint64(b[8:], d.PacketAddr)
	le.PutUint32(b[24:], 1)              // size in packets
	le.PutUint64(b[56:], d.DispatchID+1) // write_dispatch_id
	le.PutUint32(b[64:], uint32(core.SharedApertureBase>>32))
	le.PutUint32(b[68:], uint32(core.PrivateApertureBase>>32))
	le.PutUint32(b[72:], 0)             // max_cu_id
	le.PutUint32(b[76:], 0)             // max_wave_id
	le.PutUint64(b[128:], d.DispatchID) // read_dispatch_id
	rsrc := d.scratchRsrc()
	for i, w := range rsrc {
		le.PutUint32(b[144+4*i:], w)
	}
	le.PutUint64(b[160:], d.ScratchAddr)
	le.PutUint64(b[168:], d.ScratchBytes)
	le.PutUint32(b[176:], d.ScratchPerItem)
	return b
}

// scratchRsrc is the private segment buffer V# the runtime gives kernels:
// the backing memory, swizzled with 4-byte elements, an index stride of 64
// and the lane id added to the index, as ROCr's InitScratchSRD sets it up.
func (d *Dispatch) scratchRsrc() [4]uint32 {
	w0 := uint32(d.ScratchAddr)
	w1 := uint32(d.ScratchAddr>>32)&0xffff | 1<<31 // stride 0, swizzle enable
	w2 := uint32(min(d.ScratchBytes, 0xffffffff))
	w3 := uint32(4 | 5<<3 | 6<<6 | 7<<9) // dst_sel x y z w
	w3 |= 4 << 12                        // num_format UINT
	w3 |= 4 << 15                        // data_format 32
	w3 |= 1 << 19                        // element size 4
	w3 |= 3 << 21                        // index stride 64
	w3 |= 1 << 23                        // add_tid_enable
	return [4]uint32{w0, w1, w2, w3}
}

// WaveInit is one wave's initial register state.
type WaveInit struct {
	Group     [3]uint32 // work-group id
	WaveInGrp int
	SGPR      []uint32 // s0 upward
	VGPR      [3][64]uint32
	NVGPR     int // work-item id VGPRs set (1–3)
	Exec      uint64
	M0        uint32
	FlatScr   uint64 // FLAT_SCRATCH as the prolog would set it (informational)
	ScratchOf uint32 // the wave's scratch offset from ScratchAddr
}

// waveInit builds wave w of work-group id, whose scratch slot is slot.
func (d *Dispatch) waveInit(id [3]uint32, w int, slot int) WaveInit {
	wi := WaveInit{Group: id, WaveInGrp: w, ScratchOf: uint32(uint64(slot) * d.ScratchPerWave)}
	wi.SGPR = d.appendSystemSGPRs(d.userSGPRs(nil), id, w, slot)
	if d.Target == isa.GFX8 {
		wi.FlatScr = uint64((uint32(d.ScratchAddr)+wi.ScratchOf)>>8) | uint64(d.ScratchPerItem)<<32
	} else {
		wi.FlatScr = d.ScratchAddr + uint64(wi.ScratchOf)
	}
	wi.NVGPR = d.workItemVGPRs()
	wi.Exec = d.workItemIDs(&wi.VGPR, d.GroupSize(id), w)
	wi.M0 = waveInitM0
	return wi
}

// waveInitM0 is M0 at entry. GFX8 prologs set M0 themselves; -1 in the low
// half is harmless.
const waveInitM0 = 0xffff

// userSGPRs appends the user SGPRs to dst: the first USER_SGPR_COUNT
// registers, the same for every wave of the dispatch.
func (d *Dispatch) userSGPRs(dst []uint32) []uint32 {
	a := d.ABI
	base := len(dst)
	push := func(v uint32) { dst = append(dst, v) }
	push64 := func(v uint64) { push(uint32(v)); push(uint32(v >> 32)) }
	if a.PrivateSegmentBuffer {
		for _, v := range d.scratchRsrc() {
			push(v)
		}
	}
	if a.DispatchPtr {
		push64(d.PacketAddr)
	}
	if a.QueuePtr {
		push64(d.QueueAddr)
	}
	if a.KernargSegmentPtr {
		push64(d.KernargAddr)
	}
	if a.DispatchID {
		push64(d.DispatchID)
	}
	if a.FlatScratchInit {
		if d.Target == isa.GFX8 {
			// Offset of the backing memory from the hidden private base
			// (0 here), and the per-work-item size.
			push(uint32(d.ScratchAddr))
			push(d.ScratchPerItem)
		} else {
			push64(d.ScratchAddr)
		}
	}
	if a.PrivateSegmentSize {
		push(d.ScratchPerItem)
	}
	for i, on := range a.GridWorkgroupCount {
		if on && len(dst)-base < 16 {
			push(d.Groups[i])
		}
	}
	// System SGPRs follow the USER_SGPR_COUNT user SGPRs.
	for len(dst)-base < int(a.Rsrc2.UserSGPRCount) {
		push(0)
	}
	return dst[:base+int(a.Rsrc2.UserSGPRCount)]
}

// appendSystemSGPRs appends the system SGPRs of wave w of work-group id,
// whose scratch slot is slot: the work-group ids, work-group info and
// scratch wave offset the descriptor enables, in that order.
func (d *Dispatch) appendSystemSGPRs(dst []uint32, id [3]uint32, w, slot int) []uint32 {
	r := &d.ABI.Rsrc2
	if r.EnableSGPRWorkgroupIDX {
		dst = append(dst, id[0])
	}
	if r.EnableSGPRWorkgroupIDY {
		dst = append(dst, id[1])
	}
	if r.EnableSGPRWorkgroupIDZ {
		dst = append(dst, id[2])
	}
	if r.EnableSGPRWorkgroupInfo {
		size := d.GroupSize(id)
		waves := (size[0]*size[1]*size[2] + 63) / 64
		info := waves & 0x3f
		if w == 0 {
			info |= 1 << 31
		}
		dst = append(dst, info)
	}
	if r.EnablePrivateSegment {
		dst = append(dst, uint32(uint64(slot)*d.ScratchPerWave))
	}
	return dst
}

// workItemVGPRs returns how many work-item id VGPRs a wave starts with (1–3).
func (d *Dispatch) workItemVGPRs() int {
	return 1 + int(min(d.ABI.Rsrc2.EnableVGPRWorkitemID, 2))
}

// workItemIDs fills v0–v2 with the work-item ids of wave w of a work-group
// of the given size and returns its EXEC: the lanes that hold a work-item.
func (d *Dispatch) workItemIDs(v *[3][64]uint32, size [3]uint32, w int) uint64 {
	items := int(size[0] * size[1] * size[2])
	var exec uint64
	x, y, z := uint32(0), uint32(0), uint32(0)
	if first := w * 64; first < items {
		f := uint32(first)
		x, y, z = f%size[0], f/size[0]%size[1], f/(size[0]*size[1])
	}
	*v = [3][64]uint32{}
	for lane := 0; lane < 64 && w*64+lane < items; lane++ {
		exec |= 1 << lane
		v[0][lane], v[1][lane], v[2][lane] = x, y, z
		// the next work-item in x-fastest order, without dividing
		if x++; x == size[0] {
			x = 0
			if y++; y == size[1] {
				y = 0
				z++
			}
		}
	}
	return exec
}

// Mode returns the initial MODE register from COMPUTE_PGM_RSRC1: FP_ROUND
// [3:0], FP_DENORM [7:4], DX10_CLAMP [8], IEEE [9].
func (a *KernelABI) Mode() uint32 {
	r := a.Rsrc1
	m := uint32(r.FloatRoundMode32&3) | uint32(r.FloatRoundMode16_64&3)<<2 |
		uint32(r.FloatDenormMode32&3)<<4 | uint32(r.FloatDenormMode16_64&3)<<6
	if r.EnableDX10Clamp {
		m |= 1 << 8
	}
	if r.EnableIEEEMode {
		m |= 1 << 9
	}
	return m
}

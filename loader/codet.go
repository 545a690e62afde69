package loader

// AMDKernelCodeSize is the size of code object v2's amd_kernel_code_t.
const AMDKernelCodeSize = 256

// AMDKernelCode is code object v2's amd_kernel_code_t: the 256-byte header
// in .text at a STT_AMDGPU_HSA_KERNEL symbol, followed by the kernel's code.
// Field names follow the C structure.
type AMDKernelCode struct {
	AMDKernelCodeVersionMajor              uint32
	AMDKernelCodeVersionMinor              uint32
	AMDMachineKind                         uint16
	AMDMachineVersionMajor                 uint16
	AMDMachineVersionMinor                 uint16
	AMDMachineVersionStepping              uint16
	KernelCodeEntryByteOffset              int64
	KernelCodePrefetchByteOffset           int64
	KernelCodePrefetchByteSize             uint64
	MaxScratchBackingMemoryByteSize        uint64
	ComputePgmRsrc1                        uint32
	ComputePgmRsrc2                        uint32
	KernelCodeProperties                   uint32
	WorkitemPrivateSegmentByteSize         uint32
	WorkgroupGroupSegmentByteSize          uint32
	GDSSegmentByteSize                     uint32
	KernargSegmentByteSize                 uint64
	WorkgroupFbarrierCount                 uint32
	WavefrontSGPRCount                     uint16
	WorkitemVGPRCount                      uint16
	ReservedVGPRFirst                      uint16
	ReservedVGPRCount                      uint16
	ReservedSGPRFirst                      uint16
	ReservedSGPRCount                      uint16
	DebugWavefrontPrivateSegmentOffsetSGPR uint16
	DebugPrivateSegmentBufferSGPR          uint16
	KernargSegmentAlignment                uint8 // log2
	GroupSegmentAlignment                  uint8 // log2
	PrivateSegmentAlignment                uint8 // log2
	WavefrontSize                          uint8 // log2
	CallConvention                         int32
	RuntimeLoaderKernelSymbol              uint64

	Rsrc1      ComputePgmRsrc1
	Rsrc2      ComputePgmRsrc2
	Properties AMDKernelCodeProperties
}

// AMDKernelCodeProperties is amd_kernel_code_t's kernel_code_properties.
type AMDKernelCodeProperties struct {
	EnableSGPRPrivateSegmentBuffer bool  // bit 0
	EnableSGPRDispatchPtr          bool  // bit 1
	EnableSGPRQueuePtr             bool  // bit 2
	EnableSGPRKernargSegmentPtr    bool  // bit 3
	EnableSGPRDispatchID           bool  // bit 4
	EnableSGPRFlatScratchInit      bool  // bit 5
	EnableSGPRPrivateSegmentSize   bool  // bit 6
	EnableSGPRGridWorkgroupCountX  bool  // bit 7
	EnableSGPRGridWorkgroupCountY  bool  // bit 8
	EnableSGPRGridWorkgroupCountZ  bool  // bit 9
	EnableOrderedAppendGDS         bool  // bit 16
	PrivateElementSize             uint8 // bits 18:17
	IsPtr64                        bool  // bit 19
	IsDynamicCallstack             bool  // bit 20
	IsDebugEnabled                 bool  // bit 21
	IsXNACKEnabled                 bool  // bit 22
}

// DecodeAMDKernelCode decodes a 256-byte amd_kernel_code_t.
func DecodeAMDKernelCode(b []byte) (*AMDKernelCode, error) {
	if len(b) < AMDKernelCodeSize {
		return nil, formatErr("amd_kernel_code_t", 0, "%d bytes, want %d", len(b), AMDKernelCodeSize)
	}
	c := &AMDKernelCode{
		AMDKernelCodeVersionMajor: le.Uint32(b[0:]), AMDKernelCodeVersionMinor: le.Uint32(b[4:]),
		AMDMachineKind: le.Uint16(b[8:]), AMDMachineVersionMajor: le.Uint16(b[10:]),
		AMDMachineVersionMinor: le.Uint16(b[12:]), AMDMachineVersionStepping: le.Uint16(b[14:]),
		KernelCodeEntryByteOffset: int64(le.Uint64(b[16:])), KernelCodePrefetchByteOffset: int64(le.Uint64(b[24:])),
		KernelCodePrefetchByteSize: le.Uint64(b[32:]), MaxScratchBackingMemoryByteSize: le.Uint64(b[40:]),
		ComputePgmRsrc1: le.Uint32(b[48:]), ComputePgmRsrc2: le.Uint32(b[52:]), KernelCodeProperties: le.Uint32(b[56:]),
		WorkitemPrivateSegmentByteSize: le.Uint32(b[60:]), WorkgroupGroupSegmentByteSize: le.Uint32(b[64:]),
		GDSSegmentByteSize: le.Uint32(b[68:]), KernargSegmentByteSize: le.Uint64(b[72:]),
		WorkgroupFbarrierCount: le.Uint32(b[80:]), WavefrontSGPRCount: le.Uint16(b[84:]),
		WorkitemVGPRCount: le.Uint16(b[86:]), ReservedVGPRFirst: le.Uint16(b[88:]), ReservedVGPRCount: le.Uint16(b[90:]),
		ReservedSGPRFirst: le.Uint16(b[92:]), ReservedSGPRCount: le.Uint16(b[94:]),
		DebugWavefrontPrivateSegmentOffsetSGPR: le.Uint16(b[96:]), DebugPrivateSegmentBufferSGPR: le.Uint16(b[98:]),
		KernargSegmentAlignment: b[100], GroupSegmentAlignment: b[101], PrivateSegmentAlignment: b[102],
		WavefrontSize: b[103], CallConvention: int32(le.Uint32(b[104:])), RuntimeLoaderKernelSymbol: le.Uint64(b[120:]),
	}
	c.Rsrc1 = decodeRsrc1(c.ComputePgmRsrc1)
	c.Rsrc2 = decodeRsrc2(c.ComputePgmRsrc2)
	p := c.KernelCodeProperties
	c.Properties = AMDKernelCodeProperties{
		EnableSGPRPrivateSegmentBuffer: bit(p, 0), EnableSGPRDispatchPtr: bit(p, 1), EnableSGPRQueuePtr: bit(p, 2),
		EnableSGPRKernargSegmentPtr: bit(p, 3), EnableSGPRDispatchID: bit(p, 4), EnableSGPRFlatScratchInit: bit(p, 5),
		EnableSGPRPrivateSegmentSize: bit(p, 6), EnableSGPRGridWorkgroupCountX: bit(p, 7),
		EnableSGPRGridWorkgroupCountY: bit(p, 8), EnableSGPRGridWorkgroupCountZ: bit(p, 9),
		EnableOrderedAppendGDS: bit(p, 16), PrivateElementSize: uint8(bits(p, 17, 2)), IsPtr64: bit(p, 19),
		IsDynamicCallstack: bit(p, 20), IsDebugEnabled: bit(p, 21), IsXNACKEnabled: bit(p, 22),
	}
	return c, nil
}

// Fields lists amd_kernel_code_t's fields with their C names, for printing.
func (c *AMDKernelCode) Fields(proc string) []Field {
	out := []Field{
		{"amd_kernel_code_version_major", uint64(c.AMDKernelCodeVersionMajor)},
		{"amd_kernel_code_version_minor", uint64(c.AMDKernelCodeVersionMinor)},
		{"amd_machine_kind", uint64(c.AMDMachineKind)},
		{"amd_machine_version_major", uint64(c.AMDMachineVersionMajor)},
		{"amd_machine_version_minor", uint64(c.AMDMachineVersionMinor)},
		{"amd_machine_version_stepping", uint64(c.AMDMachineVersionStepping)},
		{"kernel_code_entry_byte_offset", uint64(c.KernelCodeEntryByteOffset)},
		{"kernel_code_prefetch_byte_offset", uint64(c.KernelCodePrefetchByteOffset)},
		{"kernel_code_prefetch_byte_size", c.KernelCodePrefetchByteSize},
		{"compute_pgm_rsrc1", uint64(c.ComputePgmRsrc1)},
	}
	out = appendBits(out, "compute_pgm_rsrc1.", c.ComputePgmRsrc1, rsrc1Fields, proc)
	out = append(out, Field{"compute_pgm_rsrc2", uint64(c.ComputePgmRsrc2)})
	out = appendBits(out, "compute_pgm_rsrc2.", c.ComputePgmRsrc2, rsrc2Fields, proc)
	p := c.KernelCodeProperties
	out = append(out, Field{"kernel_code_properties", uint64(p)})
	for _, f := range []struct {
		n    string
		s, w uint
	}{
		{"enable_sgpr_private_segment_buffer", 0, 1}, {"enable_sgpr_dispatch_ptr", 1, 1},
		{"enable_sgpr_queue_ptr", 2, 1}, {"enable_sgpr_kernarg_segment_ptr", 3, 1},
		{"enable_sgpr_dispatch_id", 4, 1}, {"enable_sgpr_flat_scratch_init", 5, 1},
		{"enable_sgpr_private_segment_size", 6, 1}, {"enable_sgpr_grid_workgroup_count_x", 7, 1},
		{"enable_sgpr_grid_workgroup_count_y", 8, 1}, {"enable_sgpr_grid_workgroup_count_z", 9, 1},
		{"enable_ordered_append_gds", 16, 1}, {"private_element_size", 17, 2}, {"is_ptr64", 19, 1},
		{"is_dynamic_callstack", 20, 1}, {"is_debug_enabled", 21, 1}, {"is_xnack_enabled", 22, 1},
	} {
		out = append(out, Field{"kernel_code_properties." + f.n, uint64(bits(p, f.s, f.w))})
	}
	return append(out,
		Field{"workitem_private_segment_byte_size", uint64(c.WorkitemPrivateSegmentByteSize)},
		Field{"workgroup_group_segment_byte_size", uint64(c.WorkgroupGroupSegmentByteSize)},
		Field{"gds_segment_byte_size", uint64(c.GDSSegmentByteSize)},
		Field{"kernarg_segment_byte_size", c.KernargSegmentByteSize},
		Field{"workgroup_fbarrier_count", uint64(c.WorkgroupFbarrierCount)},
		Field{"wavefront_sgpr_count", uint64(c.WavefrontSGPRCount)},
		Field{"workitem_vgpr_count", uint64(c.WorkitemVGPRCount)},
		Field{"reserved_vgpr_first", uint64(c.ReservedVGPRFirst)},
		Field{"reserved_vgpr_count", uint64(c.ReservedVGPRCount)},
		Field{"reserved_sgpr_first", uint64(c.ReservedSGPRFirst)},
		Field{"reserved_sgpr_count", uint64(c.ReservedSGPRCount)},
		Field{"debug_wavefront_private_segment_offset_sgpr", uint64(c.DebugWavefrontPrivateSegmentOffsetSGPR)},
		Field{"debug_private_segment_buffer_sgpr", uint64(c.DebugPrivateSegmentBufferSGPR)},
		Field{"kernarg_segment_alignment", uint64(c.KernargSegmentAlignment)},
		Field{"group_segment_alignment", uint64(c.GroupSegmentAlignment)},
		Field{"private_segment_alignment", uint64(c.PrivateSegmentAlignment)},
		Field{"wavefront_size", uint64(c.WavefrontSize)},
		Field{"call_convention", uint64(uint32(c.CallConvention))},
		Field{"runtime_loader_kernel_symbol", c.RuntimeLoaderKernelSymbol},
	)
}

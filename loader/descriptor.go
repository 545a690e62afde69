package loader

// KernelDescriptorSize is the size of a code object v3+ kernel descriptor.
const KernelDescriptorSize = 64

// KernelDescriptor is the 64-byte kernel descriptor of code object v3 and
// later (the object symbol NAME.kd). Field names follow AMDGPUUsage's
// "Kernel Descriptor" table; the packed registers are decoded in Rsrc1,
// Rsrc2, Rsrc3 and Properties, with the raw words kept beside them.
type KernelDescriptor struct {
	GroupSegmentFixedSize     uint32 // GROUP_SEGMENT_FIXED_SIZE, bytes 0-3
	PrivateSegmentFixedSize   uint32 // PRIVATE_SEGMENT_FIXED_SIZE, bytes 4-7
	KernargSize               uint32 // KERNARG_SIZE, bytes 8-11 (v5+; reserved before)
	KernelCodeEntryByteOffset int64  // KERNEL_CODE_ENTRY_BYTE_OFFSET, bytes 16-23, from the descriptor
	ComputePgmRsrc3           uint32 // COMPUTE_PGM_RSRC3, bytes 44-47 (GFX90A, GFX940, GFX10+)
	ComputePgmRsrc1           uint32 // COMPUTE_PGM_RSRC1, bytes 48-51
	ComputePgmRsrc2           uint32 // COMPUTE_PGM_RSRC2, bytes 52-55
	KernelCodeProperties      uint16 // bytes 56-57
	KernargPreload            uint16 // KERNARG_PRELOAD_SPEC_LENGTH/OFFSET, bytes 58-59
	Reserved0                 [4]byte
	Reserved1                 [20]byte
	Reserved3                 [4]byte

	Rsrc1      ComputePgmRsrc1
	Rsrc2      ComputePgmRsrc2
	Rsrc3      ComputePgmRsrc3
	Properties KernelCodeProperties
	// KernargPreloadSpecLength and KernargPreloadSpecOffset split KernargPreload.
	KernargPreloadSpecLength uint16
	KernargPreloadSpecOffset uint16
}

// ComputePgmRsrc1 is COMPUTE_PGM_RSRC1 decoded (GFX6 to GFX12 layout;
// fields that a generation reserves read as the raw bits).
type ComputePgmRsrc1 struct {
	GranulatedWorkitemVGPRCount  uint8 // GRANULATED_WORKITEM_VGPR_COUNT, bits 5:0
	GranulatedWavefrontSGPRCount uint8 // GRANULATED_WAVEFRONT_SGPR_COUNT, bits 9:6
	Priority                     uint8 // PRIORITY, bits 11:10
	FloatRoundMode32             uint8 // FLOAT_ROUND_MODE_32, bits 13:12
	FloatRoundMode16_64          uint8 // FLOAT_ROUND_MODE_16_64, bits 15:14
	FloatDenormMode32            uint8 // FLOAT_DENORM_MODE_32, bits 17:16
	FloatDenormMode16_64         uint8 // FLOAT_DENORM_MODE_16_64, bits 19:18
	Priv                         bool  // PRIV, bit 20
	EnableDX10Clamp              bool  // ENABLE_DX10_CLAMP, bit 21 (GFX12: ENABLE_WG_RR_EN)
	DebugMode                    bool  // DEBUG_MODE, bit 22
	EnableIEEEMode               bool  // ENABLE_IEEE_MODE, bit 23 (GFX12: DISABLE_PERF)
	Bulky                        bool  // BULKY, bit 24
	CDBGUser                     bool  // CDBG_USER, bit 25
	FP16Ovfl                     bool  // FP16_OVFL, bit 26 (GFX9+)
	WGPMode                      bool  // WGP_MODE, bit 29 (GFX10+)
	MemOrdered                   bool  // MEM_ORDERED, bit 30 (GFX10+)
	FwdProgress                  bool  // FWD_PROGRESS, bit 31 (GFX10+)
}

// ComputePgmRsrc2 is COMPUTE_PGM_RSRC2 decoded.
type ComputePgmRsrc2 struct {
	EnablePrivateSegment                     bool   // ENABLE_PRIVATE_SEGMENT (ENABLE_SGPR_PRIVATE_SEGMENT_WAVEFRONT_OFFSET), bit 0
	UserSGPRCount                            uint8  // USER_SGPR_COUNT, bits 5:1
	EnableTrapHandler                        bool   // ENABLE_TRAP_HANDLER, bit 6
	EnableSGPRWorkgroupIDX                   bool   // ENABLE_SGPR_WORKGROUP_ID_X, bit 7
	EnableSGPRWorkgroupIDY                   bool   // ENABLE_SGPR_WORKGROUP_ID_Y, bit 8
	EnableSGPRWorkgroupIDZ                   bool   // ENABLE_SGPR_WORKGROUP_ID_Z, bit 9
	EnableSGPRWorkgroupInfo                  bool   // ENABLE_SGPR_WORKGROUP_INFO, bit 10
	EnableVGPRWorkitemID                     uint8  // ENABLE_VGPR_WORKITEM_ID, bits 12:11
	EnableExceptionAddressWatch              bool   // ENABLE_EXCEPTION_ADDRESS_WATCH, bit 13
	EnableExceptionMemory                    bool   // ENABLE_EXCEPTION_MEMORY, bit 14
	GranulatedLDSSize                        uint16 // GRANULATED_LDS_SIZE, bits 23:15
	EnableExceptionIEEE754FPInvalidOperation bool   // bit 24
	EnableExceptionFPDenormalSource          bool   // bit 25
	EnableExceptionIEEE754FPDivisionByZero   bool   // bit 26
	EnableExceptionIEEE754FPOverflow         bool   // bit 27
	EnableExceptionIEEE754FPUnderflow        bool   // bit 28
	EnableExceptionIEEE754FPInexact          bool   // bit 29
	EnableExceptionIntDivideByZero           bool   // bit 30
}

// ComputePgmRsrc3 is COMPUTE_PGM_RSRC3 decoded for both layouts; which
// one applies depends on the processor (see Fields).
type ComputePgmRsrc3 struct {
	AccumOffset     uint8 // GFX90A/GFX940 ACCUM_OFFSET, bits 5:0
	TGSplit         bool  // GFX90A/GFX940 TG_SPLIT, bit 16
	SharedVGPRCount uint8 // GFX10/GFX11 SHARED_VGPR_COUNT, bits 3:0
	InstPrefSize    uint8 // GFX11 INST_PREF_SIZE bits 9:4; GFX12 bits 11:4
	TrapOnStart     bool  // GFX11 TRAP_ON_START, bit 10
	TrapOnEnd       bool  // GFX11 TRAP_ON_END, bit 11
	GLGEn           bool  // GFX12 GLG_EN, bit 13
	ImageOp         bool  // GFX11+ IMAGE_OP, bit 31
}

// KernelCodeProperties is the kernel_code_properties field decoded.
type KernelCodeProperties struct {
	EnableSGPRPrivateSegmentBuffer bool // ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER, bit 0
	EnableSGPRDispatchPtr          bool // ENABLE_SGPR_DISPATCH_PTR, bit 1
	EnableSGPRQueuePtr             bool // ENABLE_SGPR_QUEUE_PTR, bit 2
	EnableSGPRKernargSegmentPtr    bool // ENABLE_SGPR_KERNARG_SEGMENT_PTR, bit 3
	EnableSGPRDispatchID           bool // ENABLE_SGPR_DISPATCH_ID, bit 4
	EnableSGPRFlatScratchInit      bool // ENABLE_SGPR_FLAT_SCRATCH_INIT, bit 5
	EnableSGPRPrivateSegmentSize   bool // ENABLE_SGPR_PRIVATE_SEGMENT_SIZE, bit 6
	EnableWavefrontSize32          bool // ENABLE_WAVEFRONT_SIZE32, bit 10 (GFX10+)
	UsesDynamicStack               bool // USES_DYNAMIC_STACK, bit 11
}

func bits(v uint32, shift, width uint) uint32 { return v >> shift & (1<<width - 1) }
func bit(v uint32, shift uint) bool           { return v>>shift&1 != 0 }

// DecodeKernelDescriptor decodes a 64-byte kernel descriptor.
func DecodeKernelDescriptor(b []byte) (*KernelDescriptor, error) {
	if len(b) < KernelDescriptorSize {
		return nil, formatErr("kernel descriptor", 0, "%d bytes, want %d", len(b), KernelDescriptorSize)
	}
	kd := &KernelDescriptor{
		GroupSegmentFixedSize:     le.Uint32(b[0:]),
		PrivateSegmentFixedSize:   le.Uint32(b[4:]),
		KernargSize:               le.Uint32(b[8:]),
		KernelCodeEntryByteOffset: int64(le.Uint64(b[16:])),
		ComputePgmRsrc3:           le.Uint32(b[44:]),
		ComputePgmRsrc1:           le.Uint32(b[48:]),
		ComputePgmRsrc2:           le.Uint32(b[52:]),
		KernelCodeProperties:      le.Uint16(b[56:]),
		KernargPreload:            le.Uint16(b[58:]),
	}
	copy(kd.Reserved0[:], b[12:16])
	copy(kd.Reserved1[:], b[24:44])
	copy(kd.Reserved3[:], b[60:64])
	kd.Rsrc1 = decodeRsrc1(kd.ComputePgmRsrc1)
	kd.Rsrc2 = decodeRsrc2(kd.ComputePgmRsrc2)
	kd.Rsrc3 = decodeRsrc3(kd.ComputePgmRsrc3)
	kd.Properties = decodeProperties(uint32(kd.KernelCodeProperties))
	kd.KernargPreloadSpecLength = kd.KernargPreload & 0x7f
	kd.KernargPreloadSpecOffset = kd.KernargPreload >> 7
	return kd, nil
}

func decodeRsrc1(r uint32) ComputePgmRsrc1 {
	return ComputePgmRsrc1{
		GranulatedWorkitemVGPRCount: uint8(bits(r, 0, 6)), GranulatedWavefrontSGPRCount: uint8(bits(r, 6, 4)),
		Priority: uint8(bits(r, 10, 2)), FloatRoundMode32: uint8(bits(r, 12, 2)), FloatRoundMode16_64: uint8(bits(r, 14, 2)),
		FloatDenormMode32: uint8(bits(r, 16, 2)), FloatDenormMode16_64: uint8(bits(r, 18, 2)),
		Priv: bit(r, 20), EnableDX10Clamp: bit(r, 21), DebugMode: bit(r, 22), EnableIEEEMode: bit(r, 23),
		Bulky: bit(r, 24), CDBGUser: bit(r, 25), FP16Ovfl: bit(r, 26), WGPMode: bit(r, 29),
		MemOrdered: bit(r, 30), FwdProgress: bit(r, 31),
	}
}

func decodeRsrc2(r uint32) ComputePgmRsrc2 {
	return ComputePgmRsrc2{
		EnablePrivateSegment: bit(r, 0), UserSGPRCount: uint8(bits(r, 1, 5)), EnableTrapHandler: bit(r, 6),
		EnableSGPRWorkgroupIDX: bit(r, 7), EnableSGPRWorkgroupIDY: bit(r, 8), EnableSGPRWorkgroupIDZ: bit(r, 9),
		EnableSGPRWorkgroupInfo: bit(r, 10), EnableVGPRWorkitemID: uint8(bits(r, 11, 2)),
		EnableExceptionAddressWatch: bit(r, 13), EnableExceptionMemory: bit(r, 14),
		GranulatedLDSSize:                        uint16(bits(r, 15, 9)),
		EnableExceptionIEEE754FPInvalidOperation: bit(r, 24), EnableExceptionFPDenormalSource: bit(r, 25),
		EnableExceptionIEEE754FPDivisionByZero: bit(r, 26), EnableExceptionIEEE754FPOverflow: bit(r, 27),
		EnableExceptionIEEE754FPUnderflow: bit(r, 28), EnableExceptionIEEE754FPInexact: bit(r, 29),
		EnableExceptionIntDivideByZero: bit(r, 30),
	}
}

func decodeRsrc3(r uint32) ComputePgmRsrc3 {
	return ComputePgmRsrc3{
		AccumOffset: uint8(bits(r, 0, 6)), TGSplit: bit(r, 16), SharedVGPRCount: uint8(bits(r, 0, 4)),
		InstPrefSize: uint8(bits(r, 4, 8)), TrapOnStart: bit(r, 10), TrapOnEnd: bit(r, 11),
		GLGEn: bit(r, 13), ImageOp: bit(r, 31),
	}
}

func decodeProperties(p uint32) KernelCodeProperties {
	return KernelCodeProperties{
		EnableSGPRPrivateSegmentBuffer: bit(p, 0), EnableSGPRDispatchPtr: bit(p, 1), EnableSGPRQueuePtr: bit(p, 2),
		EnableSGPRKernargSegmentPtr: bit(p, 3), EnableSGPRDispatchID: bit(p, 4), EnableSGPRFlatScratchInit: bit(p, 5),
		EnableSGPRPrivateSegmentSize: bit(p, 6), EnableWavefrontSize32: bit(p, 10), UsesDynamicStack: bit(p, 11),
	}
}

// VGPRs is the number of VGPRs the descriptor allocates per work-item
// (from GRANULATED_WORKITEM_VGPR_COUNT), for a wave64 kernel on proc.
func (r ComputePgmRsrc1) VGPRs(proc string, wave32 bool) int {
	g := 4
	switch {
	case hasAccumOffset(proc):
		g = 8
	case GFXMajor(proc) >= 10 && wave32:
		g = 8
	}
	return (int(r.GranulatedWorkitemVGPRCount) + 1) * g
}

// SGPRs is the number of SGPRs the descriptor allocates per wave (from
// GRANULATED_WAVEFRONT_SGPR_COUNT, encoded in blocks of 8 SGPRs on GFX6 to
// GFX9, including VCC, FLAT_SCRATCH and XNACK_MASK); GFX10+ ignores the
// field and gives 0.
func (r ComputePgmRsrc1) SGPRs(proc string) int {
	if GFXMajor(proc) >= 10 {
		return 0
	}
	return (int(r.GranulatedWavefrontSGPRCount) + 1) * 8
}

// LDSBytes is the LDS size from GRANULATED_LDS_SIZE (granule 256 bytes on
// GFX6, 512 after). Code objects normally leave it 0: the dispatch packet
// gives the LDS size.
func (r ComputePgmRsrc2) LDSBytes(proc string) int {
	if GFXMajor(proc) == 6 {
		return int(r.GranulatedLDSSize) * 256
	}
	return int(r.GranulatedLDSSize) * 512
}

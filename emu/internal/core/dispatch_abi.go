package core

// The flat address space's apertures: the high dword of their bases is what
// src_shared_base and src_private_base read on GFX9 (apertureValue) and what
// amd_queue_t carries for GFX8. Each aperture spans 4 GiB.
const (
	SharedApertureBase  uint64 = 0x1_0000 << 32
	PrivateApertureBase uint64 = 0x2_0000 << 32
	ApertureSize        uint64 = 1 << 32
)

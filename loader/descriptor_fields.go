package loader

// A Field is one named field of a descriptor, for printing: Name is the
// AMDGPUUsage name ("COMPUTE_PGM_RSRC1.GRANULATED_WORKITEM_VGPR_COUNT").
type Field struct {
	Name  string
	Value uint64
}

type bitField struct {
	name         string
	shift, width uint
	minMajor     int // first GFX generation with the field (0: all)
	maxMajor     int // last (0: all)
	gfx90aOnly   bool
}

var rsrc1Fields = []bitField{
	{"GRANULATED_WORKITEM_VGPR_COUNT", 0, 6, 0, 0, false},
	{"GRANULATED_WAVEFRONT_SGPR_COUNT", 6, 4, 0, 0, false},
	{"PRIORITY", 10, 2, 0, 0, false},
	{"FLOAT_ROUND_MODE_32", 12, 2, 0, 0, false},
	{"FLOAT_ROUND_MODE_16_64", 14, 2, 0, 0, false},
	{"FLOAT_DENORM_MODE_32", 16, 2, 0, 0, false},
	{"FLOAT_DENORM_MODE_16_64", 18, 2, 0, 0, false},
	{"PRIV", 20, 1, 0, 0, false},
	{"ENABLE_DX10_CLAMP", 21, 1, 0, 11, false},
	{"ENABLE_WG_RR_EN", 21, 1, 12, 0, false},
	{"DEBUG_MODE", 22, 1, 0, 0, false},
	{"ENABLE_IEEE_MODE", 23, 1, 0, 11, false},
	{"DISABLE_PERF", 23, 1, 12, 0, false},
	{"BULKY", 24, 1, 0, 0, false},
	{"CDBG_USER", 25, 1, 0, 0, false},
	{"FP16_OVFL", 26, 1, 9, 0, false},
	{"WGP_MODE", 29, 1, 10, 0, false},
	{"MEM_ORDERED", 30, 1, 10, 0, false},
	{"FWD_PROGRESS", 31, 1, 10, 0, false},
}

var rsrc2Fields = []bitField{
	{"ENABLE_PRIVATE_SEGMENT", 0, 1, 0, 0, false},
	{"USER_SGPR_COUNT", 1, 5, 0, 0, false},
	{"ENABLE_TRAP_HANDLER", 6, 1, 0, 11, false},
	{"ENABLE_SGPR_WORKGROUP_ID_X", 7, 1, 0, 0, false},
	{"ENABLE_SGPR_WORKGROUP_ID_Y", 8, 1, 0, 0, false},
	{"ENABLE_SGPR_WORKGROUP_ID_Z", 9, 1, 0, 0, false},
	{"ENABLE_SGPR_WORKGROUP_INFO", 10, 1, 0, 0, false},
	{"ENABLE_VGPR_WORKITEM_ID", 11, 2, 0, 0, false},
	{"ENABLE_EXCEPTION_ADDRESS_WATCH", 13, 1, 0, 0, false},
	{"ENABLE_EXCEPTION_MEMORY", 14, 1, 0, 0, false},
	{"GRANULATED_LDS_SIZE", 15, 9, 0, 0, false},
	{"ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION", 24, 1, 0, 0, false},
	{"ENABLE_EXCEPTION_FP_DENORMAL_SOURCE", 25, 1, 0, 0, false},
	{"ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO", 26, 1, 0, 0, false},
	{"ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW", 27, 1, 0, 0, false},
	{"ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW", 28, 1, 0, 0, false},
	{"ENABLE_EXCEPTION_IEEE_754_FP_INEXACT", 29, 1, 0, 0, false},
	{"ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO", 30, 1, 0, 0, false},
}

var rsrc3Fields = []bitField{
	{"ACCUM_OFFSET", 0, 6, 9, 9, true},
	{"TG_SPLIT", 16, 1, 9, 9, true},
	{"SHARED_VGPR_COUNT", 0, 4, 10, 11, false},
	{"INST_PREF_SIZE", 4, 6, 11, 11, false},
	{"TRAP_ON_START", 10, 1, 11, 11, false},
	{"TRAP_ON_END", 11, 1, 11, 11, false},
	{"INST_PREF_SIZE", 4, 8, 12, 0, false},
	{"GLG_EN", 13, 1, 12, 0, false},
	{"IMAGE_OP", 31, 1, 11, 0, false},
}

var propertyFields = []bitField{
	{"ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER", 0, 1, 0, 0, false},
	{"ENABLE_SGPR_DISPATCH_PTR", 1, 1, 0, 0, false},
	{"ENABLE_SGPR_QUEUE_PTR", 2, 1, 0, 0, false},
	{"ENABLE_SGPR_KERNARG_SEGMENT_PTR", 3, 1, 0, 0, false},
	{"ENABLE_SGPR_DISPATCH_ID", 4, 1, 0, 0, false},
	{"ENABLE_SGPR_FLAT_SCRATCH_INIT", 5, 1, 0, 0, false},
	{"ENABLE_SGPR_PRIVATE_SEGMENT_SIZE", 6, 1, 0, 0, false},
	{"ENABLE_WAVEFRONT_SIZE32", 10, 1, 10, 0, false},
	{"USES_DYNAMIC_STACK", 11, 1, 0, 0, false},
}

// hasAccumOffset reports whether COMPUTE_PGM_RSRC3 has the GFX90A layout.
func hasAccumOffset(proc string) bool {
	switch proc {
	case "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950":
		return true
	}
	return false
}

func appendBits(out []Field, prefix string, v uint32, fs []bitField, proc string) []Field {
	major := GFXMajor(proc)
	for _, f := range fs {
		if major != 0 && (f.minMajor != 0 && major < f.minMajor || f.maxMajor != 0 && major > f.maxMajor) {
			continue
		}
		if f.gfx90aOnly && !hasAccumOffset(proc) {
			continue
		}
		out = append(out, Field{prefix + f.name, uint64(bits(v, f.shift, f.width))})
	}
	return out
}

// Fields lists every field of the descriptor that exists on processor proc
// ("gfx900"), in descriptor order, with AMDGPUUsage names.
func (kd *KernelDescriptor) Fields(proc string) []Field {
	out := []Field{
		{"GROUP_SEGMENT_FIXED_SIZE", uint64(kd.GroupSegmentFixedSize)},
		{"PRIVATE_SEGMENT_FIXED_SIZE", uint64(kd.PrivateSegmentFixedSize)},
		{"KERNARG_SIZE", uint64(kd.KernargSize)},
		{"KERNEL_CODE_ENTRY_BYTE_OFFSET", uint64(kd.KernelCodeEntryByteOffset)},
		{"COMPUTE_PGM_RSRC3", uint64(kd.ComputePgmRsrc3)},
	}
	if hasAccumOffset(proc) || GFXMajor(proc) >= 10 {
		out = appendBits(out, "COMPUTE_PGM_RSRC3.", kd.ComputePgmRsrc3, rsrc3Fields, proc)
	}
	out = append(out, Field{"COMPUTE_PGM_RSRC1", uint64(kd.ComputePgmRsrc1)})
	out = appendBits(out, "COMPUTE_PGM_RSRC1.", kd.ComputePgmRsrc1, rsrc1Fields, proc)
	out = append(out, Field{"COMPUTE_PGM_RSRC2", uint64(kd.ComputePgmRsrc2)})
	out = appendBits(out, "COMPUTE_PGM_RSRC2.", kd.ComputePgmRsrc2, rsrc2Fields, proc)
	out = append(out, Field{"KERNEL_CODE_PROPERTIES", uint64(kd.KernelCodeProperties)})
	out = appendBits(out, "", uint32(kd.KernelCodeProperties), propertyFields, proc)
	out = append(out,
		Field{"KERNARG_PRELOAD_SPEC_LENGTH", uint64(kd.KernargPreloadSpecLength)},
		Field{"KERNARG_PRELOAD_SPEC_OFFSET", uint64(kd.KernargPreloadSpecOffset)})
	return out
}

// Granule sizes for turning the granulated counts back into registers.

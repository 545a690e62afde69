package loader

import (
	"strings"
)

// Note types (AMDGPUUsage "Note Records").
const (
	NT_AMD_HSA_CODE_OBJECT_VERSION = 1  // "AMD", v2
	NT_AMD_HSA_HSAIL               = 2  // "AMD", v2
	NT_AMD_HSA_ISA_VERSION         = 3  // "AMD", v2
	NT_AMD_HSA_METADATA            = 10 // "AMD", v2: YAML
	NT_AMD_HSA_ISA_NAME            = 11 // "AMD", v2
	NT_AMD_PAL_METADATA            = 12 // "AMD"
	NT_AMDGPU_METADATA             = 32 // "AMDGPU", v3+: MessagePack
)

// Metadata is a code object's AMDGPU metadata (NT_AMDGPU_METADATA for v3
// and later, NT_AMD_HSA_METADATA for v2), with v2 names mapped to v3 ones.
type Metadata struct {
	Version [2]uint64 // amdhsa.version (v2: Version)
	Target  string    // amdhsa.target (v4+)
	Printf  []string  // amdhsa.printf
	Kernels []KernelMeta
	// From the v2 notes NT_AMD_HSA_CODE_OBJECT_VERSION, NT_AMD_HSA_ISA_VERSION
	// and NT_AMD_HSA_ISA_NAME; zero for v3+.
	V2 *V2Notes `json:",omitempty"`
}

// V2Notes are the extra notes of a code object v2.
type V2Notes struct {
	CodeObjectVersion [2]uint32 // major, minor
	ISAVendor         string
	ISAArch           string
	ISAVersion        [3]uint32 // major, minor, stepping
	ISAName           string
}

// KernelMeta is one entry of amdhsa.kernels.
type KernelMeta struct {
	Name                    string   // .name
	Symbol                  string   // .symbol ("vadd.kd"; v2 "vadd@kd")
	Language                string   `json:",omitempty"` // .language
	LanguageVersion         []uint64 `json:",omitempty"` // .language_version
	Kind                    string   `json:",omitempty"` // .kind (normal, init, fini)
	Args                    []Arg
	ReqdWorkgroupSize       []uint64 `json:",omitempty"` // .reqd_workgroup_size
	WorkgroupSizeHint       []uint64 `json:",omitempty"` // .workgroup_size_hint
	VecTypeHint             string   `json:",omitempty"` // .vec_type_hint
	DeviceEnqueueSymbol     string   `json:",omitempty"` // .device_enqueue_symbol
	KernargSegmentSize      uint64   // .kernarg_segment_size
	KernargSegmentAlign     uint64   // .kernarg_segment_align
	GroupSegmentFixedSize   uint64   // .group_segment_fixed_size
	PrivateSegmentFixedSize uint64   // .private_segment_fixed_size
	WavefrontSize           uint64   // .wavefront_size
	SGPRCount               uint64   // .sgpr_count
	VGPRCount               uint64   // .vgpr_count
	AGPRCount               uint64   // .agpr_count
	SGPRSpillCount          uint64   // .sgpr_spill_count
	VGPRSpillCount          uint64   // .vgpr_spill_count
	MaxFlatWorkgroupSize    uint64   // .max_flat_workgroup_size
	UsesDynamicStack        bool     // .uses_dynamic_stack
	WorkgroupProcessorMode  bool     `json:",omitempty"` // .workgroup_processor_mode
	UniformWorkgroupSize    bool     `json:",omitempty"` // .uniform_work_group_size
}

// Arg is one kernel argument (an entry of .args).
type Arg struct {
	Name         string    `json:",omitempty"` // .name
	TypeName     string    `json:",omitempty"` // .type_name
	Offset       uint64    // .offset (v2: computed from sizes and alignments)
	Size         uint64    // .size
	ValueKind    ValueKind // .value_kind
	ValueType    string    `json:",omitempty"` // .value_type (v2, v3)
	PointeeAlign uint64    `json:",omitempty"` // .pointee_align
	AddressSpace string    `json:",omitempty"` // .address_space
	Access       string    `json:",omitempty"` // .access
	ActualAccess string    `json:",omitempty"` // .actual_access
	IsConst      bool      `json:",omitempty"`
	IsRestrict   bool      `json:",omitempty"`
	IsVolatile   bool      `json:",omitempty"`
	IsPipe       bool      `json:",omitempty"`
}

// ValueKind is an argument's .value_kind, spelled as in code object v3+.
type ValueKind string

// The value kinds of AMDGPUUsage, including every hidden argument kind.
const (
	ByValue                ValueKind = "by_value"
	GlobalBuffer           ValueKind = "global_buffer"
	DynamicSharedPointer   ValueKind = "dynamic_shared_pointer"
	Sampler                ValueKind = "sampler"
	Image                  ValueKind = "image"
	Pipe                   ValueKind = "pipe"
	Queue                  ValueKind = "queue"
	HiddenGlobalOffsetX    ValueKind = "hidden_global_offset_x"
	HiddenGlobalOffsetY    ValueKind = "hidden_global_offset_y"
	HiddenGlobalOffsetZ    ValueKind = "hidden_global_offset_z"
	HiddenNone             ValueKind = "hidden_none"
	HiddenPrintfBuffer     ValueKind = "hidden_printf_buffer"
	HiddenHostcallBuffer   ValueKind = "hidden_hostcall_buffer"
	HiddenDefaultQueue     ValueKind = "hidden_default_queue"
	HiddenCompletionAction ValueKind = "hidden_completion_action"
	HiddenMultigridSyncArg ValueKind = "hidden_multigrid_sync_arg"
	HiddenBlockCountX      ValueKind = "hidden_block_count_x"
	HiddenBlockCountY      ValueKind = "hidden_block_count_y"
	HiddenBlockCountZ      ValueKind = "hidden_block_count_z"
	HiddenGroupSizeX       ValueKind = "hidden_group_size_x"
	HiddenGroupSizeY       ValueKind = "hidden_group_size_y"
	HiddenGroupSizeZ       ValueKind = "hidden_group_size_z"
	HiddenRemainderX       ValueKind = "hidden_remainder_x"
	HiddenRemainderY       ValueKind = "hidden_remainder_y"
	HiddenRemainderZ       ValueKind = "hidden_remainder_z"
	HiddenGridDims         ValueKind = "hidden_grid_dims"
	HiddenHeapV1           ValueKind = "hidden_heap_v1"
	HiddenDynamicLDSSize   ValueKind = "hidden_dynamic_lds_size"
	HiddenPrivateBase      ValueKind = "hidden_private_base"
	HiddenSharedBase       ValueKind = "hidden_shared_base"
	HiddenQueuePtr         ValueKind = "hidden_queue_ptr"
)

// KnownValueKinds lists every value kind above.
var KnownValueKinds = []ValueKind{
	ByValue, GlobalBuffer, DynamicSharedPointer, Sampler, Image, Pipe, Queue,
	HiddenGlobalOffsetX, HiddenGlobalOffsetY, HiddenGlobalOffsetZ, HiddenNone, HiddenPrintfBuffer,
	HiddenHostcallBuffer, HiddenDefaultQueue, HiddenCompletionAction, HiddenMultigridSyncArg,
	HiddenBlockCountX, HiddenBlockCountY, HiddenBlockCountZ, HiddenGroupSizeX, HiddenGroupSizeY,
	HiddenGroupSizeZ, HiddenRemainderX, HiddenRemainderY, HiddenRemainderZ, HiddenGridDims,
	HiddenHeapV1, HiddenDynamicLDSSize, HiddenPrivateBase, HiddenSharedBase, HiddenQueuePtr,
}

// Hidden reports whether the argument is one the runtime fills in.
func (k ValueKind) Hidden() bool { return strings.HasPrefix(string(k), "hidden_") }

// Known reports whether k is one of KnownValueKinds.
func (k ValueKind) Known() bool {
	for _, v := range KnownValueKinds {
		if v == k {
			return true
		}
	}
	return false
}

// Kernel looks up a kernel's metadata by name.
func (m *Metadata) Kernel(name string) *KernelMeta {
	for i := range m.Kernels {
		if m.Kernels[i].Name == name {
			return &m.Kernels[i]
		}
	}
	return nil
}

// Metadata decodes the file's metadata note: NT_AMDGPU_METADATA
// (MessagePack, v3+) or NT_AMD_HSA_METADATA (YAML, v2) with the other v2
// notes. A code object without metadata gives (nil, nil).
func (f *File) Metadata() (*Metadata, error) {
	notes, err := f.Notes()
	if err != nil {
		return nil, err
	}
	m, err := MetadataFromNotes(notes)
	return m, nameErr(err, f.name)
}

// MetadataFromNotes decodes the AMDGPU metadata among notes. Several
// NT_AMDGPU_METADATA notes (ld.lld writes one per linked object) are
// merged: their kernels listed together, their other keys agreeing.
func MetadataFromNotes(notes []Note) (*Metadata, error) {
	var m *Metadata
	var v2 *V2Notes
	var first int64 // offset of the first metadata note
	yaml := false   // the first was NT_AMD_HSA_METADATA
	for _, n := range notes {
		switch {
		case n.Name == "AMDGPU" && n.Type == NT_AMDGPU_METADATA:
			next, err := DecodeMetadataMsgpack(n.Desc, n.Off)
			if err != nil {
				return nil, err
			}
			switch {
			case m == nil:
				m, first = next, n.Off
			case yaml:
				return nil, formatErr("NT_AMDGPU_METADATA note", n.Off, "MessagePack metadata after the YAML metadata note at offset %#x", first)
			default:
				if err := mergeMetadata(m, first, next, n.Off); err != nil {
					return nil, err
				}
			}
		case n.Name == "AMD" && n.Type == NT_AMD_HSA_METADATA:
			if m != nil {
				return nil, formatErr("NT_AMD_HSA_METADATA note", n.Off, "second metadata note (the first is at offset %#x)", first)
			}
			var err error
			if m, err = DecodeMetadataYAML(n.Desc, n.Off); err != nil {
				return nil, err
			}
			yaml, first = true, n.Off
		case n.Name == "AMD" && n.Type == NT_AMD_HSA_CODE_OBJECT_VERSION:
			if len(n.Desc) < 8 {
				return nil, formatErr("NT_AMD_HSA_CODE_OBJECT_VERSION note", n.Off, "descriptor of %d bytes, want 8", len(n.Desc))
			}
			v2 = orNew(v2)
			v2.CodeObjectVersion = [2]uint32{le.Uint32(n.Desc), le.Uint32(n.Desc[4:])}
		case n.Name == "AMD" && n.Type == NT_AMD_HSA_ISA_VERSION:
			d := n.Desc
			if len(d) < 16 {
				return nil, formatErr("NT_AMD_HSA_ISA_VERSION note", n.Off, "descriptor of %d bytes, want at least 16", len(d))
			}
			vs, as := int(le.Uint16(d)), int(le.Uint16(d[2:]))
			if 16+vs+as > len(d) {
				return nil, formatErr("NT_AMD_HSA_ISA_VERSION note", n.Off, "vendor (%d) and architecture (%d) names overrun the %d-byte descriptor", vs, as, len(d))
			}
			v2 = orNew(v2)
			v2.ISAVersion = [3]uint32{le.Uint32(d[4:]), le.Uint32(d[8:]), le.Uint32(d[12:])}
			v2.ISAVendor = strings.TrimRight(string(d[16:16+vs]), "\x00")
			v2.ISAArch = strings.TrimRight(string(d[16+vs:16+vs+as]), "\x00")
		case n.Name == "AMD" && n.Type == NT_AMD_HSA_ISA_NAME:
			v2 = orNew(v2)
			v2.ISAName = strings.TrimRight(string(n.Desc), "\x00")
		}
	}
	if m == nil && v2 != nil {
		m = &Metadata{}
	}
	if m != nil {
		m.V2 = v2
	}
	return m, nil
}

func orNew(v *V2Notes) *V2Notes {
	if v == nil {
		return &V2Notes{}
	}
	return v
}

// DecodeMetadataMsgpack decodes an NT_AMDGPU_METADATA descriptor. off is
// the note's file offset, used in errors.
func DecodeMetadataMsgpack(desc []byte, off int64) (*Metadata, error) {
	r := &mpReader{data: desc, base: off}
	m := &Metadata{}
	r.eachKey(func(k []byte) {
		switch string(k) {
		case "amdhsa.version":
			if v := r.uints(); len(v) == 2 {
				m.Version = [2]uint64{v[0], v[1]}
			} else {
				r.fail("%d elements, want 2", len(v))
			}
		case "amdhsa.target":
			m.Target = r.str()
		case "amdhsa.printf":
			m.Printf = make([]string, r.arrayLen())
			for i := range m.Printf {
				m.Printf[i] = r.str()
			}
		case "amdhsa.kernels":
			m.Kernels = make([]KernelMeta, r.arrayLen())
			for i := range m.Kernels {
				decodeKernelMeta(r, &m.Kernels[i])
			}
		default:
			r.skip(0)
		}
	})
	if r.err == nil && r.pos != len(desc) && !allZero(desc[r.pos:]) {
		r.key = nil
		r.fail("%d bytes of trailing data after the metadata map", len(desc)-r.pos)
	}
	if r.err != nil {
		return nil, r.err
	}
	return m, nil
}

func decodeKernelMeta(r *mpReader, km *KernelMeta) {
	r.eachKey(func(k []byte) {
		switch string(k) {
		case ".name":
			km.Name = r.str()
		case ".symbol":
			km.Symbol = r.str()
		case ".language":
			km.Language = r.str()
		case ".language_version":
			km.LanguageVersion = r.uints()
		case ".kind":
			km.Kind = r.str()
		case ".reqd_workgroup_size":
			km.ReqdWorkgroupSize = r.uints()
		case ".workgroup_size_hint":
			km.WorkgroupSizeHint = r.uints()
		case ".vec_type_hint":
			km.VecTypeHint = r.str()
		case ".device_enqueue_symbol":
			km.DeviceEnqueueSymbol = r.str()
		case ".kernarg_segment_size":
			km.KernargSegmentSize = r.uint()
		case ".kernarg_segment_align":
			km.KernargSegmentAlign = r.uint()
		case ".group_segment_fixed_size":
			km.GroupSegmentFixedSize = r.uint()
		case ".private_segment_fixed_size":
			km.PrivateSegmentFixedSize = r.uint()
		case ".wavefront_size":
			km.WavefrontSize = r.uint()
		case ".sgpr_count":
			km.SGPRCount = r.uint()
		case ".vgpr_count":
			km.VGPRCount = r.uint()
		case ".agpr_count":
			km.AGPRCount = r.uint()
		case ".sgpr_spill_count":
			km.SGPRSpillCount = r.uint()
		case ".vgpr_spill_count":
			km.VGPRSpillCount = r.uint()
		case ".max_flat_workgroup_size":
			km.MaxFlatWorkgroupSize = r.uint()
		case ".uses_dynamic_stack":
			km.UsesDynamicStack = r.bool()
		case ".workgroup_processor_mode":
			km.WorkgroupProcessorMode = r.boolOrUint()
		case ".uniform_work_group_size":
			km.UniformWorkgroupSize = r.boolOrUint()
		case ".args":
			km.Args = make([]Arg, r.arrayLen())
			for i := range km.Args {
				decodeArg(r, &km.Args[i])
			}
		default:
			r.skip(0)
		}
	})
}

func decodeArg(r *mpReader, a *Arg) {
	r.eachKey(func(k []byte) {
		switch string(k) {
		case ".name":
			a.Name = r.str()
		case ".type_name":
			a.TypeName = r.str()
		case ".offset":
			a.Offset = r.uint()
		case ".size":
			a.Size = r.uint()
		case ".value_kind":
			a.ValueKind = valueKind(r.strBytes())
		case ".value_type":
			a.ValueType = r.str()
		case ".pointee_align":
			a.PointeeAlign = r.uint()
		case ".address_space":
			a.AddressSpace = intern(r.strBytes())
		case ".access":
			a.Access = intern(r.strBytes())
		case ".actual_access":
			a.ActualAccess = intern(r.strBytes())
		case ".is_const":
			a.IsConst = r.bool()
		case ".is_restrict":
			a.IsRestrict = r.bool()
		case ".is_volatile":
			a.IsVolatile = r.bool()
		case ".is_pipe":
			a.IsPipe = r.bool()
		default:
			r.skip(0)
		}
	})
}

// valueKind returns the constant for a known kind without allocating.
func valueKind(b []byte) ValueKind {
	for _, k := range KnownValueKinds {
		if string(k) == string(b) {
			return k
		}
	}
	return ValueKind(b)
}

var interned = []string{"global", "constant", "local", "private", "generic", "region",
	"default", "read_only", "write_only", "read_write"}

// intern returns common enumerator strings without allocating.
func intern(b []byte) string {
	for _, s := range interned {
		if s == string(b) {
			return s
		}
	}
	return string(b)
}

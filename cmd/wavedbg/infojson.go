package main

import (
	"fmt"

	"github.com/wavedbg/wavedbg/loader"
)

// infoDoc is what info --json prints: the "info" document of
// doc/wavedbg.schema.json. The loader's types are converted, never
// written as they are.
type infoDoc struct {
	Schema      string           `json:"schema"`
	Type        string           `json:"type"` // "info"
	File        string           `json:"file"`
	Container   string           `json:"container"`
	Bundles     int              `json:"bundles,omitempty"` // bundles and fat binaries
	CodeObjects []infoCodeObject `json:"code_objects"`
}

// infoCodeObject is one code object of the file. With --list-bundles it
// holds only the entry and the target (kernels is then absent); in a
// listing of several code objects its kernels carry no details.
type infoCodeObject struct {
	Entry             *infoEntry    `json:"entry,omitempty"` // absent for a plain code object
	Target            string        `json:"target"`
	Processor         string        `json:"processor,omitempty"`
	Mach              string        `json:"mach,omitempty"`
	EFlagsMach        string        `json:"e_flags_mach,omitempty"`      // v2: e_flags' EF_AMDGPU_MACH when the ISA note overrides it
	EFlagsProcessor   string        `json:"e_flags_processor,omitempty"` // and the chip it names
	XNACK             string        `json:"xnack,omitempty"`
	SRAMECC           string        `json:"sramecc,omitempty"`
	CodeObjectVersion int           `json:"code_object_version,omitempty"`
	OSABI             string        `json:"osabi,omitempty"`
	ABIVersion        *int          `json:"abi_version,omitempty"` // EI_ABIVERSION
	ELFType           string        `json:"elf_type,omitempty"`
	EFlags            string        `json:"e_flags,omitempty"`
	Text              *infoText     `json:"text,omitempty"`
	Metadata          *infoMetadata `json:"metadata,omitempty"`
	Kernels           []infoKernel  `json:"kernels,omitzero"` // nil with --list-bundles
	Error             string        `json:"error,omitempty"`  // why a listed code object could not be loaded
}

// infoEntry is where a code object sits in a bundle or fat binary.
type infoEntry struct {
	ID           string `json:"id"`
	OffloadKind  string `json:"offload_kind,omitempty"`
	Triple       string `json:"triple"`
	TargetID     string `json:"target_id,omitempty"`
	Bundle       int    `json:"bundle"`
	BundleOffset string `json:"bundle_offset"`
	Offset       string `json:"offset"`
	Size         int64  `json:"size"`
	Compression  string `json:"compression,omitempty"`
}

type infoText struct {
	Addr string `json:"addr"`
	Size uint64 `json:"size"`
}

type infoMetadata struct {
	Version [2]uint64 `json:"version"`
	Target  string    `json:"target,omitempty"`
	Printf  []string  `json:"printf,omitempty"`
	V2      *infoV2   `json:"v2,omitempty"`
}

// infoV2 holds the notes of a code object v2.
type infoV2 struct {
	CodeObjectVersion [2]uint32 `json:"code_object_version"`
	ISAVendor         string    `json:"isa_vendor"`
	ISAArch           string    `json:"isa_arch"`
	ISAVersion        [3]uint32 `json:"isa_version"`
	ISAName           string    `json:"isa_name"`
}

type infoKernel struct {
	Name             string          `json:"name"`
	Descriptor       infoDescriptor  `json:"descriptor"`
	Entry            string          `json:"entry"`
	CodeSection      string          `json:"code_section,omitempty"`
	CodeSize         uint64          `json:"code_size"`
	Metadata         *infoKernelMeta `json:"metadata,omitempty"`
	Allocated        *infoAllocated  `json:"allocated,omitempty"`
	InitialSGPRs     []infoRegUse    `json:"initial_sgprs,omitempty"`
	InitialVGPRs     []infoRegUse    `json:"initial_vgprs,omitempty"`
	DescriptorFields []infoField     `json:"descriptor_fields,omitempty"`
	Problems         []string        `json:"problems,omitempty"`
}

type infoDescriptor struct {
	Kind   string `json:"kind"` // "kernel_descriptor" or "amd_kernel_code_t"
	Symbol string `json:"symbol"`
	Addr   string `json:"addr"`
}

// infoKernelMeta is an entry of amdhsa.kernels, keyed as AMDGPUUsage
// spells its keys without the dot.
type infoKernelMeta struct {
	Name                    string    `json:"name"`
	Symbol                  string    `json:"symbol"`
	Language                string    `json:"language,omitempty"`
	LanguageVersion         []uint64  `json:"language_version,omitempty"`
	Kind                    string    `json:"kind,omitempty"`
	Args                    []infoArg `json:"args"`
	ReqdWorkgroupSize       []uint64  `json:"reqd_workgroup_size,omitempty"`
	WorkgroupSizeHint       []uint64  `json:"workgroup_size_hint,omitempty"`
	VecTypeHint             string    `json:"vec_type_hint,omitempty"`
	DeviceEnqueueSymbol     string    `json:"device_enqueue_symbol,omitempty"`
	KernargSegmentSize      uint64    `json:"kernarg_segment_size"`
	KernargSegmentAlign     uint64    `json:"kernarg_segment_align"`
	GroupSegmentFixedSize   uint64    `json:"group_segment_fixed_size"`
	PrivateSegmentFixedSize uint64    `json:"private_segment_fixed_size"`
	WavefrontSize           uint64    `json:"wavefront_size"`
	SGPRCount               uint64    `json:"sgpr_count"`
	VGPRCount               uint64    `json:"vgpr_count"`
	AGPRCount               uint64    `json:"agpr_count"`
	SGPRSpillCount          uint64    `json:"sgpr_spill_count"`
	VGPRSpillCount          uint64    `json:"vgpr_spill_count"`
	MaxFlatWorkgroupSize    uint64    `json:"max_flat_workgroup_size"`
	UsesDynamicStack        bool      `json:"uses_dynamic_stack"`
	WorkgroupProcessorMode  bool      `json:"workgroup_processor_mode,omitempty"`
	UniformWorkgroupSize    bool      `json:"uniform_work_group_size,omitempty"`
}

// infoArg is one entry of .args.
type infoArg struct {
	Offset       uint64 `json:"offset"`
	Size         uint64 `json:"size"`
	ValueKind    string `json:"value_kind"`
	ValueType    string `json:"value_type,omitempty"`
	AddressSpace string `json:"address_space,omitempty"`
	Access       string `json:"access,omitempty"`
	ActualAccess string `json:"actual_access,omitempty"`
	PointeeAlign uint64 `json:"pointee_align,omitempty"`
	IsConst      bool   `json:"is_const,omitempty"`
	IsRestrict   bool   `json:"is_restrict,omitempty"`
	IsVolatile   bool   `json:"is_volatile,omitempty"`
	IsPipe       bool   `json:"is_pipe,omitempty"`
	TypeName     string `json:"type_name,omitempty"`
	Name         string `json:"name,omitempty"`
}

// infoAllocated is what the descriptor's granulated counts allocate.
type infoAllocated struct {
	SGPR int `json:"sgpr,omitempty"` // 0 where the count is not granulated
	VGPR int `json:"vgpr"`
}

type infoRegUse struct {
	Name   string `json:"name"`
	First  int    `json:"first"`
	Count  int    `json:"count"`
	Packed bool   `json:"packed,omitempty"`
}

type infoField struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// containerName names a container kind as the schema does.
func containerName(k loader.ContainerKind) string {
	switch k {
	case loader.KindCodeObject:
		return "code-object"
	case loader.KindBundle:
		return "offload-bundle"
	case loader.KindCompressedBundle:
		return "compressed-offload-bundle"
	case loader.KindFatBinary:
		return "fat-binary"
	}
	return fmt.Sprintf("container-%d", int(k))
}

// newInfoDoc starts the document for c.
func newInfoDoc(c *loader.Container) infoDoc {
	d := infoDoc{Schema: jsonSchema, Type: "info", File: c.Name, Container: containerName(c.Kind), CodeObjects: []infoCodeObject{}}
	if c.Kind != loader.KindCodeObject {
		d.Bundles = c.Bundles
	}
	return d
}

// summary is the document of info --json for one code object.
func summary(co *loader.CodeObject) infoDoc {
	d := newInfoDoc(co.Container)
	d.CodeObjects = append(d.CodeObjects, codeObjectJSON(co, co.Container, co.Entry, true))
	return d
}

// listing is the document of info --list-bundles --json: every entry,
// from the bundle headers alone.
func listing(c *loader.Container) infoDoc {
	d := newInfoDoc(c)
	for i := range c.Entries {
		e := &c.Entries[i]
		o := infoCodeObject{Entry: entryJSON(c, e), Target: entryTarget(e)}
		if e.IsAMDGPU() {
			o.Processor = e.Processor()
		}
		d.CodeObjects = append(d.CodeObjects, o)
	}
	return d
}

// entryTarget is an entry's target ID, or its triple for a host entry.
func entryTarget(e *loader.BundleEntry) string {
	if e.TargetID == "" {
		return e.Triple
	}
	return e.Triple + "-" + e.TargetID
}

func entryJSON(c *loader.Container, e *loader.BundleEntry) *infoEntry {
	if c.Kind == loader.KindCodeObject || e == nil {
		return nil
	}
	return &infoEntry{ID: e.ID, OffloadKind: e.Kind, Triple: e.Triple, TargetID: e.TargetID, Bundle: e.Bundle,
		BundleOffset: hexAddr(uint64(e.BundleOffset)), Offset: hexAddr(uint64(e.Offset)), Size: e.Size, Compression: e.Compression}
}

// codeObjectJSON converts co, from entry e of c; detail adds each kernel's
// metadata, registers, descriptor fields and problems.
func codeObjectJSON(co *loader.CodeObject, c *loader.Container, e *loader.BundleEntry, detail bool) infoCodeObject {
	f, t := co.File, co.Target
	abi := int(f.ABIVersion)
	o := infoCodeObject{
		Entry: entryJSON(c, e), Target: t.String(), Processor: t.Processor, Mach: hexAddr(uint64(t.Mach)),
		XNACK: t.XNACK.String(), SRAMECC: t.SRAMECC.String(), CodeObjectVersion: co.Version,
		OSABI: f.OSABI.String(), ABIVersion: &abi, ELFType: f.Type.String(), EFlags: hexAddr(uint64(f.Flags)),
		Kernels: []infoKernel{},
	}
	if t.FlagsMach != 0 {
		o.EFlagsMach, o.EFlagsProcessor = hexAddr(uint64(t.FlagsMach)), t.FlagsMach.String()
	}
	if co.Text != nil {
		o.Text = &infoText{hexAddr(co.Text.Addr), co.Text.Size}
	}
	if m := co.Metadata; m != nil {
		o.Metadata = &infoMetadata{Version: m.Version, Target: m.Target, Printf: m.Printf}
		if v := m.V2; v != nil {
			o.Metadata.V2 = &infoV2{v.CodeObjectVersion, v.ISAVendor, v.ISAArch, v.ISAVersion, v.ISAName}
		}
	}
	for i := range co.Kernels {
		o.Kernels = append(o.Kernels, kernelJSON(&co.Kernels[i], t.Processor, detail))
	}
	return o
}

func kernelJSON(k *loader.Kernel, proc string, detail bool) infoKernel {
	kind := "kernel_descriptor"
	if k.CodeT != nil {
		kind = "amd_kernel_code_t"
	}
	kj := infoKernel{Name: k.Name, Descriptor: infoDescriptor{kind, k.DescriptorSymbol, hexAddr(k.DescriptorAddr)},
		Entry: hexAddr(k.Entry), CodeSection: k.CodeSection, CodeSize: k.CodeSize}
	if !detail {
		return kj
	}
	if k.Meta != nil {
		kj.Metadata = kernelMetaJSON(k.Meta)
	}
	if sg, vg := allocated(k, proc); vg > 0 {
		kj.Allocated = &infoAllocated{SGPR: sg, VGPR: vg}
	}
	kj.InitialSGPRs = regUsesJSON(k.InitialSGPRs())
	kj.InitialVGPRs = regUsesJSON(k.InitialVGPRs(proc))
	for _, fl := range descriptorFields(k, proc) {
		kj.DescriptorFields = append(kj.DescriptorFields, infoField{fl.Name, hexAddr(fl.Value)})
	}
	kj.Problems = k.Check(proc)
	return kj
}

func kernelMetaJSON(m *loader.KernelMeta) *infoKernelMeta {
	km := &infoKernelMeta{
		Name: m.Name, Symbol: m.Symbol, Language: m.Language, LanguageVersion: m.LanguageVersion, Kind: m.Kind,
		Args: []infoArg{}, ReqdWorkgroupSize: m.ReqdWorkgroupSize, WorkgroupSizeHint: m.WorkgroupSizeHint,
		VecTypeHint: m.VecTypeHint, DeviceEnqueueSymbol: m.DeviceEnqueueSymbol,
		KernargSegmentSize: m.KernargSegmentSize, KernargSegmentAlign: m.KernargSegmentAlign,
		GroupSegmentFixedSize: m.GroupSegmentFixedSize, PrivateSegmentFixedSize: m.PrivateSegmentFixedSize,
		WavefrontSize: m.WavefrontSize, SGPRCount: m.SGPRCount, VGPRCount: m.VGPRCount, AGPRCount: m.AGPRCount,
		SGPRSpillCount: m.SGPRSpillCount, VGPRSpillCount: m.VGPRSpillCount, MaxFlatWorkgroupSize: m.MaxFlatWorkgroupSize,
		UsesDynamicStack: m.UsesDynamicStack, WorkgroupProcessorMode: m.WorkgroupProcessorMode,
		UniformWorkgroupSize: m.UniformWorkgroupSize,
	}
	for _, a := range m.Args {
		km.Args = append(km.Args, infoArg{
			Offset: a.Offset, Size: a.Size, ValueKind: string(a.ValueKind), ValueType: a.ValueType,
			AddressSpace: a.AddressSpace, Access: a.Access, ActualAccess: a.ActualAccess, PointeeAlign: a.PointeeAlign,
			IsConst: a.IsConst, IsRestrict: a.IsRestrict, IsVolatile: a.IsVolatile, IsPipe: a.IsPipe,
			TypeName: a.TypeName, Name: a.Name,
		})
	}
	return km
}

func regUsesJSON(uses []loader.RegUse) []infoRegUse {
	var out []infoRegUse
	for _, u := range uses {
		out = append(out, infoRegUse{u.Name, u.First, u.Count, u.Packed})
	}
	return out
}

package loader

import (
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"
)

// Code object v2 metadata: the YAML document of NT_AMD_HSA_METADATA, with
// CamelCase keys and values. It is decoded into the same Metadata as v3+;
// argument offsets, which v2 does not record, are laid out from each
// argument's Size and Align the way the v2 runtime does.

type v2Doc struct {
	Version []uint64   `yaml:"Version"`
	Printf  []string   `yaml:"Printf"`
	Kernels []v2Kernel `yaml:"Kernels"`
}

type v2Kernel struct {
	Name            string   `yaml:"Name"`
	SymbolName      string   `yaml:"SymbolName"`
	Language        string   `yaml:"Language"`
	LanguageVersion []uint64 `yaml:"LanguageVersion"`
	Attrs           struct {
		ReqdWorkGroupSize []uint64 `yaml:"ReqdWorkGroupSize"`
		WorkGroupSizeHint []uint64 `yaml:"WorkGroupSizeHint"`
		VecTypeHint       string   `yaml:"VecTypeHint"`
		RuntimeHandle     string   `yaml:"RuntimeHandle"`
	} `yaml:"Attrs"`
	Args      []v2Arg `yaml:"Args"`
	CodeProps struct {
		KernargSegmentSize      uint64 `yaml:"KernargSegmentSize"`
		GroupSegmentFixedSize   uint64 `yaml:"GroupSegmentFixedSize"`
		PrivateSegmentFixedSize uint64 `yaml:"PrivateSegmentFixedSize"`
		KernargSegmentAlign     uint64 `yaml:"KernargSegmentAlign"`
		WavefrontSize           uint64 `yaml:"WavefrontSize"`
		NumSGPRs                uint64 `yaml:"NumSGPRs"`
		NumVGPRs                uint64 `yaml:"NumVGPRs"`
		MaxFlatWorkGroupSize    uint64 `yaml:"MaxFlatWorkGroupSize"`
		IsDynamicCallStack      bool   `yaml:"IsDynamicCallStack"`
		IsXNACKEnabled          bool   `yaml:"IsXNACKEnabled"`
		NumSpilledSGPRs         uint64 `yaml:"NumSpilledSGPRs"`
		NumSpilledVGPRs         uint64 `yaml:"NumSpilledVGPRs"`
	} `yaml:"CodeProps"`
}

type v2Arg struct {
	Name          string `yaml:"Name"`
	TypeName      string `yaml:"TypeName"`
	Size          uint64 `yaml:"Size"`
	Align         uint64 `yaml:"Align"`
	ValueKind     string `yaml:"ValueKind"`
	ValueType     string `yaml:"ValueType"`
	PointeeAlign  uint64 `yaml:"PointeeAlign"`
	AddrSpaceQual string `yaml:"AddrSpaceQual"`
	AccQual       string `yaml:"AccQual"`
	ActualAccQual string `yaml:"ActualAccQual"`
	IsConst       bool   `yaml:"IsConst"`
	IsRestrict    bool   `yaml:"IsRestrict"`
	IsVolatile    bool   `yaml:"IsVolatile"`
	IsPipe        bool   `yaml:"IsPipe"`
}

// DecodeMetadataYAML decodes a code object v2 NT_AMD_HSA_METADATA
// descriptor. off is the note's file offset, used in errors.
func DecodeMetadataYAML(desc []byte, off int64) (m *Metadata, err error) {
	defer func() {
		// yaml.v3 is third-party; a panic on hostile input must not escape.
		if r := recover(); r != nil {
			m, err = nil, formatErr("NT_AMD_HSA_METADATA note", off, "YAML decoder failed: %v", r)
		}
	}()
	var doc v2Doc
	if err := yaml.Unmarshal([]byte(strings.TrimRight(string(desc), "\x00")), &doc); err != nil {
		return nil, formatErr("NT_AMD_HSA_METADATA note", off, "%v", err)
	}
	m = &Metadata{Printf: doc.Printf}
	if len(doc.Version) == 2 {
		m.Version = [2]uint64{doc.Version[0], doc.Version[1]}
	} else if doc.Version != nil {
		return nil, formatErr("NT_AMD_HSA_METADATA note", off, "Version has %d elements, want 2", len(doc.Version))
	}
	m.Kernels = make([]KernelMeta, len(doc.Kernels))
	for i, k := range doc.Kernels {
		km := &m.Kernels[i]
		cp := &k.CodeProps
		*km = KernelMeta{
			Name: k.Name, Symbol: k.SymbolName, Language: k.Language, LanguageVersion: k.LanguageVersion,
			ReqdWorkgroupSize: k.Attrs.ReqdWorkGroupSize, WorkgroupSizeHint: k.Attrs.WorkGroupSizeHint,
			VecTypeHint: k.Attrs.VecTypeHint, DeviceEnqueueSymbol: k.Attrs.RuntimeHandle,
			KernargSegmentSize: cp.KernargSegmentSize, KernargSegmentAlign: cp.KernargSegmentAlign,
			GroupSegmentFixedSize: cp.GroupSegmentFixedSize, PrivateSegmentFixedSize: cp.PrivateSegmentFixedSize,
			WavefrontSize: cp.WavefrontSize, SGPRCount: cp.NumSGPRs, VGPRCount: cp.NumVGPRs,
			SGPRSpillCount: cp.NumSpilledSGPRs, VGPRSpillCount: cp.NumSpilledVGPRs,
			MaxFlatWorkgroupSize: cp.MaxFlatWorkGroupSize, UsesDynamicStack: cp.IsDynamicCallStack,
		}
		var at uint64
		km.Args = make([]Arg, len(k.Args))
		for j, a := range k.Args {
			if a.Align&(a.Align-1) != 0 || a.Align > 1<<16 || a.Size > 1<<32 {
				return nil, formatErr("NT_AMD_HSA_METADATA note", off, "kernel %q argument %d: bad Size %d or Align %d", k.Name, j, a.Size, a.Align)
			}
			if a.Align > 0 {
				at = alignUp(at, a.Align)
			}
			km.Args[j] = Arg{
				Name: a.Name, TypeName: a.TypeName, Offset: at, Size: a.Size,
				ValueKind: ValueKind(v2Snake(a.ValueKind)), ValueType: strings.ToLower(a.ValueType),
				PointeeAlign: a.PointeeAlign, AddressSpace: strings.ToLower(a.AddrSpaceQual),
				Access: v2Snake(a.AccQual), ActualAccess: v2Snake(a.ActualAccQual),
				IsConst: a.IsConst, IsRestrict: a.IsRestrict, IsVolatile: a.IsVolatile, IsPipe: a.IsPipe,
			}
			at += a.Size
		}
	}
	return m, nil
}

// v2Snake turns a v2 CamelCase enumerator into its v3 spelling:
// "HiddenGlobalOffsetX" → "hidden_global_offset_x", "ReadOnly" → "read_only".
func v2Snake(s string) string {
	if s == "HiddenMultiGridSyncArg" {
		return string(HiddenMultigridSyncArg)
	}
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

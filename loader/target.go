package loader

import (
	"fmt"
	"strconv"
	"strings"
)

// e_flags fields of EM_AMDGPU (AMDGPUUsage "ELF Header").
const (
	EF_AMDGPU_MACH                    = 0x0ff
	EF_AMDGPU_FEATURE_XNACK_V2        = 0x01
	EF_AMDGPU_FEATURE_TRAP_HANDLER_V2 = 0x02
	EF_AMDGPU_FEATURE_XNACK_V3        = 0x100
	EF_AMDGPU_FEATURE_SRAMECC_V3      = 0x200
	EF_AMDGPU_FEATURE_XNACK_V4        = 0x300
	EF_AMDGPU_FEATURE_SRAMECC_V4      = 0xc00
	EF_AMDGPU_GENERIC_VERSION         = 0xff000000
	EF_AMDGPU_GENERIC_VERSION_OFFSET  = 24
)

// Mach is an EF_AMDGPU_MACH value: the processor a code object is for.
type Mach uint8

// machNames maps EF_AMDGPU_MACH values to LLVM's processor names.
var machNames = [...]string{
	0x001: "r600", 0x002: "r630", 0x003: "rs880", 0x004: "rv670", 0x005: "rv710", 0x006: "rv730",
	0x007: "rv770", 0x008: "cedar", 0x009: "cypress", 0x00a: "juniper", 0x00b: "redwood", 0x00c: "sumo",
	0x00d: "barts", 0x00e: "caicos", 0x00f: "cayman", 0x010: "turks",
	0x020: "gfx600", 0x021: "gfx601", 0x022: "gfx700", 0x023: "gfx701", 0x024: "gfx702", 0x025: "gfx703",
	0x026: "gfx704", 0x028: "gfx801", 0x029: "gfx802", 0x02a: "gfx803", 0x02b: "gfx810",
	0x02c: "gfx900", 0x02d: "gfx902", 0x02e: "gfx904", 0x02f: "gfx906", 0x030: "gfx908", 0x031: "gfx909",
	0x032: "gfx90c", 0x033: "gfx1010", 0x034: "gfx1011", 0x035: "gfx1012", 0x036: "gfx1030",
	0x037: "gfx1031", 0x038: "gfx1032", 0x039: "gfx1033", 0x03a: "gfx602", 0x03b: "gfx705",
	0x03c: "gfx805", 0x03d: "gfx1035", 0x03e: "gfx1034", 0x03f: "gfx90a", 0x040: "gfx940",
	0x041: "gfx1100", 0x042: "gfx1013", 0x043: "gfx1150", 0x044: "gfx1103", 0x045: "gfx1036",
	0x046: "gfx1101", 0x047: "gfx1102", 0x048: "gfx1200", 0x04a: "gfx1151", 0x04b: "gfx941",
	0x04c: "gfx942", 0x04e: "gfx1201", 0x04f: "gfx950", 0x051: "gfx9-generic", 0x052: "gfx10-1-generic",
	0x053: "gfx10-3-generic", 0x054: "gfx11-generic", 0x055: "gfx1152", 0x059: "gfx12-generic",
}

// String is the processor name ("gfx900"), or "mach(0xNN)" when unknown.
func (m Mach) String() string {
	if int(m) < len(machNames) && machNames[m] != "" {
		return machNames[m]
	}
	return fmt.Sprintf("mach(%#x)", uint8(m))
}

// ProcessorNames lists the processor names of every EF_AMDGPU_MACH value
// LLVM defines, in value order.
func ProcessorNames() []string {
	var out []string
	for _, n := range machNames {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// MachByName returns the EF_AMDGPU_MACH value of a processor name.
func MachByName(proc string) (Mach, bool) {
	for i, n := range machNames {
		if n == proc && n != "" {
			return Mach(i), true
		}
	}
	return 0, false
}

// Feature is the setting of a target feature (xnack, sramecc) in a code
// object: AMDGPUUsage's unsupported / any / off / on.
type Feature uint8

const (
	FeatureUnsupported Feature = iota
	FeatureAny
	FeatureOff
	FeatureOn
)

func (f Feature) String() string {
	switch f {
	case FeatureUnsupported:
		return "unsupported"
	case FeatureAny:
		return "any"
	case FeatureOff:
		return "off"
	case FeatureOn:
		return "on"
	}
	return "Feature(" + strconv.Itoa(int(f)) + ")"
}

// Target is what a code object was compiled for.
type Target struct {
	Mach      Mach
	Processor string // "gfx900"
	XNACK     Feature
	SRAMECC   Feature
	// GenericVersion is EF_AMDGPU_GENERIC_VERSION (code object v6 generic
	// processors), 0 otherwise.
	GenericVersion int
	TrapHandler    bool // EF_AMDGPU_FEATURE_TRAP_HANDLER_V2 (v2 only)
	// FlagsMach is the EF_AMDGPU_MACH of e_flags when it differs from Mach:
	// a code object v2 whose e_flags name an R600-era chip (r630) and whose
	// NT_AMD_HSA_ISA_VERSION note names the processor.
	FlagsMach Mach
}

// ID is the target ID as LLVM spells it: processor followed by the
// features that are on or off, "gfx90a:sramecc-:xnack+".
func (t Target) ID() string {
	s := t.Processor
	if t.SRAMECC == FeatureOn || t.SRAMECC == FeatureOff {
		s += ":sramecc" + map[bool]string{true: "+", false: "-"}[t.SRAMECC == FeatureOn]
	}
	if t.XNACK == FeatureOn || t.XNACK == FeatureOff {
		s += ":xnack" + map[bool]string{true: "+", false: "-"}[t.XNACK == FeatureOn]
	}
	return s
}

// String is the full target triple and ID, "amdgcn-amd-amdhsa--gfx900:xnack-".
func (t Target) String() string { return "amdgcn-amd-amdhsa--" + t.ID() }

// supportsXNACK and supportsSRAMECC follow LLVM's processor table.
func supportsXNACK(p string) bool {
	switch p {
	case "gfx801", "gfx810", "gfx900", "gfx902", "gfx904", "gfx906", "gfx908", "gfx909", "gfx90a",
		"gfx90c", "gfx940", "gfx941", "gfx942", "gfx950", "gfx1010", "gfx1011", "gfx1012", "gfx1013",
		"gfx9-generic", "gfx10-1-generic":
		return true
	}
	return false
}

func supportsSRAMECC(p string) bool {
	switch p {
	case "gfx906", "gfx908", "gfx90a", "gfx940", "gfx941", "gfx942", "gfx950":
		return true
	}
	return false
}

// GFXMajor returns the GFX generation of a processor name ("gfx90a" → 9,
// "gfx1030" → 10, "gfx9-generic" → 9), or 0 when it is not a gfx name.
func GFXMajor(proc string) int {
	rest, ok := strings.CutPrefix(proc, "gfx")
	if !ok {
		return 0
	}
	if g, ok := strings.CutSuffix(rest, "-generic"); ok {
		rest = strings.SplitN(g, "-", 2)[0] + "00"
	}
	if len(rest) < 3 {
		return 0
	}
	n, err := strconv.Atoi(rest[:len(rest)-2])
	if err != nil {
		return 0
	}
	return n
}

// IsGCN reports whether proc is a GCN processor (GFX6 to GFX9, including
// CDNA's gfx908/gfx90a/gfx94x), the family wavedbg emulates.
func IsGCN(proc string) bool {
	m := GFXMajor(proc)
	return m >= 6 && m <= 9
}

// CodeObjectVersion returns the AMDHSA code object version (2 to 6) from
// EI_OSABI and EI_ABIVERSION. PAL and Mesa code objects have no version
// and give 0.
func (f *File) CodeObjectVersion() (int, error) {
	if f.Machine != EM_AMDGPU {
		return 0, nameErr(formatErr("ELF header", 18, "e_machine %v is not EM_AMDGPU", f.Machine), f.name)
	}
	switch f.OSABI {
	case ELFOSABI_AMDGPU_HSA:
		if f.ABIVersion > 4 {
			return 0, nameErr(formatErr("ELF header", 8, "unknown EI_ABIVERSION %d for ELFOSABI_AMDGPU_HSA", f.ABIVersion), f.name)
		}
		return int(f.ABIVersion) + 2, nil
	case ELFOSABI_AMDGPU_PAL, ELFOSABI_AMDGPU_MESA3D:
		return 0, nil
	}
	return 0, nameErr(formatErr("ELF header", 7, "EI_OSABI %v is not an AMDGPU OS ABI", f.OSABI), f.name)
}

// Target decodes the processor and features from e_flags.
func (f *File) Target() (Target, error) {
	v, err := f.CodeObjectVersion()
	if err != nil {
		return Target{}, err
	}
	m := Mach(f.Flags & EF_AMDGPU_MACH)
	t := Target{Mach: m, Processor: m.String()}
	if v == 2 && m.preGCN() {
		proc, nm, ok, err := f.v2Processor()
		if err != nil {
			return t, err
		}
		if ok {
			t = Target{Mach: nm, Processor: proc, FlagsMach: m}
		}
	}
	if t.Mach == 0 {
		return t, nameErr(formatErr("ELF header", 48, "e_flags %#x name no processor (EF_AMDGPU_MACH_NONE)", f.Flags), f.name)
	}
	xn, sr := supportsXNACK(t.Processor), supportsSRAMECC(t.Processor)
	// v2 and v3 have one bit per feature: set is on (reported as the file
	// says, even for a processor without the feature), clear is off.
	onOff := func(supported, set bool) Feature {
		switch {
		case set:
			return FeatureOn
		case !supported:
			return FeatureUnsupported
		}
		return FeatureOff
	}
	switch v {
	case 2:
		// AMDGPUUsage gives v2 its own bits, but LLVM writes the v3 ones
		// (and llvm-readelf reads them); accept both.
		t.XNACK = onOff(xn, f.Flags&(EF_AMDGPU_FEATURE_XNACK_V2|EF_AMDGPU_FEATURE_XNACK_V3) != 0)
		t.SRAMECC = onOff(sr, f.Flags&EF_AMDGPU_FEATURE_SRAMECC_V3 != 0)
		t.TrapHandler = f.Flags&EF_AMDGPU_FEATURE_TRAP_HANDLER_V2 != 0
	case 3:
		t.XNACK = onOff(xn, f.Flags&EF_AMDGPU_FEATURE_XNACK_V3 != 0)
		t.SRAMECC = onOff(sr, f.Flags&EF_AMDGPU_FEATURE_SRAMECC_V3 != 0)
	default: // v4 and later; also PAL/Mesa, which use the v4 layout
		t.XNACK = Feature((f.Flags & EF_AMDGPU_FEATURE_XNACK_V4) >> 8)
		t.SRAMECC = Feature((f.Flags & EF_AMDGPU_FEATURE_SRAMECC_V4) >> 10)
		if v >= 6 {
			t.GenericVersion = int(f.Flags >> EF_AMDGPU_GENERIC_VERSION_OFFSET)
		}
	}
	return t, nil
}

// ParseTargetID splits a target ID such as "gfx90a:sramecc+:xnack-"
// (optionally preceded by a triple, "amdgcn-amd-amdhsa--gfx90a:xnack-")
// into a Target. Features not named are "any".
func ParseTargetID(id string) (Target, error) {
	if i := strings.LastIndex(id, "-gfx"); i >= 0 {
		id = id[i+1:]
	}
	parts := strings.Split(id, ":")
	t := Target{Processor: parts[0], XNACK: FeatureAny, SRAMECC: FeatureAny}
	if m, ok := MachByName(parts[0]); ok {
		t.Mach = m
	} else if !strings.HasPrefix(parts[0], "gfx") {
		return t, fmt.Errorf("loader: %q is not an AMDGPU target ID", id)
	}
	for _, p := range parts[1:] {
		if len(p) < 2 {
			return t, fmt.Errorf("loader: bad feature %q in target ID %q", p, id)
		}
		f := FeatureOn
		if p[len(p)-1] == '-' {
			f = FeatureOff
		} else if p[len(p)-1] != '+' {
			return t, fmt.Errorf("loader: feature %q in target ID %q lacks + or -", p, id)
		}
		switch p[:len(p)-1] {
		case "xnack":
			t.XNACK = f
		case "sramecc":
			t.SRAMECC = f
		default:
			return t, fmt.Errorf("loader: unknown feature %q in target ID %q", p, id)
		}
	}
	return t, nil
}

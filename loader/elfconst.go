package loader

import (
	"strconv"
	"strings"
)

// ELF identification, header and table constants used by code objects and
// host binaries. Names follow the ELF specification and LLVM's ELF.h.

// Class is EI_CLASS.
type Class uint8

// Data is EI_DATA (byte order).
type Data uint8

// OSABI is EI_OSABI.
type OSABI uint8

// Type is e_type.
type Type uint16

// Machine is e_machine.
type Machine uint16

// SectionType is sh_type.
type SectionType uint32

// SectionFlag is sh_flags.
type SectionFlag uint64

// SectionIndex is a symbol's st_shndx.
type SectionIndex uint16

// ProgType is p_type.
type ProgType uint32

// ProgFlag is p_flags.
type ProgFlag uint32

// SymBind is the binding in st_info.
type SymBind uint8

// SymType is the type in st_info.
type SymType uint8

// DynTag is d_tag.
type DynTag int64

const (
	ELFCLASS32 Class = 1
	ELFCLASS64 Class = 2

	ELFDATA2LSB Data = 1
	ELFDATA2MSB Data = 2

	ELFOSABI_NONE          OSABI = 0
	ELFOSABI_LINUX         OSABI = 3
	ELFOSABI_AMDGPU_HSA    OSABI = 64
	ELFOSABI_AMDGPU_PAL    OSABI = 65
	ELFOSABI_AMDGPU_MESA3D OSABI = 66

	ET_NONE Type = 0
	ET_REL  Type = 1
	ET_EXEC Type = 2
	ET_DYN  Type = 3
	ET_CORE Type = 4

	EM_X86_64 Machine = 62
	EM_AMDGPU Machine = 224

	SHT_NULL          SectionType = 0
	SHT_PROGBITS      SectionType = 1
	SHT_SYMTAB        SectionType = 2
	SHT_STRTAB        SectionType = 3
	SHT_RELA          SectionType = 4
	SHT_HASH          SectionType = 5
	SHT_DYNAMIC       SectionType = 6
	SHT_NOTE          SectionType = 7
	SHT_NOBITS        SectionType = 8
	SHT_REL           SectionType = 9
	SHT_DYNSYM        SectionType = 11
	SHT_INIT_ARRAY    SectionType = 14
	SHT_FINI_ARRAY    SectionType = 15
	SHT_GNU_HASH      SectionType = 0x6ffffff6
	SHT_GNU_VERDEF    SectionType = 0x6ffffffd
	SHT_GNU_VERNEED   SectionType = 0x6ffffffe
	SHT_GNU_VERSYM    SectionType = 0x6fffffff
	SHT_LLVM_ADDRSIG  SectionType = 0x6fff4c03
	SHT_X86_64_UNWIND SectionType = 0x70000001

	SHF_WRITE     SectionFlag = 0x1
	SHF_ALLOC     SectionFlag = 0x2
	SHF_EXECINSTR SectionFlag = 0x4
	SHF_MERGE     SectionFlag = 0x10
	SHF_STRINGS   SectionFlag = 0x20
	SHF_INFO_LINK SectionFlag = 0x40

	SHN_UNDEF     SectionIndex = 0
	SHN_LORESERVE SectionIndex = 0xff00
	SHN_ABS       SectionIndex = 0xfff1
	SHN_COMMON    SectionIndex = 0xfff2
	SHN_XINDEX    SectionIndex = 0xffff

	PT_NULL         ProgType = 0
	PT_LOAD         ProgType = 1
	PT_DYNAMIC      ProgType = 2
	PT_INTERP       ProgType = 3
	PT_NOTE         ProgType = 4
	PT_PHDR         ProgType = 6
	PT_TLS          ProgType = 7
	PT_GNU_EH_FRAME ProgType = 0x6474e550
	PT_GNU_STACK    ProgType = 0x6474e551
	PT_GNU_RELRO    ProgType = 0x6474e552

	PF_X ProgFlag = 1
	PF_W ProgFlag = 2
	PF_R ProgFlag = 4

	STB_LOCAL  SymBind = 0
	STB_GLOBAL SymBind = 1
	STB_WEAK   SymBind = 2

	STT_NOTYPE  SymType = 0
	STT_OBJECT  SymType = 1
	STT_FUNC    SymType = 2
	STT_SECTION SymType = 3
	STT_FILE    SymType = 4
	// STT_AMDGPU_HSA_KERNEL marks a kernel's amd_kernel_code_t in code object v2.
	STT_AMDGPU_HSA_KERNEL SymType = 10

	DT_NULL     DynTag = 0
	DT_NEEDED   DynTag = 1
	DT_HASH     DynTag = 4
	DT_STRTAB   DynTag = 5
	DT_SYMTAB   DynTag = 6
	DT_RELA     DynTag = 7
	DT_RELASZ   DynTag = 8
	DT_RELAENT  DynTag = 9
	DT_STRSZ    DynTag = 10
	DT_SYMENT   DynTag = 11
	DT_SONAME   DynTag = 14
	DT_GNU_HASH DynTag = 0x6ffffef5
)

// ELF64 on-disk sizes.
const (
	ehdrSize = 64
	shdrSize = 64
	phdrSize = 56
	symSize  = 24
	relaSize = 24
	dynSize  = 16
)

// Relocation types of EM_AMDGPU (LLVM's ELFRelocs/AMDGPU.def).
const (
	R_AMDGPU_NONE          = 0
	R_AMDGPU_ABS32_LO      = 1
	R_AMDGPU_ABS32_HI      = 2
	R_AMDGPU_ABS64         = 3
	R_AMDGPU_REL32         = 4
	R_AMDGPU_REL64         = 5
	R_AMDGPU_ABS32         = 6
	R_AMDGPU_GOTPCREL      = 7
	R_AMDGPU_GOTPCREL32_LO = 8
	R_AMDGPU_GOTPCREL32_HI = 9
	R_AMDGPU_REL32_LO      = 10
	R_AMDGPU_REL32_HI      = 11
	R_AMDGPU_RELATIVE64    = 13
	R_AMDGPU_REL16         = 14
	R_X86_64_RELATIVE      = 8
)

func name(m map[uint64]string, v uint64, unknown string) string {
	if s, ok := m[v]; ok {
		return s
	}
	return unknown + "(" + strconv.FormatUint(v, 10) + ")"
}

var classNames = map[uint64]string{0: "ELFCLASSNONE", 1: "ELFCLASS32", 2: "ELFCLASS64"}
var dataNames = map[uint64]string{0: "ELFDATANONE", 1: "ELFDATA2LSB", 2: "ELFDATA2MSB"}
var osabiNames = map[uint64]string{0: "ELFOSABI_NONE", 3: "ELFOSABI_LINUX", 64: "ELFOSABI_AMDGPU_HSA", 65: "ELFOSABI_AMDGPU_PAL", 66: "ELFOSABI_AMDGPU_MESA3D"}
var typeNames = map[uint64]string{0: "ET_NONE", 1: "ET_REL", 2: "ET_EXEC", 3: "ET_DYN", 4: "ET_CORE"}
var machineNames = map[uint64]string{0: "EM_NONE", 3: "EM_386", 62: "EM_X86_64", 183: "EM_AARCH64", 224: "EM_AMDGPU"}
var sectionTypeNames = map[uint64]string{
	0: "SHT_NULL", 1: "SHT_PROGBITS", 2: "SHT_SYMTAB", 3: "SHT_STRTAB", 4: "SHT_RELA", 5: "SHT_HASH",
	6: "SHT_DYNAMIC", 7: "SHT_NOTE", 8: "SHT_NOBITS", 9: "SHT_REL", 11: "SHT_DYNSYM", 14: "SHT_INIT_ARRAY",
	15: "SHT_FINI_ARRAY", 0x6ffffff6: "SHT_GNU_HASH", 0x6ffffffd: "SHT_GNU_VERDEF", 0x6ffffffe: "SHT_GNU_VERNEED",
	0x6fffffff: "SHT_GNU_VERSYM", 0x6fff4c03: "SHT_LLVM_ADDRSIG", 0x70000001: "SHT_X86_64_UNWIND",
}
var progTypeNames = map[uint64]string{
	0: "PT_NULL", 1: "PT_LOAD", 2: "PT_DYNAMIC", 3: "PT_INTERP", 4: "PT_NOTE", 6: "PT_PHDR", 7: "PT_TLS",
	0x6474e550: "PT_GNU_EH_FRAME", 0x6474e551: "PT_GNU_STACK", 0x6474e552: "PT_GNU_RELRO",
}
var symBindNames = map[uint64]string{0: "STB_LOCAL", 1: "STB_GLOBAL", 2: "STB_WEAK"}
var symTypeNames = map[uint64]string{0: "STT_NOTYPE", 1: "STT_OBJECT", 2: "STT_FUNC", 3: "STT_SECTION", 4: "STT_FILE", 5: "STT_COMMON", 6: "STT_TLS", 10: "STT_AMDGPU_HSA_KERNEL"}
var dynTagNames = map[uint64]string{
	0: "DT_NULL", 1: "DT_NEEDED", 4: "DT_HASH", 5: "DT_STRTAB", 6: "DT_SYMTAB", 7: "DT_RELA", 8: "DT_RELASZ",
	9: "DT_RELAENT", 10: "DT_STRSZ", 11: "DT_SYMENT", 14: "DT_SONAME", 0x6ffffef5: "DT_GNU_HASH",
}

func (c Class) String() string       { return name(classNames, uint64(c), "ELFCLASS") }
func (d Data) String() string        { return name(dataNames, uint64(d), "ELFDATA") }
func (o OSABI) String() string       { return name(osabiNames, uint64(o), "ELFOSABI") }
func (t Type) String() string        { return name(typeNames, uint64(t), "ET") }
func (m Machine) String() string     { return name(machineNames, uint64(m), "EM") }
func (t SectionType) String() string { return name(sectionTypeNames, uint64(t), "SHT") }
func (t ProgType) String() string    { return name(progTypeNames, uint64(t), "PT") }
func (b SymBind) String() string     { return name(symBindNames, uint64(b), "STB") }
func (t SymType) String() string     { return name(symTypeNames, uint64(t), "STT") }
func (t DynTag) String() string      { return name(dynTagNames, uint64(t), "DT") }

var sectionFlagNames = []struct {
	f    SectionFlag
	name string
}{{SHF_WRITE, "SHF_WRITE"}, {SHF_ALLOC, "SHF_ALLOC"}, {SHF_EXECINSTR, "SHF_EXECINSTR"},
	{SHF_MERGE, "SHF_MERGE"}, {SHF_STRINGS, "SHF_STRINGS"}, {SHF_INFO_LINK, "SHF_INFO_LINK"}}

func (f SectionFlag) String() string {
	var s []string
	for _, n := range sectionFlagNames {
		if f&n.f != 0 {
			s = append(s, n.name)
			f &^= n.f
		}
	}
	if f != 0 || len(s) == 0 {
		s = append(s, "0x"+strconv.FormatUint(uint64(f), 16))
	}
	return strings.Join(s, "+")
}

func (f ProgFlag) String() string {
	s := []byte("---")
	if f&PF_R != 0 {
		s[0] = 'R'
	}
	if f&PF_W != 0 {
		s[1] = 'W'
	}
	if f&PF_X != 0 {
		s[2] = 'X'
	}
	if rest := f &^ (PF_R | PF_W | PF_X); rest != 0 {
		return string(s) + "+0x" + strconv.FormatUint(uint64(rest), 16)
	}
	return string(s)
}

func (i SectionIndex) String() string {
	switch i {
	case SHN_UNDEF:
		return "SHN_UNDEF"
	case SHN_ABS:
		return "SHN_ABS"
	case SHN_COMMON:
		return "SHN_COMMON"
	case SHN_XINDEX:
		return "SHN_XINDEX"
	}
	return strconv.Itoa(int(i))
}

package loader

import (
	"bytes"
	"debug/elf"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestHeaders checks the headers of representative committed files
// against what build.sh asked clang and lld for.
func TestHeaders(t *testing.T) {
	tests := []struct {
		file       string
		typ        Type
		machine    Machine
		osabi      OSABI
		abiVersion uint8
		mach       Mach
		version    int
		kernels    []string
	}{
		{"co/vadd-gfx803-v4.co", ET_DYN, EM_AMDGPU, ELFOSABI_AMDGPU_HSA, 2, 0x2a, 4, []string{"vadd"}},
		{"co/vadd-gfx900-v2.co", ET_DYN, EM_AMDGPU, ELFOSABI_AMDGPU_HSA, 0, 0x2c, 2, []string{"vadd"}},
		{"co/vadd-gfx900-v4.o", ET_REL, EM_AMDGPU, ELFOSABI_AMDGPU_HSA, 2, 0x2c, 4, []string{"vadd"}},
		{"co/args-gfx906-v5.co", ET_DYN, EM_AMDGPU, ELFOSABI_AMDGPU_HSA, 3, 0x2f, 5, []string{"args", "images"}},
		{"co/lds_scratch-gfx90a-v4.co", ET_DYN, EM_AMDGPU, ELFOSABI_AMDGPU_HSA, 2, 0x3f, 4, []string{"reduce", "scratch"}},
		{"co/lds_scratch-gfx900-v2.co", ET_DYN, EM_AMDGPU, ELFOSABI_AMDGPU_HSA, 0, 0x2c, 2, []string{"reduce", "scratch"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := Open(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if f.Type != tt.typ || f.Machine != tt.machine || f.OSABI != tt.osabi || f.ABIVersion != tt.abiVersion {
				t.Errorf("header %v %v %v %d, want %v %v %v %d", f.Type, f.Machine, f.OSABI, f.ABIVersion, tt.typ, tt.machine, tt.osabi, tt.abiVersion)
			}
			tg, err := f.Target()
			if err != nil || tg.Mach != tt.mach {
				t.Errorf("Target() = %v, %v; want mach %v", tg, err, tt.mach)
			}
			if v, err := f.CodeObjectVersion(); v != tt.version || err != nil {
				t.Errorf("CodeObjectVersion() = %d, %v; want %d", v, err, tt.version)
			}
			ks, err := f.Kernels()
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, k := range ks {
				names = append(names, k.Name)
				if k.Meta == nil || (k.Descriptor == nil) == (k.CodeT == nil) {
					t.Errorf("kernel %s: metadata %v, descriptor %v, amd_kernel_code_t %v", k.Name, k.Meta != nil, k.Descriptor != nil, k.CodeT != nil)
				}
			}
			if strings.Join(names, " ") != strings.Join(tt.kernels, " ") {
				t.Errorf("kernels %q, want %q", names, tt.kernels)
			}
		})
	}
}

// TestDebugELF compares our reader with Go's debug/elf over every
// committed ELF file and every code object inside the bundles.
func TestDebugELF(t *testing.T) {
	type input struct {
		name string
		data []byte
	}
	var inputs []input
	for _, p := range elfFiles(t) {
		inputs = append(inputs, input{p, mustRead(t, p)})
	}
	bundles, _ := filepath.Glob("testdata/bundle/*")
	for _, p := range bundles {
		c, err := OpenContainer(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range c.Entries {
			if e.IsAMDGPU() {
				b, err := io.ReadAll(e.Reader())
				if err != nil {
					t.Fatal(err)
				}
				inputs = append(inputs, input{p + "[" + e.ID + "]", b})
			}
		}
		c.Close()
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			ours, err := NewFile(bytes.NewReader(in.data))
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := elf.NewFile(bytes.NewReader(in.data))
			if err != nil {
				t.Fatal(err)
			}
			compareELF(t, ours, theirs)
		})
	}
}

func compareELF(t *testing.T, ours *File, theirs *elf.File) {
	t.Helper()
	fh := theirs.FileHeader
	if uint8(fh.OSABI) != uint8(ours.OSABI) || fh.ABIVersion != ours.ABIVersion || uint16(fh.Type) != uint16(ours.Type) ||
		uint16(fh.Machine) != uint16(ours.Machine) || fh.Entry != ours.Entry {
		t.Errorf("file header differs: ours %+v, debug/elf %+v", ours.FileHeader, fh)
	}
	if len(ours.Sections) != len(theirs.Sections) {
		t.Fatalf("%d sections, debug/elf has %d", len(ours.Sections), len(theirs.Sections))
	}
	for i, s := range theirs.Sections {
		o := ours.Sections[i]
		if o.Name != s.Name || uint32(o.Type) != uint32(s.Type) || uint64(o.Flags) != uint64(s.Flags) ||
			o.Addr != s.Addr || o.Offset != s.Offset || o.Size != s.Size || o.Link != s.Link ||
			o.Info != s.Info || o.Addralign != s.Addralign || o.Entsize != s.Entsize {
			t.Errorf("section %d: ours %+v, debug/elf %+v", i, o.SectionHeader, s.SectionHeader)
		}
		od, err1 := o.Data()
		sd, err2 := s.Data()
		if s.Type == elf.SHT_NOBITS {
			continue
		}
		if (err1 == nil) != (err2 == nil) || !bytes.Equal(od, sd) {
			t.Errorf("section %d (%s) data differs (errors %v, %v)", i, s.Name, err1, err2)
		}
	}
	if len(ours.Progs) != len(theirs.Progs) {
		t.Fatalf("%d program headers, debug/elf has %d", len(ours.Progs), len(theirs.Progs))
	}
	for i, p := range theirs.Progs {
		o := ours.Progs[i].ProgHeader
		if uint32(o.Type) != uint32(p.Type) || uint32(o.Flags) != uint32(p.Flags) || o.Off != p.Off ||
			o.Vaddr != p.Vaddr || o.Paddr != p.Paddr || o.Filesz != p.Filesz || o.Memsz != p.Memsz || o.Align != p.Align {
			t.Errorf("program header %d: ours %+v, debug/elf %+v", i, o, p.ProgHeader)
		}
	}
	for _, kind := range []string{"symtab", "dynsym"} {
		var os []Symbol
		var ts []elf.Symbol
		var err1, err2 error
		if kind == "symtab" {
			os, err1 = ours.Symbols()
			ts, err2 = theirs.Symbols()
		} else {
			os, err1 = ours.DynamicSymbols()
			ts, err2 = theirs.DynamicSymbols()
		}
		if errors.Is(err2, elf.ErrNoSymbols) {
			err2 = nil
		}
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: errors %v, %v", kind, err1, err2)
		}
		if len(os) != len(ts) {
			t.Fatalf("%s: %d symbols, debug/elf has %d", kind, len(os), len(ts))
		}
		for i, s := range ts {
			o := os[i]
			if o.Name != s.Name || o.Info != s.Info || o.Other != s.Other || uint16(o.Section) != uint16(s.Section) ||
				o.Value != s.Value || o.Size != s.Size {
				t.Errorf("%s %d: ours %+v, debug/elf %+v", kind, i, o, s)
			}
		}
	}
	for _, s := range theirs.Sections {
		if s.Type != elf.SHT_RELA {
			continue
		}
		ours, err := ours.Relocations(ours.Section(s.Name))
		if err != nil {
			t.Fatal(err)
		}
		data, _ := s.Data()
		if len(ours)*24 != len(data) {
			t.Fatalf("%s: %d relocations for %d bytes", s.Name, len(ours), len(data))
		}
		for i, r := range ours {
			var want elf.Rela64
			want.Off, want.Info, want.Addend = le.Uint64(data[i*24:]), le.Uint64(data[i*24+8:]), int64(le.Uint64(data[i*24+16:]))
			if r.Off != want.Off || r.Info != want.Info || r.Addend != want.Addend {
				t.Errorf("%s[%d] = %+v, want %+v", s.Name, i, r, want)
			}
		}
	}
	theirDyn, _ := theirs.DynValue(elf.DT_STRSZ)
	if d, err := ours.Dynamic(); err != nil {
		t.Error(err)
	} else if len(theirDyn) > 0 {
		found := false
		for _, e := range d {
			if e.Tag == DT_STRSZ && e.Val == theirDyn[0] {
				found = true
			}
		}
		if !found {
			t.Errorf("DT_STRSZ %d not among our dynamic entries %v", theirDyn[0], d)
		}
	}
}

// TestEveryCodeObjectHeader checks each committed code object against what
// its name says build.sh asked for (SRC-CPU-vN.co, or .o for ET_REL).
func TestEveryCodeObjectHeader(t *testing.T) {
	kernels := map[string]string{"vadd": "vadd", "args": "args images", "lds_scratch": "reduce scratch"}
	for _, p := range codeObjects(t) {
		base := filepath.Base(p)
		ext := filepath.Ext(base)
		parts := strings.Split(strings.TrimSuffix(base, ext), "-")
		if len(parts) != 3 || !strings.HasPrefix(parts[2], "v") {
			t.Errorf("%s: name is not SRC-CPU-vN", base)
			continue
		}
		src, cpu := parts[0], parts[1]
		version := int(parts[2][1] - '0')
		wantType := map[string]Type{".co": ET_DYN, ".o": ET_REL}[ext]
		co, err := Load(p, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		f := co.File
		mach, _ := MachByName(cpu)
		if f.Type != wantType || f.Machine != EM_AMDGPU || f.OSABI != ELFOSABI_AMDGPU_HSA || int(f.ABIVersion) != version-2 ||
			co.Version != version || co.Target.Mach != mach || co.Target.Processor != cpu {
			t.Errorf("%s: %v %v %v ABI %d, v%d, %s; want %v EM_AMDGPU HSA v%d %s", base, f.Type, f.Machine, f.OSABI, f.ABIVersion,
				co.Version, co.Target.Processor, wantType, version, cpu)
		}
		var names []string
		for _, k := range co.Kernels {
			names = append(names, k.Name)
		}
		if strings.Join(names, " ") != kernels[src] {
			t.Errorf("%s: kernels %q, want %q", base, names, kernels[src])
		}
		if version >= 3 && (co.Metadata == nil || co.Metadata.Version[0] != 1 || int(co.Metadata.Version[1]) != version-3) {
			t.Errorf("%s: amdhsa.version %v, want 1.%d", base, co.Metadata, version-3)
		}
		if version >= 4 && co.Metadata.Target != co.Target.String() {
			t.Errorf("%s: amdhsa.target %q, e_flags say %q", base, co.Metadata.Target, co.Target)
		}
		co.Close()
	}
}

func TestEnumStrings(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{SHF_ALLOC.String(), "SHF_ALLOC"},
		{(SHF_ALLOC | SHF_EXECINSTR).String(), "SHF_ALLOC+SHF_EXECINSTR"},
		{(SHF_WRITE | 0x100).String(), "SHF_WRITE+0x100"},
		{SectionFlag(0).String(), "0x0"},
		{(PF_R | PF_X).String(), "R-X"},
		{(PF_W | 8).String(), "-W-+0x8"},
		{SHN_ABS.String(), "SHN_ABS"},
		{SectionIndex(7).String(), "7"},
		{SHT_NOTE.String(), "SHT_NOTE"},
		{SectionType(0x12345).String(), "SHT(74565)"},
		{EM_AMDGPU.String(), "EM_AMDGPU"},
		{ELFOSABI_AMDGPU_HSA.String(), "ELFOSABI_AMDGPU_HSA"},
		{STT_AMDGPU_HSA_KERNEL.String(), "STT_AMDGPU_HSA_KERNEL"},
		{Mach(0x3f).String(), "gfx90a"},
		{Mach(0x27).String(), "mach(0x27)"},
		{FeatureAny.String(), "any"},
		{KindFatBinary.String(), "host ELF with .hip_fatbin"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("String() = %q, want %q", tt.got, tt.want)
		}
	}
}

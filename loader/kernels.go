package loader

import (
	"fmt"
	"strings"
)

// A Kernel joins what a code object says about one kernel: its metadata,
// its descriptor (v3+) or amd_kernel_code_t (v2), and where its code is.
type Kernel struct {
	Name       string
	Meta       *KernelMeta       `json:",omitempty"` // nil when the metadata does not list it
	Descriptor *KernelDescriptor `json:",omitempty"` // code object v3+
	CodeT      *AMDKernelCode    `json:",omitempty"` // code object v2

	// DescriptorSymbol is "NAME.kd" (v3+) or the STT_AMDGPU_HSA_KERNEL
	// symbol (v2); DescriptorAddr is its address (in ET_REL: its offset in
	// its section).
	DescriptorSymbol string
	DescriptorAddr   uint64
	// Entry is the address of the kernel's first instruction: the
	// descriptor address plus KERNEL_CODE_ENTRY_BYTE_OFFSET. In an ET_REL
	// file it is the offset in CodeSection, from the descriptor's relocation.
	Entry       uint64
	CodeSize    uint64 // st_size of the kernel's function symbol, 0 if unknown
	CodeSection string // the section holding the code, normally ".text"
}

// Kernels lists the kernels of a code object in metadata order, followed
// by any kernel that has a descriptor but no metadata.
func (f *File) Kernels() ([]Kernel, error) {
	v, err := f.CodeObjectVersion()
	if err != nil {
		return nil, err
	}
	md, err := f.Metadata()
	if err != nil {
		return nil, err
	}
	return f.kernels(v, md)
}

func (f *File) kernels(version int, md *Metadata) ([]Kernel, error) {
	syms, err := f.Symbols()
	if err != nil {
		return nil, err
	}
	if len(syms) == 0 {
		if syms, err = f.DynamicSymbols(); err != nil {
			return nil, err
		}
	}
	funcs := map[string]*Symbol{}
	var descs []Symbol
	for i := range syms {
		s := &syms[i]
		switch {
		case s.Type() == STT_FUNC:
			funcs[s.Name] = s
		case version >= 3 && s.Type() == STT_OBJECT && strings.HasSuffix(s.Name, ".kd") && s.Section != SHN_UNDEF:
			descs = append(descs, *s)
		case version == 2 && s.Type() == STT_AMDGPU_HSA_KERNEL && s.Section != SHN_UNDEF:
			descs = append(descs, *s)
		}
	}
	var out []Kernel
	byDesc := map[string]int{}
	if md != nil {
		for i := range md.Kernels {
			km := &md.Kernels[i]
			byDesc[km.Symbol] = len(out)
			out = append(out, Kernel{Name: km.Name, Meta: km, DescriptorSymbol: km.Symbol})
		}
	}
	for _, s := range descs {
		name := s.Name
		if version >= 3 {
			name = strings.TrimSuffix(name, ".kd")
		}
		idx, ok := byDesc[s.Name]
		if !ok {
			// v2 metadata names the kernel symbol "NAME@kd"; match by name.
			if idx, ok = byDesc[name+"@kd"]; !ok {
				idx = len(out)
				byDesc[s.Name] = idx
				out = append(out, Kernel{Name: name, DescriptorSymbol: s.Name})
			}
		}
		k := &out[idx]
		k.DescriptorSymbol = s.Name
		if err := f.readDescriptor(k, s, version); err != nil {
			return out, err
		}
		if fn := funcs[name]; fn != nil && version >= 3 {
			k.CodeSize = fn.Size
		}
	}
	return out, nil
}

// symbolData reads n bytes at symbol s, checking they lie in its section.
func (f *File) symbolData(s Symbol, n uint64) (data []byte, sec *Section, err error) {
	if int(s.Section) >= len(f.Sections) || s.Section >= SHN_LORESERVE {
		return nil, nil, nameErr(formatErr("symbol "+s.Name, s.off, "section index %d out of range", s.Section), f.name)
	}
	sec = f.Sections[s.Section]
	rel := s.Value
	if f.Type != ET_REL {
		rel = s.Value - sec.Addr
		if s.Value < sec.Addr {
			rel = ^uint64(0)
		}
	}
	if sec.Type == SHT_NOBITS || rel > sec.Size || n > sec.Size-rel {
		return nil, sec, nameErr(formatErr("symbol "+s.Name, s.off, "%d bytes at %#x are outside section %s [%#x, +%#x)", n, s.Value, sec.Name, sec.Addr, sec.Size), f.name)
	}
	data, err = f.read(sec.Offset+rel, n, "symbol "+s.Name)
	return data, sec, err
}

func (f *File) readDescriptor(k *Kernel, s Symbol, version int) error {
	k.DescriptorAddr = s.Value
	if version == 2 {
		b, sec, err := f.symbolData(s, AMDKernelCodeSize)
		if err != nil {
			return err
		}
		if k.CodeT, err = DecodeAMDKernelCode(b); err != nil {
			return err
		}
		off := uint64(k.CodeT.KernelCodeEntryByteOffset)
		k.Entry = s.Value + off
		if s.Size > off {
			k.CodeSize = s.Size - off
		}
		k.CodeSection = sec.Name
		return nil
	}
	b, sec, err := f.symbolData(s, KernelDescriptorSize)
	if err != nil {
		return err
	}
	if k.Descriptor, err = DecodeKernelDescriptor(b); err != nil {
		return err
	}
	k.Entry = s.Value + uint64(k.Descriptor.KernelCodeEntryByteOffset)
	if f.Type == ET_REL {
		return f.relocatedEntry(k, s, sec)
	}
	if t := f.sectionAt(k.Entry); t != nil {
		k.CodeSection = t.Name
	}
	return nil
}

// relocatedEntry finds the entry of a kernel in an ET_REL file from the
// R_AMDGPU_REL64 relocation of the descriptor's entry-offset field.
func (f *File) relocatedEntry(k *Kernel, s Symbol, sec *Section) error {
	for _, rs := range f.RelocationSections(sec) {
		rels, err := f.Relocations(rs)
		if err != nil {
			return err
		}
		for _, r := range rels {
			if r.Off != s.Value+16 {
				continue
			}
			if r.Type() != R_AMDGPU_REL64 {
				return nameErr(formatErr(rs.structure(), int64(rs.Offset), "relocation of %s entry offset has type %d, want R_AMDGPU_REL64", s.Name, r.Type()), f.name)
			}
			if rs.Link == 0 || uint64(rs.Link) >= uint64(len(f.Sections)) {
				return nameErr(formatErr(rs.structure(), int64(rs.Offset), "sh_link %d does not name a symbol table", rs.Link), f.name)
			}
			syms, err := f.sectionSymbols(f.Sections[rs.Link])
			if err != nil {
				return err
			}
			i := int(r.Sym()) - 1
			if i < 0 || i >= len(syms) {
				return nameErr(formatErr(rs.structure(), int64(rs.Offset), "relocation symbol %d out of range", r.Sym()), f.name)
			}
			// The field holds S + A - P with P = descriptor + 16, so the
			// entry (S + A - P + descriptor) is S + A - 16, as an offset in
			// the target symbol's section.
			target := syms[i]
			k.Entry = target.Value + uint64(r.Addend) - (r.Off - s.Value)
			if int(target.Section) < len(f.Sections) {
				k.CodeSection = f.Sections[target.Section].Name
			}
			return nil
		}
	}
	return nil
}

// sectionAt returns the allocated section holding addr.
func (f *File) sectionAt(addr uint64) *Section {
	for _, s := range f.Sections {
		if s.Flags&SHF_ALLOC != 0 && s.Type != SHT_NOBITS && addr >= s.Addr && addr-s.Addr < s.Size {
			return s
		}
	}
	return nil
}

// ReadAddr reads n bytes at virtual address addr of an ET_DYN/ET_EXEC file
// (or section offset addr of section sec in an ET_REL file, when sec is
// given).
func (f *File) ReadAddr(addr, n uint64, sec *Section) ([]byte, error) {
	if sec == nil {
		if sec = f.sectionAt(addr); sec == nil {
			return nil, nameErr(formatErr("address", -1, "%#x is in no section", addr), f.name)
		}
		addr -= sec.Addr
	}
	if addr > sec.Size || n > sec.Size-addr {
		return nil, nameErr(formatErr(sec.structure(), int64(sec.Offset), "%d bytes at %#x run past the section (%#x bytes)", n, addr, sec.Size), f.name)
	}
	return f.read(sec.Offset+addr, n, sec.structure())
}

// Code returns the kernel's machine code: CodeSize bytes from Entry (to
// the end of its section when the size is unknown).
func (f *File) Code(k *Kernel) ([]byte, error) {
	sec := f.Section(k.CodeSection)
	if sec == nil {
		return nil, nameErr(formatErr("kernel "+k.Name, -1, "code section %q not found", k.CodeSection), f.name)
	}
	off := k.Entry
	if f.Type != ET_REL {
		if off < sec.Addr {
			return nil, nameErr(formatErr("kernel "+k.Name, -1, "entry %#x before section %s", k.Entry, sec.Name), f.name)
		}
		off -= sec.Addr
	}
	n := k.CodeSize
	if n == 0 && off <= sec.Size {
		n = sec.Size - off
	}
	return f.ReadAddr(off, n, sec)
}

// Check compares a kernel's descriptor with its metadata on processor proc
// and returns every disagreement (none for a consistent kernel).
func (k *Kernel) Check(proc string) []string {
	var bad []string
	fail := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	m := k.Meta
	if m == nil {
		return []string{"no metadata"}
	}
	for i, a := range m.Args {
		if a.Offset+a.Size > m.KernargSegmentSize {
			fail("argument %d (%s) at %d+%d overruns kernarg segment size %d", i, a.ValueKind, a.Offset, a.Size, m.KernargSegmentSize)
		}
		if !a.ValueKind.Known() {
			fail("argument %d: unknown value kind %q", i, a.ValueKind)
		}
	}
	if a := m.KernargSegmentAlign; a != 0 && a&(a-1) != 0 {
		fail("kernarg segment align %d is not a power of two", a)
	}
	switch {
	case k.CodeT != nil:
		c := k.CodeT
		eq := func(what string, d, mv uint64) {
			if d != mv {
				fail("%s: amd_kernel_code_t %d, metadata %d", what, d, mv)
			}
		}
		eq("kernarg size", c.KernargSegmentByteSize, m.KernargSegmentSize)
		eq("group segment size", uint64(c.WorkgroupGroupSegmentByteSize), m.GroupSegmentFixedSize)
		eq("private segment size", uint64(c.WorkitemPrivateSegmentByteSize), m.PrivateSegmentFixedSize)
		eq("sgpr count", uint64(c.WavefrontSGPRCount), m.SGPRCount)
		eq("vgpr count", uint64(c.WorkitemVGPRCount), m.VGPRCount)
		eq("wavefront size", 1<<min(c.WavefrontSize, 63), m.WavefrontSize)
		checkGranules(fail, c.Rsrc1, proc, uint64(c.WavefrontSGPRCount), uint64(c.WorkitemVGPRCount), 0, 64)
	case k.Descriptor != nil:
		d := k.Descriptor
		if uint64(d.GroupSegmentFixedSize) != m.GroupSegmentFixedSize {
			fail("group segment size: descriptor %d, metadata %d", d.GroupSegmentFixedSize, m.GroupSegmentFixedSize)
		}
		if uint64(d.PrivateSegmentFixedSize) != m.PrivateSegmentFixedSize {
			fail("private segment size: descriptor %d, metadata %d", d.PrivateSegmentFixedSize, m.PrivateSegmentFixedSize)
		}
		if d.KernargSize != 0 && uint64(d.KernargSize) != m.KernargSegmentSize {
			fail("kernarg size: descriptor %d, metadata %d", d.KernargSize, m.KernargSegmentSize)
		}
		wave := uint64(64)
		if d.Properties.EnableWavefrontSize32 {
			wave = 32
		}
		if m.WavefrontSize != wave {
			fail("wavefront size: descriptor %d, metadata %d", wave, m.WavefrontSize)
		}
		if d.Properties.UsesDynamicStack != m.UsesDynamicStack {
			fail("uses dynamic stack: descriptor %v, metadata %v", d.Properties.UsesDynamicStack, m.UsesDynamicStack)
		}
		if m.PrivateSegmentFixedSize > 0 && !d.Rsrc2.EnablePrivateSegment {
			fail("private segment of %d bytes but ENABLE_PRIVATE_SEGMENT is 0", m.PrivateSegmentFixedSize)
		}
		p := d.Properties
		user := 0
		for _, c := range []struct {
			on bool
			n  int
		}{{p.EnableSGPRPrivateSegmentBuffer, 4}, {p.EnableSGPRDispatchPtr, 2}, {p.EnableSGPRQueuePtr, 2},
			{p.EnableSGPRKernargSegmentPtr, 2}, {p.EnableSGPRDispatchID, 2}, {p.EnableSGPRFlatScratchInit, 2},
			{p.EnableSGPRPrivateSegmentSize, 1}} {
			if c.on {
				user += c.n
			}
		}
		user += int(d.KernargPreloadSpecLength)
		if int(d.Rsrc2.UserSGPRCount) < user {
			fail("USER_SGPR_COUNT %d is less than the %d user SGPRs kernel_code_properties enables", d.Rsrc2.UserSGPRCount, user)
		}
		if hasAccumOffset(proc) {
			// .vgpr_count is the unified total: architected VGPRs rounded
			// up to 4, then the AGPRs. ACCUM_OFFSET marks where AGPRs start.
			arch := m.VGPRCount
			if m.AGPRCount > 0 && arch >= m.AGPRCount {
				arch -= m.AGPRCount
			}
			if want := alignUp(max(arch, 1), 4)/4 - 1; uint64(d.Rsrc3.AccumOffset) != want {
				fail("ACCUM_OFFSET %d, want %d for %d VGPRs and %d AGPRs", d.Rsrc3.AccumOffset, want, m.VGPRCount, m.AGPRCount)
			}
		}
		checkGranules(fail, d.Rsrc1, proc, m.SGPRCount, m.VGPRCount, m.AGPRCount, wave)
		if sg := d.Rsrc1.SGPRs(proc); sg > 0 {
			if uses := d.InitialSGPRs(); len(uses) > 0 {
				if last := uses[len(uses)-1]; last.First+last.Count > sg {
					fail("initial SGPRs reach s%d, beyond the %d allocated", last.First+last.Count-1, sg)
				}
			}
		}
	default:
		fail("no kernel descriptor")
	}
	return bad
}

// checkGranules checks that the granulated register counts of
// COMPUTE_PGM_RSRC1 cover the metadata's counts. They may allocate more:
// LLVM rounds up to what the kernel's waves-per-EU bounds imply.
func checkGranules(fail func(string, ...any), r ComputePgmRsrc1, proc string, sgprs, vgprs, agprs, wave uint64) {
	major := GFXMajor(proc)
	if major < 6 || major > 11 {
		return
	}
	need := max(vgprs, agprs) // gfx908: separate AGPR file of the same size
	if hasAccumOffset(proc) {
		need = vgprs // unified file; .vgpr_count counts both (checked against ACCUM_OFFSET)
	}
	if got := uint64(r.VGPRs(proc, wave == 32)); got < need {
		fail("GRANULATED_WORKITEM_VGPR_COUNT %d gives %d VGPRs, metadata needs %d (vgpr %d agpr %d)", r.GranulatedWorkitemVGPRCount, got, need, vgprs, agprs)
	}
	if major >= 10 {
		return
	}
	if sg := uint64(r.SGPRs(proc)); sg < sgprs {
		fail("GRANULATED_WAVEFRONT_SGPR_COUNT %d gives %d SGPRs, metadata has %d", r.GranulatedWavefrontSGPRCount, sg, sgprs)
	}
}

// InitialSGPRs lists the SGPRs the kernel's waves start with, from its
// descriptor (v3+) or amd_kernel_code_t (v2).
func (k *Kernel) InitialSGPRs() []RegUse {
	switch {
	case k.Descriptor != nil:
		return k.Descriptor.InitialSGPRs()
	case k.CodeT != nil:
		return k.CodeT.InitialSGPRs()
	}
	return nil
}

// InitialVGPRs lists the VGPRs the kernel's waves start with on proc.
func (k *Kernel) InitialVGPRs(proc string) []RegUse {
	switch {
	case k.Descriptor != nil:
		return InitialVGPRs(k.Descriptor.Rsrc2, proc)
	case k.CodeT != nil:
		return InitialVGPRs(k.CodeT.Rsrc2, proc)
	}
	return nil
}

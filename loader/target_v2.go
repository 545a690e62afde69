package loader

import "fmt"

// Code objects v2 from older toolchains may name an R600-era chip in
// e_flags (EF_AMDGPU_MACH 0x2, r630) while their NT_AMD_HSA_ISA_VERSION
// note names the GCN processor they were built for; the runtimes of that
// era took the note. v2Processor resolves such files the same way.

// v2Processor returns the processor named by the file's
// NT_AMD_HSA_ISA_VERSION note ("gfx803" for 8.0.3) and its Mach. ok is
// false when the file has no such note.
func (f *File) v2Processor() (proc string, m Mach, ok bool, err error) {
	notes, err := f.Notes()
	if err != nil {
		return "", 0, false, err
	}
	for _, n := range notes {
		if n.Name != "AMD" || n.Type != NT_AMD_HSA_ISA_VERSION {
			continue
		}
		if len(n.Desc) < 16 {
			return "", 0, false, nameErr(formatErr("NT_AMD_HSA_ISA_VERSION note", n.Off, "descriptor of %d bytes, want at least 16", len(n.Desc)), f.name)
		}
		major, minor, step := le.Uint32(n.Desc[4:]), le.Uint32(n.Desc[8:]), le.Uint32(n.Desc[12:])
		proc = isaVersionName(major, minor, step)
		m, known := MachByName(proc)
		if !known {
			return "", 0, false, nameErr(formatErr("NT_AMD_HSA_ISA_VERSION note", n.Off,
				"ISA version %d.%d.%d (%s) is no processor LLVM knows", major, minor, step, proc), f.name)
		}
		return proc, m, true, nil
	}
	return "", 0, false, nil
}

// isaVersionName spells an ISA version as LLVM's processor name: 8.0.3 is
// gfx803, 9.0.12 is gfx90c (the stepping is one hex digit).
func isaVersionName(major, minor, step uint32) string {
	return fmt.Sprintf("gfx%d%d%x", major, minor, step)
}

// preGCN reports whether m names an R600-family chip (or none): e_flags
// that a v2 code object's ISA note overrides.
func (m Mach) preGCN() bool { return m < 0x20 }

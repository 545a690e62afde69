package loader

import (
	"fmt"
	"slices"
)

// ld.lld links one NT_AMDGPU_METADATA note per input object into the
// code object; llvm-readelf and llvm-objdump read each. Their kernels
// belong together, so mergeMetadata joins them: the kernel lists are
// concatenated, printf formats joined without repeats, and the other
// top-level keys must agree.

// mergeMetadata adds the metadata next, from the note at file offset off,
// to m, whose first note is at offset first.
func mergeMetadata(m *Metadata, first int64, next *Metadata, off int64) error {
	conflict := func(key string, have, want any) error {
		return formatErr("NT_AMDGPU_METADATA note", off,
			"%s is %v here but %v in the note at offset %#x; linked objects must agree", key, want, have, first)
	}
	if m.Version != next.Version {
		return conflict("amdhsa.version", versionString(m.Version), versionString(next.Version))
	}
	if m.Target != next.Target {
		return conflict("amdhsa.target", fmt.Sprintf("%q", m.Target), fmt.Sprintf("%q", next.Target))
	}
	for _, k := range next.Kernels {
		if m.Kernel(k.Name) != nil {
			return formatErr("NT_AMDGPU_METADATA note", off, "kernel %q is also described by the note at offset %#x", k.Name, first)
		}
		m.Kernels = append(m.Kernels, k)
	}
	for _, p := range next.Printf {
		if !slices.Contains(m.Printf, p) {
			m.Printf = append(m.Printf, p)
		}
	}
	return nil
}

func versionString(v [2]uint64) string { return fmt.Sprintf("%d.%d", v[0], v[1]) }

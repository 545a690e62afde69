// Package loader reads AMDGPU code objects: our own ELF64 reader (headers,
// sections, segments, symbols, notes, relocations, dynamic entries), the
// AMDGPU views on top of it (target, code object version, metadata notes,
// kernel descriptors) and the containers that carry code objects (clang
// offload bundles, compressed bundles, .hip_fatbin sections of host ELFs).
//
// It knows nothing about instructions; package isa decodes the bytes it finds.
package loader

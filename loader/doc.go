// Package loader reads AMDGPU code objects: our own ELF64 reader (headers,
// sections, segments, symbols, notes, relocations, dynamic entries), the
// AMDGPU views on top of it (target, code object version, metadata notes,
// kernel descriptors) and the containers that carry code objects (clang
// offload bundles, compressed bundles, .hip_fatbin sections of host ELFs).
//
// It knows nothing about instructions; package isa decodes the bytes it finds.
//
// # One call
//
// Load opens any supported file, picks a code object and decodes it:
//
//	co, err := loader.Load("k.hsaco", loader.LoadOptions{Target: "gfx900"})
//	if err != nil { ... }
//	defer co.Close()
//	for i := range co.Kernels {
//		k := &co.Kernels[i]
//		code, _ := co.Code(k)   // machine code from k.Entry
//		_ = k.Meta.Args        // argument layout from the metadata
//		_ = k.Descriptor.Rsrc1 // COMPUTE_PGM_RSRC1, decoded
//	}
//
// LoadOptions.Target is a processor ("gfx906"), a target ID
// ("gfx90a:xnack+") or a bundle entry ID; empty picks the first GCN
// (GFX6–GFX9, CDNA) code object. co.Text is the .text section; co.Target,
// co.Version and co.Metadata describe the whole code object.
//
// # Pieces
//
//   - Open / NewFile: the ELF reader (File, Section.Data, Symbols,
//     DynamicSymbols, Notes, Relocations, Dynamic), checked like debug/elf.
//   - File.Target, File.CodeObjectVersion: e_flags and EI_OSABI/EI_ABIVERSION.
//   - File.Metadata: NT_AMDGPU_METADATA (MessagePack, v3+) or the v2 notes
//     (YAML), as Metadata/KernelMeta/Arg with v3+ names.
//   - File.Kernels: each kernel's metadata, KernelDescriptor (v3+) or
//     AMDKernelCode (v2), entry address and code size; Kernel.Check compares
//     descriptor and metadata.
//   - OpenContainer / NewContainer: a Container's BundleEntry list for a
//     plain code object, a bundle, a CCOB bundle (zlib or zstd, header v1
//     to v3) or a host ELF's .hip_fatbin; Container.Select, BundleEntry.Load.
//   - WriteBundle / CompressBundle: writers for tests (Debian has no
//     clang-offload-bundler).
//
// # Errors and hostile input
//
// Every structural problem is a *FormatError naming the structure and its
// byte offset; Open, OpenContainer and Load set its File (for bundle
// entries "FILE[entry ID]"). Offsets and sizes are checked against the file
// before reading; reads whose size comes from the file are made in 1 MiB
// chunks, so a header claiming 2^63 bytes fails at the end of the file
// instead of allocating. Counts (sections, symbols, bundle entries,
// MessagePack arrays and maps) are checked against the bytes that could
// hold them. A compressed bundle may declare at most 256 times its
// compressed size. Nothing is followed recursively except MessagePack
// nesting, which is limited to 64 levels; a fat binary scan always moves
// forward.
//
// # Decisions
//
//   - Code object v2 e_flags: AMDGPUUsage gives v2 its own xnack bit (0x1),
//     but LLVM writes the v3 bit (0x100) and llvm-readelf reads it; both
//     are accepted.
//   - v2 metadata records no argument offsets; they are laid out from each
//     argument's Size and Align, which matches v4 of the same kernels.
//   - The CCOB hash (truncated MD5) is written by CompressBundle but not
//     checked when reading: a mismatch cannot be repaired, and the sizes
//     are checked.
//   - In an ET_REL object the descriptor's entry offset is a relocation;
//     Kernel.Entry is then the offset of the code in its section.
//   - The granulated register counts of COMPUTE_PGM_RSRC1 may exceed the
//     metadata's counts (LLVM rounds up for occupancy), so Check only
//     requires them to cover the counts. On gfx90a .vgpr_count is the
//     unified total and ACCUM_OFFSET must match its architected part.
package loader

// Package manifest defines the JSON run manifest: one kernel launch with its
// sizes and every argument's contents, written down so that wavedbg and
// another OpenCL implementation (the PoCL runner in emu/testdata/cl) run the
// same kernel on the same inputs and their outputs can be compared.
//
// A manifest is a JSON object:
//
//	{
//	  "version": 2,                   // format version (optional; 1 or 2, see below)
//	  "source":  "int_alu.cl",        // OpenCL C source, for other implementations (optional)
//	  "options": "-cl-std=CL1.2",     // build options for that source (optional)
//	  "kernel":  "int_alu",           // kernel name (optional when the code object has one kernel)
//	  "grid":    [1024],              // global size in work-items, 1 to 3 dimensions
//	  "block":   [64],                // work-group size, as many dimensions as grid
//	  "offset":  [0],                 // global offset (optional; zeros)
//	  "args": [                       // one entry per kernel argument, in order
//	    {"name": "a", "kind": "buffer", "type": "int", "size": 4096, "fill": "random:1"},
//	    {"name": "b", "kind": "buffer", "type": "int", "size": 4096, "input": "b.bin"},
//	    {"name": "o", "kind": "buffer", "type": "int", "size": 65536, "fill": "zero", "output": "o.bin"},
//	    {"name": "n", "kind": "scalar", "type": "uint", "value": 48},
//	    {"name": "p", "kind": "struct", "fields": [{"type": "int", "value": 3}, {"type": "float", "value": 0.5}]},
//	    {"name": "t", "kind": "local", "size": 1024}
//	  ]
//	}
//
// Sizes: grid is the total number of work-items per dimension (OpenCL's
// global_work_size, HSA's grid size), not a number of work-groups. The grid
// need not be a multiple of the block: as HSA AQL allows (and OpenCL 2.0's
// non-uniform work-groups), the last work-group in a dimension then holds
// the rest, its waves run with fewer EXEC lanes, and the kernel learns its
// size from the dispatch packet (code object v4) or the hidden block count,
// group size and remainder arguments (v5). A block holds at most MaxBlock
// work-items; every grid dimension is at most MaxGrid
// (2^32-1) and, plus its offset, at most 2^32.
//
// Bounds: Load reads at most MaxManifest bytes; an input file is read to
// its buffer's declared size and one byte more, to refuse a longer file or
// an endless stream; one buffer holds at most MaxBuffer bytes, a struct
// MaxStruct; CheckBudget bounds the total the buffers need (Footprint)
// before any is made or read.
//
// Validate checks a manifest on its own. Against a kernel, Check matches it to
// the kernel's metadata (argument count, kinds and by-value sizes, the
// kernel's work-group size limits, LDS), and Launch turns it into the
// kernel's emu.Launch; wavedbg run and trace, the debugger and the samples'
// tests all launch through it, so they refuse a misfit with the same words.
//
// Argument kinds:
//   - "buffer": a global or constant memory buffer of "size" bytes (a whole
//     number of "type" elements), initialised from "input" (a file of exactly
//     "size" bytes, relative to the manifest) or by "fill" (a pattern below; zero
//     when neither is given). With "output", the buffer's final contents are
//     written to that file (a path inside the output directory, which no
//     ".." element may leave). "ulp" (at least 0) bounds the
//     difference, in units in the last place, accepted when comparing a float
//     output between implementations (0: bit for bit).
//     Placement (version 2): "offset" N makes the argument point N bytes into
//     its buffer; "address" (a decimal or 0x hex string) places the buffer at
//     a fixed device address (a multiple of FixedAlign, outside the first
//     page, below 2^48, overlapping no other buffer or the code object);
//     "pointers" lists relocations, {"at": AT, "to": NAME, "offset": OFF}:
//     once every buffer is placed, the device address of buffer argument
//     NAME plus OFF is written as 8 little-endian bytes at byte AT (a
//     multiple of 8) of this buffer, over its initial contents. A buffer
//     argument with "buffer": NAME instead of a size is an alias: it points
//     ("offset" bytes) into the buffer of the argument named NAME, and has
//     no contents, input or output of its own.
//   - "null": a null global pointer (takes only a name).
//   - "scalar": a by-value argument of "type" with "value" (a JSON number, or a
//     string holding a decimal or 0x-prefixed hexadecimal integer for 64-bit
//     values that a JSON number cannot hold exactly). Without "type" (version
//     2), the value is parsed as the type the kernel's metadata declares: 3
//     given to a float is 3.0f, to a double 3.0, to a half 0x4200; a fraction
//     given to an integer is an error naming the argument, as is a type that
//     disagrees with the kernel's in kind (int for float, float for double).
//   - "struct": a by-value struct of "fields", each a type and value, laid out
//     with natural alignment and padded to its largest field's alignment, as
//     OpenCL C lays out a struct of those members.
//   - "local": a __local pointer argument: "size" bytes of dynamic LDS.
//
// Types: char, uchar, short, ushort, int, uint, long, ulong, half, float,
// double. Vector buffers (int4, float4, ...) are described by their element
// type. All data is little-endian.
//
// Fill patterns (element i of the buffer, in its type):
//   - "zero": all bytes 0.
//   - "const:V": every element V (integer types: decimal or 0x hex, negative
//     allowed; float types: a decimal number).
//   - "iota" or "iota:START:STEP": START + i*STEP (defaults 0 and 1); integers
//     wrap to the type's width; floats are computed in double and rounded.
//   - "random:SEED": xorshift64* seeded with SEED (0 is replaced by
//     0x9E3779B97F4A7C15); each element takes the next 64-bit output r.
//     Integers keep r's low bytes; float and half take (int(r>>40)-2^23)/2^23,
//     double (int(r>>11)-2^52)/2^52, both exactly in [-1, 1).
//   - "random:SEED:LO:HI": integers LO + r mod (HI-LO+1), so in [LO, HI];
//     floats LO + (HI-LO)*u with u = (r>>11)/2^53 in [0, 1), computed in double
//     and rounded once to the type.
//
// Versions: 1 is the format above without the features marked version 2.
// Version 2 adds a kernel name taken from a code object with one kernel,
// grids that are not a multiple of the block, untyped scalars, the "null"
// kind, and buffer placement ("offset", "buffer", "address", "pointers").
// A manifest without "version" is read as the current Version, and every
// version 1 manifest reads the same as before; a later version is refused.
// Marshal writes the current version. An example of each placement:
//
//	{"version": 2, "grid": [48], "block": [32], "args": [
//	  {"name": "buf", "kind": "buffer", "type": "uint", "size": 1024, "fill": "iota",
//	   "offset": 512, "address": "0x40000000", "output": "buf.bin"},
//	  {"name": "src", "kind": "buffer", "buffer": "buf"},
//	  {"name": "table", "kind": "buffer", "type": "ulong", "size": 16,
//	   "pointers": [{"at": 0, "to": "buf", "offset": 768}, {"at": 8, "to": "src"}]},
//	  {"kind": "null"},
//	  {"kind": "buffer", "type": "ulong", "size": 48}
//	]}
//
// Here (a launch of emu/testdata/cl/places.cl, two work-groups of 32 and
// 16 work-items) the first argument points 512 bytes into buf, placed at
// 0x40000000; the second at buf's start; table holds buf's address plus
// 768 and buf's address; the fourth is a null pointer.
package manifest

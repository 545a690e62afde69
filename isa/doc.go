// Package isa decodes and prints GCN instructions of the GFX8 and GFX9
// generations.
//
// Decode turns machine words into an Inst: an opcode, its encoding, its
// operands (kind, width, read or written, modifiers) and the facts the
// emulator and the UI need (instruction class, counters raised, branch
// behaviour), all taken from generated tables. Printing is separate and
// produces the same text as llvm-objdump. The package knows nothing of
// emulation state.
//
// Layout: decode.go holds the entry points (Decode, DecodeWith, TargetOf,
// FeaturesOf) and the table lookups; inst.go the decoded form; operand.go
// the operand helpers every family shares; print.go the printer. Each
// encoding family has its decoder and printer in its own files (scalar.go;
// valu.go, valu_vop3.go, valu_print.go; mem.go and mem_*.go), registered
// in decoders and printers; meminfo.go gives the memory-access facts of DS,
// buffer, flat and SMEM opcodes (Op.Mem), looked up by Op after decoding;
// opfacts.go the branch conditions of OpInfo and Op lookup by name;
// waitcnt.go each generation's s_waitcnt layout (WaitcntFields,
// WaitcntImm). Code outside the package reads these facts, never the
// mnemonics. tables.go is generated from tables/*.txt by internal/gen (see
// tables/README.md); internal/harvest distils those rows from LLVM 19.
package isa

// Package isa decodes and prints GCN instructions of the GFX8 and GFX9
// generations.
//
// Decode turns machine words into an Inst: an opcode, its encoding, its
// operands (kind, width, read or written, modifiers) and the facts the
// emulator and the UI need (instruction class, counters raised, branch
// behaviour), all taken from generated tables. Printing is separate and
// produces the same text as llvm-objdump. The package knows nothing of
// emulation state.
package isa

// Package asm assembles a whole GCN assembly file, in LLVM's AMDGPU syntax,
// into a code object like the one llvm-mc-19 and ld.lld-15 build from it.
//
// The instructions themselves are encoded by isa.Assemble; this package
// handles everything around them: lines, comments, labels and .set
// symbols (two or more passes, so that forward branches resolve), the
// directives a kernel needs (.text, .rodata, .globl, .p2align, .long,
// .amdgcn_target, .amdhsa_code_object_version, .amdhsa_kernel … .end_amdhsa_kernel,
// .amdgpu_metadata … .end_amdgpu_metadata) and the linked ELF shared object.
//
// Layout: file.go holds the entry points and the passes; lex.go splits
// lines and statements; expr.go evaluates expressions; directives.go the
// directive table; kd.go the kernel descriptor; yaml.go and msgpack.go the
// metadata note; metagen.go the metadata made when a file has none; elf.go
// the code-object writer; target.go the target ID and ELF header flags.
package asm

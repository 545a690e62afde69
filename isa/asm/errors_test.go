package asm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// errorCases are files llvm-mc-19 rejects, with the first error it prints
// (for gfx900); ours may add ": detail" to llvm-mc's message. llvmDiffers
// marks where llvm-mc's text differs (LLVM crashes, or reports at link
// time what we report at once).
var errorCases = []struct {
	name, src, want string
	llvmDiffers     bool
}{
	{"unknown directive", ".text\n.foo 1\n", "2:1: error: unknown directive", false},
	{"label redefined", "a:\na:\n", "2:1: error: symbol 'a' is already defined", false},
	{"undefined branch label", ".text\n s_branch .Lnowhere\n", "2:2: error: undefined label '.Lnowhere'", false},
	{"target mismatch", ".amdgcn_target \"amdgcn-amd-amdhsa--gfx906\"\n",
		"1:16: error: .amdgcn_target directive's target id amdgcn-amd-amdhsa--gfx906 does not match the specified target id amdgcn-amd-amdhsa--gfx900", false},
	{"p2align too big", ".p2align 33\n", "1:10: error: invalid alignment value", false},
	{"byte out of range", ".text\n.byte 256\n", "2:7: error: out of range literal value", false},
	{"expression cut short", ".text\n.long 1+\n", "2:9: error: unknown token in expression", false},
	{"equiv twice", ".equiv a, 1\n.equiv a, 2\n", "2:11: error: redefinition of 'a'", false},
	{"bad symbol type", ".type f,@bogus\n", "1:10: error: unsupported attribute", false},
	{"unterminated string", ".ascii \"abc\n", "1:8: error: expected string", false},
	{"missing comma", ".globl a b\n", "1:10: error: unexpected token", false},
	{"kernel without name", ".amdhsa_kernel\n", "1:1: error: unknown directive", false},
	{"kernel unterminated", ".rodata\n.amdhsa_kernel k\n.amdhsa_next_free_vgpr 1\n", "4:1: error: expected .amdhsa_ directive or .end_amdhsa_kernel", false},
	{"kernel unknown field", ".amdhsa_kernel k\n  .amdhsa_bogus 1\n.end_amdhsa_kernel\n", "2:3: error: unknown .amdhsa_kernel directive", false},
	{"kernel instruction", ".amdhsa_kernel k\n  s_nop 0\n.end_amdhsa_kernel\n", "2:3: error: unknown .amdhsa_kernel directive", false},
	{"kernel gfx10 field", ".amdhsa_kernel k\n  .amdhsa_wavefront_size32 1\n.end_amdhsa_kernel\n", "2:3: error: directive requires gfx10+", false},
	{"kernel gfx90a field", ".amdhsa_kernel k\n  .amdhsa_accum_offset 4\n.end_amdhsa_kernel\n", "2:3: error: directive requires gfx90a+", false},
	{"kernel xnack mismatch", ".amdhsa_kernel k\n  .amdhsa_reserve_xnack_mask 0\n.end_amdhsa_kernel\n", "2:3: error: .amdhsa_reserve_xnack_mask does not match target id", false},
	{"kernel field range", ".amdhsa_kernel k\n  .amdhsa_system_vgpr_workitem_id 4\n.end_amdhsa_kernel\n", "2:35: error: value out of range", false},
	{"kernel bool range", ".amdhsa_kernel k\n  .amdhsa_reserve_vcc 2\n.end_amdhsa_kernel\n", "2:23: error: value out of range", false},
	{"kernel repeated", ".amdhsa_kernel k\n.amdhsa_kernarg_size 8\n.amdhsa_kernarg_size 8\n.end_amdhsa_kernel\n", "3:22: error: .amdhsa_ directives cannot be repeated", false},
	{"kernel no vgpr count", ".amdhsa_kernel k\n.amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n", "3:19: error: .amdhsa_next_free_vgpr directive is required", false},
	{"kernel no sgpr count", ".amdhsa_kernel k\n.amdhsa_next_free_vgpr 1\n.end_amdhsa_kernel\n", "3:19: error: .amdhsa_next_free_sgpr directive is required", false},
	{"kernel vgprs", ".amdhsa_kernel k\n.amdhsa_next_free_vgpr 257\n.amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n", "2:24: error: value out of range", false},
	{"kernel sgprs", ".amdhsa_kernel k\n.amdhsa_next_free_vgpr 1\n.amdhsa_next_free_sgpr 103\n.end_amdhsa_kernel\n", "3:24: error: value out of range", false},
	{"kernel user sgprs", ".amdhsa_kernel k\n.amdhsa_next_free_vgpr 1\n.amdhsa_next_free_sgpr 1\n.amdhsa_user_sgpr_count 33\n.end_amdhsa_kernel\n", "5:19: error: too many user SGPRs enabled", false},
	{"kernel user sgprs implied", ".amdhsa_kernel k\n.amdhsa_next_free_vgpr 1\n.amdhsa_next_free_sgpr 1\n.amdhsa_user_sgpr_count 1\n.amdhsa_user_sgpr_dispatch_ptr 1\n.end_amdhsa_kernel\n",
		"6:19: error: amdgpu_user_sgpr_count smaller than than implied by enabled user SGPRs", false},
	{"metadata unterminated", ".amdgpu_metadata\n---\n", "3:1: error: expected directive .end_amdgpu_metadata not found", false},
	{"metadata bad yaml", ".amdgpu_metadata\n---\namdhsa.version: [ 1,\n...\n.end_amdgpu_metadata\n", "5:21: error: invalid HSA metadata: line 3: unexpected end of flow collection", true},
	{"metadata without kernels", ".amdgpu_metadata\n---\namdhsa.version: [1, 1]\n...\n.end_amdgpu_metadata\n", "5:21: error: invalid HSA metadata: amdhsa.kernels is missing", false},
	{"metadata kernel fields", ".amdgpu_metadata\n---\namdhsa.version: [1, 1]\namdhsa.kernels:\n  - .name: k\n...\n.end_amdgpu_metadata\n", "7:21: error: invalid HSA metadata: amdhsa.kernels: [0]: .symbol is missing", false},
	{"metadata name typed bool", ".amdgpu_metadata\n---\namdhsa.version: [1, 1]\namdhsa.kernels:\n  - { .name: 'n', .symbol: n.kd }\n...\n.end_amdgpu_metadata\n", "7:21: error: invalid HSA metadata: amdhsa.kernels: [0]: .name: want a string, have a boolean", false},
	{"code object v3", ".amdhsa_code_object_version 3\n", "1:29: error: code object version 3 is not supported: want 4, 5 or 6", true},
	{"kernel without code", ".rodata\n.amdhsa_kernel k\n.amdhsa_next_free_vgpr 1\n.amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n",
		"2:16: error: undefined symbol 'k': the kernel's code needs a label", true},
	{"data in .data", ".data\n.long 1\n", "2:7: error: section '.data' cannot hold data here: only .text and .rodata go into the code object", true},
}

// TestAssemblyErrors checks file:line:col and message of each error case,
// and (live) that llvm-mc-19 rejects the file with the same first line.
func TestAssemblyErrors(t *testing.T) {
	mc := oracle(t, "llvm-mc-19")
	dir := t.TempDir()
	for _, c := range errorCases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Assemble("e.s", []byte(c.src), Options{Target: "gfx900"})
			el, ok := err.(ErrorList)
			if !ok || len(el) == 0 {
				t.Fatalf("got %v, want an ErrorList", err)
			}
			if got, want := el[0].Error(), "e.s:"+c.want; got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
			if mc == "" {
				return
			}
			path := filepath.Join(dir, "e.s")
			if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, err := run(t, nil, mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=gfx900", "-filetype=obj", path, "-o", os.DevNull)
			llvm := strings.Replace(firstLine(stderr), path+":", "", 1)
			if !c.llvmDiffers && (err == nil || llvm != c.want && !strings.HasPrefix(c.want, llvm+": ")) {
				t.Errorf("llvm-mc-19 says %q, want %q", llvm, c.want)
			}
		})
	}
}

// TestErrorCaret: the caret form repeats the line and points at the
// column, tabs kept.
func TestErrorCaret(t *testing.T) {
	_, err := Assemble("k.s", []byte("\t.text\n\t.foo\n"), Options{Target: "gfx900"})
	want := "k.s:2:2: error: unknown directive\n\t.foo\n\t^\n"
	if el, ok := err.(ErrorList); !ok || el.Caret() != want {
		t.Errorf("got %q, want %q", err, want)
	}
}

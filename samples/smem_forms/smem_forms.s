; smem_forms: the four SMEM address forms (IMM, SGPR offset, SOE with an
; immediate, M0), the dropped low address bits and GFX9's signed offset.
; table[i] holds its own byte offset plus 0xc0de0000, so every loaded SGPR
; names the address it came from. Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	smem_forms
	.p2align	8
	.type	smem_forms,@function
smem_forms:
	s_load_dwordx2 s[4:5], s[0:1], 0x0       ; s[4:5] = table (kernarg 0)
	s_waitcnt lgkmcnt(0)
	; IMM=1 SOE=0: ADDR = base + inst_offset
	s_load_dword s8, s[4:5], 0x10            ; table+0x10
	; IMM=0 SOE=0: ADDR = base + SGPR[offset]
	s_mov_b32 s20, 0x14
	s_load_dword s9, s[4:5], s20             ; table+0x14
	; IMM=1 SOE=1: ADDR = base + inst_offset + SGPR[soffset]
	s_load_dword s10, s[4:5], s20 offset:0x8 ; table+0x1c
	; IMM=0 with M0 as the offset register
	s_mov_b32 m0, 0x20
	s_load_dword s11, s[4:5], m0             ; table+0x20
	s_waitcnt lgkmcnt(0)
	; the low two bits of the address are ignored
	s_load_dword s12, s[4:5], 0x13           ; table+0x13 -> table+0x10
	s_mov_b32 s21, 0x17
	s_load_dword s13, s[4:5], s21            ; table+0x17 -> table+0x14
	; both offsets unaligned: 0x11 + 0x3 is 0x14 if the bits are dropped
	; after the sum, 0x10 + 0x0 if each component loses them (see README)
	s_mov_b32 s22, 0x3
	s_load_dword s17, s[4:5], s22 offset:0x11
	; GFX9 S_LOAD takes a signed 21-bit immediate
	s_add_u32 s14, s4, 0x40
	s_addc_u32 s15, s5, 0
	s_load_dword s16, s[14:15], -0x4         ; table+0x40-4 = table+0x3c
	; a multi-dword load fills consecutive SGPRs from consecutive addresses
	s_load_dwordx4 s[24:27], s[4:5], 0x30    ; table+0x30 .. table+0x3c
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lsmem_forms_end:
	.size	smem_forms, .Lsmem_forms_end-smem_forms

	.rodata
	.p2align	6
	.amdhsa_kernel smem_forms
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 28
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: smem_forms
    .symbol: smem_forms.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 28
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
    .args:
      - { .name: table, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global, .is_const: true }
...
	.end_amdgpu_metadata

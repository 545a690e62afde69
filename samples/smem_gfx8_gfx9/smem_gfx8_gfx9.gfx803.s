; smem_gfx8_gfx9: what changed in scalar memory from GFX8 to GFX9. One
; program, built twice: smem_gfx8_gfx9.s for gfx900 (GFX9), this file for
; gfx803 (GFX8). Line for line the two assemble to the same machine words
; (but s_waitcnt: GFX9 widened VM_CNT, whose high bits sit at [15:14]),
; except what GFX8 does not have: it spells GFX9's SOE and
; signed-offset loads as their gfx900 words (.long) to show how GFX8 decodes
; them, and leaves out s_dcache_discard and the scalar atomics.
; table[i] holds 0xc0de0000 + 4*i, so every loaded SGPR names the byte
; offset it came from. Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx803"
	.text
	.globl	smem_gfx8_gfx9
	.p2align	8
	.type	smem_gfx8_gfx9,@function
smem_gfx8_gfx9:
	s_load_dwordx2 s[4:5], s[0:1], 0x0       ; s[4:5] = table (kernarg 0)
	s_movk_i32 s20, 0x14
	s_waitcnt lgkmcnt(0)
	; the forms both generations have: the same words
	s_load_dword s8, s[4:5], 0x10            ; IMM=1: table+0x10
	s_load_dword s9, s[4:5], s20             ; IMM=0: table+SGPR (0x14)
	; gfx900's s_load_dword s10, s[4:5], s20 offset:0x8 (SOE=1): GFX8 has no
	; SOE bit and no SOFFSET field, and reads s_load_dword s10, s[4:5], 0x8
	.long 0xc0024282, 0x28000008             ; table+0x8
	s_add_u32 s14, s4, 0x40
	s_addc_u32 s15, s5, 0                    ; s[14:15] = table+0x40
	; gfx900's s_load_dword s16, s[14:15], -0x4: OFFSET is unsigned and
	; 20 bits on GFX8, so it reads s_load_dword s16, s[14:15], 0xffffc
	.long 0xc0020407, 0x001ffffc             ; table+0x10003c
	s_waitcnt lgkmcnt(0)
	; trap temporaries: scalar operand 112 and 108
	s_mov_b32 s11, ttmp0                     ; 112 (gfx900: ttmp4)
	s_mov_b32 s12, tba_lo                    ; 108 (gfx900: ttmp0)
	; a dirty scalar-cache line; GFX8 has no s_dcache_discard
	s_movk_i32 s17, 0x5ca1
	s_store_dword s17, s[4:5], 0x80          ; line table+0x80, dirty
	s_waitcnt lgkmcnt(0)
	s_dcache_wb                              ; writes 0x5ca1 back
	s_waitcnt lgkmcnt(0)
	s_load_dword s18, s[4:5], 0x80 glc       ; memory: 0x5ca1
	s_waitcnt lgkmcnt(0)
	; GFX8 has no scalar atomics (llvm-mc-19 for gfx803: "instruction not
	; supported on this GPU")
	s_endpgm
.Lsmem_gfx8_gfx9_end:
	.size	smem_gfx8_gfx9, .Lsmem_gfx8_gfx9_end-smem_gfx8_gfx9

	.rodata
	.p2align	6
	.amdhsa_kernel smem_gfx8_gfx9
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 21
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: smem_gfx8_gfx9
    .symbol: smem_gfx8_gfx9.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 21
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
    .args:
      - { .name: table, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

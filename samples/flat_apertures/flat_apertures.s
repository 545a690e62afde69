; flat_apertures: one flat_load_dword reads LDS in lanes 0-15, private
; memory in lanes 16-31 and global memory in lanes 32-63, chosen by the
; high dword of each lane's 64-bit address; one flat_store_dword writes
; back through the same three apertures. src_shared_base and
; src_private_base are the high dwords of the LDS and private apertures.
; Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	flat_apertures
	.p2align	8
	.type	flat_apertures,@function
flat_apertures:
	s_load_dwordx4 s[8:11], s[0:1], 0x0      ; s[8:9] = src, s[10:11] = dst
	s_add_u32 flat_scratch_lo, s2, s5        ; FLAT_SCRATCH = backing + wave offset
	s_addc_u32 flat_scratch_hi, s3, 0
	v_lshlrev_b32 v1, 2, v0                  ; v1 = lane*4
	; a value of its own in each memory
	v_or_b32 v2, 0x1d500000, v0
	ds_write_b32 v1, v2                      ; LDS[4*lane] = 0x1d500000 + lane
	v_or_b32 v3, 0x5c000000, v0
	v_mov_b32 v4, 0
	scratch_store_dword v4, v3, off          ; private offset 0 = 0x5c000000 + lane
	; the flat address of each lane
	s_mov_b32 s12, src_shared_base
	s_mov_b32 s13, src_private_base
	s_waitcnt lgkmcnt(0)
	v_mov_b32 v6, s12                        ; lanes 0-15: {src_shared_base, 4*lane}
	v_mov_b32 v5, v1
	v_cmp_le_u32 vcc, 16, v0                 ; lanes 16-63
	v_mov_b32 v7, s13
	v_cndmask_b32 v6, v6, v7, vcc            ; lanes 16-31: {src_private_base, 0}
	v_cndmask_b32 v5, v5, 0, vcc
	v_add_co_u32 v8, vcc, s8, v1             ; lanes 32-63: src + 4*lane
	v_mov_b32 v9, s9
	v_addc_co_u32 v9, vcc, 0, v9, vcc
	v_cmp_le_u32 s[14:15], 32, v0            ; lanes 32-63
	v_cndmask_b32 v5, v5, v8, s[14:15]
	v_cndmask_b32 v6, v6, v9, s[14:15]
	s_waitcnt vmcnt(0)
	flat_load_dword v10, v[5:6]              ; one instruction, three apertures
	s_waitcnt vmcnt(0) lgkmcnt(0)
	v_not_b32 v11, v10
	flat_store_dword v[5:6], v11             ; and back, inverted
	s_waitcnt vmcnt(0) lgkmcnt(0)
	ds_read_b32 v12, v1                      ; LDS[4*lane] after the store
	scratch_load_dword v13, v4, off          ; private offset 0 after the store
	s_waitcnt vmcnt(0) lgkmcnt(0)
	global_store_dword v1, v10, s[10:11]
	global_store_dword v1, v12, s[10:11] offset:256
	global_store_dword v1, v13, s[10:11] offset:512
	s_endpgm
.Lflat_apertures_end:
	.size	flat_apertures, .Lflat_apertures_end-flat_apertures

	.rodata
	.p2align	6
	.amdhsa_kernel flat_apertures
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_flat_scratch_init 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_private_segment_wavefront_offset 1
		.amdhsa_private_segment_fixed_size 4
		.amdhsa_group_segment_fixed_size 256
		.amdhsa_kernarg_size 16
		.amdhsa_next_free_vgpr 14
		.amdhsa_next_free_sgpr 16
		.amdhsa_system_vgpr_workitem_id 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: flat_apertures
    .symbol: flat_apertures.kd
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 4
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 22
    .vgpr_count: 14
    .max_flat_workgroup_size: 64
    .args:
      - { .name: src, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
      - { .name: dst, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

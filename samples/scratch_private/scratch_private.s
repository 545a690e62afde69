; scratch_private: each lane keeps a private array a[4] in scratch memory.
; The packet processor hands the kernel the private segment buffer V#
; (s[0:3]), the scratch backing address for FLAT_SCRATCH (s[6:7]) and the
; wave's offset into the backing memory (s9). The kernel writes a[0..3]
; with buffer stores through the V#, reads a[2] back with scratch_load
; through FLAT_SCRATCH and a[3] with a buffer load, and stores both to dst.
; Consecutive lanes' a[k] are consecutive dwords: the V# is swizzled.
; Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	scratch_private
	.p2align	8
	.type	scratch_private,@function
scratch_private:
	s_load_dwordx2 s[10:11], s[4:5], 0x0     ; s[10:11] = dst
	s_add_u32 flat_scratch_lo, s6, s9        ; FLAT_SCRATCH = backing + wave offset
	s_addc_u32 flat_scratch_hi, s7, 0
	v_add_u32 v1, 0x1000, v0                 ; a[0] = 0x1000 + lane
	buffer_store_dword v1, off, s[0:3], s9   ; private offset 0
	v_add_u32 v2, 0x2000, v0                 ; a[1] = 0x2000 + lane
	buffer_store_dword v2, off, s[0:3], s9 offset:4
	v_add_u32 v3, 0x3000, v0                 ; a[2] = 0x3000 + lane
	buffer_store_dword v3, off, s[0:3], s9 offset:8
	v_add_u32 v4, 0x4000, v0                 ; a[3] = 0x4000 + lane
	buffer_store_dword v4, off, s[0:3], s9 offset:12
	v_mov_b32 v5, 8                          ; private offset of a[2], the same in every lane
	s_waitcnt vmcnt(0)
	scratch_load_dword v6, v5, off           ; v6 = a[2] through FLAT_SCRATCH
	v_lshlrev_b32 v8, 2, v0                  ; v8 = lane*4
	buffer_load_dword v7, off, s[0:3], s9 offset:12 ; v7 = a[3] through the V#
	s_waitcnt vmcnt(0) lgkmcnt(0)
	global_store_dword v8, v6, s[10:11]
	global_store_dword v8, v7, s[10:11] offset:256
	s_endpgm
.Lscratch_private_end:
	.size	scratch_private, .Lscratch_private_end-scratch_private

	.rodata
	.p2align	6
	.amdhsa_kernel scratch_private
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_flat_scratch_init 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_private_segment_wavefront_offset 1
		.amdhsa_private_segment_fixed_size 16
		.amdhsa_kernarg_size 8
		.amdhsa_next_free_vgpr 9
		.amdhsa_next_free_sgpr 12
		.amdhsa_reserve_vcc 0
		.amdhsa_system_vgpr_workitem_id 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: scratch_private
    .symbol: scratch_private.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 16
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 9
    .max_flat_workgroup_size: 64
    .args:
      - { .name: dst, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

; scale: buf[i] = buf[i] * factor + 2 for the first 32 lanes of one wave.
; The TUI's bundled sample; rebuild with ./build.sh.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	scale
	.p2align	8
	.type	scale,@function
scale:
	s_load_dwordx2 s[4:5], s[0:1], 0x0          ; buffer pointer
	s_load_dword s6, s[0:1], 0x8                 ; scale factor
	v_lshlrev_b32_e32 v1, 2, v0                  ; byte offset = lane * 4
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v2, s5
	v_add_co_u32_e32 v1, vcc, s4, v1
	v_addc_co_u32_e32 v2, vcc, 0, v2, vcc
	global_load_dword v3, v[1:2], off
	s_mov_b32 s7, 2                              ; loop counter
	v_cmp_gt_u32_e32 vcc, 32, v0                  ; lanes 0..31 only
	s_and_saveexec_b64 s[8:9], vcc
	s_cbranch_execz .Ldone
	s_waitcnt vmcnt(0)                           ; stalls until the load lands
	v_mul_lo_u32 v3, v3, s6
.Lloop:
	v_add_u32_e32 v3, 1, v3
	s_sub_u32 s7, s7, 1
	s_cmp_lg_u32 s7, 0
	s_cbranch_scc1 .Lloop
	global_store_dword v[1:2], v3, off
.Ldone:
	s_or_b64 exec, exec, s[8:9]
	s_endpgm
.Lfunc_end0:
	.size	scale, .Lfunc_end0-scale

	.rodata
	.p2align	6
	.amdhsa_kernel scale
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 16
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 10
		.amdhsa_system_vgpr_workitem_id 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 0 ]
amdhsa.kernels:
  - .name: scale
    .symbol: scale.kd
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 12
    .vgpr_count: 4
    .max_flat_workgroup_size: 256
    .args:
      - { .name: buf, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
      - { .name: factor, .size: 4, .offset: 8, .value_kind: by_value }
...
	.end_amdgpu_metadata

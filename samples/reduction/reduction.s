; reduction: each workgroup of 256 work-items (four waves) sums its 256
; inputs in LDS with a tree: 128 adds, 64, ..., 1, with s_barrier between the
; rounds so that no wave reads a partial sum before another wave wrote it.
; Work-item 0 writes out[group]. Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	reduction
	.p2align	8
	.type	reduction,@function
reduction:
	s_load_dwordx4 s[4:7], s[0:1], 0x0       ; s[4:5] = in, s[6:7] = out
	v_lshlrev_b32 v1, 2, v0                  ; v1 = local id * 4 (LDS address)
	s_lshl_b32 s8, s2, 10                    ; s2 = group id; group * 1024 bytes
	s_waitcnt lgkmcnt(0)
	s_add_u32 s4, s4, s8                     ; s[4:5] = this group's inputs
	s_addc_u32 s5, s5, 0
	global_load_dword v2, v1, s[4:5]
	s_waitcnt vmcnt(0)
	ds_write_b32 v1, v2                      ; LDS[lid] = in[group*256 + lid]
	s_movk_i32 s10, 128                      ; active work-items this round
	s_movk_i32 s9, 0x200                     ; their partner's distance in bytes
.Lround:
	s_waitcnt lgkmcnt(0)                     ; this wave's LDS writes are done
	s_barrier                                ; ...and every other wave's too
	v_cmp_gt_u32 vcc, s10, v0                ; lid < s10 adds
	s_and_saveexec_b64 s[12:13], vcc
	v_add_u32 v5, s9, v1
	ds_read_b32 v3, v1
	ds_read_b32 v4, v5
	s_waitcnt lgkmcnt(0)
	v_add_u32 v3, v3, v4
	ds_write_b32 v1, v3                      ; LDS[lid] += LDS[lid + s10]
	s_or_b64 exec, exec, s[12:13]
	s_lshr_b32 s9, s9, 1
	s_lshr_b32 s10, s10, 1
	s_cmp_lg_u32 s10, 0
	s_cbranch_scc1 .Lround
	; work-item 0 holds the sum in LDS[0]
	v_cmp_eq_u32 vcc, 0, v0
	s_and_saveexec_b64 s[12:13], vcc
	s_cbranch_execz .Ldone
	s_waitcnt lgkmcnt(0)
	ds_read_b32 v3, v1
	s_lshl_b32 s8, s2, 2
	v_mov_b32 v6, s8
	s_waitcnt lgkmcnt(0)
	global_store_dword v6, v3, s[6:7]        ; out[group] = sum
.Ldone:
	s_endpgm
.Lreduction_end:
	.size	reduction, .Lreduction_end-reduction

	.rodata
	.p2align	6
	.amdhsa_kernel reduction
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_kernarg_size 16
		.amdhsa_group_segment_fixed_size 1024
		.amdhsa_next_free_vgpr 7
		.amdhsa_next_free_sgpr 14
		.amdhsa_reserve_flat_scratch 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: reduction
    .symbol: reduction.kd
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 1024
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 7
    .max_flat_workgroup_size: 256
    .args:
      - { .name: in, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global, .is_const: true }
      - { .name: out, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

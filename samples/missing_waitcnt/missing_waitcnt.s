; missing_waitcnt: the classic bug. An SGPR is read before the scalar load
; that writes it has landed, because the s_waitcnt was forgotten. The
; debugger marks the read as a hazard; out[0] gets the stale value + 1,
; out[1] the right one. Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	missing_waitcnt
	.p2align	8
	.type	missing_waitcnt,@function
missing_waitcnt:
	s_load_dwordx4 s[4:7], s[0:1], 0x0       ; s[4:5] = in, s[6:7] = out
	s_waitcnt lgkmcnt(0)
	s_load_dword s8, s[4:5], 0x0             ; s8 = in[0], lands later
	; BUG: no s_waitcnt lgkmcnt(0) here
	s_add_u32 s9, s8, 1                      ; reads s8 before it lands
	s_waitcnt lgkmcnt(0)                     ; the wait that belongs above
	s_add_u32 s10, s8, 1                     ; reads the loaded value
	; lane 0 stores both results: out[0] = s9, out[1] = s10
	s_mov_b64 exec, 1
	v_mov_b32 v0, 0
	v_mov_b32 v1, s9
	v_mov_b32 v2, s10
	global_store_dwordx2 v0, v[1:2], s[6:7]
	s_endpgm
.Lmissing_waitcnt_end:
	.size	missing_waitcnt, .Lmissing_waitcnt_end-missing_waitcnt

	.rodata
	.p2align	6
	.amdhsa_kernel missing_waitcnt
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 16
		.amdhsa_next_free_vgpr 3
		.amdhsa_next_free_sgpr 11
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: missing_waitcnt
    .symbol: missing_waitcnt.kd
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 11
    .vgpr_count: 3
    .max_flat_workgroup_size: 64
    .args:
      - { .name: in, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global, .is_const: true }
      - { .name: out, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

; buffer_atomics: MUBUF atomics with and without GLC. With GLC the
; instruction returns the value memory held before the operation into its
; data VGPR; without GLC nothing comes back and the VGPR keeps its value.
; All 64 lanes hit one dword in each case, and each lane's operation is
; atomic: the dword ends up with all 64 applied. counters[] starts at 0.
; Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	buffer_atomics
	.p2align	8
	.type	buffer_atomics,@function
buffer_atomics:
	s_load_dwordx2 s[4:5], s[0:1], 0x0       ; s[4:5] = counters
	v_mov_b32 v1, 1                          ; every lane adds 1
	v_mov_b32 v2, v0                         ; lane i adds i
	v_add_u32 v3, 1, v0                      ; cmpswap: the new value, lane + 1
	v_mov_b32 v4, 0                          ; cmpswap: the value to compare with
	s_waitcnt lgkmcnt(0)
	; raw V# over counters: stride 0, num_records 16 bytes
	s_mov_b32 s8, s4
	s_and_b32 s9, s5, 0xffff
	s_movk_i32 s10, 0x10
	s_mov_b32 s11, 0x27fac
	; 1. with GLC: v1 gets the old value (a ticket per lane)
	buffer_atomic_add v1, off, s[8:11], 0 glc
	; 2. without GLC: nothing returns, v2 keeps lane
	buffer_atomic_add v2, off, s[8:11], 0 offset:4
	; 3. compare-and-swap with GLC: only the first lane finds 0
	buffer_atomic_cmpswap v[3:4], off, s[8:11], 0 offset:8 glc
	s_waitcnt vmcnt(0)
	s_endpgm
.Lbuffer_atomics_end:
	.size	buffer_atomics, .Lbuffer_atomics_end-buffer_atomics

	.rodata
	.p2align	6
	.amdhsa_kernel buffer_atomics
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_next_free_vgpr 5
		.amdhsa_next_free_sgpr 12
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_system_vgpr_workitem_id 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: buffer_atomics
    .symbol: buffer_atomics.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 12
    .vgpr_count: 5
    .max_flat_workgroup_size: 64
    .args:
      - { .name: counters, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

; lgkm_count: how SMEM instructions count on LGKM_CNT (+1 for one dword, +2
; for two or more, S_MEMTIME included) and why only lgkmcnt(0) is safe: a
; load that hits the scalar cache returns before an older one that misses.
; Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	lgkm_count
	.p2align	8
	.type	lgkm_count,@function
lgkm_count:
	s_load_dwordx2 s[4:5], s[0:1], 0x0       ; +2: table pointer
	s_waitcnt lgkmcnt(0)                     ; -> 0
	; counting
	s_load_dword s6, s[4:5], 0x0             ; +1 (one dword)       -> 1
	s_load_dwordx2 s[8:9], s[4:5], 0x8       ; +2 (two dwords)      -> 3
	s_load_dwordx4 s[12:15], s[4:5], 0x10    ; +2 (four dwords)     -> 5
	s_load_dwordx8 s[16:23], s[4:5], 0x20    ; +2 (eight dwords)    -> 7
	s_memtime s[24:25]                       ; +2 (S_MEMTIME too)   -> 9
	s_waitcnt lgkmcnt(0)                     ; wait for all of them -> 0
	; out-of-order return: table+0x0 is cached now, table+0x100 is not
	s_load_dword s26, s[4:5], 0x100          ; +1, misses (slow)    -> 1
	s_load_dwordx2 s[28:29], s[4:5], 0x8     ; +2, hits (fast)      -> 3
	; lgkmcnt(2) would mean "the first load is done" if loads returned in
	; order; the hit returns first, the count drops to 1, and the wait
	; passes while s26 is still in flight.
	s_waitcnt lgkmcnt(2)
	s_mov_b32 s30, s26                       ; reads s26 too early: hazard
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s31, s26                       ; correct
	s_endpgm
.Llgkm_count_end:
	.size	lgkm_count, .Llgkm_count_end-lgkm_count

	.rodata
	.p2align	6
	.amdhsa_kernel lgkm_count
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 32
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: lgkm_count
    .symbol: lgkm_count.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 32
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
    .args:
      - { .name: table, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global, .is_const: true }
...
	.end_amdgpu_metadata

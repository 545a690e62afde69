; dcache_wb_endpgm: scalar stores are write-back in the scalar cache. A store
; followed by s_dcache_wb reaches memory; a GLC store writes memory at once;
; a store the wave never writes back is still a dirty line at s_endpgm and
; never reaches memory. Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	dcache_wb_endpgm
	.p2align	8
	.type	dcache_wb_endpgm,@function
dcache_wb_endpgm:
	s_load_dwordx2 s[4:5], s[0:1], 0x0       ; s[4:5] = data
	s_waitcnt lgkmcnt(0)
	; a scalar store, written back
	s_movk_i32 s8, 0x5ca1
	s_store_dword s8, s[4:5], 0x0            ; miss: line data+0x00 dirty
	s_waitcnt lgkmcnt(0)
	s_dcache_wb                              ; memory data[0] = 0x5ca1
	s_waitcnt lgkmcnt(0)
	; a GLC store: write-immediate
	s_movk_i32 s9, 0x600d
	s_store_dword s9, s[4:5], 0x80 glc       ; memory data[32] = 0x600d, no line
	s_waitcnt lgkmcnt(0)
	; a scalar store that is never written back
	s_movk_i32 s10, 0x1057
	s_store_dword s10, s[4:5], 0x40          ; miss: line data+0x40 dirty
	s_waitcnt lgkmcnt(0)
	s_load_dword s11, s[4:5], 0x40           ; hit: the wave reads its own store
	s_waitcnt lgkmcnt(0)
	s_endpgm                                 ; no s_dcache_wb: data[16] keeps its old value
.Ldcache_wb_endpgm_end:
	.size	dcache_wb_endpgm, .Ldcache_wb_endpgm_end-dcache_wb_endpgm

	.rodata
	.p2align	6
	.amdhsa_kernel dcache_wb_endpgm
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 12
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: dcache_wb_endpgm
    .symbol: dcache_wb_endpgm.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 12
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
    .args:
      - { .name: data, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

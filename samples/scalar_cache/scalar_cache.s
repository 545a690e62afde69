; scalar_cache: the scalar data cache. Hits and misses on 64-byte lines, a
; GLC load, a vector store that leaves a stale scalar line, s_dcache_inv to
; drop it, and a scalar store that reaches memory only after s_dcache_wb.
; Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	scalar_cache
	.p2align	8
	.type	scalar_cache,@function
scalar_cache:
	s_load_dwordx2 s[4:5], s[0:1], 0x0       ; s[4:5] = data (a kernarg line)
	s_waitcnt lgkmcnt(0)
	s_load_dword s8, s[4:5], 0x0             ; miss: fills line data+0x00
	s_waitcnt lgkmcnt(0)
	s_load_dword s9, s[4:5], 0x4             ; hit: same 64-byte line
	s_waitcnt lgkmcnt(0)
	s_load_dword s10, s[4:5], 0x40           ; miss: the next line
	s_waitcnt lgkmcnt(0)
	s_load_dword s11, s[4:5], 0x8 glc        ; GLC: goes to memory although cached
	s_waitcnt lgkmcnt(0)
	; a vector store writes memory, not the scalar cache
	s_mov_b64 exec, 1
	v_mov_b32 v0, 0
	v_mov_b32 v1, 0x600d
	global_store_dword v0, v1, s[4:5]        ; data[0] = 0x600d in memory
	s_waitcnt vmcnt(0)
	s_load_dword s12, s[4:5], 0x0            ; hit: the stale line, old data[0]
	s_waitcnt lgkmcnt(0)
	s_dcache_inv                             ; drop every scalar line
	s_load_dword s13, s[4:5], 0x0            ; miss: 0x600d from memory
	s_waitcnt lgkmcnt(0)
	; a scalar store writes the cache; s_dcache_wb writes it back
	s_movk_i32 s14, 0x5ca1
	s_store_dword s14, s[4:5], 0x80          ; data+0x80 dirty in the cache
	s_waitcnt lgkmcnt(0)
	s_dcache_wb                              ; now memory has it
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lscalar_cache_end:
	.size	scalar_cache, .Lscalar_cache_end-scalar_cache

	.rodata
	.p2align	6
	.amdhsa_kernel scalar_cache
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 15
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: scalar_cache
    .symbol: scalar_cache.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 15
    .vgpr_count: 2
    .max_flat_workgroup_size: 64
    .args:
      - { .name: data, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

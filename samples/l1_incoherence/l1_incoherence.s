; l1_incoherence: the scalar cache and the vector path are not coherent. A
; vector store changes memory under a cached scalar line (the next scalar
; load reads the stale line) until a GLC load or s_dcache_inv; a scalar store
; stays in the scalar cache (a vector load reads old memory) until
; s_dcache_wb. Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	l1_incoherence
	.p2align	8
	.type	l1_incoherence,@function
l1_incoherence:
	s_load_dwordx2 s[4:5], s[0:1], 0x0       ; s[4:5] = data (a kernarg line)
	s_waitcnt lgkmcnt(0)
	s_mov_b64 exec, 1                        ; one lane is enough
	v_mov_b32 v0, 0                          ; the lane's offset for global_* with saddr
	; vector store after scalar load: the scalar line goes stale
	s_load_dword s8, s[4:5], 0x0             ; miss: line data+0x00 cached
	s_waitcnt lgkmcnt(0)
	v_mov_b32 v1, 0x600d
	global_store_dword v0, v1, s[4:5]        ; memory data[0] = 0x600d, not the scalar line
	s_waitcnt vmcnt(0)                       ; the store is done
	s_load_dword s9, s[4:5], 0x0             ; hit: the stale line, old data[0]
	s_waitcnt lgkmcnt(0)
	; fix for one load: GLC refetches the line
	s_load_dword s10, s[4:5], 0x0 glc        ; miss (GLC): 0x600d from memory
	s_waitcnt lgkmcnt(0)
	; fix for the whole cache: wait for the store, then s_dcache_inv
	v_mov_b32 v1, 0xf00d
	global_store_dword v0, v1, s[4:5]        ; memory data[0] = 0xf00d: stale again
	s_waitcnt vmcnt(0)
	s_dcache_inv                             ; drop every scalar line
	s_waitcnt lgkmcnt(0)
	s_load_dword s11, s[4:5], 0x0            ; miss: 0xf00d from memory
	s_waitcnt lgkmcnt(0)
	; the other direction: scalar store, then vector load
	s_movk_i32 s12, 0x5ca1
	s_store_dword s12, s[4:5], 0x40          ; data+0x40 dirty in the scalar cache only
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v0, s[4:5] offset:0x40 ; old memory
	s_waitcnt vmcnt(0)
	s_dcache_wb                              ; the dirty line reaches memory
	s_waitcnt lgkmcnt(0)
	buffer_wbinvl1_vol                       ; no stale vector L1 data for the next load
	global_load_dword v3, v0, s[4:5] offset:0x40 ; 0x5ca1
	s_waitcnt vmcnt(0)
	s_endpgm
.Ll1_incoherence_end:
	.size	l1_incoherence, .Ll1_incoherence_end-l1_incoherence

	.rodata
	.p2align	6
	.amdhsa_kernel l1_incoherence
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 13
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: l1_incoherence
    .symbol: l1_incoherence.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 13
    .vgpr_count: 4
    .max_flat_workgroup_size: 64
    .args:
      - { .name: data, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

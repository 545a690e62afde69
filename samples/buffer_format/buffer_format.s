; buffer_format: format conversion in MUBUF/MTBUF. BUFFER_LOAD_FORMAT takes
; the data format, number format and DST_SEL from the V#; TBUFFER takes the
; formats from the instruction and ignores DST_SEL; BUFFER_LOAD_DWORD ignores
; all three; BUFFER_STORE_FORMAT converts floats back to the V#'s format.
; Four lanes, one 8_8_8_8 texel each. Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	buffer_format
	.p2align	8
	.type	buffer_format,@function
buffer_format:
	s_load_dwordx4 s[4:7], s[0:1], 0x0       ; s[4:5] = src, s[6:7] = dst
	s_mov_b64 exec, 0xf                      ; lanes 0..3
	v_lshlrev_b32 v1, 4, v0                  ; v1 = lane*16
	v_lshlrev_b32 v2, 2, v0                  ; v2 = lane*4
	s_waitcnt lgkmcnt(0)
	; V# A: stride 4, 4 records, DST_SEL xyzw, 8_8_8_8 UNORM
	s_mov_b32 s8, s4
	s_and_b32 s9, s5, 0xffff
	s_or_b32 s9, s9, 0x40000
	s_mov_b32 s10, 4
	s_mov_b32 s11, 0x50fac
	; V# B: as A with DST_SEL (W, Z, 0, 1)
	s_mov_b64 s[12:13], s[8:9]
	s_mov_b32 s14, 4
	s_mov_b32 s15, 0x50237
	; V# C: over dst+0x100, stride 4, 4 records, 16_16 UNORM
	s_add_u32 s16, s6, 0x100
	s_addc_u32 s17, s7, 0
	s_and_b32 s17, s17, 0xffff
	s_or_b32 s17, s17, 0x40000
	s_mov_b32 s18, 4
	s_mov_b32 s19, 0x28fac
	; 1. format from the V#: four UNORM floats c/255
	buffer_load_format_xyzw v[4:7], v0, s[8:11], 0 idxen
	; 2. the V#'s DST_SEL reorders and fills components
	buffer_load_format_xyzw v[8:11], v0, s[12:15], 0 idxen
	; 3. TBUFFER: format from the instruction, DST_SEL ignored
	tbuffer_load_format_xyzw v[12:15], v0, s[12:15], 0 format:[BUF_DATA_FORMAT_8_8_8_8,BUF_NUM_FORMAT_UINT] idxen
	; 4. BUFFER_LOAD_DWORD: no conversion at all
	buffer_load_dword v16, v0, s[8:11], 0 idxen
	; 5. BUFFER_STORE_FORMAT: (0.5, 1.0) to 16_16 UNORM
	v_mov_b32 v20, 0.5
	v_mov_b32 v21, 1.0
	buffer_store_format_xy v[20:21], v0, s[16:19], 0 idxen
	s_waitcnt vmcnt(0)
	global_store_dwordx4 v1, v[4:7], s[6:7]
	global_store_dwordx4 v1, v[8:11], s[6:7] offset:0x40
	global_store_dwordx4 v1, v[12:15], s[6:7] offset:0x80
	global_store_dword v2, v16, s[6:7] offset:0xc0
	s_endpgm
.Lbuffer_format_end:
	.size	buffer_format, .Lbuffer_format_end-buffer_format

	.rodata
	.p2align	6
	.amdhsa_kernel buffer_format
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 16
		.amdhsa_next_free_vgpr 22
		.amdhsa_next_free_sgpr 20
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_system_vgpr_workitem_id 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: buffer_format
    .symbol: buffer_format.kd
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 20
    .vgpr_count: 22
    .max_flat_workgroup_size: 64
    .args:
      - { .name: src, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global, .is_const: true }
      - { .name: dst, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

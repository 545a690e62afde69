; sbuffer_range: S_BUFFER_LOAD through a buffer resource (V#) built in SGPRs,
; with range checking against NUM_RECORDS. The destinations are preset to
; 0xdeadbeef so that a dword the load does not write stays visible.
; Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	sbuffer_range
	.p2align	8
	.type	sbuffer_range,@function
sbuffer_range:
	s_load_dwordx2 s[4:5], s[0:1], 0x0       ; s[4:5] = data
	s_waitcnt lgkmcnt(0)
	; V# in s[8:11]: base = data, stride = 0, num_records = 16 bytes
	s_mov_b32 s8, s4                         ; V# dword 0: base[31:0]
	s_and_b32 s9, s5, 0xffff                 ; V# dword 1: base[47:32], stride 0
	s_mov_b32 s10, 16                        ; V# dword 2: num_records
	s_mov_b32 s11, 0                         ; V# dword 3: formats, unused by SMEM
	; preset the destinations (also the one instruction needed between
	; writing the V#'s third dword and an S_BUFFER instruction)
	s_mov_b32 s16, 0xdeadbeef
	s_mov_b32 s17, s16
	s_mov_b32 s18, s16
	s_mov_b32 s19, s16
	s_mov_b64 s[20:21], s[16:17]
	s_mov_b64 s[22:23], s[16:17]
	s_buffer_load_dword s16, s[8:11], 0x0    ; data+0x0: in range
	s_buffer_load_dword s17, s[8:11], 0xc    ; data+0xc: last dword in range
	s_buffer_load_dword s18, s[8:11], 0x10   ; data+0x10: out of range
	s_buffer_load_dwordx4 s[20:23], s[8:11], 0x8 ; two dwords in, two out
	s_waitcnt lgkmcnt(0)
	s_endpgm
.Lsbuffer_range_end:
	.size	sbuffer_range, .Lsbuffer_range_end-sbuffer_range

	.rodata
	.p2align	6
	.amdhsa_kernel sbuffer_range
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 24
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: sbuffer_range
    .symbol: sbuffer_range.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 24
    .vgpr_count: 1
    .max_flat_workgroup_size: 64
    .args:
      - { .name: data, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global, .is_const: true }
...
	.end_amdgpu_metadata

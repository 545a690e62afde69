; memtime: timing a piece of a kernel with the shader clock. s_memtime
; returns the 64-bit shader-clock counter and s_memrealtime the constant-
; rate "real time" counter; both arrive like a two-dword SMEM load, through
; LGKM_CNT, so they need s_waitcnt lgkmcnt(0) before their SGPRs are read.
; out[0:1] gets the cycles the timed work took, out[2:3] the real-time
; ticks. Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	memtime
	.p2align	8
	.type	memtime,@function
memtime:
	s_load_dwordx2 s[2:3], s[0:1], 0x0       ; s[2:3] = out
	s_waitcnt lgkmcnt(0)
	s_memrealtime s[10:11]                   ; real time before
	s_memtime s[4:5]                         ; shader clock before: LGKM +2
	s_mov_b32 s12, s4                        ; too early: s4 has not arrived
	s_waitcnt lgkmcnt(0)                     ; now s[4:5] and s[10:11] hold the clocks
	; the timed work: four VALU and four SALU instructions
	v_mov_b32 v1, 1
	v_add_u32 v1, v1, v1
	v_add_u32 v1, v1, v1
	v_add_u32 v1, v1, v1
	s_mov_b32 s13, 1
	s_add_u32 s13, s13, s13
	s_add_u32 s13, s13, s13
	s_add_u32 s13, s13, s13
	s_memtime s[6:7]                         ; shader clock after
	s_memrealtime s[14:15]                   ; real time after
	s_waitcnt lgkmcnt(0)
	s_sub_u32 s8, s6, s4                     ; s[8:9] = s[6:7] - s[4:5], 64-bit
	s_subb_u32 s9, s7, s5
	s_sub_u32 s16, s14, s10                  ; s[16:17] = s[14:15] - s[10:11]
	s_subb_u32 s17, s15, s11
	v_mov_b32 v2, s8
	v_mov_b32 v3, s9
	v_mov_b32 v4, s16
	v_mov_b32 v5, s17
	v_mov_b32 v6, 0
	global_store_dwordx4 v6, v[2:5], s[2:3]  ; every lane writes the same 16 bytes
	s_endpgm
.Lmemtime_end:
	.size	memtime, .Lmemtime_end-memtime

	.rodata
	.p2align	6
	.amdhsa_kernel memtime
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_next_free_vgpr 7
		.amdhsa_next_free_sgpr 18
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_system_vgpr_workitem_id 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: memtime
    .symbol: memtime.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 18
    .vgpr_count: 7
    .max_flat_workgroup_size: 64
    .args:
      - { .name: out, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

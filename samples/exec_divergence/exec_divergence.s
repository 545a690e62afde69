; exec_divergence: an if/else on a wave. v_cmp writes one bit per lane to
; VCC, s_and_saveexec_b64 saves EXEC and narrows it to the lanes that take
; the branch, s_cbranch_execz jumps over a block no lane runs, s_or_b64
; restores EXEC, and v_cndmask_b32 selects per lane without any branch.
; dst[lane] gets the if/else result, dst[64+lane] the v_cndmask one.
; Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	exec_divergence
	.p2align	8
	.type	exec_divergence,@function
exec_divergence:
	s_load_dwordx2 s[2:3], s[0:1], 0x0       ; s[2:3] = dst
	v_lshlrev_b32 v1, 2, v0                  ; v1 = lane*4
	v_mov_b32 v2, 0
	; if (lane < 16) v2 = lane + 100; else v2 = 200;
	v_cmp_gt_u32 vcc, 16, v0                 ; VCC bit i = (16 > lane i)
	s_and_saveexec_b64 s[4:5], vcc           ; s[4:5] = EXEC; EXEC &= VCC; SCC = EXEC != 0
	s_cbranch_execz .Lelse                   ; some lane is active: falls through
	v_add_u32 v2, 100, v0                    ; the then block: lanes 0-15 only
.Lelse:
	s_andn2_b64 exec, s[4:5], exec           ; the else lanes: saved and not then
	s_cbranch_execz .Ljoin
	v_mov_b32 v2, 0xc8                       ; the else block: lanes 16-63 only
.Ljoin:
	s_or_b64 exec, exec, s[4:5]              ; every lane again
	; if (lane > 63 ... never) { ... }: no lane takes it
	v_cmp_lt_u32 vcc, 63, v0                 ; VCC = 0
	s_and_saveexec_b64 s[6:7], vcc           ; EXEC = 0, SCC = 0
	s_cbranch_execz .Lskip                   ; no lane is active: jumps
	s_mov_b32 s8, 0xbad                      ; scalar: would run whatever EXEC is
	v_mov_b32 v2, 0xbad                      ; vector: would write no lane
.Lskip:
	s_or_b64 exec, exec, s[6:7]
	; v4 = (lane even) ? lane : 0, without a branch
	v_and_b32 v3, 1, v0
	v_cmp_eq_u32 vcc, 0, v3                  ; VCC = the even lanes
	v_cndmask_b32 v4, 0, v0, vcc             ; VCC bit set: src1 (v0); clear: src0 (0)
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v2, s[2:3]
	global_store_dword v1, v4, s[2:3] offset:256
	s_endpgm
.Lexec_divergence_end:
	.size	exec_divergence, .Lexec_divergence_end-exec_divergence

	.rodata
	.p2align	6
	.amdhsa_kernel exec_divergence
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_next_free_vgpr 5
		.amdhsa_next_free_sgpr 9
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_system_vgpr_workitem_id 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: exec_divergence
    .symbol: exec_divergence.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 11
    .vgpr_count: 5
    .max_flat_workgroup_size: 64
    .args:
      - { .name: dst, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

; lds_direct: a MUBUF load with the lds bit writes LDS instead of VGPRs, at
; LDS_BASE + M0[15:0] + lane*4, whatever the memory address was. Here each
; lane reads src[63-lane], so LDS holds src reversed; ds_read_b32 brings it
; into v2 and dst gets it. Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	lds_direct
	.p2align	8
	.type	lds_direct,@function
lds_direct:
	s_load_dwordx4 s[4:7], s[0:1], 0x0       ; s[4:5] = src, s[6:7] = dst
	v_lshlrev_b32 v1, 2, v0                  ; v1 = lane*4
	v_sub_u32 v3, 63, v0
	v_lshlrev_b32 v3, 2, v3                  ; v3 = (63-lane)*4
	s_waitcnt lgkmcnt(0)
	; raw V# over src: stride 0, num_records 256 bytes
	s_mov_b32 s8, s4
	s_and_b32 s9, s5, 0xffff
	s_movk_i32 s10, 0x100
	s_mov_b32 s11, 0x27fac
	s_movk_i32 m0, 0x100                     ; LDS offset of lane 0's dword
	buffer_load_dword v3, s[8:11], 0 offen lds ; LDS[0x100 + lane*4] = src[63-lane]
	s_waitcnt vmcnt(0)
	ds_read_b32 v2, v1 offset:0x100          ; v2 = LDS[0x100 + lane*4]
	s_waitcnt lgkmcnt(0)
	global_store_dword v1, v2, s[6:7]
	s_endpgm
.Llds_direct_end:
	.size	lds_direct, .Llds_direct_end-lds_direct

	.rodata
	.p2align	6
	.amdhsa_kernel lds_direct
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 16
		.amdhsa_group_segment_fixed_size 512
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 12
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_system_vgpr_workitem_id 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: lds_direct
    .symbol: lds_direct.kd
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 512
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 12
    .vgpr_count: 4
    .max_flat_workgroup_size: 64
    .args:
      - { .name: src, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global, .is_const: true }
      - { .name: dst, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

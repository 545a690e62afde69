; ds_banks: LDS bank conflicts. LDS is 32 banks of 4-byte dwords; the
; dword at byte address A is in bank (A/4) % 32. A loop first fills 8 KiB
; of LDS with LDS[A] = A/4 (stride-1 writes: no conflict); then four
; ds_read_b32 read with a stride of 1, 2 and 32 dwords and with every lane
; at one address, and dst gets what each read returned.
; Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	ds_banks
	.p2align	8
	.type	ds_banks,@function
ds_banks:
	s_load_dwordx2 s[4:5], s[0:1], 0x0       ; s[4:5] = dst
	v_lshlrev_b32 v1, 2, v0                  ; v1 = lane*4
	v_mov_b32 v2, v0                         ; v2 = lane, the dword index
	s_movk_i32 s6, 32                        ; 32 rows of 64 dwords
.Lfill:
	ds_write_b32 v1, v2                      ; LDS[v1] = v1/4
	v_add_u32 v1, 0x100, v1
	v_add_u32 v2, 64, v2
	s_sub_u32 s6, s6, 1
	s_cmp_lg_u32 s6, 0
	s_cbranch_scc1 .Lfill
	v_lshlrev_b32 v3, 2, v0                  ; stride 1 dword: lane*4
	ds_read_b32 v4, v3
	v_lshlrev_b32 v5, 3, v0                  ; stride 2 dwords: lane*8
	ds_read_b32 v6, v5
	v_lshlrev_b32 v7, 7, v0                  ; stride 32 dwords: lane*128
	ds_read_b32 v8, v7
	v_mov_b32 v9, 0x40                       ; every lane at byte 0x40
	ds_read_b32 v10, v9
	s_waitcnt lgkmcnt(0)
	global_store_dword v3, v4, s[4:5]
	global_store_dword v3, v6, s[4:5] offset:256
	global_store_dword v3, v8, s[4:5] offset:512
	global_store_dword v3, v10, s[4:5] offset:768
	s_endpgm
.Lds_banks_end:
	.size	ds_banks, .Lds_banks_end-ds_banks

	.rodata
	.p2align	6
	.amdhsa_kernel ds_banks
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_group_segment_fixed_size 8192
		.amdhsa_next_free_vgpr 11
		.amdhsa_next_free_sgpr 8
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_system_vgpr_workitem_id 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: ds_banks
    .symbol: ds_banks.kd
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 8192
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 11
    .max_flat_workgroup_size: 64
    .args:
      - { .name: dst, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

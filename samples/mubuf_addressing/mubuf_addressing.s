; mubuf_addressing: how MUBUF forms a buffer address from the V#, the VGPRs
; and the instruction: offen, idxen, both, a stride with soffset and an
; instruction offset, swizzling and add_tid, with range checking that zeroes
; the out-of-range lanes of a load and drops those of a store.
; src[i] holds 0xb0000000 + 4*i, so every loaded value names its address.
; dst has one 64-dword section per case. Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	mubuf_addressing
	.p2align	8
	.type	mubuf_addressing,@function
mubuf_addressing:
	s_load_dwordx4 s[4:7], s[0:1], 0x0       ; s[4:5] = src, s[6:7] = dst
	v_lshlrev_b32 v1, 2, v0                  ; v1 = lane*4
	v_mov_b32 v2, v0                         ; v[2:3] = (index lane, offset 4)
	v_mov_b32 v3, 4
	s_waitcnt lgkmcnt(0)
	; raw V#: stride 0, num_records 64 bytes
	s_mov_b32 s8, s4
	s_and_b32 s9, s5, 0xffff
	s_movk_i32 s10, 0x40
	s_mov_b32 s11, 0x27fac                   ; DST_SEL xyzw, 32 float; unused by raw loads
	; structured V#: stride 8 bytes, num_records 16 records
	s_mov_b32 s12, s4
	s_or_b32 s13, s9, 0x80000                ; stride 8 in bits 61:48
	s_movk_i32 s14, 16
	s_mov_b32 s15, s11
	; swizzled V#: the structured one with SWIZZLE_ENABLE (bit 63)
	s_mov_b32 s16, s4
	s_or_b32 s17, s13, 0x80000000
	s_movk_i32 s18, 16
	s_mov_b32 s19, s11                       ; INDEX_STRIDE 0: 8 lanes
	; add_tid V#: stride 4, num_records 32, ADD_TID_ENABLE (bit 119)
	s_mov_b32 s20, s4
	s_or_b32 s21, s9, 0x40000
	s_movk_i32 s22, 32
	s_mov_b32 s23, 0x807fac                  ; DATA_FORMAT 0: with TID_ENABLE GFX9 reads it as stride bits
	; raw V# over dst section 6 for the store: num_records 128 bytes
	s_add_u32 s24, s6, 0x600
	s_addc_u32 s25, s7, 0
	s_and_b32 s25, s25, 0xffff
	s_movk_i32 s26, 0x80
	s_mov_b32 s27, s11
	s_movk_i32 s28, 8                        ; soffset for case 4
	; 1. offen: offset = v1 = lane*4; lanes 16.. are past 64 bytes
	buffer_load_dword v4, v1, s[8:11], 0 offen
	; 2. idxen: address = lane*8; lanes 16.. are past 16 records
	buffer_load_dword v5, v0, s[12:15], 0 idxen
	; 3. idxen offen: address = lane*8 + 4
	buffer_load_dword v6, v[2:3], s[12:15], 0 idxen offen
	; 4. offen with soffset 8 and offset:4: address = 8 + lane*4 + 4
	buffer_load_dword v7, v1, s[8:11], s28 offen offset:4
	; 5. swizzled, offset:4 of record `lane`
	buffer_load_dword v8, v0, s[16:19], 0 idxen offset:4
	; 6. add_tid: index = lane id with no VGPR at all
	buffer_load_dword v9, off, s[20:23], 0
	; 7. a store: lanes 32.. are past 128 bytes and write nothing
	buffer_store_dword v0, v1, s[24:27], 0 offen
	s_waitcnt vmcnt(0)
	global_store_dword v1, v4, s[6:7]
	global_store_dword v1, v5, s[6:7] offset:0x100
	global_store_dword v1, v6, s[6:7] offset:0x200
	global_store_dword v1, v7, s[6:7] offset:0x300
	global_store_dword v1, v8, s[6:7] offset:0x400
	global_store_dword v1, v9, s[6:7] offset:0x500
	s_endpgm
.Lmubuf_addressing_end:
	.size	mubuf_addressing, .Lmubuf_addressing_end-mubuf_addressing

	.rodata
	.p2align	6
	.amdhsa_kernel mubuf_addressing
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 16
		.amdhsa_next_free_vgpr 10
		.amdhsa_next_free_sgpr 29
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_system_vgpr_workitem_id 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: mubuf_addressing
    .symbol: mubuf_addressing.kd
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 29
    .vgpr_count: 10
    .max_flat_workgroup_size: 64
    .args:
      - { .name: src, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global, .is_const: true }
      - { .name: dst, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

; counter_order: VM_CNT and LGKM_CNT side by side. Vector memory loads
; return in the order they were issued, so s_waitcnt vmcnt(N) with N > 0
; is a safe partial wait: it means "all but the N newest have landed".
; LGKM_CNT counts scalar loads, LDS and messages, which return out of
; order, so a partial lgkmcnt(N) wait says nothing about which one landed:
; only lgkmcnt(0) is safe. src[i] = 0xa0000000 + 4*i names its address;
; dst gets the three vector loads. Rebuild with ../build.sh.
	.amdhsa_code_object_version 4
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	counter_order
	.p2align	8
	.type	counter_order,@function
counter_order:
	s_load_dwordx4 s[4:7], s[0:1], 0x0       ; s[4:5] = src, s[6:7] = dst
	v_lshlrev_b32 v1, 2, v0                  ; v1 = lane*4
	s_waitcnt lgkmcnt(0)
	s_load_dword s9, s[4:5], 0x0             ; brings line src+0x0 into the scalar cache
	; VM_CNT: three vector loads, returned in issue order
	global_load_dword v2, v1, s[4:5]         ; src[lane]        VM 1
	global_load_dword v3, v1, s[4:5] offset:256 ; src[64+lane]  VM 2
	global_load_dword v4, v1, s[4:5] offset:512 ; src[128+lane] VM 3
	s_waitcnt vmcnt(2)                       ; the oldest (v2) has landed
	s_waitcnt vmcnt(1)                       ; v3 too
	s_waitcnt vmcnt(0)                       ; all three
	ds_write_b32 v1, v2                      ; LDS[lane*4] = src[lane]
	s_waitcnt lgkmcnt(0)                     ; the ds_write
	; LGKM_CNT: a scalar miss, a scalar hit and an LDS read
	s_load_dword s8, s[4:5], 0x400           ; line src+0x400 is not cached: a miss
	s_load_dword s9, s[4:5], 0x4             ; line src+0x0 is cached: a hit
	ds_read_b32 v5, v1                       ; LDS[lane*4]
	; lgkmcnt(1) is read as "all but the newest (the ds_read) are done";
	; the miss is the one still in flight
	s_waitcnt lgkmcnt(1)
	s_mov_b32 s10, s8                        ; too early: hazard on s8
	s_waitcnt lgkmcnt(0)
	s_mov_b32 s11, s8                        ; safe
	global_store_dword v1, v2, s[6:7]
	global_store_dword v1, v3, s[6:7] offset:256
	global_store_dword v1, v4, s[6:7] offset:512
	s_endpgm
.Lcounter_order_end:
	.size	counter_order, .Lcounter_order_end-counter_order

	.rodata
	.p2align	6
	.amdhsa_kernel counter_order
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 16
		.amdhsa_group_segment_fixed_size 256
		.amdhsa_next_free_vgpr 6
		.amdhsa_next_free_sgpr 12
		.amdhsa_reserve_vcc 0
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_system_vgpr_workitem_id 0
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: counter_order
    .symbol: counter_order.kd
    .kernarg_segment_size: 16
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 12
    .vgpr_count: 6
    .max_flat_workgroup_size: 64
    .args:
      - { .name: src, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global, .is_const: true }
      - { .name: dst, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

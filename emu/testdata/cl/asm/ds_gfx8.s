// mcpu: gfx803
// ds_gfx8: GFX8's M0 range check for LDS (addresses at or above M0 are out
// of range: reads return 0, writes are dropped), and a GDS operation, which
// the emulator refuses with a named error. out[lane] = LDS read at lane*4
// after writing 0x500+lane to every lane's address with M0 = 128 (lanes
// 0..31 in range); ds_gds runs ds_add_u32 with gds.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx803"
	.globl ds_m0
	.p2align 8
	.type ds_m0,@function
ds_m0:
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_lshlrev_b32 v1, 2, v0
	v_add_u32 v2, vcc, 0x500, v0
	s_mov_b32 m0, -1
	v_mov_b32 v3, 0x77
	ds_write_b32 v1, v3                    // fill with 0x77 under the full limit
	s_waitcnt lgkmcnt(0)
	s_movk_i32 m0, 0x80                    // limit 128 bytes
	ds_write_b32 v1, v2                    // lanes >= 32 dropped
	s_waitcnt lgkmcnt(0)
	ds_read_b32 v4, v1                     // lanes >= 32 read 0
	s_mov_b32 m0, -1
	ds_read_b32 v5, v1                     // what LDS holds
	s_waitcnt lgkmcnt(0) vmcnt(0)
	s_waitcnt lgkmcnt(0)
	v_lshlrev_b32 v6, 3, v0
	v_mov_b32 v8, s3
	v_add_u32 v7, vcc, s2, v6
	v_addc_u32 v8, vcc, 0, v8, vcc
	flat_store_dwordx2 v[7:8], v[4:5]
	s_endpgm
.Lend0:
	.size ds_m0, .Lend0-ds_m0

	.globl ds_gds
	.p2align 8
	.type ds_gds,@function
ds_gds:
	v_mov_b32 v1, 0
	s_mov_b32 m0, -1
	ds_add_u32 v1, v1 gds
	s_endpgm
.Lend1:
	.size ds_gds, .Lend1-ds_gds

	.rodata
	.p2align 6
	.amdhsa_kernel ds_m0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 16
		.amdhsa_next_free_sgpr 16
		.amdhsa_group_segment_fixed_size 256
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel
	.amdhsa_kernel ds_gds
		.amdhsa_next_free_vgpr 4
		.amdhsa_next_free_sgpr 8
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: ds_m0
    .symbol: ds_m0.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 16
    .max_flat_workgroup_size: 64
    .args:
      - { .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
  - .name: ds_gds
    .symbol: ds_gds.kd
    .kernarg_segment_size: 0
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 8
    .vgpr_count: 4
    .max_flat_workgroup_size: 64
    .args: []
...
	.end_amdgpu_metadata

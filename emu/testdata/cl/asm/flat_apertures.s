// flat_apertures: FLAT addresses routed by aperture on GFX9 (global, LDS
// through src_shared_base, private through src_private_base) and SCRATCH
// instructions, with FLAT_SCRATCH set up by the prolog from the Flat
// Scratch Init and Scratch Wave Offset SGPRs. One wave; out has 4 dwords
// per lane: [lane*4+0] flat store to LDS, read back by ds_read_b32;
// [+1] flat store to private, read back by scratch_load_dword;
// [+2] scratch_store_dword, read back by a flat load from private;
// [+3] a global store read back by a flat load outside both apertures.
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.globl flat_apertures
	.p2align 8
	.type flat_apertures,@function
flat_apertures:
	// s[0:1] kernarg, s[2:3] flat scratch init, s4 scratch wave offset
	s_add_u32 flat_scratch_lo, s2, s4
	s_addc_u32 flat_scratch_hi, s3, 0
	s_load_dwordx2 s[6:7], s[0:1], 0x0      // out
	v_lshlrev_b32 v1, 2, v0                 // lane*4: LDS and private offset
	v_add_u32 v2, 0x100, v0                 // values
	v_add_u32 v3, 0x200, v0
	v_add_u32 v4, 0x300, v0
	// flat -> LDS
	v_mov_b32 v6, src_shared_base
	v_mov_b32 v5, v1
	flat_store_dword v[5:6], v2
	// flat -> private at offset lane*4 + 16
	v_mov_b32 v8, src_private_base
	v_add_u32 v7, 16, v1
	flat_store_dword v[7:8], v3
	// scratch store at offset 64 + lane*4
	scratch_store_dword v1, v4, off offset:64
	s_waitcnt vmcnt(0) lgkmcnt(0)
	ds_read_b32 v10, v1
	scratch_load_dword v11, v7, off
	v_add_u32 v12, 64, v1
	v_mov_b32 v13, v8
	flat_load_dword v12, v[12:13]
	s_waitcnt vmcnt(0) lgkmcnt(0)
	// global store of 0x400+lane to out[lane*4+3], read back by a flat load
	// (an address outside both apertures)
	v_lshlrev_b32 v16, 4, v0
	v_add_u32 v9, 0x400, v0
	global_store_dword v16, v9, s[6:7] offset:12
	s_waitcnt vmcnt(0)
	s_add_u32 s8, s6, 12
	s_addc_u32 s9, s7, 0
	v_add_co_u32 v14, vcc, s8, v16
	v_mov_b32 v17, s9
	v_addc_co_u32 v15, vcc, 0, v17, vcc
	flat_load_dword v13, v[14:15]
	s_waitcnt vmcnt(0) lgkmcnt(0)
	global_store_dwordx4 v16, v[10:13], s[6:7]
	s_endpgm
.Lend:
	.size flat_apertures, .Lend-flat_apertures

	.rodata
	.p2align 6
	.amdhsa_kernel flat_apertures
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_flat_scratch_init 1
		.amdhsa_system_sgpr_private_segment_wavefront_offset 1
		.amdhsa_private_segment_fixed_size 512
		.amdhsa_next_free_vgpr 24
		.amdhsa_next_free_sgpr 16
		.amdhsa_group_segment_fixed_size 256
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: flat_apertures
    .symbol: flat_apertures.kd
    .kernarg_segment_size: 8
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 256
    .private_segment_fixed_size: 512
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 24
    .max_flat_workgroup_size: 64
    .args:
      - { .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

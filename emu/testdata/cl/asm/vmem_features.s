// vmem_features: MUBUF, MTBUF and DS features that compiled OpenCL does not
// reach, for emu's vector memory tests (grid_vmem_test.go computes every
// expected value from the input and the rules of Vega ISA §8.1).
// Kernel arguments: in (256 bytes, 64 dwords), out (8192 bytes). One wave.
// Output layout (dword index): [0,64) raw offen load with num_records 64;
// [64,128) structured idxen load (stride 8, 10 records, offset 4);
// [128,384) format xyzw (8_8_8_8 UNORM, dst_sel BGRA) by lane;
// [384,448) tbuffer 16_16 UINT stores (xy) of lane and 1000+lane;
// [448,512) buffer_atomic_add return values; [512] the counter;
// [576,640) LDS-direct then ds_read_b32; [640,704) ds_swizzle quad pattern;
// [704,768) ds_bpermute (reverse); [768,896) ds_read2st64 pairs;
// [896,960) ds_append return values; [960] the LDS counter;
// [1024,1064) ubyte/sbyte/ushort/sshort loads at byte offset lane, lanes 0..9
// (four dwords per lane).
	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.globl vmem_features
	.p2align 8
	.type vmem_features,@function
vmem_features:
	s_load_dwordx2 s[2:3], s[0:1], 0x0      // in
	s_load_dwordx2 s[4:5], s[0:1], 0x8      // out
	v_lshlrev_b32 v10, 2, v0                // lane*4
	v_mov_b32 v11, v0                       // lane (index)
	s_waitcnt lgkmcnt(0)
	// V# raw over in: stride 0, num_records 64
	s_mov_b32 s8, s2
	s_and_b32 s9, s3, 0xffff
	s_mov_b32 s10, 64
	s_mov_b32 s11, 0x27fac                  // dst_sel xyzw, nfmt UINT, dfmt 32
	buffer_load_dword v1, v10, s[8:11], 0 offen
	// V# structured over in: stride 8, 10 records
	s_mov_b32 s12, s2
	s_or_b32 s13, s9, 0x80000               // stride 8 << 16
	s_mov_b32 s14, 10
	s_mov_b32 s15, 0x27fac
	buffer_load_dword v2, v11, s[12:15], 0 idxen offset:4
	// V# format 8_8_8_8 UNORM, dst_sel B G R A, stride 4, 64 records
	s_mov_b32 s16, s2
	s_or_b32 s17, s9, 0x40000
	s_mov_b32 s18, 64
	s_mov_b32 s19, 0x50000 | 0xf2e          // dfmt 10 <<15, nfmt 0, sel x=6 y=5 z=4 w=7
	buffer_load_format_xyzw v[4:7], v11, s[16:19], 0 idxen
	// out V#s
	s_mov_b32 s20, s4
	s_and_b32 s21, s5, 0xffff
	s_mov_b32 s22, 4096
	s_mov_b32 s23, 0x27fac
	s_waitcnt vmcnt(0)
	global_store_dword v10, v1, s[4:5]
	global_store_dword v10, v2, s[4:5] offset:256
	v_lshlrev_b32 v12, 4, v0                // lane*16
	global_store_dwordx4 v12, v[4:7], s[4:5] offset:512
	// tbuffer: out + 1536, stride 4, element = lane: xy = (lane, 1000+lane)
	v_add_u32 v9, 1000, v0
	v_mov_b32 v8, v0
	s_add_u32 s24, s4, 1536
	s_addc_u32 s25, s5, 0
	s_and_b32 s25, s25, 0xffff
	s_or_b32 s25, s25, 0x40000
	s_mov_b32 s26, 64
	s_mov_b32 s27, 0x27fac
	tbuffer_store_format_xy v[8:9], v11, s[24:27], 0 format:[BUF_DATA_FORMAT_16_16,BUF_NUM_FORMAT_UINT] idxen
	// buffer atomic add 1 to out[512] with return
	v_mov_b32 v13, 1
	s_movk_i32 s28, 2048
	buffer_atomic_add v13, off, s[20:23], s28 glc
	s_waitcnt vmcnt(0)
	global_store_dword v10, v13, s[4:5] offset:1792
	// LDS-direct: in[lane] -> LDS[lane*4] (M0 = 0), then ds_read_b32
	s_mov_b32 m0, 0
	buffer_load_dword v10, s[8:11], 0 offen lds
	s_waitcnt vmcnt(0)
	ds_read_b32 v14, v10
	s_waitcnt lgkmcnt(0)
	global_store_dword v10, v14, s[4:5] offset:2304
	// ds_swizzle quad mode: pattern 0x8000 | (3,2,1,0) reversed within quads = 0x801b
	ds_swizzle_b32 v15, v1 offset:0x801b
	// ds_bpermute: lane i reads lane 63-i
	v_sub_u32 v16, 63, v0
	v_lshlrev_b32 v16, 2, v16
	ds_bpermute_b32 v17, v16, v1
	s_waitcnt lgkmcnt(0)
	global_store_dword v10, v15, s[4:5] offset:2560
	global_store_dword v10, v17, s[4:5] offset:2816
	// ds_write2st64 v1 at lane*4 and lane*4+256, then read back both as a pair
	v_add_u32 v18, 7, v1
	ds_write2st64_b32 v10, v1, v18 offset1:1
	s_waitcnt lgkmcnt(0)
	ds_read2st64_b32 v[20:21], v10 offset1:1
	s_waitcnt lgkmcnt(0)
	v_lshlrev_b32 v12, 3, v0
	global_store_dwordx2 v12, v[20:21], s[4:5] offset:3072
	// ds_append at LDS 1024 (M0 = 1024): 64 active lanes -> old value 0, LDS = 64
	s_movk_i32 m0, 0x400
	v_mov_b32 v22, 0
	ds_write_b32 v22, v22 offset:1024
	ds_append v23
	s_waitcnt lgkmcnt(0)
	ds_read_b32 v24, v22 offset:1024
	s_waitcnt lgkmcnt(0)
	global_store_dword v10, v23, s[4:5] offset:3584
	v_mov_b32 v25, 0
	global_store_dword v25, v24, s[4:5] offset:3840
	// narrow loads (lanes 0..9 at byte lane): ubyte, sbyte, ushort, sshort
	v_cmp_gt_u32 vcc, 10, v0
	s_and_saveexec_b64 s[30:31], vcc
	buffer_load_ubyte v26, v11, s[8:11], 0 offen
	buffer_load_sbyte v27, v11, s[8:11], 0 offen
	buffer_load_ushort v28, v11, s[8:11], 0 offen
	buffer_load_sshort v29, v11, s[8:11], 0 offen
	s_waitcnt vmcnt(0)
	v_lshlrev_b32 v30, 4, v0
	v_add_u32 v30, 0x1000, v30
	global_store_dwordx4 v30, v[26:29], s[4:5]
	s_endpgm
.Lend:
	.size vmem_features, .Lend-vmem_features

	.rodata
	.p2align 6
	.amdhsa_kernel vmem_features
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_next_free_vgpr 32
		.amdhsa_next_free_sgpr 40
		.amdhsa_group_segment_fixed_size 2048
		.amdhsa_reserve_vcc 1
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.version: [ 1, 1 ]
amdhsa.kernels:
  - .name: vmem_features
    .symbol: vmem_features.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 2048
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 40
    .vgpr_count: 32
    .max_flat_workgroup_size: 64
    .args:
      - { .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global }
      - { .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global }
...
	.end_amdgpu_metadata

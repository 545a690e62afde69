; five kernels (ld.lld hashes their ten symbols in two GNU buckets), .size with ".", .amdgcn.next_free_* symbols.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx900"
	.text
	.globl	alpha
	.p2align	8
	.type	alpha,@function
alpha:
	s_mov_b32 s0, 1
	v_mov_b32 v3, s0
	s_endpgm
.Lalpha_end:
	.size	alpha, .Lalpha_end-alpha
	.globl	beta
	.p2align	8
	.type	beta,@function
beta:
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	s_waitcnt lgkmcnt(0)
	global_store_dword v0, v1, s[0:1]
	s_endpgm
	.size	beta, .-beta
	.globl	gamma
	.p2align	8
gamma:
	s_branch .Lg
	s_nop 1
.Lg:
	s_endpgm
	.globl	delta
	.p2align	8
	.type	delta,@function
delta:
	s_endpgm
	.globl	epsilon
	.p2align	8
	.type	epsilon,@function
epsilon:
	v_add_f32 v0, v1, v2
	s_endpgm
	.rodata
	.p2align	6
	.amdhsa_kernel alpha
		.amdhsa_next_free_vgpr .amdgcn.next_free_vgpr
		.amdhsa_next_free_sgpr .amdgcn.next_free_sgpr
	.end_amdhsa_kernel
	.amdhsa_kernel beta
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_kernarg_size 8
		.amdhsa_next_free_vgpr 2
		.amdhsa_next_free_sgpr 8
	.end_amdhsa_kernel
	.amdhsa_kernel gamma
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 1
	.end_amdhsa_kernel
	.amdhsa_kernel delta
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 1
	.end_amdhsa_kernel
	.amdhsa_kernel epsilon
		.amdhsa_next_free_vgpr 3
		.amdhsa_next_free_sgpr 0
	.end_amdhsa_kernel
	.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - { .name: alpha, .symbol: alpha.kd, .kernarg_segment_size: 0, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .kernarg_segment_align: 4, .wavefront_size: 64, .sgpr_count: 8, .vgpr_count: 4, .max_flat_workgroup_size: 256 }
  - { .name: beta, .symbol: beta.kd, .kernarg_segment_size: 0, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .kernarg_segment_align: 4, .wavefront_size: 64, .sgpr_count: 8, .vgpr_count: 4, .max_flat_workgroup_size: 256 }
  - { .name: gamma, .symbol: gamma.kd, .kernarg_segment_size: 0, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .kernarg_segment_align: 4, .wavefront_size: 64, .sgpr_count: 8, .vgpr_count: 4, .max_flat_workgroup_size: 256 }
  - { .name: delta, .symbol: delta.kd, .kernarg_segment_size: 0, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .kernarg_segment_align: 4, .wavefront_size: 64, .sgpr_count: 8, .vgpr_count: 4, .max_flat_workgroup_size: 256 }
  - { .name: epsilon, .symbol: epsilon.kd, .kernarg_segment_size: 0, .group_segment_fixed_size: 0, .private_segment_fixed_size: 0, .kernarg_segment_align: 4, .wavefront_size: 64, .sgpr_count: 8, .vgpr_count: 4, .max_flat_workgroup_size: 256 }
...
	.end_amdgpu_metadata

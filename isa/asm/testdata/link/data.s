; gfx906:sramecc+:xnack-, code object v5: data directives in .text and .rodata, an absolute .set symbol, local labels.
	.amdhsa_code_object_version 5
	.amdgcn_target "amdgcn-amd-amdhsa--gfx906:sramecc+:xnack-"
	.set	COUNT, 3
	.text
	.globl	k
	.p2align	8
k:
	s_movk_i32 s0, COUNT*4
helper:
	s_nop 0
	.p2align	5
	s_endpgm
	.byte	1, 2, 3, 4
	.p2align	3
	.long	0xdeadbeef
	.rodata
	.p2align	4
table:
	.long	1, 2, COUNT
	.short	7
	.quad	0x123456789
	.asciz	"hi"
	.p2align	6
	.amdhsa_kernel k
		.amdhsa_next_free_vgpr 0
		.amdhsa_next_free_sgpr 1
		.amdhsa_reserve_xnack_mask 0
		.amdhsa_uses_dynamic_stack 1
	.end_amdhsa_kernel
	.amdgpu_metadata
---
amdhsa.version: [ 1, 2 ]
amdhsa.kernels:
  - .name: k
    .symbol: k.kd
    .kernarg_segment_size: 0
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 4
    .wavefront_size: 64
    .sgpr_count: 1
    .vgpr_count: 0
    .max_flat_workgroup_size: 1024
    .uses_dynamic_stack: true
...
	.end_amdgpu_metadata

// build: -O2 -cl-std=CL2.0
// partial: a grid that is not a multiple of the work-group (OpenCL 2.0
// non-uniform work-groups, HSA AQL partial work-groups): the last work-group
// in each dimension is smaller. Every work-item writes its ids and sizes,
// each as X | Y << 16 (the v4 ABI computes them from the dispatch packet,
// v5 from the hidden block count, group size and remainder arguments).
kernel void partial(global uint *out, uint pitch)
{
	uint x = get_global_id(0), y = get_global_id(1);
	global uint *o = out + 8 * (y * pitch + x);
	o[0] = x | y << 16;
	o[1] = (uint)get_local_size(0) | (uint)get_local_size(1) << 16;
	o[2] = (uint)get_group_id(0) | (uint)get_group_id(1) << 16;
	o[3] = (uint)get_num_groups(0) | (uint)get_num_groups(1) << 16;
	o[4] = (uint)get_local_id(0) | (uint)get_local_id(1) << 16;
	o[5] = (uint)get_enqueued_local_size(0) | (uint)get_enqueued_local_size(1) << 16;
	o[6] = (uint)get_global_size(0) | (uint)get_global_size(1) << 16;
	o[7] = (uint)get_local_linear_id() | (uint)get_global_linear_id() << 16;
}

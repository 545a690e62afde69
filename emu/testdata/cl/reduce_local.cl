// reduce_local: a work-group tree reduction through a __local buffer given as
// a kernel argument (dynamic LDS), with barriers between the steps.
kernel void reduce_local(global const uint *in, global uint *sums, local uint *tmp)
{
	size_t l = get_local_id(0), n = get_local_size(0);
	tmp[l] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (size_t s = n / 2; s > 0; s >>= 1) {
		if (l < s)
			tmp[l] += tmp[l + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (l == 0)
		sums[get_group_id(0)] = tmp[0];
}

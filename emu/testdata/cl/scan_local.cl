// scan_local: an inclusive Hillis-Steele prefix sum of each work-group of 128
// items (two waves) in a statically sized __local array.
#define B 128
__attribute__((reqd_work_group_size(B, 1, 1)))
kernel void scan_local(global const uint *in, global uint *out)
{
	local uint buf[2][B];
	size_t l = get_local_id(0);
	int src = 0;
	buf[0][l] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint off = 1; off < B; off <<= 1) {
		uint v = buf[src][l];
		if (l >= off)
			v += buf[src][l - off];
		buf[1 - src][l] = v;
		src = 1 - src;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	out[get_global_id(0)] = buf[src][l];
}

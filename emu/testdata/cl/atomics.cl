// atomics: global and local atomics whose final memory does not depend on the
// order the work-items run in. stats[] starts filled with all ones. slots[]
// uses atomic_inc's return value: every index is handed out exactly once,
// whatever the order.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
kernel void atomics(global const uint *in, global uint *hist, global uint *stats,
                    global uint *slots, global ulong *wide)
{
	size_t i = get_global_id(0);
	uint v = in[i];
	atomic_inc(&hist[v & 63u]);
	atomic_add(&stats[0], v >> 8);
	atomic_min(&stats[1], v);
	atomic_max(&stats[2], v);
	atomic_or(&stats[3], 1u << (v & 31u));
	atomic_and(&stats[4], ~(1u << ((v >> 5) & 31u)));
	atomic_xor(&stats[5], v);
	atomic_sub(&stats[6], v & 0xffu);
	atomic_min((global int *)&stats[7], (int)v);
	atomic_max((global int *)&stats[8], (int)v);
	uint cur = stats[9];
	uint seen;
	do {
		seen = cur;
		cur = atomic_cmpxchg(&stats[9], seen, max(seen, v ^ 0x55555555u));
	} while (cur != seen);
	uint slot = atomic_inc(&stats[10]) + 1u; /* stats[] starts at all ones */
	slots[slot] = slot ^ 0xa5u;
	atomic_xchg(&stats[11], 7u);
	atom_add(&wide[0], (ulong)v << 16);
	atom_max(&wide[1], (ulong)v * (ulong)v);
}

// local_hist: a per-work-group histogram in LDS with local atomics, then
// merged into global memory.
kernel void local_hist(global const uint *in, global uint *hist)
{
	local uint bins[32];
	size_t l = get_local_id(0);
	if (l < 32)
		bins[l] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	uint v = in[get_global_id(0)];
	atomic_inc(&bins[v & 31u]);
	atomic_add(&bins[(v >> 5) & 31u], 2u);
	barrier(CLK_LOCAL_MEM_FENCE);
	if (l < 32)
		atomic_add(&hist[l], bins[l]);
}

// places: buffers placed as programs place them (emu/manifest's
// TestBufferPlacement, hand-computed expectations): a pointer into the
// middle of a buffer, two arguments sharing one buffer, an optional (null)
// pointer, and a table holding other buffers' device addresses. Work-item 0
// also writes back the addresses it was given.
kernel void places(global uint *dst, global const uint *src, global const ulong *table,
                   global const uint *opt, global ulong *seen)
{
	uint i = get_global_id(0);
	global const uint *p = (global const uint *)table[i & 1];
	dst[i] = src[i] + p[i] * 1000u + (opt ? opt[i] * 1000000u : 7u);
	if (i == 0) {
		seen[0] = (ulong)dst;
		seen[1] = (ulong)src;
		seen[2] = (ulong)table;
		seen[3] = (ulong)opt;
		seen[4] = table[0];
		seen[5] = table[1];
	}
}

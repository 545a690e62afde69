// scratch_spill: a 256-int private array indexed dynamically; too large to
// promote to registers or LDS, so it lives in scratch (private) memory.
kernel void scratch_spill(global const uint *in, global uint *out)
{
	uint arr[256];
	size_t i = get_global_id(0);
	uint seed = in[i];
	for (int k = 0; k < 256; k++) {
		seed = seed * 1103515245u + 12345u;
		arr[k] = seed >> 8;
	}
	for (int k = 0; k < 256; k++) {
		uint j = arr[k] & 255u;
		uint t = arr[k];
		arr[k] = arr[j];
		arr[j] = t;
	}
	uint acc = 0;
	for (int k = 0; k < 256; k += 3)
		acc = acc * 33u + arr[(k * 7 + seed) & 255u];
	out[i] = acc;
}

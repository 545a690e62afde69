// views: a pointer into the middle of a buffer, arguments sharing one
// buffer, and a null pointer: the placements of manifest version 2 that
// OpenCL expresses too (a sub-buffer, the same buffer again, NULL).
kernel void views(global uint *dst, global const uint *src, global const uint *opt,
                  global const uint *alt)
{
	uint i = get_global_id(0);
	dst[i] = src[i] * 3u + (opt ? opt[i] : 0x5000u) + (alt ? alt[i] << 8 : 0x7000000u);
}

// offset: a 2D launch with a non-zero global offset; get_global_id includes
// it and get_global_offset reports it (hidden kernel arguments on AMDGPU).
kernel void offset(global uint *out, uint pitch)
{
	uint x = get_global_id(0), y = get_global_id(1);
	out[y * pitch + x] = (x * 1000u + y) ^ (get_global_offset(0) << 24) ^ (get_global_offset(1) << 16)
	                     ^ ((uint)get_group_id(0) << 12);
}

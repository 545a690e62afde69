// transpose_local: a 2D grid transposing a width x height matrix through a
// padded 16x16 __local tile (the padding avoids LDS bank conflicts).
#define T 16
__attribute__((reqd_work_group_size(T, T, 1)))
kernel void transpose_local(global const uint *in, global uint *out, uint width, uint height)
{
	local uint tile[T][T + 1];
	uint x = get_global_id(0), y = get_global_id(1);
	uint lx = get_local_id(0), ly = get_local_id(1);
	if (x < width && y < height)
		tile[ly][lx] = in[y * width + x];
	barrier(CLK_LOCAL_MEM_FENCE);
	uint ox = get_group_id(1) * T + lx, oy = get_group_id(0) * T + ly;
	if (ox < height && oy < width)
		out[oy * height + ox] = tile[lx][ly];
}

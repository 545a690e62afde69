// grid3d: a 3D grid that records every work-item function (ids, sizes, group
// counts) and applies a 7-point stencil to a volume of the grid's size.
kernel void grid3d(global uint *ids, global const int *vol, global int *sten)
{
	uint x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
	uint nx = get_global_size(0), ny = get_global_size(1), nz = get_global_size(2);
	uint lin = (z * ny + y) * nx + x;
	global uint *o = ids + lin * 8;
	o[0] = x | (y << 10) | (z << 20);
	o[1] = get_local_id(0) | (get_local_id(1) << 10) | (get_local_id(2) << 20);
	o[2] = get_group_id(0) | (get_group_id(1) << 10) | (get_group_id(2) << 20);
	o[3] = get_local_size(0) | (get_local_size(1) << 10) | (get_local_size(2) << 20);
	o[4] = get_num_groups(0) | (get_num_groups(1) << 10) | (get_num_groups(2) << 20);
	o[5] = nx | (ny << 10) | (nz << 20);
	o[6] = get_work_dim();
	o[7] = lin;
	int c = vol[lin] * 6;
	if (x > 0) c -= vol[lin - 1];
	if (x + 1 < nx) c -= vol[lin + 1];
	if (y > 0) c -= vol[lin - nx];
	if (y + 1 < ny) c -= vol[lin + nx];
	if (z > 0) c -= vol[lin - nx * ny];
	if (z + 1 < nz) c -= vol[lin + nx * ny];
	sten[lin] = c;
}

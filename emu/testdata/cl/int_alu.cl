// int_alu: 32-bit integer ALU. Unsigned arithmetic where signed overflow
// would be undefined; divisors are forced non-zero and positive.
#define N 16
kernel void int_alu(global const int *a, global const int *b, global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i], y = b[i];
	uint ux = (uint)x, uy = (uint)y;
	int d = (y & 0xffff) | 1;
	global int *o = out + i * N;
	o[0] = (int)(ux + uy);
	o[1] = (int)(ux - uy);
	o[2] = (int)(ux * uy);
	o[3] = mul_hi(x, y);
	o[4] = (int)mul_hi(ux, uy);
	o[5] = (int)((ux >> (uy & 31)) ^ (ux << ((uy >> 8) & 31)));
	o[6] = x >> (y & 31);
	o[7] = x / d;
	o[8] = x % d;
	o[9] = (int)(ux / (uy | 1u));
	o[10] = (int)(ux % (uy | 1u));
	o[11] = (int)(clz(ux) + 32u * popcount(uy));
	o[12] = max(x, y) - min(x, y) / 2 + abs(x) % 7;
	o[13] = mad24(x & 0x7fffff, y >> 9, x >> 20) ^ (int)mul24(ux & 0xffff, uy & 0xffff);
	o[14] = (int)rotate(ux, uy) + (int)(x < y) * 3 + (int)(ux >= uy) * 5;
	o[15] = (int)(add_sat(x, y) ^ sub_sat(x, y)) + hadd(x, y) + (int)(~ux & uy | (ux ^ 0x5a5a5a5au));
}

// int64: 64-bit integer arithmetic, including the long software division
// sequences the AMDGPU backend emits.
#define N 12
kernel void int64(global const ulong *a, global const ulong *b, global ulong *out)
{
	size_t i = get_global_id(0);
	ulong x = a[i], y = b[i];
	long sx = (long)x;
	long sd = (long)((y >> 20) | 1);
	global ulong *o = out + i * N;
	o[0] = x + y;
	o[1] = x - y;
	o[2] = x * y;
	o[3] = mul_hi(x, y);
	o[4] = (x << (y & 63)) ^ (x >> ((y >> 6) & 63));
	o[5] = (ulong)(sx >> (y & 63));
	o[6] = x / (y | 1);
	o[7] = x % ((y >> 32) | 1);
	o[8] = (ulong)(sx / sd);
	o[9] = (ulong)(sx % sd);
	o[10] = popcount(x) + 64 * clz(y) + 4096 * (ulong)(x < y);
	o[11] = rotate(x, y) + (ulong)((uint)x) * (ulong)((uint)(y >> 32));
}

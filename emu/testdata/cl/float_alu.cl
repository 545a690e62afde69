// float_alu: single-precision operations that are correctly rounded (or exact)
// on every OpenCL device, so results must agree bit for bit. FP_CONTRACT is
// off so a*b+c is never fused differently by the two compilers.
#pragma OPENCL FP_CONTRACT OFF
#define N 16
kernel void float_alu(global const float *a, global const float *b, global float *out)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i];
	global float *o = out + i * N;
	o[0] = x + y;
	o[1] = x - y;
	o[2] = x * y;
	o[3] = fma(x, y, 0.25f);
	o[4] = fmin(x, y);
	o[5] = fmax(x, y);
	o[6] = fabs(x) * 3.0f;
	o[7] = floor(x * 100.0f);
	o[8] = ceil(y * 100.0f);
	o[9] = trunc(x * 1000.0f);
	o[10] = rint(y * 1000.0f);
	o[11] = copysign(y, x);
	o[12] = (x < y) ? x * 2.0f : y * 0.5f;
	o[13] = (float)convert_int(x * 65536.0f) + (float)(uint)(fabs(y) * 1000000.0f);
	o[14] = ldexp(x, (int)(i & 15) - 8);
	o[15] = (x * y) - (x + y) * 0.125f;
}

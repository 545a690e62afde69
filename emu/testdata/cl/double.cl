// double: double-precision arithmetic. Add, multiply and fma are correctly
// rounded everywhere; divide and sqrt are correctly rounded in OpenCL 1.2's
// double profile as well.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
kernel void dbl(global const double *a, global const double *b, global double *exact,
                global double *dv)
{
	size_t i = get_global_id(0);
	double x = a[i], y = b[i];
	exact[4 * i + 0] = x + y;
	exact[4 * i + 1] = x * y;
	exact[4 * i + 2] = fma(x, y, -0.5);
	exact[4 * i + 3] = floor(x * 1e6) + (double)(long)(y * 1e12);
	dv[2 * i + 0] = x / (y + 3.0);
	dv[2 * i + 1] = sqrt(fabs(x) + 1.0);
}

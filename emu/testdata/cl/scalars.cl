// scalars: by-value float, double, int and ulong arguments written back as
// the kernel received them (and scaled), to check how scalars are encoded.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void scalars(global float *of, global double *od, global long *ol,
                    float f, double d, int i, ulong u)
{
	of[0] = f;
	of[1] = f * 2.0f;
	od[0] = d;
	od[1] = d * 0.5;
	ol[0] = i;
	ol[1] = (long)u;
}

// struct_arg: a struct passed by value and a __constant buffer, both read with
// scalar loads (SMEM): the kernarg struct and uniform constant indices.
#pragma OPENCL FP_CONTRACT OFF
typedef struct {
	int n;
	float scale;
	uint mask;
	float bias;
	long big;
} params_t;

kernel void struct_arg(params_t p, constant float *coeffs, constant int *table,
                       global const float *in, global float *out, global long *outl)
{
	size_t i = get_global_id(0);
	float c = coeffs[0] * coeffs[1] + coeffs[2];
	float v = in[i] * p.scale + p.bias;
	if ((int)i < p.n)
		v = v * c;
	out[i] = v + coeffs[3];
	outl[i] = p.big + (long)(i & p.mask) * table[5] + table[i & 7];
}

// vec4: vector types (int4, float4, uchar4): wide loads and stores, swizzles,
// component-wise operations.
#pragma OPENCL FP_CONTRACT OFF
kernel void vec4(global const int4 *a, global const float4 *f, global int4 *oa,
                 global float4 *of, global uchar4 *ou)
{
	size_t i = get_global_id(0);
	int4 v = a[i];
	float4 w = f[i];
	oa[i] = v.wzyx + (v << 2) - (v.xxyy ^ v.zwzw);
	of[i] = w * w.yxwz + (float4)(1.0f, -2.0f, 0.5f, 4.0f);
	ou[i] = convert_uchar4_sat(v >> 20) + (uchar4)(1, 2, 3, 4);
}

// build: -O2 -cl-denorms-are-zero
// fft_stage: one radix-2 Stockham stage of a complex FFT of 2n points (n =
// the global size), built to flush f32 denormals (FLOAT_DENORM_MODE_32 = 0)
// so that the butterflies' a*b+c contract to v_mad_f32/v_mac_f32. Inputs and
// twiddles are first rounded to multiples of 2^-11 (exactly, in both
// implementations): every product is then exact, each output is rounded
// once whether or not a compiler fuses, and PoCL's results are bit for bit
// ours (README.md).
static float2 q11(float2 x) { return rint(x * 2048.0f) * (1.0f / 2048.0f); }

kernel void fft_stage(global const float2 *restrict in, global float2 *restrict out,
                      global const float2 *restrict tw, uint span)
{
	uint i = get_global_id(0), n = get_global_size(0);
	uint k = i & (span - 1);                  // span: a power of two
	float2 a = q11(in[i]), b = q11(in[i + n]);
	float2 w = q11(tw[k * (n / span)]);
	float2 t = (float2)(w.x * b.x - w.y * b.y, w.x * b.y + w.y * b.x);
	uint o = ((i - k) << 1) + k;
	out[o] = a + t;
	out[o + span] = a - t;
}

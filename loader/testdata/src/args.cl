// args: one kernel per argument kind the metadata can describe — by-value
// scalars, vectors and structs, global/constant/local pointers, images and
// samplers — plus the work-group attributes. (printf is left out: with the
// device libraries clang-15 inlines it away, without them it crashes.)
typedef struct {
  int n;
  float scale;
  char tag;
} params_t;

__attribute__((reqd_work_group_size(64, 1, 1)))
__attribute__((vec_type_hint(float4)))
__kernel void args(__global float *restrict out, __constant float *coeffs,
                   __local float *scratch, int n, float4 bias, params_t p,
                   __global const volatile int *flags, ulong seed, uchar small) {
  size_t i = get_global_id(0);
  size_t l = get_local_id(0);
  scratch[l] = coeffs[l % 4] * p.scale + bias.x;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i < (size_t)n && flags[i] != 0)
    out[i] = scratch[(l + 1) % 64] + (float)(seed & 0xff) + small + p.tag;
}

__attribute__((work_group_size_hint(128, 1, 1)))
__kernel void images(__read_only image2d_t src, sampler_t smp,
                     __write_only image2d_t dst) {
  int2 pos = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, pos, read_imagef(src, smp, pos));
}

// lds_scratch: a work-group reduction through LDS (group segment) and a
// private array indexed at run time, which the compiler must keep in
// scratch (private segment).
#define N 64

__kernel void reduce(__global const int *in, __global int *out) {
  __local int tile[N];
  size_t l = get_local_id(0);
  tile[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = N / 2; s > 0; s >>= 1) {
    if (l < s)
      tile[l] += tile[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    out[get_group_id(0)] = tile[0];
}

__kernel void scratch(__global const int *idx, __global int *out) {
  int priv[40];
  size_t i = get_global_id(0);
  for (int k = 0; k < 40; k++)
    priv[k] = (int)i * k;
  out[i] = priv[idx[i] % 40] + priv[(idx[i] + 7) % 40];
}

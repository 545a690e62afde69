// build: -O2 -cl-denorms-are-zero
// nbody: one step of an all-pairs n-body simulation of clusters of n bodies
// (body i feels the n bodies of its cluster, so that the work grows with the
// grid as bench.sh scales it), built to flush f32 denormals
// (FLOAT_DENORM_MODE_32 = 0, as older or fast-math builds do), so that
// a*b+c contracts to v_mad_f32/v_mac_f32. The data (positions and
// velocities in [1, 2), masses in [1, 2) divided by n, a softening eps2)
// keep every intermediate far from the denormal range, so PoCL, which may
// not flush, computes the same step; the manifest's ULP bound covers the
// contraction and rsqrt differences (README.md).
kernel void nbody(global const float4 *restrict pos, global const float4 *restrict vel,
                  global float4 *restrict npos, global float4 *restrict nvel,
                  float dt, float eps2, uint n)
{
	size_t i = get_global_id(0), first = i - i % n;
	float4 p = pos[i];
	float ax = 0.0f, ay = 0.0f, az = 0.0f;
	float inv_n = 1.0f / (float)n;
	for (size_t j = first; j < first + n; j++) {
		float4 q = pos[j];
		float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
		float r2 = dx * dx + dy * dy + dz * dz + eps2;
		float inv = rsqrt(r2);
		float s = q.w * inv_n * inv * inv * inv;
		ax += dx * s;
		ay += dy * s;
		az += dz * s;
	}
	float4 v = vel[i];
	v.x += ax * dt;
	v.y += ay * dt;
	v.z += az * dt;
	nvel[i] = v;
	npos[i] = (float4)(p.x + v.x * dt, p.y + v.y * dt, p.z + v.z * dt, p.w);
}

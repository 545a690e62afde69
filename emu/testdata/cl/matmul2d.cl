// matmul2d: naive C = A x B on a 2D grid; the sum is accumulated in the same
// order on every device and FP_CONTRACT is off, so results are exact.
#pragma OPENCL FP_CONTRACT OFF
kernel void matmul2d(global const float *A, global const float *B, global float *C,
                     uint n, uint m, uint k)
{
	uint col = get_global_id(0), row = get_global_id(1);
	if (row >= n || col >= m)
		return;
	float acc = 0.0f;
	for (uint j = 0; j < k; j++)
		acc += A[row * k + j] * B[j * m + col];
	C[row * m + col] = acc;
}

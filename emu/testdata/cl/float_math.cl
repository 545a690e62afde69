// float_math: library functions whose OpenCL 1.2 accuracy bounds are not
// exact; the manifest states the ULP bound checked for each output (twice the
// specification's bound: two conforming implementations may err either way).
kernel void float_math(global const float *a, global const float *b,
                       global float *div, global float *sq, global float *ex,
                       global float *lg, global float *sn, global float *cs)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i];
	div[i] = x / (y + 2.0f);
	sq[i] = sqrt(fabs(x) * 100.0f);
	ex[i] = exp(x * 4.0f);
	lg[i] = log(fabs(y) + 0.5f);
	sn[i] = sin(x * 3.0f);
	cs[i] = cos(y * 3.0f);
}

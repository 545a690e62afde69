// build: -O0
// calls_O0: built without optimisation, so helpers are real calls (s_swappc,
// a call stack in scratch) and every local lives in private memory.
int gcd_helper(int a, int b)
{
	while (b != 0) {
		int t = a % b;
		a = b;
		b = t;
	}
	return a;
}

void fill(int *p, int n, int seed)
{
	for (int k = 0; k < n; k++)
		p[k] = (seed + k * 7) & 1023;
}

int sum_array(const int *p, int n)
{
	int s = 0;
	for (int k = 0; k < n; k++)
		s += p[k] * (k + 1);
	return s;
}

kernel void calls_O0(global const int *a, global int *out)
{
	int i = get_global_id(0);
	int buf[8];
	fill(buf, 8, a[i] & 0xffff);
	out[i] = sum_array(buf, 8) + gcd_helper((a[i] & 4095) + 1, i + 1);
}

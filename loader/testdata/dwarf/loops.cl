// loops: data-dependent trip counts (Collatz steps, Euclid's gcd) and a loop
// with break and continue, so lanes leave the loop at different iterations.
kernel void loops(global const uint *a, global const uint *b, global uint *steps,
                  global uint *gcd, global uint *mix)
{
	size_t i = get_global_id(0);
	uint n = a[i] % 1000u + 1u;
	uint s = 0;
	while (n != 1u && s < 1000u) {
		n = (n & 1u) ? 3u * n + 1u : n >> 1;
		s++;
	}
	steps[i] = s;

	uint p = a[i] % 5000u + 1u, q = b[i] % 5000u + 1u;
	while (q != 0u) {
		uint t = p % q;
		p = q;
		q = t;
	}
	gcd[i] = p;

	uint acc = 0;
	for (uint k = 0; k < 64u; k++) {
		if (((a[i] >> (k & 31)) & 3u) == 0u)
			continue;
		acc = acc * 31u + k;
		if (acc > (b[i] | 0x10000u))
			break;
	}
	mix[i] = acc;
}

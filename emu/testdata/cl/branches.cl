// branches: divergent if/else trees, a switch and nested conditions, so lanes
// of one wave take different paths and reconverge.
kernel void branches(global const int *a, global int *out)
{
	size_t i = get_global_id(0);
	int x = a[i];
	int r;
	if (x & 1) {
		if (x & 2)
			r = x * 3 + 1;
		else
			r = x / 7;
	} else if ((x & 12) == 4) {
		r = ~x;
	} else {
		r = 0;
		if (i & 4)
			r = (int)i * 17;
	}
	switch ((x >> 4) & 7) {
	case 0: r += 100; break;
	case 1: r ^= 0x1234; break;
	case 3: r = r * r;  /* fall through */
	case 4: r -= 5; break;
	case 6: r = (r > 1000) ? r - 1000 : r + 1000; break;
	default: r += (int)get_local_id(0);
	}
	out[i] = r;
}

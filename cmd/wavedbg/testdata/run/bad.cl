// bad: kernels that misbehave, for wavedbg run's error paths (not run on
// PoCL). Built by build.sh here for gfx900.

// spin never ends unless flag[0] is 12345 (the test never sets it).
kernel void spin(volatile global int *flag, global int *out)
{
	int n = 0;
	while (flag[0] != 12345)
		n++;
	out[get_global_id(0)] = n;
}

// wild stores far outside its buffer: a memory violation.
kernel void wild(global int *out)
{
	out[(size_t)get_global_id(0) * 100000000u + 50000000u] = 1;
}

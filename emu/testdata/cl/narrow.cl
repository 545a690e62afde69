// narrow: 8- and 16-bit loads and stores with sign and zero extension,
// saturating conversions and half-precision loads and stores.
kernel void narrow(global const char *c, global const uchar *uc, global const short *s,
                   global const ushort *us, global const half *h,
                   global char *oc, global ushort *os, global int *oi, global half *oh)
{
	size_t i = get_global_id(0);
	oc[i] = (char)(c[i] + (char)uc[i]);
	os[i] = add_sat(us[i], (ushort)uc[i]) ^ (ushort)s[i];
	oi[i] = (int)c[i] * 1000 + (int)s[i] + (int)uc[i] * 7 + (int)us[i]
	        + (int)convert_uchar_sat((int)s[i]) + (int)convert_char_sat((int)us[i]);
	float f = vload_half(i, h);
	vstore_half(f * 2.0f + 1.0f, i, oh);
}

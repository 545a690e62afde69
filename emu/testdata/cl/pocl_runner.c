/*
 * pocl_runner: run one kernel described by a wavedbg run manifest (the JSON
 * format of package github.com/wavedbg/wavedbg/emu/manifest) on an OpenCL
 * device -- PoCL on the CPU in our tests -- and write every output buffer.
 *
 *   pocl_runner MANIFEST OUTDIR [INPUTDIR]
 *
 * Sources and input files resolve against the manifest's directory; outputs
 * are written under OUTDIR. With INPUTDIR, every buffer's initial contents
 * are also written there as argN.bin, so a test can check that this program
 * and the Go package generate the same fill patterns. With the environment
 * variable POCL_RUNNER_TIME set it runs the kernel once to warm up (PoCL
 * compiles the work-group function at the first launch), restores the
 * buffers, and prints "kernel_seconds S", the time of the second run from
 * enqueueing it to clFinish (bench.sh uses it).
 *
 * Of manifest version 2 it runs what OpenCL can express: "offset" (a
 * sub-buffer), aliases ("buffer": the same buffer again, at an offset) and
 * "null" arguments; fixed addresses and pointers written into buffers it
 * refuses.
 *
 * Build: gcc -O1 -ffp-contract=off -o pocl_runner pocl_runner.c -lOpenCL
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "pocl_runner: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

/* ---- a small JSON reader ---- */

enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

typedef struct json {
	int type;
	char *str;          /* J_STR contents, J_NUM text, member key */
	char *key;
	struct json *child; /* first element or member */
	struct json *next;
} json;

static const char *jp;

static void skipws(void)
{
	while (isspace((unsigned char)*jp))
		jp++;
}

static json *parse_value(void);

static char *parse_string(void)
{
	if (*jp != '"')
		die("JSON: expected a string at \"%.20s\"", jp);
	jp++;
	size_t cap = 16, n = 0;
	char *s = malloc(cap);
	while (*jp != '"') {
		char c = *jp++;
		if (c == 0)
			die("JSON: unterminated string");
		if (c == '\\') {
			c = *jp++;
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u': {
				unsigned v = 0;
				for (int i = 0; i < 4; i++) {
					char h = *jp++;
					v = v * 16 + (isdigit((unsigned char)h) ? h - '0' : (tolower((unsigned char)h) - 'a' + 10));
				}
				c = v < 0x80 ? (char)v : '?';
				break;
			}
			default: break; /* \" \\ \/ */
			}
		}
		if (n + 2 > cap)
			s = realloc(s, cap *= 2);
		s[n++] = c;
	}
	jp++;
	s[n] = 0;
	return s;
}

static json *parse_value(void)
{
	json *v = calloc(1, sizeof *v);
	skipws();
	if (*jp == '{' || *jp == '[') {
		int obj = *jp == '{';
		char close = obj ? '}' : ']';
		v->type = obj ? J_OBJ : J_ARR;
		jp++;
		skipws();
		json **tail = &v->child;
		if (*jp == close) {
			jp++;
			return v;
		}
		for (;;) {
			char *key = NULL;
			skipws();
			if (obj) {
				key = parse_string();
				skipws();
				if (*jp++ != ':')
					die("JSON: expected ':' after \"%s\"", key);
			}
			json *c = parse_value();
			c->key = key;
			*tail = c;
			tail = &c->next;
			skipws();
			if (*jp == ',') {
				jp++;
				continue;
			}
			if (*jp++ != close)
				die("JSON: expected ',' or '%c'", close);
			return v;
		}
	}
	if (*jp == '"') {
		v->type = J_STR;
		v->str = parse_string();
		return v;
	}
	if (!strncmp(jp, "true", 4) || !strncmp(jp, "false", 5) || !strncmp(jp, "null", 4)) {
		v->type = *jp == 'n' ? J_NULL : J_BOOL;
		v->str = strdup(*jp == 't' ? "true" : "false");
		jp += *jp == 'f' ? 5 : 4;
		return v;
	}
	const char *start = jp;
	while (*jp && (isdigit((unsigned char)*jp) || strchr("+-.eE", *jp)))
		jp++;
	if (jp == start)
		die("JSON: unexpected \"%.20s\"", jp);
	v->type = J_NUM;
	v->str = strndup(start, jp - start);
	return v;
}

static json *get(json *o, const char *key)
{
	for (json *c = o ? o->child : NULL; c; c = c->next)
		if (c->key && !strcmp(c->key, key))
			return c;
	return NULL;
}

static const char *getstr(json *o, const char *key)
{
	json *v = get(o, key);
	return v && (v->type == J_STR || v->type == J_NUM) ? v->str : NULL;
}

/* ---- types, values and fills (must match emu/manifest exactly) ---- */

static int type_size(const char *t)
{
	static const char *names[] = {"char", "uchar", "short", "ushort", "int", "uint",
	                              "long", "ulong", "half", "float", "double"};
	static const int sizes[] = {1, 1, 2, 2, 4, 4, 8, 8, 2, 4, 8};
	for (int i = 0; i < 11; i++)
		if (t && !strcmp(t, names[i]))
			return sizes[i];
	die("unknown type %s", t ? t : "(none)");
	return 0;
}

static int is_float(const char *t) { return !strcmp(t, "half") || !strcmp(t, "float") || !strcmp(t, "double"); }

static uint16_t half_from_float(float f)
{
	uint32_t b;
	memcpy(&b, &f, 4);
	uint16_t sign = (b >> 16) & 0x8000;
	int exp = (b >> 23) & 0xff;
	uint32_t man = b & 0x7fffff;
	if (exp == 0xff)
		return sign | (man ? 0x7e00 : 0x7c00);
	if (exp - 127 > 15)
		return sign | 0x7c00;
	if (exp - 127 >= -14) {
		uint32_t h = (uint32_t)(exp - 127 + 15) << 10 | man >> 13;
		uint32_t rem = man & 0x1fff;
		if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
			h++;
		return sign | (uint16_t)h;
	}
	if (exp - 127 >= -25) {
		uint32_t m = man | 0x800000;
		unsigned shift = (unsigned)(-14 - (exp - 127)) + 13;
		uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
		if (rem > half || (rem == half && (h & 1)))
			h++;
		return sign | (uint16_t)h;
	}
	return sign;
}

static uint64_t float_bits(const char *t, double d)
{
	if (!strcmp(t, "half"))
		return half_from_float((float)d);
	if (!strcmp(t, "float")) {
		float f = (float)d;
		uint32_t b;
		memcpy(&b, &f, 4);
		return b;
	}
	uint64_t b;
	memcpy(&b, &d, 8);
	return b;
}

static uint64_t parse_int(const char *s)
{
	int neg = *s == '-';
	if (neg)
		s++;
	int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
	errno = 0;
	char *end;
	uint64_t u = strtoull(s, &end, base);
	if (errno || *end || end == s)
		die("bad integer %s", s);
	return neg ? (uint64_t)0 - u : u;
}

static uint64_t encode(const char *type, const char *val)
{
	if (!val)
		die("%s value missing", type);
	return is_float(type) ? float_bits(type, strtod(val, NULL)) : parse_int(val);
}

static uint64_t xs_state;
static uint64_t xs_next(void)
{
	uint64_t v = xs_state;
	v ^= v >> 12;
	v ^= v << 25;
	v ^= v >> 27;
	xs_state = v;
	return v * 0x2545F4914F6CDD1DULL;
}

static void generate(const char *type, const char *pat, unsigned char *out, size_t size)
{
	int es = type_size(type), flt = is_float(type);
	memset(out, 0, size);
	if (!pat || !strcmp(pat, "zero"))
		return;
	char *p = strdup(pat), *parts[4] = {0};
	int np = 0;
	for (char *tok = strtok(p, ":"); tok && np < 4; tok = strtok(NULL, ":"))
		parts[np++] = tok;
	for (size_t i = 0; i < size / es; i++) {
		uint64_t bits = 0;
		if (!strcmp(parts[0], "const")) {
			bits = encode(type, parts[1]);
		} else if (!strcmp(parts[0], "iota")) {
			if (flt) {
				double start = np == 3 ? strtod(parts[1], NULL) : 0, step = np == 3 ? strtod(parts[2], NULL) : 1;
				double prod = (double)i * step;
				bits = float_bits(type, start + prod);
			} else {
				uint64_t start = np == 3 ? parse_int(parts[1]) : 0, step = np == 3 ? parse_int(parts[2]) : 1;
				bits = start + (uint64_t)i * step;
			}
		} else if (!strcmp(parts[0], "random")) {
			if (i == 0) {
				xs_state = parse_int(parts[1]);
				if (!xs_state)
					xs_state = 0x9E3779B97F4A7C15ULL;
			}
			uint64_t r = xs_next();
			if (np == 2 && flt && strcmp(type, "double"))
				bits = float_bits(type, (double)((int64_t)(r >> 40) - (1LL << 23)) / (double)(1 << 23));
			else if (np == 2 && flt)
				bits = float_bits(type, (double)((int64_t)(r >> 11) - (1LL << 52)) / (double)(1ULL << 52));
			else if (np == 2)
				bits = r;
			else if (flt) {
				double lo = strtod(parts[2], NULL), hi = strtod(parts[3], NULL);
				double u = (double)(r >> 11) / (double)(1ULL << 53);
				double prod = (hi - lo) * u;
				bits = float_bits(type, lo + prod);
			} else {
				uint64_t lo = parse_int(parts[2]), hi = parse_int(parts[3]);
				uint64_t span = hi - lo + 1;
				bits = span ? lo + r % span : r;
			}
		} else {
			die("bad fill %s", pat);
		}
		memcpy(out + i * es, &bits, es); /* little-endian host */
	}
	free(p);
}

/* ---- files ---- */

static char *join(const char *dir, const char *name)
{
	if (name[0] == '/')
		return strdup(name);
	char *s = malloc(strlen(dir) + strlen(name) + 2);
	sprintf(s, "%s/%s", dir, name);
	return s;
}

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		die("%s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	unsigned char *b = malloc(n + 1);
	if (fread(b, 1, n, f) != (size_t)n)
		die("%s: short read", path);
	b[n] = 0;
	fclose(f);
	*len = n;
	return b;
}

static void write_file(const char *path, const void *data, size_t len)
{
	char *tmp = malloc(strlen(path) + 8);
	sprintf(tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f))
		die("%s: %s", tmp, strerror(errno));
	if (rename(tmp, path))
		die("%s: %s", path, strerror(errno));
	free(tmp);
}

#define CHECK(call)                                                           \
	do {                                                                  \
		cl_int err_ = (call);                                         \
		if (err_ != CL_SUCCESS)                                       \
			die("%s failed: OpenCL error %d", #call, (int)err_); \
	} while (0)

static int dims(json *a, size_t v[3], size_t missing)
{
	int n = 0;
	v[0] = v[1] = v[2] = missing;
	for (json *c = a ? a->child : NULL; c && n < 3; c = c->next)
		v[n++] = (size_t)parse_int(c->str);
	return n;
}

/* sub_buffer returns buf itself, or for a non-zero offset (the manifest's
 * "offset") the sub-buffer from there to the end: the argument then points
 * offset bytes into buf. */
static cl_mem sub_buffer(cl_mem buf, const char *offset, size_t size, int arg)
{
	size_t off = offset ? (size_t)parse_int(offset) : 0;
	if (off == 0)
		return buf;
	if (off >= size)
		die("argument %d: offset %zu is not inside the buffer's %zu bytes", arg, off, size);
	cl_buffer_region r = {off, size - off};
	cl_int err;
	cl_mem m = clCreateSubBuffer(buf, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
	if (err != CL_SUCCESS)
		die("argument %d: sub-buffer at offset %zu: OpenCL error %d (offsets must be multiples of CL_DEVICE_MEM_BASE_ADDR_ALIGN)", arg, off, err);
	return m;
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4)
		die("usage: pocl_runner MANIFEST OUTDIR [INPUTDIR]");
	size_t len;
	jp = (const char *)read_file(argv[1], &len);
	json *m = parse_value();
	char *mdir = strdup(argv[1]);
	char *slash = strrchr(mdir, '/');
	if (slash)
		*slash = 0;
	else
		strcpy(mdir, ".");

	const char *kname = getstr(m, "kernel"), *srcname = getstr(m, "source");
	const char *opts = getstr(m, "options");
	if (!kname || !srcname)
		die("manifest needs kernel and source");
	size_t grid[3], block[3], off[3];
	int nd = dims(get(m, "grid"), grid, 1);
	dims(get(m, "block"), block, 1);
	dims(get(m, "offset"), off, 0);

	cl_platform_id plat;
	cl_device_id dev;
	cl_int err;
	CHECK(clGetPlatformIDs(1, &plat, NULL));
	CHECK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	CHECK(err);
	cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
	CHECK(err);
	char *srcpath = join(mdir, srcname);
	const char *src = (const char *)read_file(srcpath, &len);
	cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	CHECK(err);
	if (clBuildProgram(prog, 1, &dev, opts ? opts : "", NULL, NULL) != CL_SUCCESS) {
		char log[16384];
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
		die("build of %s failed:\n%s", srcpath, log);
	}
	cl_kernel k = clCreateKernel(prog, kname, &err);
	CHECK(err);

	json *args = get(m, "args");
	int nargs = 0;
	for (json *a = args ? args->child : NULL; a; a = a->next)
		nargs++;
	cl_mem *mems = calloc(nargs + 1, sizeof *mems);
	unsigned char **initial = calloc(nargs + 1, sizeof *initial);
	int timing = getenv("POCL_RUNNER_TIME") != NULL;
	size_t *sizes = calloc(nargs + 1, sizeof *sizes);
	int i = 0;
	for (json *a = args ? args->child : NULL; a; a = a->next, i++) {
		const char *kind = getstr(a, "kind"), *type = getstr(a, "type");
		if (!kind)
			die("argument %d: no kind", i);
		if (!strcmp(kind, "buffer") && getstr(a, "buffer")) {
			continue; /* an alias: set once every buffer exists, below */
		} else if (!strcmp(kind, "null")) {
			CHECK(clSetKernelArg(k, i, sizeof(cl_mem), NULL));
		} else if (!strcmp(kind, "buffer")) {
			if (getstr(a, "address") || get(a, "pointers"))
				die("argument %d: OpenCL cannot place a buffer at a fixed address or write device addresses into one", i);
			size_t size = (size_t)parse_int(getstr(a, "size"));
			unsigned char *data;
			const char *in = getstr(a, "input");
			if (in) {
				data = read_file(join(mdir, in), &len);
				if (len != size)
					die("argument %d: input %s holds %zu bytes, not %zu", i, in, len, size);
			} else {
				data = malloc(size);
				generate(type, getstr(a, "fill"), data, size);
			}
			if (argc == 4) {
				char name[32];
				sprintf(name, "arg%d.bin", i);
				write_file(join(argv[3], name), data, size);
			}
			mems[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size, data, &err);
			CHECK(err);
			sizes[i] = size;
			cl_mem view = sub_buffer(mems[i], getstr(a, "offset"), size, i);
			CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &view));
			if (timing)
				initial[i] = data; /* restored after the warm-up run */
			else
				free(data);
		} else if (!strcmp(kind, "scalar")) {
			if (!type)
				die("argument %d: a scalar without a type (wavedbg takes the kernel's; give one here)", i);
			uint64_t bits = encode(type, getstr(a, "value"));
			CHECK(clSetKernelArg(k, i, type_size(type), &bits));
		} else if (!strcmp(kind, "struct")) {
			unsigned char buf[1024] = {0};
			size_t n = 0, maxal = 1;
			for (json *f = get(a, "fields") ? get(a, "fields")->child : NULL; f; f = f->next) {
				const char *ft = getstr(f, "type");
				size_t fs = type_size(ft);
				uint64_t bits = encode(ft, getstr(f, "value"));
				n = (n + fs - 1) / fs * fs;
				if (n + fs > sizeof buf)
					die("argument %d: struct too large", i);
				memcpy(buf + n, &bits, fs);
				n += fs;
				if (fs > maxal)
					maxal = fs;
			}
			n = (n + maxal - 1) / maxal * maxal;
			CHECK(clSetKernelArg(k, i, n, buf));
		} else if (!strcmp(kind, "local")) {
			CHECK(clSetKernelArg(k, i, (size_t)parse_int(getstr(a, "size")), NULL));
		} else {
			die("argument %d: unknown kind %s", i, kind);
		}
	}
	/* Aliases: a view of another argument's buffer (a sub-buffer at an offset). */
	i = 0;
	for (json *a = args ? args->child : NULL; a; a = a->next, i++) {
		const char *owner = getstr(a, "buffer");
		if (!owner || strcmp(getstr(a, "kind"), "buffer"))
			continue;
		int j = 0;
		json *b = args->child;
		for (; b; b = b->next, j++)
			if (getstr(b, "name") && !strcmp(getstr(b, "name"), owner) && !getstr(b, "buffer"))
				break;
		if (!b || !mems[j])
			die("argument %d: no buffer argument is named %s", i, owner);
		cl_mem view = sub_buffer(mems[j], getstr(a, "offset"), sizes[j], i);
		CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &view));
	}
	if (timing) {
		/* Warm-up: PoCL compiles the work-group function on first launch. */
		CHECK(clEnqueueNDRangeKernel(q, k, nd, off, grid, block, 0, NULL, NULL));
		CHECK(clFinish(q));
		for (int j = 0; j < nargs; j++)
			if (initial[j])
				CHECK(clEnqueueWriteBuffer(q, mems[j], CL_TRUE, 0, sizes[j], initial[j], 0, NULL, NULL));
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(clEnqueueNDRangeKernel(q, k, nd, off, grid, block, 0, NULL, NULL));
	CHECK(clFinish(q));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (timing)
		printf("kernel_seconds %.6f\n", (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
	i = 0;
	for (json *a = args ? args->child : NULL; a; a = a->next, i++) {
		const char *out = getstr(a, "output");
		if (!out || !mems[i])
			continue;
		void *data = malloc(sizes[i]);
		CHECK(clEnqueueReadBuffer(q, mems[i], CL_TRUE, 0, sizes[i], data, 0, NULL, NULL));
		write_file(join(argv[2], out), data, sizes[i]);
		free(data);
	}
	return 0;
}

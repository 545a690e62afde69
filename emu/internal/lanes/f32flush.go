package lanes

import "math"

// The flushing f32 rows: AddF32 … FmaF32 for a MODE that flushes f32
// denormals to zero (keeping their signs). in and out are the bits a
// denormal input and a denormal result lose: FlushBits (0x7fffffff) to
// flush, 0 to keep (FlushMask gives them). A v_mad_f32 product is a
// result: it is flushed as out says before the add. As the other rows,
// they leave NaN lanes unwritten and return their mask.

// FlushBits are the bits of a denormal that flushing clears: all but the sign.
const FlushBits = 0x7fffffff

// FlushMask is FlushBits when flush is set, else 0.
func FlushMask(flush bool) uint32 {
	if flush {
		return FlushBits
	}
	return 0
}

// ftz clears the bits m of u when u is a denormal (or a zero).
func ftz(u, m uint32) uint32 {
	if u&0x7f800000 == 0 {
		return u &^ m
	}
	return u
}

// ftzAt is lane l of p, flushed by m, as a float32.
func ftzAt(p *[64]uint32, l int, m uint32) float32 { return math.Float32frombits(ftz(p[l], m)) }

// setFlushF32 is setF32 with the result flushed by m.
func setFlushF32(d *[64]uint32, l int, r float32, m uint32, nans *uint64) {
	if r != r {
		*nans |= 1 << l
		return
	}
	d[l] = ftz(math.Float32bits(r), m)
}

// FlushF32 is d = a with the denormals flushed by m (no NaN lanes).
func FlushF32(d, a *[64]uint32, n int, m uint32) {
	if SIMD {
		flushF32AVX(d, a, n, m)
		return
	}
	flushF32Go(d, a, n, m)
}

// flushF32Go is FlushF32's Go definition.
func flushF32Go(d, a *[64]uint32, n int, m uint32) {
	for l := range n {
		d[l] = ftz(a[l], m)
	}
}

// AddF32Flush is AddF32 flushing.
func AddF32Flush(d, a, b *[64]uint32, n int, in, out uint32) (nans uint64) {
	if SIMD {
		return addF32FlushAVX(d, a, b, n, in, out) & lowLanes(n)
	}
	return addF32FlushGo(d, a, b, n, in, out)
}

// addF32FlushGo is AddF32Flush's Go definition.
func addF32FlushGo(d, a, b *[64]uint32, n int, in, out uint32) (nans uint64) {
	for l := range n {
		setFlushF32(d, l, ftzAt(a, l, in)+ftzAt(b, l, in), out, &nans)
	}
	return nans
}

// SubF32Flush is SubF32 flushing.
func SubF32Flush(d, a, b *[64]uint32, n int, in, out uint32) (nans uint64) {
	if SIMD {
		return subF32FlushAVX(d, a, b, n, in, out) & lowLanes(n)
	}
	return subF32FlushGo(d, a, b, n, in, out)
}

// subF32FlushGo is SubF32Flush's Go definition.
func subF32FlushGo(d, a, b *[64]uint32, n int, in, out uint32) (nans uint64) {
	for l := range n {
		setFlushF32(d, l, ftzAt(a, l, in)-ftzAt(b, l, in), out, &nans)
	}
	return nans
}

// MulF32Flush is MulF32 flushing.
func MulF32Flush(d, a, b *[64]uint32, n int, in, out uint32) (nans uint64) {
	if SIMD {
		return mulF32FlushAVX(d, a, b, n, in, out) & lowLanes(n)
	}
	return mulF32FlushGo(d, a, b, n, in, out)
}

// mulF32FlushGo is MulF32Flush's Go definition.
func mulF32FlushGo(d, a, b *[64]uint32, n int, in, out uint32) (nans uint64) {
	for l := range n {
		setFlushF32(d, l, ftzAt(a, l, in)*ftzAt(b, l, in), out, &nans)
	}
	return nans
}

// MadF32Flush is MadF32 flushing: the rounded product is flushed by out
// before the add.
func MadF32Flush(d, a, b, c *[64]uint32, n int, in, out uint32) (nans uint64) {
	switch {
	case SIMD && in != 0 && out == 0:
		return madF32FlushIn(d, a, b, c, n, in)
	case SIMD:
		return madF32FlushAVX(d, a, b, c, n, in, out) & lowLanes(n)
	}
	return madF32FlushGo(d, a, b, c, n, in, out)
}

// madF32FlushIn is MadF32Flush flushing inputs only, where DAZ would
// flush the kept denormal product too: the plain row on flushed copies of
// the sources.
func madF32FlushIn(d, a, b, c *[64]uint32, n int, in uint32) (nans uint64) {
	var x, y, z [64]uint32
	FlushF32(&x, a, n, in)
	FlushF32(&y, b, n, in)
	FlushF32(&z, c, n, in)
	return MadF32(d, &x, &y, &z, n)
}

// madF32FlushGo is MadF32Flush's Go definition.
func madF32FlushGo(d, a, b, c *[64]uint32, n int, in, out uint32) (nans uint64) {
	for l := range n {
		p := ftz(math.Float32bits(ftzAt(a, l, in)*ftzAt(b, l, in)), out) // a NaN p keeps its bits
		setFlushF32(d, l, math.Float32frombits(p)+ftzAt(c, l, in), out, &nans)
	}
	return nans
}

// FmaF32Flush is FmaF32 flushing.
func FmaF32Flush(d, a, b, c *[64]uint32, n int, in, out uint32) (nans uint64) {
	if FMA {
		return fmaF32FlushAVX(d, a, b, c, n, in, out) & lowLanes(n)
	}
	return fmaF32FlushGo(d, a, b, c, n, in, out)
}

// fmaF32FlushGo is FmaF32Flush's Go definition: FmaF32's on the flushed
// sources, one lane at a time, then the result flushed.
func fmaF32FlushGo(d, a, b, c *[64]uint32, n int, in, out uint32) (nans uint64) {
	var x, y, z, r [64]uint32
	for l := range n {
		x[l], y[l], z[l] = ftz(a[l], in), ftz(b[l], in), ftz(c[l], in)
	}
	nans = fmaF32Go(&r, &x, &y, &z, n)
	for l := range n {
		if nans>>l&1 == 0 {
			d[l] = ftz(r[l], out)
		}
	}
	return nans
}

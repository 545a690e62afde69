package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	simd "github.com/wavedbg/wavedbg/emu/internal/lanes"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"unsafe"
)

// loadRun reads a T for each lane of dst from p, step bytes a lane,
// extended to 32 bits (signed types sign-extend).
func loadRun[T int8 | uint8 | int16 | uint16](dst []uint32, p unsafe.Pointer, step uintptr) {
	for l := range dst {
		dst[l] = uint32(*(*T)(unsafe.Add(p, step*uintptr(l))))
	}
}

// storeRun writes the lanes of mask of src, shifted right by shift, as Ts
// from p, step bytes a lane.
func storeRun[T uint8 | uint16](p unsafe.Pointer, step uintptr, src []uint32, shift uint, mask uint64) {
	if mask == ^uint64(0)>>(64-len(src)) && step == unsafe.Sizeof(T(0)) {
		if step == 1 {
			StoreBytes(p, src, shift)
		} else {
			StoreShorts(p, src, shift)
		}
		return
	}
	if mask == ^uint64(0)>>(64-len(src)) {
		for l, x := range src {
			*(*T)(unsafe.Add(p, step*uintptr(l))) = T(x >> shift)
		}
		return
	}
	for ; mask != 0; mask &= mask - 1 {
		l := core.Tz(mask) & 63
		*(*T)(unsafe.Add(p, step*uintptr(l))) = T(src[l] >> shift)
	}
}

// moveDwords moves lanes l0 to l1-1 of a run of whole dwords, step bytes
// a lane (0, or at least the element's size) from a, all in a's page.
func moveDwords(u *ref.VMemUnit, w *core.Wave, o *ref.VmOp, exec uint64, c *ref.MemCtx, a, step uint64, l0, l1 int) {
	store := o.Kind == ref.VmStore
	mask := exec >> (uint(l0) & 63) & (^uint64(0) >> (uint(64-(l1-l0)) & 63)) // l1-l0 ≥ 1
	if store && mask == 0 {
		return // no page for a store with nothing to write
	}
	nch, sd := c.Size/4, int(step/4) // dwords an element, dwords a lane
	run := dwords(&o.Last, a, uint64(nch+sd*(l1-l0-1)), store)
	full := mask == ^uint64(0)>>(64-(l1-l0))
	switch {
	case sd == 0: // a load: one element for every lane
		for k := range nch {
			x, d := run[k], c.Res.Data[k][l0:l1]
			for l := range d {
				d[l] = x
			}
		}
	case sd == 1 && store && full:
		copyDwords(run, w.V[o.Vdata][l0:l1])
	case sd == 1 && store:
		src := w.V[o.Vdata][l0:l1]
		for ; mask != 0; mask &= mask - 1 {
			l := core.Tz(mask) & 63
			run[l] = src[l]
		}
	case sd == 1:
		copyDwords(c.Res.Data[0][l0:l1], run)
	case nch == 2 && store && full:
		v := w.V[o.Vdata : o.Vdata+2]
		storePairs(run, sd, v[0][l0:l1], v[1][l0:l1])
	case nch == 2 && !store:
		loadPairs(run, sd, c.Res.Data[0][l0:l1], c.Res.Data[1][l0:l1])
	case nch == 4 && store && full:
		v := w.V[o.Vdata : o.Vdata+4]
		storeQuads(run, sd, v[0][l0:l1], v[1][l0:l1], v[2][l0:l1], v[3][l0:l1])
	case nch == 4 && !store:
		d := &c.Res.Data
		loadQuads(run, sd, d[0][l0:l1], d[1][l0:l1], d[2][l0:l1], d[3][l0:l1])
	case store:
		for k := range nch {
			src := w.V[o.Vdata+k][l0:l1]
			for h := mask; h != 0; h &= h - 1 {
				l := core.Tz(h) & 63
				run[l*sd+k] = src[l]
			}
		}
	default:
		for k := range nch {
			d := c.Res.Data[k][l0:l1]
			for l := range d {
				d[l] = run[l*sd+k]
			}
		}
	}
}

// storePairs writes lane l's dwords x and y at run[sd·l:], each with one
// 32-bit store, in one pass over the run.
func storePairs(run []uint32, sd int, x, y []uint32) {
	n := len(x)
	_ = run[sd*(n-1)+1] // every lane's dwords lie in run
	p, st := unsafe.Pointer(&run[0]), uintptr(4*sd)
	y = y[:n]
	for l := range x {
		q := (*[2]uint32)(unsafe.Add(p, uintptr(l)*st))
		q[0], q[1] = x[l], y[l]
	}
}

// loadPairs reads lane l's two dwords at run[sd·l:] into x and y, in one
// pass over the run.
func loadPairs(run []uint32, sd int, x, y []uint32) {
	n := len(x)
	_ = run[sd*(n-1)+1]
	p, st := unsafe.Pointer(&run[0]), uintptr(4*sd)
	y = y[:n]
	for l := range x {
		q := (*[2]uint32)(unsafe.Add(p, uintptr(l)*st))
		x[l], y[l] = q[0], q[1]
	}
}

// storeQuads writes lane l's dwords x, y, z and w at run[sd·l:], each
// with one 32-bit store, in one pass over the run.
func storeQuads(run []uint32, sd int, x, y, z, w []uint32) {
	n := len(x)
	_ = run[sd*(n-1)+3] // every lane's dwords lie in run
	p, st := unsafe.Pointer(&run[0]), uintptr(4*sd)
	y, z, w = y[:n], z[:n], w[:n]
	for l := range x {
		q := (*[4]uint32)(unsafe.Add(p, uintptr(l)*st))
		q[0], q[1], q[2], q[3] = x[l], y[l], z[l], w[l]
	}
}

// loadQuads reads lane l's four dwords at run[sd·l:] into x, y, z and w,
// in one pass over the run.
func loadQuads(run []uint32, sd int, x, y, z, w []uint32) {
	n := len(x)
	_ = run[sd*(n-1)+3]
	p, st := unsafe.Pointer(&run[0]), uintptr(4*sd)
	y, z, w = y[:n], z[:n], w[:n]
	for l := range x {
		q := (*[4]uint32)(unsafe.Add(p, uintptr(l)*st))
		x[l], y[l], z[l], w[l] = q[0], q[1], q[2], q[3]
	}
}

// dwords returns the n dwords at a, all in one page of the allocation
// o.last covers (created for a store).
func dwords(c *ref.OpCache, a, n uint64, store bool) []uint32 {
	i := a & (core.PageSize - 1) / 4
	return (*[core.PageSize / 4]uint32)(unsafe.Pointer(Page(c, a>>core.PageBits, store)))[i : i+n : i+n]
}

// copyDwords copies src to dst a dword at a time (never memmove: see
// core/memory_shared.go), four to a step.
func copyDwords(dst, src []uint32) {
	n := len(src)
	dst = dst[:n]
	if n == 0 {
		return
	}
	pd, ps, i := unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), 0
	for ; i+4 <= n; i += 4 {
		d, s := (*[4]uint32)(unsafe.Add(pd, 4*i)), (*[4]uint32)(unsafe.Add(ps, 4*i))
		// not in address order: the compiler merges an adjacent
		// pair's loads and stores into one 64-bit move
		d[0], d[2] = s[0], s[2]
		d[1], d[3] = s[1], s[3]
	}
	for ; i < n; i++ {
		dst[i] = src[i]
	}
}

// LoadBytes reads len(dst) consecutive bytes from b into dst, zero- or
// (signed) sign-extended, reading exactly those bytes.
func LoadBytes(dst []uint32, b []byte, signed bool) { simd.WidenBytes(dst, b, signed) }

// LoadShorts reads len(dst) consecutive little-endian shorts from b into
// dst, zero- or (signed) sign-extended, reading exactly those bytes.
func LoadShorts(dst []uint32, b []byte, signed bool) { simd.WidenShorts(dst, b, signed) }

// StoreBytes writes the low byte of each of src, shifted right by shift
// (0 or 16: d16Shift), at p and on: every lane's byte is written, exactly
// once, and no other byte (core/memory_shared.go).
func StoreBytes(p unsafe.Pointer, src []uint32, shift uint) {
	simd.NarrowBytes(unsafe.Slice((*byte)(p), len(src)), src, shift != 0)
}

// StoreShorts writes the low short of each of src, shifted right by
// shift (0 or 16), at p and on, as storeBytes writes bytes.
func StoreShorts(p unsafe.Pointer, src []uint32, shift uint) {
	simd.NarrowShorts(unsafe.Slice((*byte)(p), 2*len(src)), src, shift != 0)
}

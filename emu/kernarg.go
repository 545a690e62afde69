package emu

// The kernarg segment of a dispatch.

import (
	"fmt"

	"github.com/wavedbg/wavedbg/loader"
)

// MaxKernarg bounds the kernarg segment a launch builds, in bytes (1 MiB;
// real kernels take a few KiB), so that a corrupt KERNARG_SIZE or argument
// offset is refused instead of allocated.
const MaxKernarg = 1 << 20

// BuildKernarg lays out the kernarg segment: explicit arguments from vals
// (one entry per non-hidden metadata argument, already encoded: a pointer
// for buffers, an LDS offset for locals, the bytes of by-value arguments)
// and every hidden argument at its metadata offset. The segment and every
// argument must lie within MaxKernarg bytes.
func (d *Dispatch) BuildKernarg(meta *loader.KernelMeta, vals [][]byte) ([]byte, error) {
	size := uint64(d.ABI.KernargSize)
	for i, a := range meta.Args {
		if end := a.Offset + a.Size; end < a.Offset || end > MaxKernarg {
			return nil, fmt.Errorf("%w: argument %d at %d+%d ends past the %d bytes a kernarg segment may hold", errKernarg, i, a.Offset, a.Size, MaxKernarg)
		}
		size = max(size, a.Offset+a.Size)
	}
	if size > MaxKernarg {
		return nil, fmt.Errorf("%w: segment of %d bytes is larger than the %d bytes a kernarg segment may hold", errKernarg, size, MaxKernarg)
	}
	b := make([]byte, size)
	i := 0
	for _, a := range meta.Args {
		var v []byte
		if a.ValueKind.Hidden() {
			v = d.hiddenValue(a.ValueKind, int(a.Size))
		} else {
			if i >= len(vals) {
				return nil, fmt.Errorf("%w: %d explicit argument values for more arguments", errKernarg, len(vals))
			}
			v = vals[i]
			i++
			if uint64(len(v)) > a.Size {
				return nil, fmt.Errorf("%w: argument %d has %d bytes, more than its %d", errKernarg, i-1, len(v), a.Size)
			}
		}
		copy(b[a.Offset:], v)
	}
	if i != len(vals) {
		return nil, fmt.Errorf("%w: %d explicit argument values for %d arguments", errKernarg, len(vals), i)
	}
	return b, nil
}

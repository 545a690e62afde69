package emu

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/loader"
)

// MaxKernarg bounds the kernarg segment a launch builds, in bytes (1 MiB;
// real kernels take a few KiB), so that a corrupt KERNARG_SIZE or argument
// offset is refused instead of allocated.
const MaxKernarg = 1 << 20

// errKernarg reports a kernarg layout problem.
var errKernarg = errors.New("emu: kernarg layout")

// hiddenValue returns the bytes of hidden argument kind for dispatch d.
func (d *Dispatch) hiddenValue(kind loader.ValueKind, size int) []byte {
	b := make([]byte, max(size, 8))
	le := binary.LittleEndian
	dim := func(k loader.ValueKind, x, y, z loader.ValueKind) int {
		switch k {
		case x:
			return 0
		case y:
			return 1
		case z:
			return 2
		}
		return -1
	}
	if i := dim(kind, loader.HiddenGlobalOffsetX, loader.HiddenGlobalOffsetY, loader.HiddenGlobalOffsetZ); i >= 0 {
		le.PutUint64(b, uint64(d.Offset[i]))
	} else if i := dim(kind, loader.HiddenBlockCountX, loader.HiddenBlockCountY, loader.HiddenBlockCountZ); i >= 0 {
		// Whole work-groups only: the partial one is counted by the remainder.
		le.PutUint32(b, d.Grid[i]/d.Block[i])
	} else if i := dim(kind, loader.HiddenGroupSizeX, loader.HiddenGroupSizeY, loader.HiddenGroupSizeZ); i >= 0 {
		le.PutUint16(b, uint16(d.Block[i]))
	} else if i := dim(kind, loader.HiddenRemainderX, loader.HiddenRemainderY, loader.HiddenRemainderZ); i >= 0 {
		le.PutUint16(b, uint16(d.Grid[i]%d.Block[i]))
	} else {
		switch kind {
		case loader.HiddenGridDims:
			le.PutUint16(b, uint16(d.Dims))
		case loader.HiddenPrivateBase:
			le.PutUint32(b, uint32(core.PrivateApertureBase>>32))
		case loader.HiddenSharedBase:
			le.PutUint32(b, uint32(core.SharedApertureBase>>32))
		case loader.HiddenQueuePtr:
			le.PutUint64(b, d.QueueAddr)
		case loader.HiddenDynamicLDSSize:
			le.PutUint32(b, d.GroupLDS-d.ABI.GroupSegmentFixedSize)
		}
		// hidden_none, printf/hostcall buffers, default queue, completion
		// action, multigrid sync and heap: null (no such services).
	}
	return b[:size]
}

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

package emu

import (
	"fmt"
)

// BufferPointer is a device address written into a buffer once every
// buffer is placed: argument Ref's buffer address plus Offset, as 8
// little-endian bytes at byte At.
type BufferPointer struct {
	At     uint64
	Ref    int
	Offset uint64
}

// placeArgs maps every ArgBuffer, writes the pointers buffers hold, and
// returns the explicit argument values and the LDS a work-group needs,
// starting from fixed bytes of static LDS.
func (g *gridRun) placeArgs(fixed uint64) (vals [][]byte, lds uint64, err error) {
	l, mem := g.l, g.mem
	g.bufs = make([]uint64, len(l.Args))
	g.data = make([][]byte, len(l.Args))
	size := func(a LaunchArg) uint64 { return uint64(max(len(a.Data), 1)) }
	// Fixed addresses first, so that allocations go around them.
	for i, a := range l.Args {
		if a.Kind == ArgBuffer && a.Addr != 0 {
			if a.Addr < minFixedAddr {
				return nil, 0, fmt.Errorf("emu: argument %d: fixed address %#x is in the first %d bytes, kept unmapped for null pointers", i, a.Addr, minFixedAddr)
			}
			if err := mem.Map(fmt.Sprintf("arg%d", i), a.Addr, size(a), false); err != nil {
				return nil, 0, fmt.Errorf("emu: argument %d: fixed address %#x: %w", i, a.Addr, err)
			}
			g.bufs[i] = a.Addr
		}
	}
	for i, a := range l.Args {
		if a.Kind != ArgBuffer {
			continue
		}
		if a.Addr == 0 {
			if g.bufs[i], err = mem.Alloc(fmt.Sprintf("arg%d", i), size(a), 256); err != nil {
				return nil, 0, err
			}
		}
		if g.data[i], err = g.placeBuffer(g.bufs[i], a.Data, g.data[:i]); err != nil {
			return nil, 0, err
		}
		l.Args[i].Data = nil // owned by the emulator's memory now
	}
	// Relocations: every buffer has its address now.
	for i, a := range l.Args {
		for _, p := range a.Pointers {
			addr, err := g.bufferAddr(p.Ref, p.Offset)
			if err != nil {
				return nil, 0, fmt.Errorf("emu: argument %d: pointer at byte %d: %w", i, p.At, err)
			}
			if a.Kind != ArgBuffer || p.At > uint64(len(g.data[i])) || uint64(len(g.data[i]))-p.At < 8 {
				return nil, 0, fmt.Errorf("emu: argument %d: pointer at byte %d is outside its buffer", i, p.At)
			}
			if err := mem.WriteU64(g.bufs[i]+p.At, addr); err != nil {
				return nil, 0, err
			}
		}
	}
	lds = fixed
	for i, a := range l.Args {
		switch a.Kind {
		case ArgBuffer, ArgAlias:
			ref := i
			if a.Kind == ArgAlias {
				ref = a.Ref
			}
			addr, err := g.bufferAddr(ref, a.Offset)
			if err != nil {
				return nil, 0, fmt.Errorf("emu: argument %d: %w", i, err)
			}
			vals = append(vals, le64(addr))
		case ArgValue:
			vals = append(vals, a.Data)
		case ArgLocal:
			lds = (lds + 15) &^ 15
			vals = append(vals, le32(uint32(lds)))
			lds += uint64(a.Size)
		}
	}
	return vals, lds, nil
}

// minFixedAddr is the lowest fixed buffer address: the first page stays
// unmapped, so that a null pointer (plus a small offset) faults.
const minFixedAddr = 4096

// bufferAddr returns the address off bytes into argument ref's buffer.
func (g *gridRun) bufferAddr(ref int, off uint64) (uint64, error) {
	if ref < 0 || ref >= len(g.l.Args) || g.l.Args[ref].Kind != ArgBuffer {
		return 0, fmt.Errorf("argument %d is not a buffer", ref)
	}
	if n := uint64(len(g.data[ref])); off > n {
		return 0, fmt.Errorf("offset %d is beyond the %d bytes of argument %d's buffer", off, n, ref)
	}
	return g.bufs[ref] + off, nil
}

package emu

import "unsafe"

// Source rows of the VALU fast paths. src32 and srcMod (valu_fast.go) run
// for every source of every fast VALU instruction; srcRows decides at
// compile time what they would find in the operand, so that the common
// sources — a VGPR, a prefilled constant, with no modifiers — cost one
// test, and a uniform value fills only the lanes a kernel reads.

// instr.vsrc: the kind of a source (vsKind), the register of a VGPR or
// SGPR source in the low byte, and vsMod when it has abs or neg. Kind 0 is
// anything else, which src32Slow and srcModSlow work out from the operand.
const (
	vsV    = 1 << 8 // a VGPR
	vsC    = 2 << 8 // a constant, prefilled in instr.cf
	vsS    = 3 << 8 // an SGPR (s0 to s127 by scalar code)
	vsKind = 3 << 8
	vsMod  = 1 << 10
)

// srcRows sets in.vsrc for a compiled fast-path instruction, after
// prefill. A v_mac_* addend is its destination, without modifiers.
func (in *instr) srcRows() {
	in.vsrc = [4]uint16{}
	mac := in.def != nil && in.def.v != nil && in.def.v.mac
	for k := 0; k < 3 && k < int(in.nsrc); k++ {
		o := &in.src[k]
		s := &in.vsrc[k]
		if k == 2 && mac {
			o = &in.dst[0]
		} else if o.abs || o.neg {
			*s |= vsMod
		}
		switch {
		case o.kind == okV && o.reg < 256:
			*s |= vsV | o.reg
		case o.kind == okConst && in.cf != nil:
			*s |= vsC
		case o.kind == okS && o.reg < 128:
			*s |= vsS | o.reg
		}
	}
}

// src32Slow is src32 for a source of a kind srcRows leaves to it (or of
// an instruction it did not see).
func (w *Wave) src32Slow(in *instr, k int, buf *[64]uint32) *[64]uint32 {
	o := &in.src[k]
	if k == 2 && in.def.v.mac { // (VOPC has no vop: k < 2)
		o = &in.dst[0]
	}
	switch {
	case o.kind == okV:
		return &w.v[o.reg]
	case o.kind == okConst && in.cf != nil:
		return &in.cf[2*k]
	}
	return fillLive(buf, w.sv(o), liveLanes(w.exec()))
}

// srcModSlow is srcMod for a source of a kind srcRows leaves to it or with
// abs or neg.
func (w *Wave) srcModSlow(in *instr, k int, buf *[64]uint32) *[64]uint32 {
	src := w.src32(in, k, buf)
	o := &in.src[k]
	if !o.abs && !o.neg || k == 2 && in.def.v.mac {
		return src
	}
	var am, nm uint32
	if o.abs {
		am = 1 << 31
	}
	if o.neg {
		nm = 1 << 31
	}
	for l := range buf {
		buf[l] = src[l]&^am ^ nm
	}
	return buf
}

// fillLive sets lanes 0 to n-1 of buf to x, eight lanes a step (so up to
// n rounded up to 8); buf must be 8-byte aligned (as for fill). A kernel
// reads lane l of its sources for lane l of its result and computes no
// lane past the highest EXEC lane but to finish a group of four, whose
// result it drops: a uniform source needs no more lanes than that.
func fillLive(buf *[64]uint32, x uint32, n int) *[64]uint32 {
	q := (*[8][4]uint64)(unsafe.Pointer(buf))
	v := uint64(x) | uint64(x)<<32
	for i := range (n + 7) >> 3 {
		q[i&7] = [4]uint64{v, v, v, v}
	}
	return buf
}

// srcRow is srcMod's answer when it needs no buffer — source k is a VGPR
// or a prefilled constant, without abs or neg — else nil: runKernel asks
// it first, inlined, and calls srcMod only for the rest.
func (w *Wave) srcRow(in *instr, k int) *[64]uint32 {
	switch s := in.vsrc[k&3]; s & (vsKind | vsMod) {
	case vsV:
		return &w.v[uint8(s)]
	case vsC:
		return &in.cf[2*(k&3)]
	}
	return nil
}

package emu

import (
	"encoding/binary"
	"strings"
)

// The scalar-load fast path. Nearly every SMEM instruction of a compiled
// kernel is an s_load_dword… of the kernel arguments or the dispatch
// packet: an SGPR-pair base, an immediate offset, an aligned SGPR
// destination, one allocation, one cache line. execSLoad executes those
// with history off without the general path's operand decoding, per-dword
// address records and range checks, leaving exactly the state execSMEM
// leaves (TestSMEMFastMatchesGeneral).

// sloadEligible reports whether a compiled SMEM instruction has the form
// execSLoad takes: s_load_dword…dwordx16 without GLC, SBASE an SGPR pair
// (or a trap-temporary pair) in range, one immediate offset and an SDATA
// of plain SGPRs aligned as the fetch size requires.
func sloadEligible(in *instr) bool {
	if !strings.HasPrefix(in.name, "s_load_dword") || in.def == nil || in.in == nil || in.in.Mods.GLC {
		return false
	}
	if in.ndst != 1 || in.nsrc != 2 || in.dst[0].kind != okS || in.src[0].kind != okS || in.src[1].kind != okConst {
		return false
	}
	n := int(in.sub >> 4 & 0x1f)
	sd, sb := int(in.dst[0].reg), int(in.src[0].reg)
	align := min(n, 4)
	return sd%align == 0 && sd+n <= 102 && (sb+2 <= 102 || sb >= 106 && sb+2 <= 128)
}

// execSLoad executes an instruction sloadEligible accepts. With history
// on, or when the access leaves its allocation or its cache line, it is
// execSMEM.
func execSLoad(w *Wave, in *instr) error {
	if w.jOn {
		return execSMEM(w, in)
	}
	n := uint64(in.sub >> 4 & 0x1f)
	sb := in.src[0].reg & 127
	base := uint64(w.s[sb]) | uint64(w.s[(sb+1)&127]&0xffff)<<32
	addr := base&^3 + uint64(smemImmOffset(w.target, false, int64(in.src[1].val))&^3)
	off := addr & (lineBytes - 1)
	if off+4*n > lineBytes || !w.inAlloc(addr, 4*n) {
		return execSMEM(w, in)
	}
	lat := &w.m.Config.Latency
	done := w.clock() + uint64(lat.ScalarHit)
	i := w.lookup(addr)
	if i >= 0 {
		w.touch(i)
	} else {
		i = w.fill(addr, false)
		done = w.clock() + uint64(lat.ScalarMiss)
	}
	p := w.pushOp(cntLGKM, lgkmInc(int(n)), done)
	p.dst, p.n = in.dst[0].reg, uint8(n)
	d := w.cache.lines[i].data[off : off+4*n]
	for k := range p.data[:n] {
		p.data[k] = binary.LittleEndian.Uint32(d[4*k:])
	}
	w.issued(p)
	return nil
}

// inAlloc reports whether [addr, addr+n) lies in one allocation.
func (w *Wave) inAlloc(addr, n uint64) bool {
	lo, size, _, ok := w.allocAt(addr)
	return ok && addr+n >= addr && addr+n-lo <= size
}

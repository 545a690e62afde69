package emu

import (
	"fmt"

	"github.com/wavedbg/wavedbg/isa"
)

// SMEM operations. The rules follow the "Scalar Memory Operations" chapter
// of AMD's "Vega" and GCN3 ISA guides (samples/REFERENCES.md), corrected by
// what llvm-mc-19 assembles; the decisions on ambiguities are in RATIONALE.md.
const (
	mLoad = iota
	mBufLoad
	mStore
	mBufStore
	mAtomic
	mDcacheInv
	mDcacheInvVol
	mDcacheWb
	mDcacheWbVol
	mDiscard
	mMemtime
	mMemrealtime
	mAtcProbe
	mAtcProbeBuf
)

// more SMEM kinds (the sub field's kind has 4 bits)
const (
	mBufAtomic   = 14
	mScratchLoad = 15
)

// scratch stores use mStore with the scratch flag in bit 14 of sub.
const smemScratch = 1 << 14

// atomic operations (sub >> 8)
const (
	aSwap = iota
	aCmpswap
	aAdd
	aSub
	aSmin
	aUmin
	aSmax
	aUmax
	aAnd
	aOr
	aXor
	aInc
	aDec
)

// smem sub encodes: kind | dwords<<4 | atomic op<<9
func smemSub(kind, n, atom int) int32 { return int32(kind | n<<4 | atom<<9) }

// lgkmInc is the LGKM_CNT increment of an SMEM access of n dwords: one for a
// single dword, two for more (Vega ISA §7.3).
func lgkmInc(n int) uint8 {
	if n <= 1 {
		return 1
	}
	return 2
}

// validSData reports whether scalar code c may receive SMEM data: an SGPR,
// VCC or a trap temporary, never EXEC or M0 (Vega ISA §7.1 Microcode
// Encoding, SDATA).
func (w *Wave) validSData(c int) bool {
	switch {
	case c < 102, c == codeVCC, c == codeVCC+1:
		return true
	case w.target == isa.GFX8:
		return c >= codeTTMP8 && c < codeTTMP8+12
	default:
		return c >= codeTTMP9 && c < codeTTMP9+16
	}
}

// smemAddr computes an SMEM address: base + inst_offset + (SGPR or M0
// offset), each component with its low two bits treated as zero
// (Vega ISA §7.2.1). For S_BUFFER_* it
// also returns the byte offset within the buffer and the buffer size.
type smemAccess struct {
	addr   uint64 // address of the first dword
	off    int64  // offset from the base
	sbase  int    // the SGPR SBASE was read from (S_BUFFER: the V#)
	size   uint64 // buffer size in bytes (buffers)
	buffer bool
}

func (w *Wave) smemAddress(in *instr, sbase *operand, offs []operand, buffer, scratch bool) (smemAccess, error) {
	var acc smemAccess
	acc.buffer = buffer
	sb := int(sbase.reg)
	nb := 2
	if buffer {
		nb = 4
		if sb%4 != 0 && sb < 102 {
			// SBASE must name an SGPR multiple of 4 for S_BUFFER (Vega ISA §7.4, SBASE).
			w.note(fmt.Sprintf("S_BUFFER SBASE s%d is not a multiple of 4; using s%d", sb, sb&^3))
			sb &^= 3
		}
	}
	if sbase.kind != okS || sb+nb > 102 && !(sb >= 106 && sb+nb <= 128) {
		// Out-of-range SBASE reads SGPR0's value (Vega ISA §7.4, SBASE).
		w.note(fmt.Sprintf("SBASE %s is out of range; using s0", scalarName(w.target, sb)))
		sb = 0
	}
	acc.sbase = sb
	lo, hi := w.rs(sb), w.rs(sb+1)
	base := uint64(lo) | uint64(hi&0xffff)<<32 // 48-bit base (Vega ISA §7.2.1, m_base)
	var instOff, regOff int64
	haveImm, haveReg := false, false
	for k := range offs {
		o := &offs[k]
		switch o.kind {
		case okConst:
			instOff, haveImm = int64(o.val), true
		case okS:
			regOff, haveReg = int64(w.rs(int(o.reg))), true
		}
	}
	if m := &in.in.Mods; !haveImm && m.Imm {
		instOff, haveImm = int64(m.Offset), true
	}
	if haveImm {
		instOff = smemImmOffset(w.target, buffer, instOff)
	}
	if instOff < 0 && haveReg && instOff+regOff < 0 {
		// Vega ISA §7.2.1: a negative inst_offset whose sum with the M0/SGPR offset is negative is illegal
		return acc, &Fault{PC: in.pc, Lane: -1, Addr: base, Reason: "negative SMEM offset sum (illegal)"}
	}
	off := instOff&^3 + regOff&^3
	if scratch {
		// S_SCRATCH_*: SGPR[base] + inst_offset + {M0 or SGPR[offset]} * 64 (Vega ISA §7.2.1)
		off = instOff&^3 + regOff*64
	}
	if buffer {
		base &^= 3
		stride := uint64(hi>>16) & 0x3fff
		num := uint64(w.rs(sb + 2))
		acc.size = num
		if stride != 0 {
			acc.size = num * stride
		}
	}
	acc.off = off
	acc.addr = base&^3 + uint64(off)
	return acc, nil
}

// smemImmOffset applies the OFFSET field's width to an immediate offset:
// GFX8 unsigned 20-bit; GFX9 signed 21-bit for S_LOAD/S_STORE/S_ATOMIC,
// unsigned 20-bit for S_BUFFER_* (as llvm-mc-19 assembles them).
func smemImmOffset(t isa.Target, buffer bool, v int64) int64 {
	if t == isa.GFX9 && !buffer {
		return v << 43 >> 43
	}
	return v & 0xfffff
}

// execSMEM executes scalar memory instructions through the scalar cache.
func execSMEM(w *Wave, in *instr) error {
	kind, n, atom, scratch := smemKind(in)
	lat := &w.m.Config.Latency
	glc := in.in.Mods.GLC
	now := w.clock()
	switch kind {
	case mDcacheInv, mDcacheInvVol:
		w.invalidate(kind == mDcacheInvVol)
		w.issue(pendingOp{cnt: cntLGKM, inc: 1, done: now + uint64(lat.ScalarOp)})
		return nil
	case mDcacheWb, mDcacheWbVol:
		w.writeBackAll(kind == mDcacheWbVol)
		w.issue(pendingOp{cnt: cntLGKM, inc: 1, done: now + uint64(lat.ScalarOp)})
		return nil
	case mMemtime, mMemrealtime:
		if in.ndst < 1 || in.dst[0].kind != okS {
			return execBadOperands(w, in)
		}
		v := now
		if kind == mMemrealtime {
			v = now / uint64(max(lat.RealTimeDiv, 1))
		}
		sd, ok := w.sdataCheck(int(in.dst[0].reg), 2)
		if !ok {
			return nil
		}
		// S_MEMTIME counts as a two-dword fetch (Vega ISA §7.3, §7.4).
		w.issue(pendingOp{cnt: cntLGKM, inc: 2, done: now + uint64(lat.MemTime), dst: uint16(sd), n: 2,
			data: [16]uint32{uint32(v), uint32(v >> 32)}})
		return nil
	}
	if (kind == mAtomic || kind == mBufAtomic || kind == mDiscard || scratch) && w.target != isa.GFX9 {
		return &ExecError{PC: in.pc, Op: in.name, Msg: "scalar atomics and s_dcache_discard exist on GFX9 only"}
	}
	buffer := smemBuffer(kind)
	sdata, srcs, ok := smemOperands(in, kind)
	if !ok {
		return execBadOperands(w, in)
	}
	acc, err := w.smemAddress(in, &srcs[0], srcs[1:], buffer, scratch)
	if err != nil {
		return err
	}
	switch kind {
	case mAtcProbe, mAtcProbeBuf:
		w.issue(pendingOp{cnt: cntLGKM, inc: 1, done: now + uint64(lat.ScalarOp)})
		return nil
	case mDiscard:
		// Address as S_STORE_DWORD, aligned to 64 bytes (Vega ISA §7.2.1); LGKM +1.
		a := acc.addr &^ (lineBytes - 1)
		for k := 0; k < n; k++ {
			w.discard(a + uint64(k)*lineBytes)
		}
		w.issue(pendingOp{cnt: cntLGKM, inc: 1, done: now + uint64(lat.ScalarOp)})
		return nil
	}
	// Per-dword addresses and range checks.
	var skip uint16
	for k := 0; k < n; k++ {
		a, inRange := acc.dword(k)
		if !inRange {
			skip |= 1 << uint(k)
		}
		w.laneAddr(LaneAddr{Lane: -1, Addr: a, Size: 4, InRange: inRange, Mapped: true})
	}
	// Fault on the first unmapped dword performed (none when the access
	// lies in one allocation, the common case).
	check := skip != 0 || !w.rangeMapped(acc.addr, 4*n)
	for k := 0; check && k < n; k++ {
		if skip>>uint(k)&1 != 0 {
			continue
		}
		a := acc.addr + uint64(4*k)
		if ok, bad := w.m.Mem.Mapped(a, 4); !ok {
			w.laneUnmapped(n - k)
			return &Fault{PC: in.pc, Lane: -1, Addr: bad, Size: 4, Write: kind != mLoad && kind != mBufLoad, Reason: "unmapped"}
		}
	}
	switch kind {
	case mLoad, mBufLoad:
		if sdata.kind != okS {
			return execBadOperands(w, in)
		}
		sd, ok := w.sdataCheck(int(sdata.reg), n)
		if !ok {
			return nil
		}
		op := pendingOp{cnt: cntLGKM, inc: lgkmInc(n), dst: uint16(sd), n: uint8(n), skip: skip}
		allHit := true
		lastLine := ^uint64(0)
		li := -1
		for k := 0; k < n; k++ {
			if skip>>uint(k)&1 != 0 {
				continue
			}
			a := acc.addr + uint64(4*k)
			if la := a &^ (lineBytes - 1); la != lastLine {
				var hit bool
				li, hit = w.loadLine(a, glc)
				allHit = allHit && hit
				lastLine = la
			}
			op.data[k] = w.lineDword(li, a)
			w.noteStale(li, a, op.data[k])
		}
		op.done = now + uint64(lat.ScalarHit)
		if !allHit {
			op.done = now + uint64(lat.ScalarMiss)
		}
		w.issue(op)
	case mStore, mBufStore:
		if sdata.kind != okS {
			return execBadOperands(w, in)
		}
		lastLine := ^uint64(0)
		li := -1
		for k := 0; k < n; k++ {
			if skip>>uint(k)&1 != 0 {
				continue
			}
			a := acc.addr + uint64(4*k)
			v := w.rs(int(sdata.reg) + k)
			if la := a &^ (lineBytes - 1); la != lastLine {
				li, _ = w.storeLine(a, glc)
				lastLine = la
			}
			w.storeDword(li, a, v, glc)
		}
		done := now + uint64(lat.ScalarHit)
		if glc {
			done = now + uint64(lat.ScalarMiss)
		}
		w.issue(pendingOp{cnt: cntLGKM, inc: lgkmInc(n), done: done})
	case mAtomic, mBufAtomic:
		if skip != 0 {
			w.note("S_BUFFER_ATOMIC out of range: not performed")
			return nil
		}
		return w.smemAtomic(in, sdata, acc.addr, n, atom, glc)
	}
	return nil
}

// smemKind splits an SMEM operation's sub field: its kind (a scratch load
// is mLoad with scratch set), dwords and atomic operation.
func smemKind(in *instr) (kind, n, atom int, scratch bool) {
	kind, n, atom = int(in.sub&0xf), int(in.sub>>4&0x1f), int(in.sub>>9&0x1f)
	scratch = kind == mScratchLoad || in.sub&smemScratch != 0
	if kind == mScratchLoad {
		kind = mLoad
	}
	return
}

// smemBuffer reports whether an SMEM kind addresses through a V#.
func smemBuffer(kind int) bool {
	return kind == mBufLoad || kind == mBufStore || kind == mAtcProbeBuf || kind == mBufAtomic
}

// smemOperands locates SDATA, SBASE and the offsets among an SMEM
// instruction's operands (LLVM print order): srcs[0] is SBASE. ok is false
// when they are malformed.
func smemOperands(in *instr, kind int) (sdata *operand, srcs []operand, ok bool) {
	switch kind {
	case mLoad, mBufLoad:
		if in.ndst < 1 || in.nsrc < 1 {
			return nil, nil, false
		}
		sdata, srcs = &in.dst[0], in.src[:in.nsrc]
	case mStore, mBufStore, mAtomic, mBufAtomic:
		if in.nsrc < 2 {
			return nil, nil, false
		}
		sdata, srcs = &in.src[0], in.src[1:in.nsrc]
	case mAtcProbe, mAtcProbeBuf:
		if in.nsrc >= 2 && in.src[0].kind == okConst {
			srcs = in.src[1:in.nsrc]
		} else {
			srcs = in.src[:in.nsrc]
		}
	case mDiscard:
		srcs = in.src[:in.nsrc]
	}
	return sdata, srcs, len(srcs) >= 1 && srcs[0].kind == okS
}

// dword returns the address of dword k of the access and whether it is in
// range: an S_BUFFER dword is when it lies wholly below the buffer size;
// out-of-range dwords are not performed (Vega ISA §7.4 Alignment and
// Bounds Checking).
func (acc *smemAccess) dword(k int) (uint64, bool) {
	a := acc.addr + uint64(4*k)
	if !acc.buffer {
		return a, true
	}
	o := acc.off + int64(4*k)
	return a, o >= 0 && uint64(o)+4 <= acc.size
}

// allocAt reports whether addr is mapped and returns the bounds and
// volatility of the allocation holding it. The machine remembers the last
// allocations found, most recent first (allocations are never removed, so
// they stay valid): a kernel's scalar loads alternate between its kernel
// arguments and the dispatch packet, and some read constant buffers too.
func (w *Wave) allocAt(addr uint64) (lo, size uint64, vol, ok bool) {
	m := w.m
	a := &m.allocs
	if e := &a[0]; addr-e.lo < e.size && e.mem == m.Mem {
		return e.lo, e.size, e.vol, true
	}
	for k := 1; k < len(a); k++ {
		if e := a[k]; addr-e.lo < e.size && e.mem == m.Mem {
			for j := k; j > 0; j-- { // not copy: typedslicecopy is a call
				a[j] = a[j-1]
			}
			a[0] = e
			return e.lo, e.size, e.vol, true
		}
	}
	al, ok := m.Mem.Lookup(addr)
	if ok {
		copy(a[1:], a[:len(a)-1])
		a[0] = allocEnt{m.Mem, al.Addr, al.Size, al.Volatile}
	}
	return al.Addr, al.Size, al.Volatile, ok
}

// rangeMapped reports whether every byte of [addr, addr+n) is mapped.
func (w *Wave) rangeMapped(addr uint64, n int) bool {
	end := addr + uint64(n)
	if lo, size, _, ok := w.allocAt(addr); ok && end >= addr && end-lo <= size {
		return true
	}
	ok, _ := w.m.Mem.Mapped(addr, n)
	return ok
}

// sdataCheck applies the SDATA rules of fetches (Vega ISA §7.4): two-dword
// fetches need an even SDST and larger ones a multiple of 4 (otherwise the
// data is invalid: the emulator rounds the register down and notes it); an
// SDST out of range means the instruction is not executed.
func (w *Wave) sdataCheck(sd, n int) (int, bool) {
	align := 1
	switch {
	case n == 2:
		align = 2
	case n >= 4:
		align = 4
	}
	if sd%align != 0 {
		w.note(fmt.Sprintf("SDATA %s is not aligned to %d; hardware returns invalid data, the emulator uses %s", scalarName(w.target, sd), align, scalarName(w.target, sd&^(align-1))))
		sd &^= align - 1
	}
	for k := 0; k < n; k++ {
		if !w.validSData(sd + k) {
			w.note(fmt.Sprintf("SDATA %s..+%d is out of range: instruction not executed", scalarName(w.target, sd), n))
			return sd, false
		}
	}
	return sd, true
}

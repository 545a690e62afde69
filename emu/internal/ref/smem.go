package ref

import (
	"fmt"
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// SMEM operations. The rules follow the "Scalar Memory Operations" chapter
// of AMD's "Vega" and GCN3 ISA guides (samples/REFERENCES.md), corrected by
// what llvm-mc-19 assembles; the decisions on ambiguities are in RATIONALE.md.
const (
	MLoad = iota
	MBufLoad
	MStore
	MBufStore
	MAtomic
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
	MBufAtomic   = 14
	MScratchLoad = 15
)

// scratch stores use mStore with the scratch flag in bit 14 of sub.
const SmemScratch = 1 << 14

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
func SmemSub(kind, n, atom int) int32 { return int32(kind | n<<4 | atom<<9) }

// LgkmInc is the LGKM_CNT increment of an SMEM access of n dwords: one for a
// single dword, two for more (Vega ISA §7.3).
func LgkmInc(n int) uint8 {
	if n <= 1 {
		return 1
	}
	return 2
}

// validSData reports whether scalar code c may receive SMEM data: an SGPR,
// VCC or a trap temporary, never EXEC or M0 (Vega ISA §7.1 Microcode
// Encoding, SDATA).
func validSData(w *core.Wave, c int) bool {
	switch {
	case c < 102, c == core.CodeVCC, c == core.CodeVCC+1:
		return true
	case w.Target == isa.GFX8:
		return c >= core.CodeTTMP8 && c < core.CodeTTMP8+12
	default:
		return c >= core.CodeTTMP9 && c < core.CodeTTMP9+16
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

func smemAddress(w *core.Wave, in *core.Instr, sbase *core.Operand, offs []core.Operand, buffer, scratch bool) (smemAccess, error) {
	var acc smemAccess
	acc.buffer = buffer
	sb := int(sbase.Reg)
	nb := 2
	if buffer {
		nb = 4
		if sb%4 != 0 && sb < 102 {
			// SBASE must name an SGPR multiple of 4 for S_BUFFER (Vega ISA §7.4, SBASE).
			w.Note(fmt.Sprintf("S_BUFFER SBASE s%d is not a multiple of 4; using s%d", sb, sb&^3))
			sb &^= 3
		}
	}
	if sbase.Kind != core.OkS || sb+nb > 102 && !(sb >= 106 && sb+nb <= 128) {
		// Out-of-range SBASE reads SGPR0's value (Vega ISA §7.4, SBASE).
		w.Note(fmt.Sprintf("SBASE %s is out of range; using s0", core.ScalarName(w.Target, sb)))
		sb = 0
	}
	acc.sbase = sb
	lo, hi := w.Rs(sb), w.Rs(sb+1)
	base := uint64(lo) | uint64(hi&0xffff)<<32 // 48-bit base (Vega ISA §7.2.1, m_base)
	var instOff, regOff int64
	haveImm, haveReg := false, false
	for k := range offs {
		o := &offs[k]
		switch o.Kind {
		case core.OkConst:
			instOff, haveImm = int64(o.Val), true
		case core.OkS:
			regOff, haveReg = int64(w.Rs(int(o.Reg))), true
		}
	}
	if m := &in.In.Mods; !haveImm && m.Imm {
		instOff, haveImm = int64(m.Offset), true
	}
	if haveImm {
		instOff = SmemImmOffset(w.Target, buffer, instOff)
	}
	if instOff < 0 && haveReg && instOff+regOff < 0 {
		// Vega ISA §7.2.1: a negative inst_offset whose sum with the M0/SGPR offset is negative is illegal
		return acc, &core.Fault{PC: in.Pc, Lane: -1, Addr: base, Reason: "negative SMEM offset sum (illegal)"}
	}
	off := instOff&^3 + regOff&^3
	if scratch {
		// S_SCRATCH_*: SGPR[base] + inst_offset + {M0 or SGPR[offset]} * 64 (Vega ISA §7.2.1)
		off = instOff&^3 + regOff*64
	}
	if buffer {
		base &^= 3
		stride := uint64(hi>>16) & 0x3fff
		num := uint64(w.Rs(sb + 2))
		acc.size = num
		if stride != 0 {
			acc.size = num * stride
		}
	}
	acc.off = off
	acc.addr = base&^3 + uint64(off)
	return acc, nil
}

// SmemImmOffset applies the OFFSET field's width to an immediate offset:
// GFX8 unsigned 20-bit; GFX9 signed 21-bit for S_LOAD/S_STORE/S_ATOMIC,
// unsigned 20-bit for S_BUFFER_* (as llvm-mc-19 assembles them).
func SmemImmOffset(t isa.Target, buffer bool, v int64) int64 {
	if t == isa.GFX9 && !buffer {
		return v << 43 >> 43
	}
	return v & 0xfffff
}

// ExecSMEM executes scalar memory instructions through the scalar cache.
func ExecSMEM(w *core.Wave, in *core.Instr) error {
	kind, n, atom, scratch := smemKind(in)
	lat := &w.M.Config.Latency
	glc := in.In.Mods.GLC
	now := w.Clock()
	switch kind {
	case mDcacheInv, mDcacheInvVol:
		w.Invalidate(kind == mDcacheInvVol)
		w.Issue(core.PendingOp{Cnt: core.CntLGKM, Inc: 1, Done: now + uint64(lat.ScalarOp)})
		return nil
	case mDcacheWb, mDcacheWbVol:
		w.WriteBackAll(kind == mDcacheWbVol)
		w.Issue(core.PendingOp{Cnt: core.CntLGKM, Inc: 1, Done: now + uint64(lat.ScalarOp)})
		return nil
	case mMemtime, mMemrealtime:
		if in.Ndst < 1 || in.Dst[0].Kind != core.OkS {
			return ExecBadOperands(w, in)
		}
		v := now
		if kind == mMemrealtime {
			v = now / uint64(max(lat.RealTimeDiv, 1))
		}
		sd, ok := sdataCheck(w, int(in.Dst[0].Reg), 2)
		if !ok {
			return nil
		}
		// S_MEMTIME counts as a two-dword fetch (Vega ISA §7.3, §7.4).
		w.Issue(core.PendingOp{Cnt: core.CntLGKM, Inc: 2, Done: now + uint64(lat.MemTime), Dst: uint16(sd), N: 2,
			Data: [16]uint32{uint32(v), uint32(v >> 32)}})
		return nil
	}
	if (kind == MAtomic || kind == MBufAtomic || kind == mDiscard || scratch) && w.Target != isa.GFX9 {
		return &core.ExecError{PC: in.Pc, Op: in.Name, Msg: "scalar atomics and s_dcache_discard exist on GFX9 only"}
	}
	buffer := smemBuffer(kind)
	sdata, srcs, ok := smemOperands(in, kind)
	if !ok {
		return ExecBadOperands(w, in)
	}
	acc, err := smemAddress(w, in, &srcs[0], srcs[1:], buffer, scratch)
	if err != nil {
		return err
	}
	switch kind {
	case mAtcProbe, mAtcProbeBuf:
		w.Issue(core.PendingOp{Cnt: core.CntLGKM, Inc: 1, Done: now + uint64(lat.ScalarOp)})
		return nil
	case mDiscard:
		// Address as S_STORE_DWORD, aligned to 64 bytes (Vega ISA §7.2.1); LGKM +1.
		a := acc.addr &^ (core.LineBytes - 1)
		for k := 0; k < n; k++ {
			w.Discard(a + uint64(k)*core.LineBytes)
		}
		w.Issue(core.PendingOp{Cnt: core.CntLGKM, Inc: 1, Done: now + uint64(lat.ScalarOp)})
		return nil
	}
	// Per-dword addresses and range checks.
	var skip uint16
	for k := 0; k < n; k++ {
		a, inRange := acc.dword(k)
		if !inRange {
			skip |= 1 << uint(k)
		}
		w.LaneAddr(core.LaneAddr{Lane: -1, Addr: a, Size: 4, InRange: inRange, Mapped: true})
	}
	// Fault on the first unmapped dword performed (none when the access
	// lies in one allocation, the common case).
	check := skip != 0 || !rangeMapped(w, acc.addr, 4*n)
	for k := 0; check && k < n; k++ {
		if skip>>uint(k)&1 != 0 {
			continue
		}
		a := acc.addr + uint64(4*k)
		if ok, bad := w.M.Mem.Mapped(a, 4); !ok {
			w.LaneUnmapped(n - k)
			return &core.Fault{PC: in.Pc, Lane: -1, Addr: bad, Size: 4, Write: kind != MLoad && kind != MBufLoad, Reason: "unmapped"}
		}
	}
	switch kind {
	case MLoad, MBufLoad:
		if sdata.Kind != core.OkS {
			return ExecBadOperands(w, in)
		}
		sd, ok := sdataCheck(w, int(sdata.Reg), n)
		if !ok {
			return nil
		}
		op := core.PendingOp{Cnt: core.CntLGKM, Inc: LgkmInc(n), Dst: uint16(sd), N: uint8(n), Skip: skip}
		allHit := true
		lastLine := ^uint64(0)
		li := -1
		for k := 0; k < n; k++ {
			if skip>>uint(k)&1 != 0 {
				continue
			}
			a := acc.addr + uint64(4*k)
			if la := a &^ (core.LineBytes - 1); la != lastLine {
				var hit bool
				li, hit = w.LoadLine(a, glc)
				allHit = allHit && hit
				lastLine = la
			}
			op.Data[k] = w.LineDword(li, a)
			w.NoteStale(li, a, op.Data[k])
		}
		op.Done = now + uint64(lat.ScalarHit)
		if !allHit {
			op.Done = now + uint64(lat.ScalarMiss)
		}
		w.Issue(op)
	case MStore, MBufStore:
		if sdata.Kind != core.OkS {
			return ExecBadOperands(w, in)
		}
		lastLine := ^uint64(0)
		li := -1
		for k := 0; k < n; k++ {
			if skip>>uint(k)&1 != 0 {
				continue
			}
			a := acc.addr + uint64(4*k)
			v := w.Rs(int(sdata.Reg) + k)
			if la := a &^ (core.LineBytes - 1); la != lastLine {
				li, _ = w.StoreLine(a, glc)
				lastLine = la
			}
			w.StoreDword(li, a, v, glc)
		}
		done := now + uint64(lat.ScalarHit)
		if glc {
			done = now + uint64(lat.ScalarMiss)
		}
		w.Issue(core.PendingOp{Cnt: core.CntLGKM, Inc: LgkmInc(n), Done: done})
	case MAtomic, MBufAtomic:
		if skip != 0 {
			w.Note("S_BUFFER_ATOMIC out of range: not performed")
			return nil
		}
		return smemAtomic(w, in, sdata, acc.addr, n, atom, glc)
	}
	return nil
}

// smemKind splits an SMEM operation's sub field: its kind (a scratch load
// is mLoad with scratch set), dwords and atomic operation.
func smemKind(in *core.Instr) (kind, n, atom int, scratch bool) {
	kind, n, atom = int(in.Sub&0xf), int(in.Sub>>4&0x1f), int(in.Sub>>9&0x1f)
	scratch = kind == MScratchLoad || in.Sub&SmemScratch != 0
	if kind == MScratchLoad {
		kind = MLoad
	}
	return
}

// smemBuffer reports whether an SMEM kind addresses through a V#.
func smemBuffer(kind int) bool {
	return kind == MBufLoad || kind == MBufStore || kind == mAtcProbeBuf || kind == MBufAtomic
}

// smemOperands locates SDATA, SBASE and the offsets among an SMEM
// instruction's operands (LLVM print order): srcs[0] is SBASE. ok is false
// when they are malformed.
func smemOperands(in *core.Instr, kind int) (sdata *core.Operand, srcs []core.Operand, ok bool) {
	switch kind {
	case MLoad, MBufLoad:
		if in.Ndst < 1 || in.Nsrc < 1 {
			return nil, nil, false
		}
		sdata, srcs = &in.Dst[0], in.Src[:in.Nsrc]
	case MStore, MBufStore, MAtomic, MBufAtomic:
		if in.Nsrc < 2 {
			return nil, nil, false
		}
		sdata, srcs = &in.Src[0], in.Src[1:in.Nsrc]
	case mAtcProbe, mAtcProbeBuf:
		if in.Nsrc >= 2 && in.Src[0].Kind == core.OkConst {
			srcs = in.Src[1:in.Nsrc]
		} else {
			srcs = in.Src[:in.Nsrc]
		}
	case mDiscard:
		srcs = in.Src[:in.Nsrc]
	}
	return sdata, srcs, len(srcs) >= 1 && srcs[0].Kind == core.OkS
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

// rangeMapped reports whether every byte of [addr, addr+n) is mapped.
func rangeMapped(w *core.Wave, addr uint64, n int) bool {
	end := addr + uint64(n)
	if lo, size, _, ok := w.AllocAt(addr); ok && end >= addr && end-lo <= size {
		return true
	}
	ok, _ := w.M.Mem.Mapped(addr, n)
	return ok
}

// sdataCheck applies the SDATA rules of fetches (Vega ISA §7.4): two-dword
// fetches need an even SDST and larger ones a multiple of 4 (otherwise the
// data is invalid: the emulator rounds the register down and notes it); an
// SDST out of range means the instruction is not executed.
func sdataCheck(w *core.Wave, sd, n int) (int, bool) {
	align := 1
	switch {
	case n == 2:
		align = 2
	case n >= 4:
		align = 4
	}
	if sd%align != 0 {
		w.Note(fmt.Sprintf("SDATA %s is not aligned to %d; hardware returns invalid data, the emulator uses %s", core.ScalarName(w.Target, sd), align, core.ScalarName(w.Target, sd&^(align-1))))
		sd &^= align - 1
	}
	for k := 0; k < n; k++ {
		if !validSData(w, sd+k) {
			w.Note(fmt.Sprintf("SDATA %s..+%d is out of range: instruction not executed", core.ScalarName(w.Target, sd), n))
			return sd, false
		}
	}
	return sd, true
}

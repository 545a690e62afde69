package emu

import "github.com/wavedbg/wavedbg/isa"

// The scalar-load fast path. Nearly every SMEM instruction of a compiled
// kernel is an s_load_dword… of the kernel arguments or the dispatch
// packet: an SGPR-pair base, an immediate offset, an aligned SGPR
// destination, one allocation, one cache line. execSLoad, their fast
// form, executes those without the general path's operand decoding, per-dword
// address records and range checks, leaving exactly the state execSMEM
// leaves (TestSMEMFastMatchesGeneral).

// sloadEligible reports whether a compiled SMEM instruction has the form
// execSLoad takes: s_load_dword…dwordx16 without GLC, SBASE an SGPR pair
// (or a trap-temporary pair) in range, one immediate offset and an SDATA
// of plain SGPRs aligned as the fetch size requires.
func sloadEligible(in *instr) bool {
	if in.def == nil || in.in == nil || in.in.Mods.GLC || !plainSLoad(in.in.Op) {
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

// plainSLoad reports whether op is an s_load_dword…: an SMEM load from an
// address, not through a buffer resource nor from scratch (isa's MemInfo).
func plainSLoad(op isa.Op) bool {
	m := op.Mem()
	return op.Info().Class == isa.ClassSMEM && m.Kind == isa.MemLoad && !m.Buffer && !m.Scratch
}

// sloadMemo is what execSLoad found for one instruction: with SBASE
// holding base in mem, its access at addr lies in one allocation (for
// good: allocations never go away) and one cache line, whose volatility
// (that of the allocation holding the line's address) is vol, which way
// held last, and the line's page of mem once it exists (a page, once
// made, stays). A grid worker's waves read the same kernel arguments with
// the same instructions, so the next wave finds it here. (It says nothing
// about the line's data: other waves may have stored to it since.)
type sloadMemo struct {
	in   *instr
	mem  *Memory
	base uint64
	addr uint64
	way  int
	vol  bool
	pg   *[pageSize]byte
}

// loadMemo returns instruction idx's memo (zero the first time).
func (c *scalarCache) loadMemo(idx int) *sloadMemo {
	if idx >= len(c.loads) {
		c.loads = append(c.loads, make([]sloadMemo, idx+1-len(c.loads))...)
	}
	return &c.loads[idx]
}

// execSLoad is the fast form of an instruction sloadEligible accepts
// (its reference form is execSMEM). When the access leaves its allocation
// or its cache line, it is execSMEM.
func execSLoad(w *Wave, in *instr) error {
	sb := in.src[0].reg & 127
	base := uint64(w.s[sb]) | uint64(w.s[(sb+1)&127]&0xffff)<<32
	e := w.cache.loadMemo(w.curIdx)
	if (e.in != in || e.base != base || e.mem != w.m.Mem) && !w.sloadFind(e, in, base) {
		return execSMEM(w, in)
	}
	addr := e.addr
	now := w.clock()
	done := now + uint64(w.m.Config.Latency.ScalarHit)
	i := e.way
	if i < 0 || !w.cache.holds(i, addr) {
		i = -1
		if m := w.m; len(m.filled) > 0 || m.manyFill { // else the cache is empty
			i = w.lookup(addr)
		}
	}
	if i >= 0 { // touch, with the journal off
		u := w.get64(slotUse) + 1
		w.s[slotUse], w.s[slotUse+1] = uint32(u), uint32(u>>32)
		w.cache.lines[i].use = u
	} else {
		if e.pg == nil {
			e.pg = w.m.Mem.page(addr>>pageBits, false)
		}
		i = w.fillLine(addr, false, e.vol, e.pg)
		done = now + uint64(w.m.Config.Latency.ScalarMiss)
	}
	e.way = i
	n, dst := int(in.sub>>4&0x1f), int(in.dst[0].reg)
	p := w.pushOp(cntLGKM, lgkmInc(n), done)
	p.dst, p.n = uint16(dst), uint8(n)
	w.cache.lines[i].dwords(addr, p.data[:n])
	w.npend += raise(w.pendS[dst : dst+n]) // issued, with the journal off
	return nil
}

// sloadFind fills in e for instruction in with SBASE holding base, and
// reports whether its access lies in one allocation and one cache line.
func (w *Wave) sloadFind(e *sloadMemo, in *instr, base uint64) bool {
	n := uint64(in.sub >> 4 & 0x1f)
	addr := base&^3 + uint64(smemImmOffset(w.target, false, int64(in.src[1].val))&^3)
	if addr&(lineBytes-1)+4*n > lineBytes || !w.inAlloc(addr, 4*n) {
		return false
	}
	_, _, vol, _ := w.allocAt(addr &^ (lineBytes - 1))
	*e = sloadMemo{in: in, mem: w.m.Mem, base: base, addr: addr, way: -1, vol: vol}
	return true
}

// inAlloc reports whether [addr, addr+n) lies in one allocation.
func (w *Wave) inAlloc(addr, n uint64) bool {
	lo, size, _, ok := w.allocAt(addr)
	return ok && addr+n >= addr && addr+n-lo <= size
}

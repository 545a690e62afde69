package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// The scalar-load fast path. Nearly every SMEM instruction of a compiled
// kernel is an s_load_dword… of the kernel arguments or the dispatch
// packet: an SGPR-pair base, an immediate offset, an aligned SGPR
// destination, one allocation, one cache line. execSLoad, their fast
// form, executes those without the general path's operand decoding, per-dword
// address records and range checks, leaving exactly the state execSMEM
// leaves (TestSMEMFastMatchesGeneral).

// SloadEligible reports whether a compiled SMEM instruction has the form
// execSLoad takes: s_load_dword…dwordx16 without GLC, SBASE an SGPR pair
// (or a trap-temporary pair) in range, one immediate offset and an SDATA
// of plain SGPRs aligned as the fetch size requires.
func SloadEligible(in *core.Instr) bool {
	if in.Def == nil || in.In == nil || in.In.Mods.GLC || !plainSLoad(in.In.Op) {
		return false
	}
	if in.Ndst != 1 || in.Nsrc != 2 || in.Dst[0].Kind != core.OkS || in.Src[0].Kind != core.OkS || in.Src[1].Kind != core.OkConst {
		return false
	}
	n := int(in.Sub >> 4 & 0x1f)
	sd, sb := int(in.Dst[0].Reg), int(in.Src[0].Reg)
	align := min(n, 4)
	return sd%align == 0 && sd+n <= 102 && (sb+2 <= 102 || sb >= 106 && sb+2 <= 128)
}

// plainSLoad reports whether op is an s_load_dword…: an SMEM load from an
// address, not through a buffer resource nor from scratch (isa's MemInfo).
func plainSLoad(op isa.Op) bool {
	m := op.Mem()
	return op.Info().Class == isa.ClassSMEM && m.Kind == isa.MemLoad && !m.Buffer && !m.Scratch
}

// loadMemo returns instruction idx's memo (zero the first time).
func loadMemo(c *core.ScalarCache, idx int) *core.SloadMemo {
	if idx >= len(c.Loads) {
		c.Loads = append(c.Loads, make([]core.SloadMemo, idx+1-len(c.Loads))...)
	}
	return &c.Loads[idx]
}

// execSLoad is the fast form of an instruction sloadEligible accepts
// (its reference form is execSMEM). When the access leaves its allocation
// or its cache line, it is execSMEM.
func execSLoad(w *core.Wave, in *core.Instr) error {
	sb := in.Src[0].Reg & 127
	base := uint64(w.S[sb]) | uint64(w.S[(sb+1)&127]&0xffff)<<32
	e := loadMemo(&w.Cache, w.CurIdx)
	if (e.In != in || e.Base != base || e.Mem != w.M.Mem) && !sloadFind(w, e, in, base) {
		return ref.ExecSMEM(w, in)
	}
	addr := e.Addr
	now := w.Clock()
	done := now + uint64(w.M.Config.Latency.ScalarHit)
	i := e.Way
	if i < 0 || !w.Cache.Holds(i, addr) {
		i = -1
		if m := w.M; len(m.Filled) > 0 || m.ManyFill { // else the cache is empty
			i = w.Lookup(addr)
		}
	}
	if i >= 0 { // touch, with the journal off
		u := w.Get64(core.SlotUse) + 1
		w.S[core.SlotUse], w.S[core.SlotUse+1] = uint32(u), uint32(u>>32)
		w.Cache.Lines[i].Use = u
	} else {
		if e.Pg == nil {
			e.Pg = w.M.Mem.Page(addr>>core.PageBits, false)
		}
		i = w.FillLine(addr, false, e.Vol, e.Pg)
		done = now + uint64(w.M.Config.Latency.ScalarMiss)
	}
	e.Way = i
	n, dst := int(in.Sub>>4&0x1f), int(in.Dst[0].Reg)
	p := w.PushOp(core.CntLGKM, ref.LgkmInc(n), done)
	p.Dst, p.N = uint16(dst), uint8(n)
	w.Cache.Lines[i].Dwords(addr, p.Data[:n])
	w.Npend += core.Raise(w.PendS[dst : dst+n]) // issued, with the journal off
	return nil
}

// sloadFind fills in e for instruction in with SBASE holding base, and
// reports whether its access lies in one allocation and one cache line.
func sloadFind(w *core.Wave, e *core.SloadMemo, in *core.Instr, base uint64) bool {
	n := uint64(in.Sub >> 4 & 0x1f)
	addr := base&^3 + uint64(ref.SmemImmOffset(w.Target, false, int64(in.Src[1].Val))&^3)
	if addr&(core.LineBytes-1)+4*n > core.LineBytes || !inAlloc(w, addr, 4*n) {
		return false
	}
	_, _, vol, _ := w.AllocAt(addr &^ (core.LineBytes - 1))
	*e = core.SloadMemo{In: in, Mem: w.M.Mem, Base: base, Addr: addr, Way: -1, Vol: vol}
	return true
}

// inAlloc reports whether [addr, addr+n) lies in one allocation.
func inAlloc(w *core.Wave, addr, n uint64) bool {
	lo, size, _, ok := w.AllocAt(addr)
	return ok && addr+n >= addr && addr+n-lo <= size
}

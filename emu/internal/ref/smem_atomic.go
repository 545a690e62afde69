package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
)

// smemAtomic performs a GFX9 scalar atomic at memory (L2), computed by
// AtomicApply as the vector memory atomics are. A cached copy of
// the line is written back if dirty and invalidated so that later scalar
// loads see the result. With GLC the pre-operation value returns to SDATA.
func smemAtomic(w *core.Wave, in *core.Instr, sdata *core.Operand, addr uint64, n, atom int, glc bool) error {
	if sdata.Kind != core.OkS {
		return ExecBadOperands(w, in)
	}
	lat := &w.M.Config.Latency
	if i := w.Lookup(addr); i >= 0 {
		w.WriteBack(i, false)
		l := w.Cache.Lines[i]
		w.CacheEvent(core.CacheEvent{Kind: core.CacheInvalidate, Addr: l.Tag, Set: i / w.Cache.Ways, Way: i % w.Cache.Ways})
		l.Valid = false
		w.SetLine(i, l)
	}
	var ob [8]byte
	w.M.Mem.LockAtomic() // other work-groups may run concurrently
	defer w.M.Mem.UnlockAtomic()
	w.M.Mem.ReadRaw(addr, ob[:4*n])
	old := uint64(ob[0]) | uint64(ob[1])<<8 | uint64(ob[2])<<16 | uint64(ob[3])<<24
	if n == 2 {
		old |= (uint64(ob[4]) | uint64(ob[5])<<8 | uint64(ob[6])<<16 | uint64(ob[7])<<24) << 32
	}
	sd := int(sdata.Reg)
	var data, cmp uint64
	if n == 1 {
		data = uint64(w.Rs(sd))
		if atom == atCmpSwap {
			cmp = uint64(w.Rs(sd + 1))
		}
	} else {
		data = w.Rs64(sd)
		if atom == atCmpSwap {
			cmp = w.Rs64(sd + 2)
		}
	}
	r := AtomicApply(atom, old, data, cmp, n == 2)
	var nb [8]byte
	for k := 0; k < 4*n; k++ {
		nb[k] = byte(r >> (8 * uint(k)))
	}
	w.MemWrite(addr, nb[:4*n], 1)
	op := core.PendingOp{Cnt: core.CntLGKM, Inc: LgkmInc(n), Done: w.Clock() + uint64(lat.ScalarMiss)}
	if glc {
		if _, ok := sdataCheck(w, sd, n); ok {
			op.Dst, op.N = uint16(sd), uint8(n)
			op.Data[0], op.Data[1] = uint32(old), uint32(old>>32)
		}
	}
	w.Issue(op)
	return nil
}

package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// execBranchFast is execBranch's fast form: it moves PC and the clock
// without the journaling accessors.
func execBranchFast(w *core.Wave, in *core.Instr) error {
	if !ref.BranchTaken(w, isa.BranchCond(in.Sub)) {
		return nil
	}
	if in.Target < 0 {
		return &core.ExecError{PC: in.Pc, Op: in.Name, Msg: ref.BadTarget(in.Label)}
	}
	c := w.Clock() + uint64(w.M.Config.Latency.Branch)
	w.S[core.SlotPC], w.S[core.SlotClock], w.S[core.SlotClock+1] = uint32(in.Target), uint32(c), uint32(c>>32)
	return nil
}

// execWaitcntFast is execWaitcnt's fast form: waitOne for the commonest
// case, one operation in flight, else waitFast while the list is short
// enough to sort on the stack, else waitcnt.
func execWaitcntFast(w *core.Wave, in *core.Instr) error {
	if len(w.Pend) == 0 {
		return nil // nothing in flight: no wait
	}
	c := isa.WaitcntFields(w.Target, uint16(in.Imm))
	switch {
	case len(w.Pend) == 1:
		w.WaitOne(c.VM, c.EXP, c.LGKM)
	case len(w.Pend) <= core.MaxWaitOps:
		w.WaitFast(c.VM, c.EXP, c.LGKM)
	default:
		w.Waitcnt(c.VM, c.EXP, c.LGKM)
	}
	return nil
}

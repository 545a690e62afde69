package ref

import (
	"fmt"
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// Program control operations. The SOPP branches are not among them: their
// sub is the isa.BranchCond the tables give (execBranch).
const (
	pNop = iota
	pEndpgm
	pWaitcnt
	pBarrier
	pTrap
	pSethalt
	pSleep
	pSendmsg
	pIgnore // s_setprio, s_icache_inv, perf levels, ...
	pGetPC
	pSetPC
	pSwapPC
	pRFE
	pSetkill
	pGprIdxOff
	pGprIdxMode
	pGprIdxOn
	pGprIdxIdx
)

func init() {
	for n, s := range map[string]int32{
		"s_nop": pNop, "s_endpgm": pEndpgm, "s_endpgm_saved": pEndpgm, "s_endpgm_ordered_ps_done": pEndpgm,
		"s_waitcnt": pWaitcnt, "s_barrier": pBarrier, "s_trap": pTrap, "s_sethalt": pSethalt,
		"s_sleep": pSleep, "s_sendmsg": pSendmsg, "s_sendmsghalt": pSendmsg, "s_setprio": pIgnore,
		"s_icache_inv": pIgnore, "s_incperflevel": pIgnore, "s_decperflevel": pIgnore, "s_ttracedata": pIgnore,
		"s_wakeup": pIgnore, "s_set_gpr_idx_off": pGprIdxOff, "s_set_gpr_idx_mode": pGprIdxMode, "s_setkill": pSetkill,
	} {
		def(n, execSOPP, s, 0, core.TyB32, core.CSALU)
	}
	for op := range isa.Ops() {
		if c := op.Info().Branch; c != isa.BranchNone {
			def(op.String(), execBranch, int32(c), 0, core.TyB32, core.CSALU)
		}
	}
	def("s_waitcnt", execWaitcnt, pWaitcnt, 0, core.TyB32, core.CSALU)
	def("s_getpc_b64", execSOPP, pGetPC, 1, core.TyB64, core.CSALU)
	def("s_setpc_b64", execSOPP, pSetPC, 0, core.TyB64, core.CSALU)
	def("s_swappc_b64", execSOPP, pSwapPC, 1, core.TyB64, core.CSALU)
	def("s_rfe_b64", execSOPP, pRFE, 0, core.TyB64, core.CSALU)
	def("s_set_gpr_idx_on", execSOPP, pGprIdxOn, 0, core.TyB32, core.CSALU)
	def("s_set_gpr_idx_idx", execSOPP, pGprIdxIdx, 0, core.TyB32, core.CSALU)
}

// BadTarget says why a branch target is not an instruction.
func BadTarget(label int64) string {
	if label < 0 {
		return fmt.Sprintf("branch target lies 0x%x bytes before address 0, outside the program", -label)
	}
	return fmt.Sprintf("branch target 0x%x is not an instruction of the program", label)
}

// branch jumps to the instruction's resolved label.
func branch(w *core.Wave, in *core.Instr) error {
	if in.Target < 0 {
		return &core.ExecError{PC: in.Pc, Op: in.Name, Msg: BadTarget(in.Label)}
	}
	w.Ws(core.SlotPC, uint32(in.Target))
	w.SetClock(w.Clock() + uint64(w.M.Config.Latency.Branch))
	return nil
}

// jump moves to a computed byte address (s_setpc, s_swappc, s_rfe).
func jump(w *core.Wave, in *core.Instr, addr uint64) error {
	i, ok := w.M.Prog.IndexOf(addr)
	if !ok {
		if addr == w.M.Prog.End() {
			i = len(w.M.Prog.Insts)
		} else {
			return &core.ExecError{PC: in.Pc, Op: in.Name, Msg: fmt.Sprintf("jump to 0x%x, which is not an instruction of the program", addr)}
		}
	}
	w.Ws(core.SlotPC, uint32(i))
	w.SetClock(w.Clock() + uint64(w.M.Config.Latency.Branch))
	return nil
}

// execBranch executes s_branch and the s_cbranch_* conditions; its sub is
// the table's isa.BranchCond.
func execBranch(w *core.Wave, in *core.Instr) error {
	if BranchTaken(w, isa.BranchCond(in.Sub)) {
		return branch(w, in)
	}
	return nil
}

// BranchTaken reports whether a SOPP branch with condition c jumps
// (s_cbranch_cdbg*: the debug condition bits are never set).
func BranchTaken(w *core.Wave, c isa.BranchCond) bool {
	var v uint32
	switch c {
	case isa.BranchAlways:
		return true
	case isa.BranchSCC0, isa.BranchSCC1:
		v = w.S[core.SlotSCC]
	case isa.BranchVCCZ, isa.BranchVCCNZ:
		v = w.S[core.CodeVCC] | w.S[core.CodeVCC+1]
	case isa.BranchEXECZ, isa.BranchEXECNZ:
		v = w.S[core.CodeExec] | w.S[core.CodeExec+1]
	default:
		return false
	}
	return (v != 0) == (c == isa.BranchSCC1 || c == isa.BranchVCCNZ || c == isa.BranchEXECNZ)
}

// execWaitcnt executes s_waitcnt.
func execWaitcnt(w *core.Wave, in *core.Instr) error {
	if len(w.Pend) == 0 {
		return nil // nothing in flight: no wait
	}
	c := isa.WaitcntFields(w.Target, uint16(in.Imm))
	w.Waitcnt(c.VM, c.EXP, c.LGKM)
	return nil
}

// stop sets the wave's state to st (Ended, Trapped or Halted) and lowers
// its machine's due cycle to 0: stretch looks at the state only when an
// operation may be due, and retiring before one is due completes nothing.
func stop(w *core.Wave, st core.RunState) {
	w.Ws(core.SlotStatus, uint32(st))
	if w.M != nil {
		w.M.Due = 0
	}
}

// execSOPP executes program control.
func execSOPP(w *core.Wave, in *core.Instr) error {
	switch in.Sub {
	case pNop:
		w.SetClock(w.Clock() + uint64(in.Imm&0xf))
	case pEndpgm:
		w.Ws(core.SlotPC, uint32(w.Pc()-1))
		stop(w, core.Ended)
	case pIgnore, pBarrier, pSetkill:
		// a lone wave passes s_barrier at once
	case pWaitcnt:
		if len(w.Pend) == 0 {
			return nil // nothing in flight: no wait
		}
		c := isa.WaitcntFields(w.Target, uint16(in.Imm))
		w.Waitcnt(c.VM, c.EXP, c.LGKM)
	case pTrap:
		stop(w, core.Trapped)
	case pSethalt:
		w.Ws(core.SlotHalt, uint32(in.Imm&1))
		if in.Imm&1 != 0 {
			stop(w, core.Halted)
		}
	case pSleep:
		c := uint64(in.Imm&0x7f) * 64
		w.SetClock(w.Clock() + c)
		w.AddStall(c)
	case pSendmsg:
		w.Issue(core.PendingOp{Cnt: core.CntLGKM, Inc: 1, Done: w.Clock() + uint64(w.M.Config.Latency.ScalarOp)})
	case pGetPC:
		w.Sd64(&in.Dst[0], in.Pc+4)
	case pSetPC:
		if in.Nsrc < 1 {
			return ExecBadOperands(w, in)
		}
		return jump(w, in, w.Sv64(&in.Src[0]))
	case pSwapPC:
		if in.Nsrc < 1 {
			return ExecBadOperands(w, in)
		}
		to := w.Sv64(&in.Src[0])
		w.Sd64(&in.Dst[0], in.Pc+4)
		return jump(w, in, to)
	case pGprIdxOff: // MODE.GPR_IDX_EN = 0
		w.Ws(core.SlotMode, w.S[core.SlotMode]&^(1<<27))
	case pGprIdxMode: // M0[15:12] = enables
		w.Ws(core.CodeM0, w.S[core.CodeM0]&^0xf000|uint32(in.Imm&0xf)<<12)
	case pGprIdxOn: // M0[7:0] = S0[7:0], M0[15:12] = enables, MODE.GPR_IDX_EN = 1
		if in.Nsrc < 2 {
			return ExecBadOperands(w, in)
		}
		m0 := w.S[core.CodeM0]&^0xf0ff | w.Sv(&in.Src[0])&0xff | uint32(in.Src[1].Val&0xf)<<12
		w.Ws(core.CodeM0, m0)
		w.Ws(core.SlotMode, w.S[core.SlotMode]|1<<27)
	case pGprIdxIdx: // M0[7:0] = S0[7:0]
		if in.Nsrc < 1 {
			return ExecBadOperands(w, in)
		}
		w.Ws(core.CodeM0, w.S[core.CodeM0]&^0xff|w.Sv(&in.Src[0])&0xff)
	case pRFE:
		if in.Nsrc < 1 {
			return ExecBadOperands(w, in)
		}
		return jump(w, in, w.Sv64(&in.Src[0])&0xffffffffffff)
	}
	return nil
}

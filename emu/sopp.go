package emu

import (
	"fmt"

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
		def(n, execSOPP, s, 0, tyB32, cSALU)
	}
	for op := range isa.Ops() {
		if c := op.Info().Branch; c != isa.BranchNone {
			def(op.String(), execBranch, int32(c), 0, tyB32, cSALU)
		}
	}
	def("s_waitcnt", execWaitcnt, pWaitcnt, 0, tyB32, cSALU)
	def("s_getpc_b64", execSOPP, pGetPC, 1, tyB64, cSALU)
	def("s_setpc_b64", execSOPP, pSetPC, 0, tyB64, cSALU)
	def("s_swappc_b64", execSOPP, pSwapPC, 1, tyB64, cSALU)
	def("s_rfe_b64", execSOPP, pRFE, 0, tyB64, cSALU)
	def("s_set_gpr_idx_on", execSOPP, pGprIdxOn, 0, tyB32, cSALU)
	def("s_set_gpr_idx_idx", execSOPP, pGprIdxIdx, 0, tyB32, cSALU)
}

// badTarget says why a branch target is not an instruction.
func badTarget(label int64) string {
	if label < 0 {
		return fmt.Sprintf("branch target lies 0x%x bytes before address 0, outside the program", -label)
	}
	return fmt.Sprintf("branch target 0x%x is not an instruction of the program", label)
}

// branch jumps to the instruction's resolved label.
func (w *Wave) branch(in *instr) error {
	if in.target < 0 {
		return &ExecError{PC: in.pc, Op: in.name, Msg: badTarget(in.label)}
	}
	w.ws(slotPC, uint32(in.target))
	w.setClock(w.clock() + uint64(w.m.Config.Latency.Branch))
	return nil
}

// jump moves to a computed byte address (s_setpc, s_swappc, s_rfe).
func (w *Wave) jump(in *instr, addr uint64) error {
	i, ok := w.m.Prog.IndexOf(addr)
	if !ok {
		if addr == w.m.Prog.End() {
			i = len(w.m.Prog.Insts)
		} else {
			return &ExecError{PC: in.pc, Op: in.name, Msg: fmt.Sprintf("jump to 0x%x, which is not an instruction of the program", addr)}
		}
	}
	w.ws(slotPC, uint32(i))
	w.setClock(w.clock() + uint64(w.m.Config.Latency.Branch))
	return nil
}

// execBranch executes s_branch and the s_cbranch_* conditions; its sub is
// the table's isa.BranchCond.
func execBranch(w *Wave, in *instr) error {
	if w.branchTaken(isa.BranchCond(in.sub)) {
		return w.branch(in)
	}
	return nil
}

// execBranchFast is execBranch's fast form: it moves PC and the clock
// without the journaling accessors.
func execBranchFast(w *Wave, in *instr) error {
	if !w.branchTaken(isa.BranchCond(in.sub)) {
		return nil
	}
	if in.target < 0 {
		return &ExecError{PC: in.pc, Op: in.name, Msg: badTarget(in.label)}
	}
	c := w.clock() + uint64(w.m.Config.Latency.Branch)
	w.s[slotPC], w.s[slotClock], w.s[slotClock+1] = uint32(in.target), uint32(c), uint32(c>>32)
	return nil
}

// branchTaken reports whether a SOPP branch with condition c jumps
// (s_cbranch_cdbg*: the debug condition bits are never set).
func (w *Wave) branchTaken(c isa.BranchCond) bool {
	var v uint32
	switch c {
	case isa.BranchAlways:
		return true
	case isa.BranchSCC0, isa.BranchSCC1:
		v = w.s[slotSCC]
	case isa.BranchVCCZ, isa.BranchVCCNZ:
		v = w.s[codeVCC] | w.s[codeVCC+1]
	case isa.BranchEXECZ, isa.BranchEXECNZ:
		v = w.s[codeExec] | w.s[codeExec+1]
	default:
		return false
	}
	return (v != 0) == (c == isa.BranchSCC1 || c == isa.BranchVCCNZ || c == isa.BranchEXECNZ)
}

// execWaitcnt executes s_waitcnt.
func execWaitcnt(w *Wave, in *instr) error {
	if len(w.pend) == 0 {
		return nil // nothing in flight: no wait
	}
	c := isa.WaitcntFields(w.target, uint16(in.imm))
	w.waitcnt(c.VM, c.EXP, c.LGKM)
	return nil
}

// execWaitcntFast is execWaitcnt's fast form: waitOne for the commonest
// case, one operation in flight, else waitFast while the list is short
// enough to sort on the stack, else waitcnt.
func execWaitcntFast(w *Wave, in *instr) error {
	if len(w.pend) == 0 {
		return nil // nothing in flight: no wait
	}
	c := isa.WaitcntFields(w.target, uint16(in.imm))
	switch {
	case len(w.pend) == 1:
		w.waitOne(c.VM, c.EXP, c.LGKM)
	case len(w.pend) <= maxWaitOps:
		w.waitFast(c.VM, c.EXP, c.LGKM)
	default:
		w.waitcnt(c.VM, c.EXP, c.LGKM)
	}
	return nil
}

// stop sets the wave's state to st (Ended, Trapped or Halted) and lowers
// its machine's due cycle to 0: stretch looks at the state only when an
// operation may be due, and retiring before one is due completes nothing.
func (w *Wave) stop(st RunState) {
	w.ws(slotStatus, uint32(st))
	if w.m != nil {
		w.m.due = 0
	}
}

// execSOPP executes program control.
func execSOPP(w *Wave, in *instr) error {
	switch in.sub {
	case pNop:
		w.setClock(w.clock() + uint64(in.imm&0xf))
	case pEndpgm:
		w.ws(slotPC, uint32(w.pc()-1))
		w.stop(Ended)
	case pIgnore, pBarrier, pSetkill:
		// a lone wave passes s_barrier at once
	case pWaitcnt:
		if len(w.pend) == 0 {
			return nil // nothing in flight: no wait
		}
		c := isa.WaitcntFields(w.target, uint16(in.imm))
		w.waitcnt(c.VM, c.EXP, c.LGKM)
	case pTrap:
		w.stop(Trapped)
	case pSethalt:
		w.ws(slotHalt, uint32(in.imm&1))
		if in.imm&1 != 0 {
			w.stop(Halted)
		}
	case pSleep:
		c := uint64(in.imm&0x7f) * 64
		w.setClock(w.clock() + c)
		w.addStall(c)
	case pSendmsg:
		w.issue(pendingOp{cnt: cntLGKM, inc: 1, done: w.clock() + uint64(w.m.Config.Latency.ScalarOp)})
	case pGetPC:
		w.sd64(&in.dst[0], in.pc+4)
	case pSetPC:
		if in.nsrc < 1 {
			return execBadOperands(w, in)
		}
		return w.jump(in, w.sv64(&in.src[0]))
	case pSwapPC:
		if in.nsrc < 1 {
			return execBadOperands(w, in)
		}
		to := w.sv64(&in.src[0])
		w.sd64(&in.dst[0], in.pc+4)
		return w.jump(in, to)
	case pGprIdxOff: // MODE.GPR_IDX_EN = 0
		w.ws(slotMode, w.s[slotMode]&^(1<<27))
	case pGprIdxMode: // M0[15:12] = enables
		w.ws(codeM0, w.s[codeM0]&^0xf000|uint32(in.imm&0xf)<<12)
	case pGprIdxOn: // M0[7:0] = S0[7:0], M0[15:12] = enables, MODE.GPR_IDX_EN = 1
		if in.nsrc < 2 {
			return execBadOperands(w, in)
		}
		m0 := w.s[codeM0]&^0xf0ff | w.sv(&in.src[0])&0xff | uint32(in.src[1].val&0xf)<<12
		w.ws(codeM0, m0)
		w.ws(slotMode, w.s[slotMode]|1<<27)
	case pGprIdxIdx: // M0[7:0] = S0[7:0]
		if in.nsrc < 1 {
			return execBadOperands(w, in)
		}
		w.ws(codeM0, w.s[codeM0]&^0xff|w.sv(&in.src[0])&0xff)
	case pRFE:
		if in.nsrc < 1 {
			return execBadOperands(w, in)
		}
		return w.jump(in, w.sv64(&in.src[0])&0xffffffffffff)
	}
	return nil
}

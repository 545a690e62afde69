package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"math/bits"
)

// GFX8/GFX9 fork/join (GCN3 ISA manual, S_CBRANCH_G_FORK, S_CBRANCH_I_FORK,
// S_CBRANCH_JOIN; MODE.CSP is bits 31:29) and S_RFE_RESTORE_B64.
//
// A fork splits EXEC by a mask: if every active lane passes it jumps, if
// none does it falls through; otherwise the side with fewer lanes runs
// first and the other side's {address, EXEC} is pushed as 128 bits on a
// stack in SGPRs: entry CSP occupies SGPR[4·CSP … 4·CSP+3] (EXEC in the
// low two, the byte address in the high two) and CSP, a 3-bit counter,
// wraps. A join whose operand equals CSP falls through; otherwise it pops
// the entry and continues there with its EXEC.

const (
	ModeCSPShift = 29
	modeCSPMask  = 7 << ModeCSPShift
)

func init() {
	def("s_cbranch_g_fork", execFork, 0, 0, core.TyB64, core.CSALU)
	def("s_cbranch_i_fork", execFork, 1, 0, core.TyB64, core.CSALU)
	def("s_cbranch_join", execJoin, 0, 0, core.TyB32, core.CSALU)
	def("s_rfe_restore_b64", execRFERestore, 0, 0, core.TyB64, core.CSALU).Exact = "exact; STATUS.INST_ATC is not modelled"
}

func Csp(w *core.Wave) uint32 { return w.S[core.SlotMode] >> ModeCSPShift & 7 }

func setCSP(w *core.Wave, c uint32) {
	w.Ws(core.SlotMode, w.S[core.SlotMode]&^modeCSPMask|(c&7)<<ModeCSPShift)
}

// nextAddr is the byte address of the instruction after in.
func nextAddr(w *core.Wave, in *core.Instr) uint64 {
	p := w.M.Prog
	if n := int(in.Next); n >= 0 && n < len(p.Addrs) {
		return p.Addrs[n]
	}
	return p.End()
}

// execFork executes s_cbranch_g_fork (sub 0: the target is the 64-bit
// address in S1) and s_cbranch_i_fork (sub 1: the target is SIMM16 dwords
// after the next instruction).
func execFork(w *core.Wave, in *core.Instr) error {
	if in.Nsrc < 1 || (in.Sub == 0 && in.Nsrc < 2) {
		return ExecBadOperands(w, in)
	}
	exec := w.Exec()
	mask := w.Sv64(&in.Src[0])
	pass, fail := mask&exec, ^mask&exec
	var target uint64
	if in.Sub == 0 {
		target = w.Sv64(&in.Src[1])
	} else if in.Label >= 0 {
		target = uint64(in.Label)
	} else {
		target = in.Pc + 4 + uint64(int64(int16(in.Imm))*4)
	}
	jump := func() error {
		if in.Sub == 1 && in.Target >= 0 {
			return branch(w, in)
		}
		return jump(w, in, target)
	}
	switch {
	case pass == exec:
		return jump()
	case fail == exec:
		return nil
	}
	sp := int(Csp(w)) * 4
	if bits.OnesCount64(fail) < bits.OnesCount64(pass) {
		w.Ws64(core.CodeExec, fail)
		w.Ws64(sp, pass)
		w.Ws64(sp+2, target)
		setCSP(w, Csp(w)+1)
		return nil
	}
	w.Ws64(core.CodeExec, pass)
	w.Ws64(sp, fail)
	w.Ws64(sp+2, nextAddr(w, in))
	setCSP(w, Csp(w)+1)
	return jump()
}

// execJoin executes s_cbranch_join: S0 is the CSP saved before the fork.
func execJoin(w *core.Wave, in *core.Instr) error {
	if in.Nsrc < 1 {
		return ExecBadOperands(w, in)
	}
	if w.Sv(&in.Src[0]) == Csp(w) {
		return nil
	}
	c := (Csp(w) - 1) & 7
	setCSP(w, c)
	sp := int(c) * 4
	exec, addr := w.Rs64(sp), w.Rs64(sp+2)
	w.Ws64(core.CodeExec, exec)
	return jump(w, in, addr)
}

// execRFERestore executes s_rfe_restore_b64: return from a trap handler to
// S0 (as s_rfe_b64). S1[0] would set STATUS.INST_ATC, which the emulator
// does not model; it is read and noted.
func execRFERestore(w *core.Wave, in *core.Instr) error {
	if in.Nsrc < 2 {
		return ExecBadOperands(w, in)
	}
	if w.Sv(&in.Src[1])&1 != 0 {
		w.Note("s_rfe_restore_b64: INST_ATC=1 is not modelled")
	}
	return jump(w, in, w.Sv64(&in.Src[0])&0xffffffffffff)
}

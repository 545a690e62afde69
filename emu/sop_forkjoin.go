package emu

import "math/bits"

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
	modeCSPShift = 29
	modeCSPMask  = 7 << modeCSPShift
)

func init() {
	def("s_cbranch_g_fork", execFork, 0, 0, tyB64, cSALU)
	def("s_cbranch_i_fork", execFork, 1, 0, tyB64, cSALU)
	def("s_cbranch_join", execJoin, 0, 0, tyB32, cSALU)
	def("s_rfe_restore_b64", execRFERestore, 0, 0, tyB64, cSALU).exact = "exact; STATUS.INST_ATC is not modelled"
}

func (w *Wave) csp() uint32 { return w.s[slotMode] >> modeCSPShift & 7 }

func (w *Wave) setCSP(c uint32) {
	w.ws(slotMode, w.s[slotMode]&^modeCSPMask|(c&7)<<modeCSPShift)
}

// nextAddr is the byte address of the instruction after in.
func (w *Wave) nextAddr(in *instr) uint64 {
	p := w.m.Prog
	if n := int(in.next); n >= 0 && n < len(p.Addrs) {
		return p.Addrs[n]
	}
	return p.End()
}

// execFork executes s_cbranch_g_fork (sub 0: the target is the 64-bit
// address in S1) and s_cbranch_i_fork (sub 1: the target is SIMM16 dwords
// after the next instruction).
func execFork(w *Wave, in *instr) error {
	if in.nsrc < 1 || (in.sub == 0 && in.nsrc < 2) {
		return execBadOperands(w, in)
	}
	exec := w.exec()
	mask := w.sv64(&in.src[0])
	pass, fail := mask&exec, ^mask&exec
	var target uint64
	if in.sub == 0 {
		target = w.sv64(&in.src[1])
	} else if in.label >= 0 {
		target = uint64(in.label)
	} else {
		target = in.pc + 4 + uint64(int64(int16(in.imm))*4)
	}
	jump := func() error {
		if in.sub == 1 && in.target >= 0 {
			return w.branch(in)
		}
		return w.jump(in, target)
	}
	switch {
	case pass == exec:
		return jump()
	case fail == exec:
		return nil
	}
	sp := int(w.csp()) * 4
	if bits.OnesCount64(fail) < bits.OnesCount64(pass) {
		w.ws64(codeExec, fail)
		w.ws64(sp, pass)
		w.ws64(sp+2, target)
		w.setCSP(w.csp() + 1)
		return nil
	}
	w.ws64(codeExec, pass)
	w.ws64(sp, fail)
	w.ws64(sp+2, w.nextAddr(in))
	w.setCSP(w.csp() + 1)
	return jump()
}

// execJoin executes s_cbranch_join: S0 is the CSP saved before the fork.
func execJoin(w *Wave, in *instr) error {
	if in.nsrc < 1 {
		return execBadOperands(w, in)
	}
	if w.sv(&in.src[0]) == w.csp() {
		return nil
	}
	c := (w.csp() - 1) & 7
	w.setCSP(c)
	sp := int(c) * 4
	exec, addr := w.rs64(sp), w.rs64(sp+2)
	w.ws64(codeExec, exec)
	return w.jump(in, addr)
}

// execRFERestore executes s_rfe_restore_b64: return from a trap handler to
// S0 (as s_rfe_b64). S1[0] would set STATUS.INST_ATC, which the emulator
// does not model; it is read and noted.
func execRFERestore(w *Wave, in *instr) error {
	if in.nsrc < 2 {
		return execBadOperands(w, in)
	}
	if w.sv(&in.src[1])&1 != 0 {
		w.note("s_rfe_restore_b64: INST_ATC=1 is not modelled")
	}
	return w.jump(in, w.sv64(&in.src[0])&0xffffffffffff)
}

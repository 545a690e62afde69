package emu

import "github.com/wavedbg/wavedbg/isa"

// execVMEM hands vector memory instructions to the VectorMemory unit.
func execVMEM(w *Wave, in *instr) error {
	if w.m.VectorMemory == nil || in.in == nil {
		return &ExecError{PC: in.pc, Op: in.name, Msg: "vector memory is not modelled yet (no VectorMemory unit)"}
	}
	return w.m.VectorMemory.Execute(w, in.in)
}

// execVMEMFast is execVMEM's fast form: the package's own unit runs its
// fast paths; another VectorMemory runs as in execVMEM.
func execVMEMFast(w *Wave, in *instr) error {
	if u, ok := w.m.VectorMemory.(*vmemUnit); ok && in.in != nil {
		return u.executeFast(w, in.in)
	}
	return execVMEM(w, in)
}

// IssueVector records an in-flight vector memory operation for the
// VectorMemory unit: it raises cnt (VM_CNT operations complete in order) by
// inc until latency cycles from now, and returns the operation's id, which
// Complete receives.
func (w *Wave) IssueVector(cnt isa.Counters, inc int, latency uint64) uint64 {
	p := w.pushOp(cnt, uint8(inc), w.clock()+latency)
	p.vec = true
	w.issued(p)
	return p.id
}

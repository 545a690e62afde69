package ref

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/isa"
)

// ExecVMEM hands vector memory instructions to the VectorMemory unit.
func ExecVMEM(w *core.Wave, in *core.Instr) error {
	if w.M.VectorMemory == nil || in.In == nil {
		return &core.ExecError{PC: in.Pc, Op: in.Name, Msg: "vector memory is not modelled yet (no VectorMemory unit)"}
	}
	return w.M.VectorMemory.Execute(w, in.In)
}

// IssueVector records an in-flight vector memory operation for the
// VectorMemory unit: it raises cnt (VM_CNT operations complete in order) by
// inc until latency cycles from now, and returns the operation's id, which
// Complete receives.
func IssueVector(w *core.Wave, cnt isa.Counters, inc int, latency uint64) uint64 {
	p := w.PushOp(cnt, uint8(inc), w.Clock()+latency)
	p.Vec = true
	w.Issued(p)
	return p.Id
}

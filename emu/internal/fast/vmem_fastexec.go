package fast

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// executeFast is the fast form of every vector memory instruction
// (execVMEMFast): the operation's whole-wave run where it has one, the DS
// fast path, fastMem or fastAtomic; what none of them takes goes the
// reference way (Execute's parts), and so does everything under noFast.
func executeFast(u *ref.VMemUnit, w *core.Wave, inst *isa.Inst) error {
	if u.NoFast {
		return u.Execute(w, inst)
	}
	o, err := u.Op(w, inst)
	if err != nil {
		return err
	}
	if !o.WsSet {
		o.Wspec, o.WsSet = WaveSpec(o), true
	}
	if o.Wspec != 0 {
		if o.Last.Quick && quickRun(u, w, o) {
			return nil // the last wave's plain run again (vmem_run.go)
		}
		return execWave(u, w, o)
	}
	switch {
	case o.Fam == ref.FamDS:
		if d := &o.Ds; !o.Gds && d.Kind != ref.DsGWS && d.Kind != ref.DsNop &&
			execDSFast(u, w, o, w.Exec(), u.LdsLimit(w), u.Cfg.LDSLatency) {
			return nil
		}
		return u.ExecDS(w, o)
	case o.Kind == ref.VmCacheOp:
		return u.CacheOp(w)
	}
	c, exec, err := u.IssueMem(w, o)
	if err != nil {
		return err
	}
	if FastOK(o) {
		return fastMem(u, w, o, exec, &c)
	}
	if FastAtomicOK(o) {
		exec = fastAtomic(u, w, o, exec, c.Res)
	}
	return u.MemLanes(w, o, exec, &c)
}

// ExecVMEMFast is execVMEM's fast form: the package's own unit runs its
// fast paths; another VectorMemory runs as in execVMEM.
func ExecVMEMFast(w *core.Wave, in *core.Instr) error {
	if u, ok := w.M.VectorMemory.(*ref.VMemUnit); ok && in.In != nil {
		return executeFast(u, w, in.In)
	}
	return ref.ExecVMEM(w, in)
}

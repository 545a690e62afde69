package emu

import "github.com/wavedbg/wavedbg/isa"

// executeFast is the fast form of every vector memory instruction
// (execVMEMFast): the operation's whole-wave run where it has one, the DS
// fast path, fastMem or fastAtomic; what none of them takes goes the
// reference way (Execute's parts), and so does everything under noFast.
func (u *vmemUnit) executeFast(w *Wave, inst *isa.Inst) error {
	if u.noFast {
		return u.Execute(w, inst)
	}
	o, err := u.op(w, inst)
	if err != nil {
		return err
	}
	if !o.wsSet {
		o.wspec, o.wsSet = waveSpec(o), true
	}
	if o.wspec != 0 {
		if o.last.quick && u.quickRun(w, o) {
			return nil // the last wave's plain run again (vmem_run.go)
		}
		return u.execWave(w, o)
	}
	switch {
	case o.fam == famDS:
		if d := &o.ds; !o.gds && d.kind != dsGWS && d.kind != dsNop &&
			u.execDSFast(w, o, w.exec(), u.ldsLimit(w), u.cfg.LDSLatency) {
			return nil
		}
		return u.execDS(w, o)
	case o.kind == vmCacheOp:
		return u.cacheOp(w)
	}
	c, exec, err := u.issueMem(w, o)
	if err != nil {
		return err
	}
	if fastOK(o) {
		return u.fastMem(w, o, exec, &c)
	}
	if fastAtomicOK(o) {
		exec = u.fastAtomic(w, o, exec, c.res)
	}
	return u.memLanes(w, o, exec, &c)
}

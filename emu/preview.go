package emu

import (
	"github.com/wavedbg/wavedbg/emu/internal/core"
	"github.com/wavedbg/wavedbg/emu/internal/ref"
	"github.com/wavedbg/wavedbg/isa"
)

// Preview works out what the wave's next instruction will do from the
// registers and memory as they are now, without changing anything. ok is
// false when the wave has ended or stopped.
func (m *Machine) Preview() (p Preview, ok bool) {
	w := m.w
	if w.State() != core.Running || w.Pc() >= len(m.Prog.Insts) {
		return Preview{}, false
	}
	in := &w.Code[w.Pc()]
	p = Preview{Index: w.Pc(), PC: in.Pc, Inst: in.In}
	if in.In == nil || in.In.Form == nil {
		return p, true
	}
	info := in.In.Op.Info()
	switch {
	case info.Flags.Has(isa.FlagBarrier):
		p.Barrier = true
	case info.Flags.Has(isa.FlagWaitcnt):
		c, m := isa.WaitcntFields(w.Target, uint16(in.Imm)), isa.WaitcntMax(w.Target)
		p.Wait = &WaitPreview{VM: c.VM, EXP: c.EXP, LGKM: c.LGKM, VMMax: m.VM, EXPMax: m.EXP, LGKMMax: m.LGKM}
	case info.Branch != isa.BranchNone:
		p.Branch = &BranchPreview{Target: uint64(in.Label), Taken: ref.BranchTaken(w, info.Branch), Cond: info.Branch}
	case in.In.Enc == isa.EncSMEM:
		p.Mem, p.Err = ref.PreviewSMEM(w, in)
	case in.In.Enc == isa.EncMUBUF || in.In.Enc == isa.EncMTBUF || in.In.Enc == isa.EncFLAT || in.In.Enc == isa.EncDS:
		u, ok := m.VectorMemory.(*ref.VMemUnit)
		if !ok || u == nil {
			break
		}
		o := u.Compile(in.In)
		if o == nil {
			break
		}
		if o.Fam == ref.FamDS {
			p.Mem, p.Err = u.PreviewDS(w, o)
		} else {
			p.Mem, p.Err = u.PreviewMem(w, o)
		}
	}
	return p, true
}
